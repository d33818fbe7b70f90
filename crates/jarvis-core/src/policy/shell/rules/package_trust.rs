//! Package tools beyond installing by name: code in rpm's macros, installs
//! with signature checks turned off over plain HTTP, and the local package
//! database's queries, which only read.

use super::*;

/// Switches that turn a package tool's signature or repository checks off.
const UNSIGNED: &[&str] = &[
    "--no-gpg-verify",
    "--nogpgcheck",
    "--no-gpg-checks",
    "--nosignature",
    "--nodigest",
    "--allow-unauthenticated",
    "--allow-insecure-repositories",
    "--no-require-sigs",
    "--no-check-sigs",
    "--insecure",
    "--no-gpgcheck",
    "--gpgcheck-allow-unsigned",
    "--allow-unsigned-rpm",
    "--allow-untrusted",
];

impl Analyzer<'_> {
    pub(super) fn package_trust(&mut self, c: &Cmd<'_>) {
        if matches!(c.lb.as_str(), "rpm" | "rpmbuild" | "rpmspec" | "rpmquery") {
            self.rpm_macros(c);
        }
        if c.lb == "act" {
            self.act_container(c);
        }
        self.unsigned_install(c);
    }

    /// `act --container-options '-v /home/u:/host'`: the options of the
    /// `docker run` that starts each job's container, judged as that.
    fn act_container(&mut self, c: &Cmd<'_>) {
        for (i, a) in c.args.iter().enumerate() {
            let value = if a == "--container-options" {
                c.args.get(i + 1).cloned()
            } else {
                a.strip_prefix("--container-options=").map(str::to_string)
            };
            let value = value.or_else(|| (a == "--privileged").then(|| "--privileged".to_string()));
            if let Some(v) = value {
                let line = format!("docker run {v} act-job-image");
                self.block_only(|x| x.script(&line, &[], c.depth + 1));
                self.ask("act starts job containers with extra docker options");
            }
        }
    }

    /// rpm expands macros in what it is given: `%(…)` runs shell code,
    /// `%{lua:…}` Lua (`rpm --eval '%(curl … | sh)'`).
    fn rpm_macros(&mut self, c: &Cmd<'_>) {
        for w in c.words.iter().skip(1) {
            // Lua's `rpm.expand("%(…)")` expands shell macros in turn.
            let mut found = macro_code(&w.text);
            let nested: Vec<(&'static str, String)> = found
                .iter()
                .filter(|(lang, _)| *lang == "lua")
                .flat_map(|(_, code)| macro_code(code))
                .collect();
            found.extend(nested);
            for (lang, code) in found {
                if lang == "sh" {
                    let code = Word {
                        text: code,
                        ..w.clone()
                    };
                    self.shell_code(&code, &[], c.script, c.depth);
                } else {
                    self.inline_code(lang, &code, c.depth);
                }
                self.ask(format!("{} evaluates a macro that runs code", c.base));
            }
        }
    }

    /// Signature checks off while the package or its repository comes over
    /// plain HTTP from another machine: code anyone on the path can
    /// replace, installed and run (`flatpak remote-add --no-gpg-verify r
    /// http://…`, `nix … --option require-sigs false --option substituters
    /// http://…`).
    fn unsigned_install(&mut self, c: &Cmd<'_>) {
        let unsigned = c.args.iter().enumerate().any(|(i, a)| {
            let off = |v: &str| matches!(v, "false" | "0" | "no");
            UNSIGNED.contains(&a.split('=').next().unwrap_or(a))
                || c.lb == "zypper" && a == "-G"
                || a == "require-sigs" && c.args.get(i + 1).is_some_and(|v| off(&lower(v)))
                || lower(a)
                    .replace(' ', "")
                    .split_once("require-sigs=")
                    .is_some_and(|(_, v)| off(v.split([',', ';', '\n']).next().unwrap_or(v)))
        }) || c.assigns.iter().any(|(n, v)| {
            n == "NIX_CONFIG" && v.text.replace(' ', "").contains("require-sigs=false")
        });
        if !unsigned {
            return;
        }
        let plain = c.args.iter().find_map(|a| {
            let at = lower(a).find("http://")?;
            let rest = &a[at + "http://".len()..];
            super::project_out::far_host(rest).map(|h| (h, a))
        });
        if let Some((host, _)) = plain {
            self.block(format!(
                "{} installs code with signature checks off, fetched over plain HTTP from {host} (download and execute)",
                c.base
            ));
        }
    }

    /// `rpm -qi bash`, `rpm -qa --last`, `rpm -qlp pkg.rpm`: the package
    /// database or a package file, read. None when the line is anything
    /// else.
    pub(super) fn rpm_query(&mut self, c: &Cmd<'_>) -> Option<bool> {
        // `RPM_CONFIGDIR=… rpm -q`, `HOME=…`: macros from elsewhere run.
        if !c.assigns.is_empty() {
            return None;
        }
        let first = c.args.first()?;
        let letters = |a: &str| {
            a.strip_prefix('-')
                .filter(|b| !b.starts_with('-') && !b.is_empty())
                .is_some_and(|b| b.chars().all(|ch| "qailcdsfpR".contains(ch)))
        };
        if !(first == "--query" || first.starts_with("-q") && letters(first)) {
            return None;
        }
        const LONG: &[&str] = &[
            "--query",
            "--all",
            "--last",
            "--scripts",
            "--triggers",
            "--changelog",
            "--info",
            "--list",
            "--file",
            "--package",
            "--provides",
            "--requires",
            "--conflicts",
            "--obsoletes",
            "--recommends",
            "--suggests",
            "--whatprovides",
            "--whatrequires",
            "--configfiles",
            "--docfiles",
            "--state",
            "--dump",
            "--filesbypkg",
        ];
        let mut files = false;
        let mut operands = Vec::new();
        let mut i = 0;
        while i < c.args.len() {
            let a = c.args[i].as_str();
            if matches!(a, "--qf" | "--queryformat") {
                i += 2;
                continue;
            }
            if a.starts_with("--qf=") || a.starts_with("--queryformat=") || LONG.contains(&a) {
                files |= a == "--package";
            } else if letters(a) {
                files |= a.contains('p');
            } else if a.starts_with('-') {
                return None;
            } else if let Some(w) = c.arg_word(i) {
                operands.push(w.clone());
            }
            i += 1;
        }
        let mut read_only = true;
        if files {
            for w in &operands {
                read_only &= self.read_path(w, c.cwd());
            }
        }
        Some(read_only)
    }
}

/// `snap list`, `flatpak remotes`, `flatpak override --show X`: the local
/// package database, read.
pub(super) fn local_package_query(lb: &str, args: &[String]) -> bool {
    let Some(verb) = args.iter().find(|a| !a.starts_with('-')) else {
        return false;
    };
    let flags_only = |allowed: &[&str]| {
        args.iter().filter(|a| a.starts_with('-')).all(|a| {
            let name = a.split('=').next().unwrap_or(a);
            allowed.contains(&name)
        })
    };
    match (lb, verb.as_str()) {
        ("snap", "list" | "connections" | "version" | "aliases" | "services") => {
            flags_only(&["--all", "--unicode", "--color"])
        }
        ("flatpak", "list" | "remotes" | "history") => flags_only(&[
            "--user",
            "--system",
            "--app",
            "--runtime",
            "--show-details",
            "-d",
            "--columns",
            "--all",
            "--installation",
        ]),
        ("flatpak", "override") => {
            args.iter().any(|a| a == "--show")
                && flags_only(&["--user", "--system", "--show", "--installation"])
        }
        _ => false,
    }
}

/// The code in rpm macros: `%(…)` as shell, `%{lua:…}` as Lua, each with
/// its nesting balanced.
fn macro_code(text: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        let (lang, open, close, skip) = if b[i] == b'%' && b[i + 1] == b'(' {
            ("sh", b'(', b')', 2)
        } else if b[i..].starts_with(b"%{lua:") {
            ("lua", b'{', b'}', "%{lua:".len())
        } else {
            i += 1;
            continue;
        };
        let start = i + skip;
        let (end, next) = super::dialects::balanced(b, start, open, close);
        out.push((lang, text[start..end].to_string()));
        i = next.max(i + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::macro_code;

    #[test]
    fn macros_give_their_code() {
        assert_eq!(
            macro_code("%{lua: os.execute(\"id\")} and %(curl x | sh)"),
            vec![
                ("lua", " os.execute(\"id\")".to_string()),
                ("sh", "curl x | sh".to_string())
            ]
        );
        assert_eq!(
            macro_code("%(echo $(id))"),
            vec![("sh", "echo $(id)".to_string())]
        );
        assert!(macro_code("%{_libdir} 100%").is_empty());
        assert_eq!(
            macro_code("%(unclosed"),
            vec![("sh", "unclosed".to_string())]
        );
    }
}
