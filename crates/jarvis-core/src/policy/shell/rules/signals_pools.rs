//! Signals (`kill`, `pkill`, `killall`) and storage pools (ZFS, btrfs):
//! everyone's processes or Jarvis's, and what destroys a pool's data.

use super::system::Verb;
use super::*;

impl Analyzer<'_> {
    /// `kill`, `pkill`, `killall`: everyone's processes, or Jarvis's, are off-limits.
    pub(super) fn signals(&mut self, c: &Cmd<'_>) {
        let args = &c.args;
        // Signal 0 only asks whether the process is there.
        let probe = c.lb == "kill"
            && (args.iter().any(|x| x == "-0")
                || args
                    .windows(2)
                    .any(|w| matches!(w[0].as_str(), "-s" | "-n") && w[1] == "0"));
        if probe {
            return;
        }
        let a = |s: &str| args.iter().any(|x| x == s);
        let targets: Vec<&Word> = c.words[1..]
            .iter()
            .filter(|w| {
                !w.text.starts_with('-')
                    || w.text == "-1"
                    || (w.text.starts_with('-')
                        && w.text[1..].chars().all(|ch| ch.is_ascii_digit())
                        && c.lb == "kill"
                        && w.text.len() > 2)
            })
            .collect();
        let everyone = a("-1")
            && c.lb == "kill"
            && !args.iter().any(|x| x == "-s" || x == "-n")
            && targets.iter().any(|t| t.text == "-1")
            || (args
                .iter()
                .any(|x| x == "-u" || x == "-U" || x.starts_with("--user"))
                && (args
                    .iter()
                    .any(|x| x.contains("USER") || x == "root" || x.contains('$'))
                    || c.lb == "killall"))
            || (c.lb == "kill" && targets.iter().any(|t| t.text == "-1"))
            // `pkill -u NAME` with no pattern: every process NAME owns that
            // this user may signal, which is all of its own.
            || matches!(c.lb.as_str(), "pkill" | "killall") && by_owner_only(args)
            // `pkill -v NAME`: every process but those (Jarvis among them);
            // `pkill -s 0`: this session's, Jarvis's own.
            || c.lb == "pkill"
                && (a("-v") || a("--inverse") || args.windows(2).any(|w| w[0] == "-s" && w[1] == "0"));
        if everyone {
            self.block("kills every process of the user (system disruption)");
        }
        // The targets looked up by Jarvis's name or port: in `$(…)`, or
        // piped in (`lsof -ti :7420 | xargs kill`).
        // (A lookup of this shell's parent, `ps -o ppid= -p $$`, finds
        // Jarvis: the command's shell is its child.)
        let finds_self = |k: &Command| {
            let parent_of_self = k.argv.iter().any(|x| lower(&x.text).starts_with("ppid"))
                && k.argv.iter().any(|x| x.text == "$$" || x.text == "self");
            // pgrep's patterns are regular expressions (`j[a]rvis`).
            let pgrep = k
                .argv
                .first()
                .is_some_and(|p| program_name(&p.text) == "pgrep")
                && patterns(&k.argv)
                    .iter()
                    .any(|x| !x.dynamic && pattern_finds(&x.text, &self.env.app, false));
            parent_of_self
                || pgrep
                || k.argv
                    .iter()
                    .skip(1)
                    .any(|x| self.mentions_self(x) || names_jarvis_port(&x.text))
        };
        let looked_up = c.words[1..].iter().any(|w| {
            w.subs
                .iter()
                .any(|&s| c.script.commands.get(s).is_some_and(finds_self))
        }) || {
            // Anywhere up the pipeline (`pgrep -f jarvis | sort | xargs kill`).
            let mut from = c.src.stdin_from;
            let mut found = false;
            let mut hops = 0;
            while let Some(k) = from.and_then(|i| c.script.commands.get(i)) {
                found |= finds_self(k) || k.argv.iter().any(|x| self.mentions_self(x));
                from = k.stdin_from;
                hops += 1;
                if found || hops > 16 {
                    break;
                }
            }
            found
        };
        // A target computed on a line that looks Jarvis up by name or port
        // (`for p in /proc/[0-9]*; do grep -q jarvis $p/cmdline && kill ${p#/proc/}; done`).
        let computed_on_a_hunt = targets.iter().any(|w| w.dynamic)
            && c.script
                .commands
                .iter()
                .any(|k| !std::ptr::eq(k, c.src) && finds_self(k));
        // pkill's patterns (and killall's with `-r`) are regular
        // expressions matched against each process's name, or with `-f`
        // its whole command line: `j[a]rvis`, `jarv`, `.` all find Jarvis.
        let patterns = patterns(&c.words);
        let by_pattern = (c.lb == "pkill" || c.lb == "killall" && (a("-r") || a("--regexp")))
            && patterns.iter().any(|w| {
                !w.dynamic && pattern_finds(&w.text, &self.env.app, a("-i") || a("--ignore-case"))
            });
        let aimed = looked_up
            || by_pattern
            || computed_on_a_hunt
            || c.words[1..].iter().any(|w| self.aims_at_self(w, c.script));
        if aimed {
            self.block("stops Jarvis's own process (or its parent)");
        }
        // `kill -STOP $(pgrep -f 'clamd|falcon')`: by name or by a lookup.
        let guards = c.words[1..].iter().any(|w| {
            tables::names_security_tool(&w.text)
                || w.subs.iter().any(|&s| {
                    c.script.commands.get(s).is_some_and(|k| {
                        k.argv.iter().any(|x| tables::names_security_tool(&x.text))
                    })
                })
        });
        if guards {
            self.block("stops a security tool (antivirus, audit, firewall or EDR)");
        }
        if c.words[1..]
            .iter()
            .any(|w| w.text == "1" || w.text == "init" || w.text == "systemd")
            && matches!(c.lb.as_str(), "kill" | "pkill" | "killall")
        {
            self.block("signals the init process (system disruption)");
        }
        self.ask(format!("stops processes ({})", shown(&args.join(" "))));
    }

    /// ZFS and btrfs: what destroys data (a dataset or pool destroyed, a
    /// rollback past later snapshots, a forced receive over a dataset, a
    /// pool created over disks, a subvolume deleted) blocks; listings and
    /// properties only read; the rest (snapshots, sends, settings) asks.
    pub(super) fn storage_pools(&mut self, v: &Verb<'_>) -> bool {
        let verb = v
            .args
            .iter()
            .find(|a| !a.starts_with('-'))
            .map(String::as_str)
            .unwrap_or("");
        let flag = |f: char| {
            v.args
                .iter()
                .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(f))
        };
        let destroys = match v.lb {
            // (`zfs destroy -n`: a dry run that lists what would go.)
            "zfs" => {
                verb == "destroy" && !flag('n')
                    || verb == "rollback"
                    || matches!(verb, "receive" | "recv") && flag('F')
            }
            "zpool" => matches!(verb, "destroy" | "labelclear") || verb == "create" && flag('f'),
            // (btrfs takes any unique prefix of a verb: `sub del`.)
            _ => {
                v.joined.contains(" delete")
                    || v.joined.starts_with("delete")
                    || verb == "rescue"
                    || {
                        // A subvolume group's delete (`su de`, `sub del`).
                        let ops: Vec<&str> = v
                            .args
                            .iter()
                            .filter(|a| !a.starts_with('-'))
                            .map(String::as_str)
                            .collect();
                        matches!(ops.as_slice(), [g, d, ..]
                            if g.len() >= 2 && "subvolume".starts_with(g)
                                && d.len() >= 2 && "delete".starts_with(d))
                    }
            }
        };
        if destroys {
            self.block(format!("destroys storage volumes ({})", v.b));
            return false;
        }
        // `zfs set sharenfs='rw=@0.0.0.0/0,no_root_squash'`: a dataset
        // shared with every host, writable.
        // (`sharenfs=on`: every host, with the default options, writable.)
        let shared_with_all = v.lb == "zfs"
            && matches!(verb, "set" | "create")
            && v.joined.contains("share")
            && ((v.joined.contains("0.0.0.0/0")
                || v.joined.contains("=*")
                || v.joined.contains("@*"))
                && v.joined.contains("rw")
                || shares_with_everyone(&v.joined));
        if shared_with_all {
            self.block("exposes a dataset to every host on the network, writable (zfs set share…)");
            return false;
        }
        let reads = match v.lb {
            "zfs" => {
                matches!(
                    verb,
                    "list" | "get" | "holds" | "version" | "userspace" | "groupspace"
                ) || verb == "destroy"
            }
            // (`-c SCRIPT` runs scripts from `~/.zpool.d`; an interval never
            // ends.)
            "zpool" => {
                matches!(
                    verb,
                    "status" | "list" | "get" | "history" | "version" | "iostat"
                ) && !v
                    .args
                    .iter()
                    .any(|a| a == "-c" || a.chars().all(|ch| ch.is_ascii_digit()))
            }
            _ => {
                let what = v
                    .args
                    .iter()
                    .filter(|a| !a.starts_with('-'))
                    .nth(1)
                    .map(String::as_str);
                matches!(
                    (verb, what),
                    ("filesystem" | "fi", Some("show" | "df" | "usage" | "du"))
                        | ("subvolume" | "sub", Some("list" | "show" | "get-default"))
                        | ("device" | "dev", Some("usage"))
                        | ("qgroup", Some("show"))
                        | ("scrub" | "balance", Some("status"))
                        | ("property", Some("get" | "list"))
                        | ("version" | "--version", _)
                )
            }
        };
        if reads {
            return true;
        }
        self.ask(format!("{} changes storage pools or datasets", v.b));
        false
    }
}

/// `:7420`, `tcp:7420`, `-i:7420`, `7420/tcp`, `127.0.0.1:7420`, a range
/// over it (`:7419-7421`): a port lookup that finds Jarvis. A bare number
/// is a pid, not a port; another program's port (a debugger's) is not
/// Jarvis.
fn names_jarvis_port(t: &str) -> bool {
    let t = t.trim_start_matches("-i");
    let port = match (t.rsplit_once(':'), t.split_once('/')) {
        (Some((_, p)), _) => p,
        (None, Some((p, "tcp" | "udp"))) => p,
        _ => return false,
    };
    let port = port.split('/').next().unwrap_or(port);
    let jarvis = crate::policy::url::JARVIS_PORT;
    match port.split_once('-') {
        Some((lo, hi)) => {
            matches!((lo.parse::<u16>(), hi.parse::<u16>()), (Ok(lo), Ok(hi)) if lo <= jarvis && jarvis <= hi)
        }
        None => port.parse::<u16>() == Ok(jarvis),
    }
}

/// `sharenfs=on`, `sharenfs=rw`, `sharenfs='rw,no_root_squash'`: an
/// export to every host (a restricted one names them: `rw=@10.0.0.0/8`).
fn shares_with_everyone(joined: &str) -> bool {
    joined.split_whitespace().any(|w| {
        let w = w.trim_matches(['\'', '"']);
        let w = w.strip_prefix("-o").unwrap_or(w);
        ["sharenfs=", "sharesmb="].iter().any(|k| {
            w.strip_prefix(k).is_some_and(|v| {
                let v = v.trim_matches(['\'', '"']);
                // (`sec=sys,rw` names no host either.)
                !matches!(v, "off" | "no" | "")
                    && !v.contains('@')
                    && !v.split(',').any(|o| {
                        o.split_once('=')
                            .is_some_and(|(k, _)| matches!(k, "rw" | "ro" | "access" | "root"))
                    })
            })
        })
    })
}

/// Whether a process-matching regular expression finds the app's process
/// by its name or a command line of it.
/// pkill's and killall's options whose value selects processes or names a
/// signal.
const SELECTORS: &[&str] = &["-u", "-U", "-g", "-G", "-P", "-s", "-t", "--signal"];

/// The patterns or names of a pgrep, pkill or killall line: its words
/// that are not options, nor an option's value (`-u NAME`, `-t TTY`).
fn patterns(words: &[Word]) -> Vec<&Word> {
    words
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(i, w)| {
            !(w.text.starts_with('-') || *i > 1 && SELECTORS.contains(&words[i - 1].text.as_str()))
        })
        .map(|(_, w)| w)
        .collect()
}

/// pkill's or killall's processes chosen by owner alone: no pattern or
/// name besides the options' values.
fn by_owner_only(args: &[String]) -> bool {
    let by_owner = args.iter().any(|x| {
        matches!(x.as_str(), "-u" | "-U")
            || x.starts_with("--euid")
            || x.starts_with("--uid")
            || x.starts_with("--user")
    });
    let mut operands = 0;
    let mut i = 0;
    while i < args.len() {
        let x = args[i].as_str();
        if SELECTORS.contains(&x) {
            i += 1;
        } else if !x.starts_with('-') {
            operands += 1;
        }
        i += 1;
    }
    by_owner && operands == 0
}

fn pattern_finds(pattern: &str, app: &str, ignore_case: bool) -> bool {
    let Ok(re) = regex::RegexBuilder::new(pattern)
        .case_insensitive(ignore_case)
        .size_limit(1 << 16)
        .build()
    else {
        return false;
    };
    let app = app.to_ascii_lowercase();
    [
        app.clone(),
        format!("/usr/local/bin/{app}"),
        format!("{app} chat"),
    ]
    .iter()
    .any(|name| re.is_match(name))
}
