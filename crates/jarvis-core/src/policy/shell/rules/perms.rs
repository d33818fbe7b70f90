//! Permissions and owners: `chmod`, `chown`, `chgrp`, `setfacl`, `chattr`;
//! setuid bits and recursive changes of system or home trees.

use super::*;

impl Analyzer<'_> {
    pub(super) fn perms(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        let recursive = c.args.iter().any(|x| {
            x == "-R"
                // GNU takes any unambiguous start of a long option (`--rec`).
                || x.len() >= 5 && "--recursive".starts_with(x.as_str())
                || lower(x) == "/r"
                || lower(x) == "/t"
                || short_has(x, 'R')
        });
        let ops: Vec<&Word> = c.words[1..]
            .iter()
            .filter(|w| {
                // Options, and Windows switches (`/T`, `/C`) for the Windows tools.
                let switch = w.text.starts_with('/')
                    && w.text.len() <= 3
                    && matches!(lb, "icacls" | "takeown" | "cacls");
                !w.text.starts_with('-') && !switch
            })
            .collect();
        let mode = match lb {
            "chmod" | "chown" | "chgrp" | "chattr" | "chflags" => {
                ops.first().map(|w| w.text.clone()).unwrap_or_default()
            }
            "setfacl" => c
                .value("-m")
                .or_else(|| c.value("--modify"))
                .map(|w| w.text.clone())
                .unwrap_or_default(),
            _ => String::new(),
        };
        if lb == "chmod" && setuid_mode(&mode) {
            self.block(format!(
                "privilege escalation (chmod {mode} sets setuid/setgid)"
            ));
        }
        let wide_open = world_writable(&mode)
            || mode == "000"
            || mode.contains("o::rwx")
            || mode.contains("everyone");
        let skip = match lb {
            "chmod" | "chown" | "chgrp" | "chattr" | "chflags" => 1,
            _ => 0,
        };
        let mut skip_value = false;
        for (k, t) in ops.iter().enumerate().skip(skip) {
            if skip_value {
                skip_value = false;
                continue;
            }
            if lb == "setfacl" && k == 0 && c.value("-m").is_some_and(|v| v.text == t.text) {
                continue;
            }
            if matches!(lb, "icacls" | "cacls") && k > 0 {
                continue;
            }
            if t.text.contains(':') && matches!(lb, "icacls" | "takeown") && k > 0 {
                continue;
            }
            self.perm_path(
                t,
                recursive,
                wide_open,
                c.cwd(),
                format!("{} {mode}", c.base).trim(),
            );
            // A download made executable where nobody looks (`/tmp/.x`) or on
            // the PATH (`~/.local/bin/git`). In the project it is a file like
            // any other (`tools/jq`): running it is judged when it runs.
            if lb == "chmod"
                && (mode.contains("+x") || mode.contains('7') || mode.contains('5'))
                && self.is_tainted(t, c.cwd())
                && (t.dynamic
                    || !self.inside(&self.norm(t, c.cwd()))
                    || tool_bin(&self.norm(t, c.cwd())))
            {
                self.block(format!(
                    "download and execute ({} was downloaded or decoded, then made executable)",
                    shown(&t.text)
                ));
            }
            skip_value = false;
        }
        if lb == "icacls"
            && c.args
                .iter()
                .any(|a| lower(a).contains("everyone:f") || lower(a).contains("/grant"))
            && let Some(t) = ops.first()
        {
            self.perm_path(t, true, true, c.cwd(), "icacls /grant");
        }
    }
}

/// A mode that lets every user write (`777`, `0666`, `a=rwx`, `o+w`,
/// `u=rwx,go=rwx`): by effect, not by spelling. A mode with no one named
/// (`+w`) goes through the umask, which keeps others out.
fn world_writable(mode: &str) -> bool {
    if !mode.is_empty() && mode.chars().all(|ch| ch.is_digit(8)) {
        return mode
            .chars()
            .last()
            .and_then(|ch| ch.to_digit(8))
            .is_some_and(|others| others & 2 != 0);
    }
    mode.split(',').any(|clause| {
        let Some(op_at) = clause.find(['+', '=']) else {
            return false;
        };
        let who = &clause[..op_at];
        let perms = &clause[op_at + 1..];
        who.contains(['a', 'o']) && who.chars().all(|ch| "ugoa".contains(ch)) && perms.contains('w')
    })
}

/// A mode that sets setuid or setgid (`4755`, `u+s`, `g+s`).
pub(super) fn setuid_mode(m: &str) -> bool {
    // (`+4000`, `=6755`: the same bits, added or set.)
    let m = m.trim_start_matches(['+', '=']);
    (m.contains('s') && (m.contains('+') || m.contains('='))) && !m.contains("-s")
        // (`04755`, `6711`: the bits, however many leading zeros.)
        || !m.is_empty()
            && m.chars().all(|ch| ch.is_digit(8))
            && u32::from_str_radix(m.trim_start_matches('0'), 8).is_ok_and(|v| v & 0o6000 != 0)
}

/// A folder whose programs the project's tools run by name
/// (`node_modules/.bin/tsc`, `.venv/bin/python`).
fn tool_bin(p: &str) -> bool {
    [
        "node_modules/.bin/",
        ".venv/bin/",
        "venv/bin/",
        "/.bin/",
        ".tox/",
        "vendor/bin/",
    ]
    .iter()
    .any(|d| p.contains(d))
}
