//! Values the parser keeps beyond plain variables: arrays of literal
//! elements, and the lines a `read` takes from the pipe before it.

use super::*;

impl Walker<'_> {
    /// `"${name[@]}"` of an array whose elements are known: each a word.
    pub(super) fn array_elements(&self, spelled: &str) -> Option<Vec<String>> {
        let inner = spelled
            .trim_matches('"')
            .strip_prefix("${")?
            .strip_suffix('}')?;
        let name = inner.strip_suffix("[@]").or_else(|| {
            inner
                .strip_suffix("[*]")
                .filter(|_| !spelled.starts_with('"'))
        })?;
        self.vars.arrays.get(name).cloned()
    }

    /// `producer | while read -r f`: `f` holds lines of what it printed.
    pub(super) fn bind_read(&mut self, argv: &[Word]) {
        if argv.first().is_some_and(|w| w.text == "read")
            && let Some(src) = self.pipe_source
        {
            let mut k = 1;
            while let Some(w) = argv.get(k) {
                let t = w.text.as_str();
                if matches!(t, "-d" | "-p" | "-n" | "-N" | "-t" | "-u" | "-i") {
                    k += 2;
                    continue;
                }
                if t.starts_with('-') && t != "-a" {
                    k += 1;
                    continue;
                }
                let name = if t == "-a" {
                    k += 1;
                    argv.get(k).map(|w| w.text.clone())
                } else {
                    Some(t.to_string())
                };
                if let Some(name) = name.filter(|n| !n.is_empty()) {
                    self.vars.known.remove(&name);
                    self.vars.from.insert(name, vec![src]);
                }
                k += 1;
            }
        }
    }
}
