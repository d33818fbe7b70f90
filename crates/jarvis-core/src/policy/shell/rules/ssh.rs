//! ssh: what runs on the other machine (judged for what destroys or
//! steals), the options that run programs here, forwards that lend keys
//! or open ports.

use super::net::SSH_VALUED;
use super::*;

impl Analyzer<'_> {
    pub(super) fn ssh(&mut self, c: &Cmd<'_>) {
        let args = &c.args;
        // `-g` with `-L`: the forwarded port listens for the whole network.
        let gateway = args.iter().any(|a| {
            short_flags(a).is_some_and(|b| {
                b.chars()
                    .take_while(|ch| !"iFlpLDJWbcEemOQSwBIRo".contains(*ch))
                    .any(|ch| ch == 'g')
            })
        });
        let local_forward = args.iter().any(|a| {
            a == "-L" || a.starts_with("-L") || short_flags(a).is_some_and(|b| b.ends_with('L'))
        });
        if gateway && local_forward {
            self.block(
                "exposes a forwarded port to the whole network (ssh -g -L): remote shell risk",
            );
        }
        let mut i = 0;
        let mut host_at = None;
        while i < args.len() {
            let a = args[i].as_str();
            if a == "-R"
                || (a.starts_with("-R") && a.len() > 2)
                || (short_has(a, 'R') && a.len() <= 4)
            {
                self.block("remote shell (ssh -R opens this machine to the other end through a reverse tunnel)");
            }
            // `-o OPT`, `-oOPT`, and `-o` at the end of a bundle (`-vo OPT`,
            // `-voOPT`).
            if let Some(letters) = a.strip_prefix('-').filter(|l| !l.starts_with('-'))
                && let Some(at) = letters.find('o')
                && letters[..at]
                    .chars()
                    .all(|ch| "46AaCfGgKkMNnqsTtVvXxYy".contains(ch))
            {
                let rest = &letters[at + 1..];
                if rest.is_empty() {
                    if let Some(opt) = args.get(i + 1) {
                        self.ssh_option(opt, c);
                    }
                    i += 2;
                } else {
                    self.ssh_option(rest, c);
                    i += 1;
                }
                if letters[..at].contains('A') {
                    self.block(AGENT_FORWARDED);
                }
                continue;
            }
            if forwards_agent(a) {
                self.block(AGENT_FORWARDED);
            }
            if a == "-I"
                && let Some(lib) = c.arg_word(i + 1).cloned()
            {
                self.loaded_library(&lib, &c.base);
            }
            if a.starts_with('-') {
                // Options with a value.
                if SSH_VALUED.contains(&a) {
                    i += 1;
                }
                i += 1;
                continue;
            }
            host_at = Some(i);
            break;
        }
        // ssh reads options after the host too, up to the command
        // (`ssh host -A`, `ssh host -o ForwardAgent=yes cmd`).
        let mut command_at = host_at.map(|h| h + 1);
        while let Some(k) = command_at {
            let Some(a) = args.get(k).map(String::as_str) else {
                break;
            };
            if !a.starts_with('-') {
                break;
            }
            if forwards_agent(a) {
                self.block(AGENT_FORWARDED);
            }
            if a == "-o" {
                if let Some(opt) = args.get(k + 1) {
                    self.ssh_option(opt, c);
                }
                command_at = Some(k + 2);
            } else if let Some(opt) = a.strip_prefix("-o") {
                self.ssh_option(opt, c);
                command_at = Some(k + 1);
            } else if SSH_VALUED.contains(&a) {
                command_at = Some(k + 2);
            } else {
                command_at = Some(k + 1);
            }
        }
        if let Some(h) = command_at.map(|k| k.saturating_sub(1)).or(host_at) {
            let remote: Vec<Word> = c.words[(h + 2).min(c.words.len())..].to_vec();
            if !remote.is_empty() {
                // What it runs over there still counts when it destroys or steals.
                let text = Word {
                    text: Word::join(&remote),
                    dynamic: remote.iter().any(|w| w.dynamic),
                    subs: remote.iter().flat_map(|w| w.subs.clone()).collect(),
                    ..Default::default()
                };
                // To this machine by another name it is not remote at all:
                // any word before the command naming it (`-o HostName=…`).
                let here = c.words[1..(h + 2).min(c.words.len())].iter().any(|w| {
                    let t = w.text.as_str();
                    let t = t
                        .strip_prefix("-oHostName=")
                        .or_else(|| t.strip_prefix("HostName="))
                        .or_else(|| t.strip_prefix("Hostname="))
                        .unwrap_or(t);
                    w.dynamic && t.contains("$(")
                        || !t.starts_with('-') && super::project_out::is_loopback(t)
                });
                self.remote_script(&text, c, !here);
                self.ask("ssh runs a command on another machine");
            }
        }
        self.ask("ssh to another machine");
    }

    /// `-o ProxyCommand=…`, `-o LocalCommand=…`: commands ssh runs here.
    pub(super) fn ssh_option(&mut self, opt: &str, c: &Cmd<'_>) {
        // ssh skips leading blanks and splits at `=` or any blank.
        let opt = opt.trim_start();
        let (k, v) = opt
            .split_once(|ch: char| ch == '=' || ch.is_whitespace())
            .unwrap_or((opt, ""));
        let k = lower(k.trim());
        if matches!(
            k.as_str(),
            "proxycommand" | "localcommand" | "knownhostscommand" | "remotecommand"
        ) {
            // ssh hands the value to the user's shell, quotes and all.
            let code = Word::lit(v.trim());
            self.shell_code(&code, &[], c.script, c.depth);
            self.ask(format!("ssh -o {k} runs a program here"));
        }
        let off = matches!(lower(v.trim()).as_str(), "no" | "false" | "");
        if k == "forwardagent" && !off {
            self.block(AGENT_FORWARDED);
        }
        if matches!(k.as_str(), "pkcs11provider" | "securitykeyprovider") {
            self.loaded_library(&Word::lit(v.trim()), &c.base);
        }
        // An identity file signs in and is never sent: using it is not
        // reading it (`ssh -i` is judged the same way).
        if k == "permitlocalcommand" || k == "identityagent" || k == "userknownhostsfile" {
            let w = Word::lit(v.trim());
            self.read_path(&w, c.cwd());
        }
    }
}

const AGENT_FORWARDED: &str = "lends the user's SSH keys to the other machine (agent forwarding: it signs in as the user anywhere while connected)";

/// `-A` alone or in a bundle of ssh's flags, before a letter that takes
/// a value (`-tA`, not `-lAdmin`).
fn forwards_agent(a: &str) -> bool {
    let Some(letters) = a.strip_prefix('-').filter(|l| !l.starts_with('-')) else {
        return false;
    };
    for ch in letters.chars() {
        if ch == 'A' {
            return true;
        }
        if "iFlpLDJWbcEemOQSwBIRo".contains(ch) {
            return false;
        }
    }
    false
}
