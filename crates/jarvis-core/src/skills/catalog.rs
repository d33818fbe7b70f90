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

pub const DEFAULT_BUDGET: usize = jarvis_protocol::settings::DEFAULT_SKILL_PROMPT_BUDGET;

const USAGE: &str = "## Skills\n\
Before replying, scan the descriptions in <available_skills> below.\n\
- If one skill clearly matches the request: read its SKILL.md at <location> with local_read_file first, then follow its instructions.\n\
- If none matches: reply normally and do not read any SKILL.md.\n\
- Read at most one skill at a time.\n\n";

fn shorten(d: &str, cap: usize) -> String {
    if d.chars().count() > cap {
        format!("{}…", d.chars().take(cap).collect::<String>().trim_end())
    } else {
        d.to_string()
    }
}

/// Characters one `<skill>` entry takes, without building it.
fn entry_len(name: &str, description: &str, location: &str) -> usize {
    // "\n<skill>\n<name>\n" + "\n</name>\n<description>\n" + "\n</description>\n<location>\n" + "\n</location>\n</skill>"
    const FIXED: usize = 16 + 23 + 27 + 21;
    FIXED
        + escape(name.trim()).chars().count()
        + escape(description.trim()).chars().count()
        + location.chars().count()
}

/// The system-prompt section: nothing at all without skills; otherwise the
/// usage instructions and the catalog, within `budget` characters —
/// descriptions are shortened before any skill is dropped. Linear in the
/// number of skills: sizes are computed before anything is rendered.
pub fn prompt_section(catalog: &Catalog, budget: usize) -> String {
    if catalog.skills.is_empty() {
        return String::new();
    }
    let frame = USAGE.chars().count() + "<available_skills>".len() + "\n</available_skills>".len();
    let locations: Vec<String> = catalog
        .skills
        .iter()
        .map(|s| s.location.display().to_string())
        .collect();
    let size_at = |cap: usize| -> Vec<usize> {
        catalog
            .skills
            .iter()
            .zip(&locations)
            .map(|(s, l)| entry_len(&s.name, &shorten(&s.description, cap), l))
            .collect()
    };
    let render = |cap: usize, count: usize| {
        let owned: Vec<(String, String)> = catalog
            .skills
            .iter()
            .take(count)
            .map(|s| (s.name.clone(), shorten(&s.description, cap)))
            .collect();
        format!(
            "{USAGE}{}",
            to_prompt(owned.iter().zip(&locations).map(|((n, d), l)| (
                n.as_str(),
                d.as_str(),
                l.clone()
            )))
        )
    };
    for cap in [usize::MAX, 512, 256, 128, 64] {
        if frame + size_at(cap).iter().sum::<usize>() <= budget {
            return render(cap, catalog.skills.len());
        }
    }
    // Still too long: keep the first skills (stable order) that fit.
    let sizes = size_at(64);
    let mut total = frame;
    let mut count = 0;
    for s in sizes {
        if total + s > budget {
            break;
        }
        total += s;
        count += 1;
    }
    if count == 0 {
        String::new()
    } else {
        render(64, count)
    }
}
