//! The `<available_skills>` block, in the exact shape of the reference's
//! `to-prompt`, with the usage instructions and a character budget.

use super::Catalog;

/// `html.escape(s, quote=True)`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// The XML block for `(name, description, location)` entries, byte for byte
/// what `skills-ref to-prompt` prints (without its trailing newline).
pub fn to_prompt<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str, String)>) -> String {
    let mut out = String::from("<available_skills>");
    for (name, description, location) in entries {
        out.push_str(&format!(
            "\n<skill>\n<name>\n{}\n</name>\n<description>\n{}\n</description>\n<location>\n{}\n</location>\n</skill>",
            escape(name.trim()),
            escape(description.trim()),
            location
        ));
    }
    out.push_str("\n</available_skills>");
    out
}

pub const DEFAULT_BUDGET: usize = 15_000;

const USAGE: &str = "## Skills\n\
Before replying, scan the descriptions in <available_skills> below.\n\
- If one skill clearly matches the request: read its SKILL.md at <location> with local_read_file first, then follow its instructions.\n\
- If none matches: reply normally and do not read any SKILL.md.\n\
- Read at most one skill at a time.\n\n";

/// The system-prompt section: nothing at all without skills; otherwise the
/// usage instructions and the catalog, within `budget` characters —
/// descriptions are shortened before any skill is dropped.
pub fn prompt_section(catalog: &Catalog, budget: usize) -> String {
    if catalog.skills.is_empty() {
        return String::new();
    }
    let render = |cap: usize, count: usize| {
        let entries = catalog.skills.iter().take(count).map(|s| {
            let d = if s.description.chars().count() > cap {
                format!(
                    "{}…",
                    s.description
                        .chars()
                        .take(cap)
                        .collect::<String>()
                        .trim_end()
                )
            } else {
                s.description.clone()
            };
            (s.name.clone(), d, s.location.display().to_string())
        });
        let owned: Vec<(String, String, String)> = entries.collect();
        format!(
            "{USAGE}{}",
            to_prompt(
                owned
                    .iter()
                    .map(|(n, d, l)| (n.as_str(), d.as_str(), l.clone()))
            )
        )
    };
    for cap in [usize::MAX, 512, 256, 128, 64] {
        let s = render(cap, catalog.skills.len());
        if s.chars().count() <= budget {
            return s;
        }
    }
    let mut count = catalog.skills.len();
    while count > 0 {
        let s = render(64, count);
        if s.chars().count() <= budget {
            return s;
        }
        count -= 1;
    }
    String::new()
}
