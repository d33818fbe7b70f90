//! Traps a line lays for a later command of its own: files named like
//! options before a wildcard (`touch -- '--checkpoint-action=exec=sh x'`
//! then `tar cf x.tar *`), a program written into a folder then put first
//! on `PATH`, a link to `/` or home followed by a command that follows
//! links.

use super::wrappers::peeled;
use super::*;

impl Analyzer<'_> {
    pub(super) fn planted(&mut self, script: &Script) {
        self.option_named_files(script);
        self.path_first_planted(script);
        self.followed_links(script);
    }

    /// Files whose names start with `-`, made by this line, and a wildcard
    /// that hands them to a program as its options.
    fn option_named_files(&mut self, script: &Script) {
        let made = script.commands.iter().any(|c| {
            let pa = peeled(&c.argv);
            let b = pa.first().map(|w| base_name(&w.text)).unwrap_or_default();
            let named = |w: &Word| {
                let base = w.text.rsplit('/').next().unwrap_or(&w.text);
                base.starts_with('-') && base.len() > 1 && base != "--"
            };
            let operands = pa.iter().skip(1).skip_while(|w| w.text != "--").skip(1);
            matches!(
                b.as_str(),
                "touch" | "mkdir" | "cp" | "mv" | "ln" | "install"
            ) && operands.clone().any(named)
                || c.redirects
                    .iter()
                    .any(|r| r.writes_file() && named(&r.target))
        });
        let globbed = script.commands.iter().any(|c| {
            c.argv
                .iter()
                .skip(1)
                .any(|w| w.glob && !w.text.contains('/'))
        });
        if made && globbed {
            self.block(
                "wildcard injection (files named like options, then a wildcard hands them to a program)",
            );
        }
    }

    /// `PATH=./bin:$PATH` (or any folder not the system's first) with a file
    /// this line writes in that folder: the next program of that name is it.
    fn path_first_planted(&mut self, script: &Script) {
        let mut firsts: Vec<String> = Vec::new();
        for c in &script.commands {
            let exported = c.argv.first().is_some_and(|w| w.text == "export");
            let from_argv = c.argv.iter().filter(|_| exported).filter_map(|w| {
                w.text
                    .strip_prefix("PATH=")
                    .map(|v| (v.to_string(), w.dynamic))
            });
            let assigned = c
                .assigns
                .iter()
                .filter(|(n, _)| n == "PATH")
                .map(|(_, w)| (w.text.clone(), w.dynamic));
            for (value, _) in assigned.chain(from_argv) {
                let first = value.split(':').next().unwrap_or("").to_string();
                let p = self.norm_text(&paths::word_path(&first, false), c.cwd.as_deref());
                if !first.is_empty() && !paths::system_normalized(&p) {
                    firsts.push(p.trim_end_matches('/').to_string());
                }
            }
        }
        if firsts.is_empty() {
            return;
        }
        let writes_there = script.commands.iter().any(|c| {
            let cwd = c.cwd.as_deref();
            let targets = c
                .redirects
                .iter()
                .filter(|r| r.writes_file())
                .map(|r| r.target.clone())
                .chain(
                    c.argv
                        .iter()
                        .skip(1)
                        .filter(|w| !w.text.starts_with('-'))
                        .cloned(),
                );
            // A program's name there: it shadows the real one.
            targets.into_iter().any(|w| {
                let p = self.norm(&w, cwd);
                let name = lower(p.rsplit('/').next().unwrap_or(""));
                firsts.iter().any(|d| p.starts_with(&format!("{d}/")))
                    && (known_program(&name) || tables::KNOWN_TOOLS.contains(&name.as_str()))
            })
        });
        if writes_there {
            self.block(
                "hijack (puts a folder this line writes programs into first on PATH: they run instead of the real ones)",
            );
        }
    }

    /// A link this line made to `/`, home or a store of keys, and a later
    /// command that follows links (`find -L`, `cp -L`, `tar -h`, `grep -R`).
    fn followed_links(&mut self, script: &Script) {
        let wide = script.commands.iter().any(|c| {
            let pa = peeled(&c.argv);
            let is_ln = pa.first().is_some_and(|w| base_name(&w.text) == "ln");
            let symbolic = pa
                .iter()
                .any(|w| w.text.starts_with('-') && w.text.contains('s'));
            let operands: Vec<&Word> = pa
                .iter()
                .skip(1)
                .filter(|w| !w.text.starts_with('-'))
                .collect();
            is_ln
                && symbolic
                && operands.first().is_some_and(|t| {
                    let p = self.norm(t, c.cwd.as_deref());
                    t.dynamic || paths::contains_credentials(&p) || paths::credential_store(&p)
                })
        });
        if !wide {
            return;
        }
        let follows = script.commands.iter().any(|c| {
            let pa = peeled(&c.argv);
            let b = pa
                .first()
                .map(|w| program_name(&w.text))
                .unwrap_or_default();
            let has = |f: &[&str]| pa.iter().skip(1).any(|w| f.contains(&w.text.as_str()));
            let short = |ch: char| pa.iter().skip(1).any(|w| short_has(&w.text, ch));
            match b.as_str() {
                "find" => has(&["-L", "-follow"]),
                "cp" => short('L') || has(&["--dereference"]),
                "rsync" => short('L') || has(&["--copy-links", "--copy-unsafe-links"]),
                "tar" => short('h') || has(&["--dereference"]),
                "grep" | "rg" | "du" | "chown" | "chmod" => {
                    short('R') || short('L') || has(&["--follow"])
                }
                "zip" => !short('y') && !has(&["--symlinks"]),
                _ => false,
            }
        });
        if follows {
            self.block(
                "follows a link this line made to / or home, reaching everything there (keys included)",
            );
        }
    }
}
