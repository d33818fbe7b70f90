//! Tunnels and raw sockets that expose this machine, and builtins that
//! redefine what a name runs (`alias`, `hash -p`, `enable -f`).

use super::system::Verb;
use super::*;

impl Analyzer<'_> {
    /// Tunnels, raw sockets, and builtins that redefine what a name runs.
    pub(super) fn tunnels_and_builtins(&mut self, c: &Cmd<'_>, v: &Verb<'_>) -> Option<bool> {
        let Verb { b, lb, args, .. } = *v;
        match lb {
            "osascript" => None,
            // Synthetic keystrokes and clicks: into Jarvis's own window they
            // answer its questions (an approval) without the user.
            "xdotool" | "ydotool" | "wtype" | "xte" | "dotool" | "xvkbd" | "xsendkey"
            | "dotoolc" | "wlrctl" => {
                if c.words[1..].iter().any(|w| self.mentions_self(w)) {
                    self.block(format!(
                        "{b} sends keystrokes or clicks to Jarvis's own window (its questions answered without the user)"
                    ));
                }
                // A window searched for by a name or class of an
                // authentication dialog (`search --class polkit … key
                // Return`): the keystrokes answer it for the user.
                if lb == "xdotool"
                    && searched_names(&c.args)
                        .any(|n| super::code_markers::names_auth_dialog(&lower(n)))
                {
                    self.block(format!(
                        "{b} sends keystrokes or clicks to an authentication dialog (answered without the user)"
                    ));
                }
                // Typed into the focused window, text from a download or a
                // decoder is run by whatever terminal has the focus: in its
                // words, from its input (`--file -`, `wtype -`, dotool), or
                // from a file this line downloaded (`--file /tmp/p`).
                let all_words = matches!(lb, "wtype" | "xvkbd" | "xsendkey" | "xte" | "wlrctl");
                let typed = c.words[1..]
                    .iter()
                    .skip_while(|w| !all_words && w.text != "type")
                    .find_map(|w| self.code_source(w, c.script));
                let file = super::script_opts::values(c, &["--file", "-f"]);
                let reads_input = lb == "dotool"
                    || lb == "dotoolc"
                    || lb == "xte" && c.args.is_empty()
                    || c.args.iter().any(|a| a == "-")
                    || file.iter().any(|f| f.text == "-");
                let fed = c
                    .src
                    .stdin_from
                    .is_some_and(|i| self.passes_on(i, c.script) != Producer::Other);
                let downloaded = file
                    .iter()
                    .any(|f| f.text != "-" && self.is_tainted(f, c.cwd()));
                if let Some(why) =
                    typed.or((fed && reads_input || downloaded).then_some("download and execute"))
                {
                    self.block(format!(
                        "{why} ({b} types text built from a download or a decoder into the focused window)"
                    ));
                }
                self.ask(format!("{b} types or clicks into the desktop"));
                // What it types is judged as any other program's words are.
                None
            }
            "ngrok" | "chisel" | "frpc" | "frps" | "cloudflared" | "bore" | "lt"
            | "localtunnel" | "pagekite" | "inlets" | "rathole" | "gost" | "ligolo"
            | "ligolo-ng" | "sshuttle" | "tailscale" | "zrok" | "expose" | "telebit" => {
                // `ngrok version`, `cloudflared --version`: nothing opened.
                if matches!(
                    args.iter()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .as_slice(),
                    ["version" | "--version" | "-v" | "-V" | "help" | "--help" | "-h"]
                ) {
                    return Some(true);
                }
                let exposes_shell = args.iter().any(|x| {
                    let l = lower(x);
                    l.starts_with("r:")
                        || l.contains(":22")
                        || l == "22"
                        || l.contains("socks")
                        || l.contains("3389")
                        || l.contains("5900")
                        || l == "tcp"
                        || l.contains("funnel")
                });
                if exposes_shell
                    || matches!(
                        lb,
                        "chisel"
                            | "frpc"
                            | "frps"
                            | "rathole"
                            | "gost"
                            | "ligolo"
                            | "ligolo-ng"
                            | "inlets"
                    )
                {
                    self.block(format!("remote shell risk ({b} exposes this machine to the network through a tunnel)"));
                }
                // `ngrok http file:///`: a folder served to the internet; one
                // outside the project holds more than the project.
                for w in &c.words[1..] {
                    if let Some(path) = w.text.strip_prefix("file://") {
                        let p = self.norm_text(if path.is_empty() { "/" } else { path }, c.cwd());
                        if !self.inside(&p) {
                            self.block(format!(
                                "exfiltration ({b} serves {} to the internet)",
                                shown(&w.text)
                            ));
                        }
                    }
                }
                // What the tunnel exposes: Jarvis's own port (or an admin
                // one) is never for the internet.
                for x in args {
                    let l = lower(x);
                    let port = l
                        .rsplit(':')
                        .next()
                        .map(|p| p.trim_end_matches('/'))
                        .and_then(|p| p.parse::<u16>().ok())
                        .or_else(|| l.parse::<u16>().ok());
                    if port.is_some_and(|p| {
                        crate::policy::url::ADMIN_PORTS.contains(&p)
                            || crate::policy::url::CODE_PORTS.contains(&p)
                    }) {
                        self.block(format!(
                            "{b} would expose an admin port of this machine (Jarvis's own, a debugger's or Docker's) to the internet"
                        ));
                    }
                }
                self.ask(format!("{b} exposes a local port to the internet"));
                Some(false)
            }
            // Servers of this machine's terminal: a shared session (its link
            // is the key), a web terminal, or a private SSH server.
            "tmate" | "upterm" | "sshx" | "teleconsole" | "gotty" | "ttyd" | "wetty"
            | "shellinaboxd" | "shellinabox" | "sshd" | "dropbear" | "websocketd" | "telnetd"
            | "in.telnetd" | "utelnetd" | "x11vnc" | "x0vncserver" | "wayvnc" | "krfb" => {
                // A version or the help, or sshd's configuration test
                // (`sshd -t -f FILE`, `sshd -T -C user=x`): nothing served.
                let info = |x: &str| matches!(x, "-V" | "-v" | "--version" | "-h" | "--help");
                let test_only = if lb == "sshd" {
                    args.iter().any(|x| x == "-t" || x == "-T")
                        && args.iter().all(|x| {
                            matches!(x.as_str(), "-t" | "-T" | "-f" | "-C") || !x.starts_with('-')
                        })
                } else if matches!(lb, "x11vnc" | "x0vncserver" | "wayvnc" | "krfb") {
                    // The desktop served to this machine only.
                    args.iter()
                        .any(|x| matches!(x.as_str(), "-localhost" | "--localhost" | "127.0.0.1"))
                        || !args.is_empty() && args.iter().all(|x| info(x))
                } else if lb == "websocketd" {
                    // It serves the program it is given: a shell is a shell.
                    !args.iter().any(|x| {
                        let b = program_name(x);
                        is_shell(&b) || tables::interpreter(&b).is_some()
                    })
                } else {
                    !args.is_empty() && args.iter().all(|x| info(x))
                };
                if !test_only {
                    self.block(format!(
                        "remote shell ({b} serves this machine's terminal to whoever has the address or key)"
                    ));
                }
                self.ask(format!("runs {b}"));
                Some(false)
            }
            "ztcp" | "zsocket" => {
                self.block(format!(
                    "opens a raw network connection from the shell ({b}): remote shell risk"
                ));
                Some(false)
            }
            "zmodload" if v.joined.contains("zsh/net") => {
                self.block("loads zsh's socket modules (remote shell risk)");
                Some(false)
            }
            "alias" => {
                let mut harmless = true;
                for w in &c.words[1..] {
                    harmless &= !w.dynamic;
                    if let Some((name, body)) = w.text.split_once('=') {
                        self.aliases.push((name.to_string(), body.to_string()));
                        let first = base_name(body.split_whitespace().next().unwrap_or(""));
                        let familiar = |n: &str| {
                            known_program(n)
                                || tables::read_only(n).is_some()
                                || tables::KNOWN_TOOLS.contains(&n)
                        };
                        if !first.is_empty() && first != name && familiar(name) && !familiar(&first)
                        {
                            self.block(format!(
                                "alias makes `{name}` run {first}, which hides what runs"
                            ));
                        }
                        // One that changes this shell (`cd ..`, `CDPATH=..`,
                        // `set --`) changes what follows its use.
                        const SHELL_STATE: &[&str] = &[
                            "cd",
                            "pushd",
                            "popd",
                            "export",
                            "set",
                            "unset",
                            "shopt",
                            "source",
                            ".",
                            "eval",
                            "exec",
                            "read",
                            "declare",
                            "typeset",
                            "local",
                            "alias",
                            "unalias",
                            "hash",
                            "trap",
                            "builtin",
                            "enable",
                            "readonly",
                            "mapfile",
                            "readarray",
                            "let",
                            "shift",
                            "getopts",
                            "printf",
                            "command",
                        ];
                        let assigns = body
                            .split_whitespace()
                            .next()
                            .is_some_and(|t| t.contains('='));
                        let one_command = !body.contains([';', '&', '|', '\n', '`', '(']);
                        harmless &=
                            one_command && !assigns && !SHELL_STATE.contains(&first.as_str());
                        self.renamed.push((name.to_string(), first));
                        // Judged as this shell runs it where it is used
                        // (`alias py=python3` starts no shell escape).
                        harmless &= self.judged(|a| a.script(body, &[], c.depth)) == Verdict::Allow;
                    }
                }
                // `alias`, `alias -p`, `alias ll`: prints what is defined.
                if c.args.iter().all(|a| a == "-p" || !a.contains('=')) {
                    return Some(true);
                }
                // An alias lives in this shell and is followed where it is
                // used: defining one whose text is read-only changes nothing.
                if !harmless {
                    self.ask("defines an alias");
                }
                Some(harmless)
            }
            "hash" if v.a("-p") => {
                // `hash -p /bin/rm ls`: from now on `ls` runs rm.
                let ops: Vec<&String> = args.iter().filter(|x| !x.starts_with('-')).collect();
                if let [path, name, ..] = ops.as_slice() {
                    if base_name(path) != **name {
                        self.block(format!(
                            "hash -p makes `{name}` run {path}, which hides what runs"
                        ));
                    }
                    self.renamed.push(((*name).clone(), base_name(path)));
                }
                self.ask("hash -p rebinds a command name");
                Some(false)
            }
            "enable" if v.a("-f") => {
                self.block("loads a shell builtin from a shared library");
                Some(false)
            }
            _ => None,
        }
    }
}

/// The names, classes and patterns an `xdotool search` looks windows up
/// by: the words after `search` up to the first command it chains.
fn searched_names(args: &[String]) -> impl Iterator<Item = &String> {
    args.iter()
        .skip_while(|a| *a != "search")
        .skip(1)
        .take_while(|a| {
            !matches!(
                a.as_str(),
                "windowactivate"
                    | "windowfocus"
                    | "key"
                    | "keydown"
                    | "keyup"
                    | "type"
                    | "click"
                    | "mousemove"
                    | "mousedown"
                    | "mouseup"
                    | "windowraise"
                    | "windowmap"
                    | "windowsize"
                    | "windowmove"
                    | "windowkill"
                    | "windowclose"
                    | "exec"
            )
        })
        .filter(|a| !a.starts_with('-'))
}
