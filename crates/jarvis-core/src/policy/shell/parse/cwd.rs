//! Where the line is when each command runs: `cd`, `pushd`, and
//! `builtin cd`, with a `CDPATH` the line set.

use super::*;

impl Walker<'_> {
    pub(super) fn track_cd(&mut self, argv: &[Word]) {
        // `builtin cd DIR`, `command cd DIR`: the same move.
        let argv_cd: Vec<Word> = match argv.first().map(|w| w.text.as_str()) {
            Some("builtin" | "command") => argv[1..].to_vec(),
            // `time` is a keyword: `time cd ~` moves this shell.
            Some("time") => argv[1..]
                .iter()
                .skip_while(|w| w.text.starts_with('-'))
                .cloned()
                .collect(),
            _ => argv.to_vec(),
        };
        // `pushd -n` only adds to the stack: the shell stays.
        if argv_cd.first().is_some_and(|w| w.text == "pushd")
            && argv_cd[1..].iter().any(|w| w.text == "-n")
        {
            return;
        }
        // `popd` goes back to a place this line may not say.
        if argv_cd.first().is_some_and(|w| w.text == "popd") {
            self.cwd = Some(ELSEWHERE_DIR.into());
            self.vars.cwd_alts.clear();
            return;
        }
        if let Some(first) = argv_cd.first().map(|w| w.text.clone())
            && (first == "cd" || first == "pushd")
        {
            let argv = &argv_cd;
            // `cd -P DIR`, `cd -- DIR`: the operand after the options.
            let mut operand = argv[1..]
                .iter()
                .find(|w| w.text == "-" || !w.text.starts_with('-'))
                .cloned();
            // With `shopt -s cdable_vars`, `cd NAME` goes to `$NAME` when no
            // folder NAME is there: either place.
            if self.cdable_vars
                && let Some(w) = operand.as_mut()
                && !w.dynamic
                && w.choices.is_empty()
                && w.text
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
            {
                let value = self
                    .vars
                    .known
                    .get(&w.text)
                    .cloned()
                    .unwrap_or_else(|| ELSEWHERE_DIR.to_string());
                w.choices = vec![w.text.clone(), value];
            }
            let operand = operand.as_ref();
            // From each place a branch may have left the line in, to each
            // folder a branch may have chosen.
            let bases: Vec<Option<String>> = if self.vars.cwd_alts.is_empty() {
                vec![self.cwd.clone()]
            } else {
                self.vars.cwd_alts.clone()
            };
            let mut places: Vec<Option<String>> = Vec::new();
            for base in &bases {
                match operand {
                    Some(dir) if !dir.choices.is_empty() => {
                        for d in &dir.choices {
                            places.push(match d.as_str() {
                                "" => base.clone(),
                                d => self.cd_from(base, &Word::lit(d)),
                            });
                        }
                    }
                    Some(dir) => places.push(self.cd_from(base, dir)),
                    None => places.push(Some(HOME.to_string())),
                }
            }
            self.cd_success = Some(places.clone());
            // A missing folder leaves the shell where it was (home, the
            // root, the parent and /tmp are always there).
            // Only a plain `cd [-L|-P|--] DIR`: another word or an unknown
            // option makes even that fail.
            let plain = argv.len() == 2
                || argv.len() == 3 && matches!(argv[1].text.as_str(), "-L" | "-P" | "--");
            let always_there = |w: &Word| {
                plain
                    && !w.dynamic
                    && (matches!(w.text.as_str(), "/" | ".." | "." | "/tmp" | "../")
                        || w.text.trim_end_matches('/') == HOME.to_string())
            };
            if operand.is_some_and(|w| !always_there(w)) {
                places.extend(bases);
            }
            // `cd` leaves where it was in OLDPWD (`rm -rf "$OLDPWD"`).
            let before = self.cwd.clone().filter(|p| !p.contains("$("));
            self.set_places(places);
            match before {
                Some(p) => {
                    self.vars.set("OLDPWD".into(), p);
                }
                None => {
                    self.vars.forget("OLDPWD");
                }
            }
        }
    }

    /// The folder the line is in from here, one of `places`.
    pub(super) fn set_places(&mut self, mut places: Vec<Option<String>>) {
        places.sort();
        places.dedup();
        if places.len() > MAX_CHOICES {
            self.cwd = Some(UNKNOWN_DIR.into());
            self.vars.cwd_alts = Vec::new();
            return;
        }
        self.cwd = branches::joined_cwd(places.iter());
        self.vars.cwd_alts = if places.len() > 1 { places } else { Vec::new() };
    }

    /// Where `cd DIR` lands from `base`.
    fn cd_from(&self, base: &Option<String>, dir: &Word) -> Option<String> {
        match dir {
            // `cd -`, `cd "$OLDPWD"`: back to wherever the shell was,
            // which this line does not say.
            dir if dir.text == "-" || dir.text.contains("OLDPWD") => Some(ELSEWHERE_DIR.into()),
            // With a CDPATH this line set, a bare name is looked up
            // there first (`CDPATH=~; cd .gnupg`).
            dir if self.cdpath_target(dir).is_some() => self.cdpath_target(dir),
            dir if !dir.dynamic => {
                let d = dir.text.clone();
                Some(match base {
                    Some(c) if !d.starts_with('/') && !d.starts_with(HOME) => format!("{c}/{d}"),
                    _ => d,
                })
            }
            _ => Some(UNKNOWN_DIR.into()),
        }
    }

    /// The folder `cd NAME` lands in when a `CDPATH` this line set applies
    /// to NAME (bash looks there first for a name not starting with `/`,
    /// `./` or `../`); unknown when the path has several entries or is
    /// not known.
    fn cdpath_target(&self, dir: &Word) -> Option<String> {
        let bare = !dir.dynamic
            && !dir.text.starts_with(['/', HOME])
            && !matches!(dir.text.as_str(), "." | "..")
            && !dir.text.starts_with("./")
            && !dir.text.starts_with("../");
        if !bare {
            return None;
        }
        if self.vars.from.contains_key("CDPATH") || self.vars.alts.contains_key("CDPATH") {
            return Some(UNKNOWN_DIR.into());
        }
        let path = self.vars.known.get("CDPATH").filter(|p| !p.is_empty())?;
        let first = path.split(':').next().unwrap_or("");
        Some(if path.contains(':') || first.is_empty() || first == "." {
            UNKNOWN_DIR.into()
        } else {
            format!("{first}/{}", dir.text)
        })
    }
}
