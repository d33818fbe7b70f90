//! Programs that talk to the network: what they send, where, and whether
//! they hand a shell to someone.

use super::*;

impl Analyzer<'_> {
    /// `None` when `c` is not a network program.
    pub(super) fn net_program(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let lb = c.lb.as_str();
        match lb {
            "curl" | "wget" | "wget2" | "http" | "https" | "xh" | "xhs" | "aria2c"
            | "invoke-webrequest" | "iwr" | "invoke-restmethod" | "irm" | "fetch" | "lynx"
            | "w3m" => {
                self.fetcher(c);
                Some(false)
            }
            "dig" | "nslookup" | "host" | "ping" | "ping6" | "traceroute" | "tracepath" | "mtr"
            | "whois" | "drill" => {
                // Its version or help: no query.
                if !c.args.is_empty()
                    && c.args
                        .iter()
                        .all(|a| matches!(a.as_str(), "-v" | "-V" | "-h" | "--version" | "--help"))
                {
                    return Some(true);
                }
                // A name built by an encoder (`$(head -c 30 f | xxd -p).x.h`):
                // data spelled as DNS labels, sent to whoever answers.
                let encoder = |k: &Command| {
                    // (Past `env`, `timeout`, `nice`…: the encoder.)
                    peeled(&k.argv).first().is_some_and(|p| {
                        matches!(
                            program_name(&p.text).as_str(),
                            "xxd" | "base64" | "base32" | "basenc" | "od" | "hexdump" | "hd"
                        )
                    })
                };
                // The command behind a name's substitution or `read`, and
                // what feeds it through pipes (`… | base64 | fold | while
                // read -r c; do dig "$c.h"; done`).
                let fed_by_encoder = |start: usize| {
                    let mut k = Some(start);
                    let mut hops = 0;
                    while let Some(i) = k.filter(|_| hops < 16) {
                        let Some(p) = c.script.commands.get(i) else {
                            break;
                        };
                        if encoder(p) {
                            return true;
                        }
                        k = p.stdin_from;
                        hops += 1;
                    }
                    false
                };
                let encoded = c
                    .words
                    .iter()
                    .any(|w| w.subs.iter().any(|&k| fed_by_encoder(k)));
                if encoded {
                    self.block(format!(
                        "exfiltration ({} carries encoded data out in the names it looks up)",
                        c.base
                    ));
                }
                if c.words.iter().any(|w| !w.subs.is_empty() || w.dynamic) {
                    self.ask(format!(
                        "{} with a computed name (DNS can carry data out)",
                        c.base
                    ));
                } else {
                    self.ask(format!("{} queries the network", c.base));
                }
                Some(false)
            }
            "nc" | "ncat" | "netcat" | "socat" | "telnet" | "websocat" => {
                let joined = lower(&c.args.join(" "));
                let runs = if c.lb == "socat" {
                    socat_runs_for_network(&c.args)
                } else {
                    joined.contains("exec:")
                        || joined.contains("system:")
                        || joined.contains("pty,")
                        // websocat's specifiers that run a program.
                        || c.lb == "websocat"
                            && c.args.iter().any(|a| {
                                // An overlay may come first (`lined:sh-c:…`).
                                lower(a)
                                    .split(':')
                                    .any(|k| matches!(k, "sh-c" | "cmd" | "exec"))
                            })
                };
                let exec = c.args.iter().position(|x| {
                    matches!(
                        x.as_str(),
                        "-e" | "-c" | "--exec" | "--sh-exec" | "--lua-exec"
                    )
                });
                // (`--exec=/bin/bash`, `-e/bin/sh`: the same, glued.)
                let exec_glued = c.args.iter().any(|x| {
                    ["--exec", "--sh-exec", "--lua-exec"]
                        .iter()
                        .any(|f| long_value(x, f).is_some())
                        || x.len() > 2
                            && (x.starts_with("-e") || x.starts_with("-c"))
                            && !x.starts_with("--")
                });
                // `--sh-exec 'cat docs/index.html'`: a fixed file printed to
                // each connection (its input never read) is a file served.
                let served = exec
                    .filter(|&i| c.args[i] != "--lua-exec")
                    .and_then(|i| c.words.get(i + 2))
                    .filter(|v| !v.dynamic && prints_fixed_files(&v.text));
                if let Some(v) = served {
                    let v = v.clone();
                    self.block_only(|a| a.script(&v.text, &[], c.depth + 1));
                    self.ask(format!("{} serves the output of `{}`", c.base, v.text));
                } else if exec.is_some() || exec_glued || runs {
                    self.block(format!(
                        "remote shell ({} runs a program for the network)",
                        c.base
                    ));
                }
                for r in c.src.redirects.iter().filter(|r| r.op == "<") {
                    let p = self.norm(&r.target, c.cwd());
                    if paths::secret_file_name(&p) {
                        self.block(format!(
                            "exfiltration (uploads a secrets file: {})",
                            shown(&r.target.text)
                        ));
                    }
                    self.ask(format!("{} sends a file over the network", c.base));
                }
                self.socket_ends(c);
                for x in c.args.iter().filter(|x| x.contains("://")) {
                    self.url(x);
                }
                self.ask(format!("{} opens a network connection", c.base));
                Some(false)
            }
            "ssh" | "autossh" => {
                self.ssh(c);
                Some(false)
            }
            "scp" | "sftp" => {
                for (i, a) in c.args.iter().enumerate() {
                    if a == "-S"
                        && let Some(p) = c.arg_word(i + 1).cloned()
                    {
                        self.shell_code(&p, &[], c.script, c.depth);
                    }
                    if a == "-o"
                        && let Some(opt) = c.args.get(i + 1)
                    {
                        self.ssh_option(opt, c);
                    }
                    if let Some(opt) = a.strip_prefix("-o").filter(|o| !o.is_empty()) {
                        self.ssh_option(opt, c);
                    }
                }
                let ops: Vec<&Word> = c.words[1..]
                    .iter()
                    .filter(|w| !w.text.starts_with('-'))
                    .collect();
                let recursive = c.short('r');
                if let Some((last, sources)) = ops.split_last() {
                    let sends = last.text.contains(':');
                    for s in sources {
                        if sends && !s.text.contains(':') && paths::secret_file_name(&s.text) {
                            self.block(format!(
                                "exfiltration (copies a secrets file to another machine: {})",
                                shown(&s.text)
                            ));
                        }
                        if !s.text.contains(':') {
                            if sends && recursive {
                                self.read_tree(s, c.cwd(), &c.base);
                            } else {
                                self.read_path(s, c.cwd());
                            }
                        }
                    }
                    if !last.text.contains(':') {
                        // A tree from another machine lands as an archive's would.
                        if recursive && sources.iter().any(|s| s.text.contains(':')) {
                            self.extract_into_from(last, None, c.cwd(), &c.base);
                        }
                        self.write_path(last, c.cwd(), &c.base);
                    }
                }
                self.ask(format!("{} copies over the network", c.base));
                Some(false)
            }
            _ => None,
        }
    }

    /// curl, wget and friends: uploads and their sources, URLs, sockets.
    fn fetcher(&mut self, c: &Cmd<'_>) {
        let cwd = c.cwd();
        let mut sends_file = false;
        for (i, w) in c.words.iter().enumerate().skip(1) {
            let x = w.text.as_str();
            let prev = c.words.get(i - 1).map(|p| p.text.as_str()).unwrap_or("");
            // Upload sources: `-d @F`, `-F f=@F`, `-T F`, `--post-file=F`, httpie `@F`.
            let upload = x
                .strip_prefix('@')
                .or_else(|| x.split_once("=@").map(|(_, f)| f))
                .or_else(|| x.split_once("=<").map(|(_, f)| f))
                // `--data-urlencode name@F`: the content of F, url-encoded.
                .or_else(|| {
                    let v = x
                        .strip_prefix("--data-urlencode=")
                        .or((prev == "--data-urlencode").then_some(x))?;
                    v.split_once('@')
                        .filter(|(n, _)| !n.contains('='))
                        .map(|(_, f)| f)
                })
                .or_else(|| {
                    x.strip_prefix("--post-file=")
                        .or_else(|| x.strip_prefix("--body-file="))
                })
                .or_else(|| {
                    matches!(
                        prev,
                        "-T" | "--upload-file"
                            | "--post-file"
                            | "--body-file"
                            | "-InFile"
                            | "-infile"
                    )
                    .then_some(x)
                });
            // (`-F 'f=@F;type=text/plain'`: the file's name ends at `;`.)
            let upload = upload.map(|f| f.split(';').next().unwrap_or(f));
            if let Some(f) = upload.filter(|f| *f != "-" && !f.is_empty()) {
                sends_file = true;
                let fw = Word {
                    text: f.to_string(),
                    ..w.clone()
                };
                if fw.dynamic {
                    self.dynamic_secret(&fw, cwd);
                    if let Some(place) = self.place_outside(c.script, cwd) {
                        self.block(format!(
                            "exfiltration (uploads files whose names are found at run time, and the line looks in {place})"
                        ));
                    }
                } else {
                    let p = self.norm(&fw, cwd);
                    if let Some(why) = paths::credential_normalized(&p, f) {
                        self.block(format!("exfiltration (uploads a secret: {why})"));
                    } else if self.app_state(&p) {
                        self.block(format!("uploads Jarvis's own state ({})", shown(f)));
                    } else if paths::secret_file_name(&p) {
                        self.block(format!(
                            "exfiltration (uploads a secrets file: {})",
                            shown(f)
                        ));
                    } else if paths::contains_credentials(&p)
                        || paths::catastrophic_normalized(&p) && !self.inside(&p)
                    {
                        self.block(format!("uploads everything below {}", shown(f)));
                    } else {
                        self.read_path(&fw, cwd);
                    }
                }
            }
            if x == "--unix-socket" || x == "--abstract-unix-socket" {
                let sock = c
                    .words
                    .get(i + 1)
                    .map(|s| lower(&s.text))
                    .unwrap_or_default();
                if sock.contains("docker.sock")
                    || sock.contains("containerd")
                    || sock.contains("podman")
                    || sock.contains("/run/") && sock.contains(".sock")
                {
                    self.block("sandbox escape (talks to a container engine's socket)");
                }
                self.ask(format!("{} talks to a local socket", c.base));
            }
            let l = lower(x);
            if l.starts_with("file://") {
                let local = Word {
                    text: x[7..].to_string(),
                    ..w.clone()
                };
                self.read_path(&local, cwd);
            }
            if l.starts_with("http://") || l.starts_with("https://") {
                self.url(x);
            } else if let Some(to) = connection_override(&c.words, i) {
                // `--connect-to a:80:127.0.0.1:7420`, `--resolve a:80:127.0.0.1`:
                // the connection goes where the override says.
                self.url(&to);
            } else if scheme_less_address(&l) {
                // curl and wget take `host:port/path` as http.
                self.url(&format!("http://{x}"));
            }
        }
        self.fetcher_config(c);
        self.body_for_local_service(c);
        // `--location-trusted` sends the credentials on to whatever host a
        // redirect names: where they end up is the server's choice.
        if c.args.iter().any(|a| a == "--location-trusted") {
            let signed = c.args.iter().enumerate().any(|(i, a)| {
                let l = lower(a);
                matches!(
                    a.as_str(),
                    "-u" | "--user" | "-n" | "--netrc" | "-b" | "--cookie"
                ) || l.starts_with("--user=")
                    || l.starts_with("--oauth2-bearer")
                    || (l.contains("authorization:")
                        || l.contains("cookie:")
                        || l.contains("private-token:"))
                        && c.args
                            .get(i.wrapping_sub(1))
                            .is_some_and(|p| p == "-H" || p == "--header")
            });
            if signed {
                self.block(format!(
                    "{} --location-trusted hands its credentials to any host a redirect names",
                    c.base
                ));
            }
        }
        if sends_file {
            self.ask(format!("{} sends a file over the network", c.base));
        }
        self.ask(format!("{} talks to the network", c.base));
    }

    /// A folder of the user's outside the working directory that some
    /// command of the script names (`inotifywait ~/Downloads`, `find ~`).
    fn place_outside(&self, script: &Script, cwd: Option<&str>) -> Option<String> {
        script
            .commands
            .iter()
            .flat_map(|k| k.argv.iter().skip(1))
            .find_map(|w| {
                if w.dynamic
                    || !(w.text.starts_with('~') || w.text.starts_with(HOME) || w.text == "/")
                {
                    return None;
                }
                let p = self.norm(w, cwd);
                (!self.inside(&p)).then(|| shown(&w.text))
            })
    }

    /// Options read from a file (`curl -K F`, `wget --config=F`) or given as
    /// startup commands (`wget -e post_file=F`) are judged as the options
    /// they are; a config the analyser cannot read asks.
    fn fetcher_config(&mut self, c: &Cmd<'_>) {
        let mut texts = Vec::new();
        for (i, w) in c.words.iter().enumerate().skip(1) {
            let x = w.text.as_str();
            let next = || c.words.get(i + 1);
            // `-sK FILE`, `-sKFILE`: curl's K among other short options.
            let clustered =
                c.lb.starts_with("curl")
                    .then(|| short_flags(x).and_then(curl_k_value))
                    .flatten();
            let file = match x {
                "-K" | "--config" => next().cloned(),
                _ if clustered == Some("") => next().cloned(),
                _ => x.strip_prefix("--config=").or(clustered).map(|f| Word {
                    text: f.to_string(),
                    ..w.clone()
                }),
            };
            if matches!(x, "-e" | "--execute") && c.lb.starts_with("wget") {
                texts.extend(next().map(|v| v.text.clone()));
            }
            let Some(f) = file else { continue };
            let text = if f.procsub {
                f.subs
                    .iter()
                    .filter_map(|&k| c.script.commands.get(k))
                    .find_map(super::super::eval::printed)
            } else {
                self.written_text(&f, c.cwd())
            };
            match text {
                Some(t) => texts.push(t),
                None if f.procsub || f.dynamic || f.text == "-" => {
                    self.ask(format!(
                        "{} reads its options from text the analyser cannot read",
                        c.base
                    ));
                }
                None => {
                    self.read_path(&f, c.cwd());
                }
            }
        }
        for t in texts {
            let mut words = vec![c.words[0].clone()];
            for line in t.lines().map(str::trim) {
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let (k, v) = line
                    .split_once(['=', ':', ' ', '\t'])
                    .map_or((line, ""), |(k, v)| (k.trim(), v.trim()));
                let v = v.trim_start_matches(['=', ':']).trim().trim_matches('"');
                let k = k.trim_start_matches('-').replace('_', "-");
                if k.len() == 1 {
                    words.push(Word::lit(format!("-{k}")));
                } else if k == "url" {
                    words.push(Word::lit(v));
                    continue;
                } else {
                    words.push(Word::lit(format!("--{k}")));
                }
                // Config readers expand `~` in paths themselves.
                let v = match (v.strip_prefix("~/"), &self.env.home) {
                    (Some(rest), Some(h)) => format!("{h}/{rest}"),
                    _ => v.to_string(),
                };
                if !v.is_empty() {
                    words.push(Word::lit(v));
                }
            }
            self.run_words(words, c.src, c.script, c.depth + 1);
        }
    }

    /// Where nc, socat and telnet connect, and what socat reads or writes
    /// at its ends (`FILE:~/.aws/credentials TCP:host:port`).
    fn socket_ends(&mut self, c: &Cmd<'_>) {
        let cwd = c.cwd();
        for (i, a) in c.args.iter().enumerate() {
            // `host port`, as nc and telnet take them.
            if let Some(port) = c.args.get(i + 1)
                && !a.starts_with('-')
                && !a.contains(':')
                && !port.is_empty()
                && port.bytes().all(|b| b.is_ascii_digit())
            {
                self.url(&format!("http://{a}:{port}/"));
            }
            let Some((kind, rest)) = a.split_once(':') else {
                continue;
            };
            let rest = rest.split(',').next().unwrap_or("");
            match lower(kind).as_str() {
                "file" | "open" | "gopen" | "create" | "pipe" | "unix-connect" | "unix-client" => {
                    let w = Word::lit(rest.to_string());
                    let p = self.norm(&w, cwd);
                    if let Some(why) = paths::credential_normalized(&p, rest) {
                        self.block(format!("{} sends a secret over the network: {why}", c.base));
                    } else if self.app_state(&p) {
                        self.block(format!(
                            "{} reaches Jarvis's own state ({})",
                            c.base,
                            shown(rest)
                        ));
                    } else if matches!(lower(kind).as_str(), "create") {
                        self.write_path(&w, cwd, &c.base);
                    } else {
                        self.read_path(&w, cwd);
                    }
                }
                "tcp" | "tcp4" | "tcp6" | "tcp-connect" | "tcp4-connect" | "tcp6-connect"
                | "udp" | "udp4" | "udp6" | "udp-connect" | "openssl" | "openssl-connect"
                | "ssl" => self.url(&format!("http://{rest}/")),
                _ => {}
            }
        }
    }

    /// A URL given to a network program: cloud metadata and Jarvis's own
    /// control port are never a command's business.
    pub(super) fn url(&mut self, raw: &str) {
        // WebSockets start as HTTP to the same host and port.
        let l = lower(raw);
        let http = if let Some(rest) = l.strip_prefix("ws://") {
            format!("http://{rest}")
        } else if let Some(rest) = l.strip_prefix("wss://") {
            format!("https://{rest}")
        } else {
            raw.to_string()
        };
        let d = crate::policy::url::check_url(&http);
        let r = lower(&d.reason);
        if d.verdict == Verdict::Block
            && (r.contains("metadata") || r.contains("link-local") || r.contains("admin endpoint"))
        {
            self.block(format!("{raw}: {}", d.reason));
        }
    }
}

impl Analyzer<'_> {
    /// A shared library a program is told to load runs its code in that
    /// program: one from outside the system's library directories blocks.
    pub(super) fn loaded_library(&mut self, lib: &Word, who: &str) {
        let p = self.norm(lib, None);
        let system = ["/usr/lib", "/lib", "/usr/local/lib", "/usr/lib64", "/lib64"]
            .iter()
            .any(|d| p.starts_with(&format!("{d}/")));
        if lib.dynamic || !system {
            self.block(format!(
                "{who} loads code from a library outside the system's ({})",
                shown(&lib.text)
            ));
        }
    }
}

/// ssh's options that take a value in the next word.
pub(super) const SSH_VALUED: &[&str] = &[
    "-i", "-F", "-l", "-p", "-L", "-D", "-J", "-W", "-b", "-c", "-E", "-e", "-m", "-O", "-Q", "-S",
    "-w", "-B", "-I", "-R",
];

impl Analyzer<'_> {
    /// A library loaded by a program that loads extensions for a living
    /// (sqlite3's `.load`): the project's own asks; one downloaded in this
    /// line, or from anywhere else but the system's directories, blocks.
    pub(super) fn loaded_here(&mut self, lib: &Word, cwd: Option<&str>, who: &str) {
        // SQLite adds the platform's suffix to a name without one.
        let suffixed = Word {
            text: format!("{}.so", lib.text),
            ..lib.clone()
        };
        if self.is_tainted(lib, cwd) || self.is_tainted(&suffixed, cwd) {
            self.block(format!(
                "download and execute ({who} loads a library this line downloaded or decoded)"
            ));
        } else if lib.dynamic || !self.inside(&self.norm(lib, cwd)) {
            self.loaded_library(lib, who);
        }
    }
}

/// socat joins two addresses: a program (`EXEC:`, `SYSTEM:`) on one side
/// and anything but this terminal or a pseudo-terminal on the other (a
/// socket, a serial line, a fifo) is a shell served to whoever is there.
fn socat_runs_for_network(args: &[String]) -> bool {
    let kind = |a: &str| {
        a.split([':', ','])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase()
    };
    let full: Vec<String> = args
        .iter()
        .filter(|a| !a.starts_with('-') || a.as_str() == "-")
        .map(|a| a.to_ascii_lowercase())
        .collect();
    let addrs: Vec<String> = full.iter().map(|a| kind(a)).collect();
    let runs = addrs
        .iter()
        .any(|k| matches!(k.as_str(), "exec" | "system"));
    // Anything but this terminal, a pseudo-terminal or a plain file at the
    // other end (a socket, a serial line, a device) gets the program's
    // input and output: whoever is there drives it.
    // (A fifo or a file another process writes drives it as well as a
    // socket does; the program's own address is not the other end.)
    let network = full.iter().zip(&addrs).any(|(a, k)| {
        !matches!(
            k.as_str(),
            "exec" | "system" | "-" | "stdio" | "stdin" | "stdout" | "stderr" | "readline" | "pty"
        ) && a != "/dev/null"
    });
    runs && (network || addrs.len() < 2)
}

/// The address curl connects to for `args[i]`, when it is the value of
/// `--connect-to H1:P1:H2:P2` (`H2:P2`) or `--resolve H:P:ADDR` (`ADDR:P`).
fn connection_override(words: &[Word], i: usize) -> Option<String> {
    let x = &words[i].text;
    let (flag, value) = match x.split_once('=') {
        Some((f, v)) if matches!(f, "--connect-to" | "--resolve") => (f, v),
        _ => (
            words.get(i.wrapping_sub(1)).map(|w| w.text.as_str())?,
            x.as_str(),
        ),
    };
    let parts: Vec<&str> = value.split(':').collect();
    match (flag, parts.as_slice()) {
        ("--connect-to", [_, p1, h2, p2]) => {
            let port = if p2.is_empty() { p1 } else { p2 };
            Some(format!("http://{}:{port}/", h2.trim_matches(['[', ']'])))
        }
        ("--resolve", [_, port, addr, ..]) => {
            Some(format!("http://{}:{port}/", addr.trim_matches(['[', ']'])))
        }
        _ => None,
    }
}

/// A bare `host[:port][/path]` a fetcher reads as an http URL
/// (`localhost:7420/api`, `127.0.0.1:8080`, `0x7f000001:7420`).
fn scheme_less_address(l: &str) -> bool {
    if l.starts_with(['-', '/', '.', '@', '{', '[', '~', '$']) || l.contains(['=', ' ', '"', '\''])
    {
        return false;
    }
    let host_port = l.split('/').next().unwrap_or("");
    let (host, port) = host_port.rsplit_once(':').unwrap_or((host_port, ""));
    let port_ok = port.is_empty() || port.chars().all(|ch| ch.is_ascii_digit());
    let hostish = host == "localhost"
        || host.starts_with("0x")
        || host.split('.').count() >= 2
            && host
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ".-".contains(ch));
    port_ok && hostish && (!port.is_empty() || l.contains('/'))
}

/// In a bundle of curl's short options (`sSK`, `sKcfg`), what follows `K`:
/// the config file's name, or empty when it is the next word. None when a
/// letter before it takes the rest as its own value (`-oK` writes `K`).
fn curl_k_value(bundle: &str) -> Option<&str> {
    const VALUED: &str = "oudHXeAbcTFxwmryYzEQCtPUD";
    for (i, ch) in bundle.char_indices() {
        if ch == 'K' {
            return Some(&bundle[i + 1..]);
        }
        if VALUED.contains(ch) {
            return None;
        }
    }
    None
}

/// A command line that prints fixed files or text and reads no input
/// (`cat docs/index.html`, `echo ok`): not a shell for whoever connects.
fn prints_fixed_files(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((first, rest)) = words.split_first() else {
        return false;
    };
    let plain = |w: &&str| !w.contains(['$', '`', '|', ';', '&', '<', '>', '(', ')']);
    let files: Vec<&&str> = rest.iter().filter(|w| !w.starts_with('-')).collect();
    words.iter().all(plain)
        && match *first {
            "echo" | "printf" | "date" => true,
            "cat" | "head" | "tail" => !files.is_empty() && files.iter().all(|w| **w != "-"),
            _ => false,
        }
}

impl Analyzer<'_> {
    /// A body posted to a service on this machine or the local network
    /// (Node-RED's flows, a notebook's API, Home Assistant's services):
    /// the service runs outside the sandbox, so a string it is handed as a
    /// command (`"command": "bash -i >& /dev/tcp/…"`) is judged as run.
    /// Other strings are data (an issue's text quoting `curl … | sh`).
    fn body_for_local_service(&mut self, c: &Cmd<'_>) {
        let local = c.args.iter().any(|a| {
            let rest = match a.split_once("://") {
                Some((scheme, rest))
                    if matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") =>
                {
                    rest
                }
                Some(_) => return false,
                None if scheme_less_address(&lower(a)) => a.as_str(),
                None => return false,
            };
            let host = super::project_out::address_host(rest);
            let host = host.trim_end_matches('.');
            super::project_out::local_host(host)
                || host.starts_with("127.")
                || matches!(host, "0.0.0.0" | "0" | "::" | "::1")
        });
        if !local {
            return;
        }
        const BODY: &[&str] = &[
            "-d",
            "--data",
            "--data-raw",
            "--data-binary",
            "--data-ascii",
            "--data-urlencode",
            "--json",
            "-F",
            "--form",
            "--form-string",
            "--body-data",
            "--post-data",
        ];
        let bodies: Vec<String> = c
            .args
            .iter()
            .enumerate()
            .filter_map(|(i, a)| {
                if BODY.contains(&a.as_str()) {
                    return c.args.get(i + 1).cloned();
                }
                // (`-d'{…}'`: the body glued on.)
                if let Some(v) = a
                    .strip_prefix("-d")
                    .filter(|v| !v.is_empty() && !a.starts_with("--"))
                {
                    return Some(v.to_string());
                }
                let (k, v) = a.split_once('=')?;
                BODY.contains(&k).then(|| v.to_string())
            })
            .filter(|b| !b.starts_with('@'))
            .collect();
        let depth = c.depth + 1;
        for body in bodies {
            for code in command_strings(&body) {
                let guessed = std::mem::replace(&mut self.guessed, true);
                self.block_only(|a| a.script(&code, &[], depth));
                self.guessed = guessed;
            }
        }
    }
}

/// The strings a body hands over as commands: JSON values under a key
/// named for one (`command`, `cmd`, `exec`, `script`, `*_command`), or a
/// form field so named (`cmd=…`).
fn command_strings(body: &str) -> Vec<String> {
    fn commandish(key: &str) -> bool {
        let k = key.to_ascii_lowercase();
        matches!(
            k.as_str(),
            "command"
                | "cmd"
                | "exec"
                | "script"
                | "shell"
                | "run"
                | "code"
                | "func"
                | "commands"
                | "args"
                | "argv"
        ) || k.ends_with("command")
            || k.ends_with("_cmd")
            || k.ends_with("script")
    }
    fn walk(v: &serde_json::Value, key: Option<&str>, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) if key.is_some_and(commandish) => out.push(s.clone()),
            // `"Args": ["sh", "-c", "…"]`: one command line, word by word.
            serde_json::Value::Array(items)
                if key.is_some_and(commandish)
                    && items.iter().all(serde_json::Value::is_string) =>
            {
                let words: Vec<String> = items
                    .iter()
                    .filter_map(serde_json::Value::as_str)
                    .map(crate::policy::shell::quote)
                    .collect();
                out.push(words.join(" "));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|x| walk(x, key, out)),
            serde_json::Value::Object(map) => {
                for (k, x) in map {
                    walk(x, Some(k), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    match serde_json::from_str::<serde_json::Value>(body) {
        Ok(v) => walk(&v, None, &mut out),
        Err(_) => {
            // `cmd=…` form fields, `&`-joined.
            for pair in body.split('&') {
                if let Some((k, v)) = pair.split_once('=')
                    && commandish(k)
                {
                    out.push(v.to_string());
                }
            }
        }
    }
    out
}
