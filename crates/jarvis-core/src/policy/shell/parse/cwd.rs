//! Where the line is when each command runs: `cd`, `pushd`, and
//! `builtin cd`, with a `CDPATH` the line set.

use super::*;

impl Walker<'_> {
    pub(super) fn track_cd(&mut self, argv: &[Word]) {
        // `builtin cd DIR`, `command cd DIR`: the same move.
        let argv_cd: Vec<Word> = match argv.first().map(|w| w.text.as_str()) {
            Some("builtin" | "command") => argv[1..].to_vec(),
            _ => argv.to_vec(),
        };
        if let Some(first) = argv_cd.first().map(|w| w.text.clone())
            && (first == "cd" || first == "pushd")
        {
            let argv = &argv_cd;
            // `cd -P DIR`, `cd -- DIR`: the operand after the options.
            let operand = argv[1..]
                .iter()
                .find(|w| w.text == "-" || !w.text.starts_with('-'));
            self.cwd = match operand {
                // A folder a branch chose: the places it may be, joined.
                Some(dir) if !dir.choices.is_empty() => {
                    let places: Vec<Option<String>> = dir
                        .choices
                        .iter()
                        .map(|d| match d.as_str() {
                            "" => self.cwd.clone(),
                            d => self.cd_to(&Word::lit(d)),
                        })
                        .collect();
                    branches::joined_cwd(places.iter())
                }
                Some(dir) => self.cd_to(dir),
                None => Some(HOME.to_string()),
            };
        }
    }

    /// Where `cd DIR` lands from here.
    fn cd_to(&self, dir: &Word) -> Option<String> {
        match dir {
            // `cd -`, `cd "$OLDPWD"`: back to wherever the shell was,
            // which this line does not say.
            dir if dir.text == "-" || dir.text.contains("OLDPWD") => Some(ELSEWHERE_DIR.into()),
            // With a CDPATH this line set, a bare name is looked up
            // there first (`CDPATH=~; cd .gnupg`).
            dir if self.cdpath_target(dir).is_some() => self.cdpath_target(dir),
            dir if !dir.dynamic => {
                let d = dir.text.clone();
                Some(match &self.cwd {
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
        if self.vars.from.contains_key("CDPATH") {
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
