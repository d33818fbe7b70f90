//! Accept → draft → review: one model request writes the skill's
//! description and instructions from the requests that earned it; Jarvis
//! writes the front matter itself (the name is the proposal's, so the
//! model cannot rename what it installs), then the draft goes through the
//! same validation and scan as any skill installed by hand.

use std::path::Path;

use jarvis_protocol::Origin;
use jarvis_protocol::skills::Finding;
use tokio_util::sync::CancellationToken;

use crate::agent::context::{estimate_tokens, message_tokens};
use crate::agent::{BrainError, Inner};
use crate::llm::ChatMessage;
use crate::skills::install::{Staged, inspect};
use crate::store::ProposalRow;

const INSTRUCTIONS: &str = "You write Agent Skills: a SKILL.md whose body tells an assistant how to \
do one recurring job well. You are given requests a user made several times and the tools that served \
them. Reply in exactly this form, nothing before it:\n\
DESCRIPTION: one sentence saying what the skill does and when to use it (at most 200 characters)\n\
\n\
# A title\n\
Numbered steps the assistant follows, the tools to use, and what to ask the user when the request \
leaves something open. Keep it under 60 lines. Do not include the user's private specifics \
(names, file contents, quoted texts): the skill must serve the next request of the same kind.";

/// What the validator and the scan say of a draft, and how it differs
/// from the installed skill of that name.
pub struct Checked {
    pub problems: Vec<String>,
    pub findings: Vec<Finding>,
    pub diff: Option<String>,
}

/// Asks the model for the skill; returns the whole SKILL.md.
pub async fn write(inner: &Inner, p: &ProposalRow) -> Result<String, BrainError> {
    if let Some(why) = crate::budget::exhausted(inner) {
        return Err(BrainError::Other(format!("not drafted: {why}")));
    }
    let llm = inner.llm_ready(|_| {}).await?;
    let mut ask = format!("The requests ({}):\n", p.requests.len());
    for r in &p.requests {
        ask.push_str(&format!("- {r}\n"));
    }
    if p.tools.is_empty() {
        ask.push_str("\nNo tools were used: the assistant answered from its own knowledge.\n");
    } else {
        ask.push_str(&format!("\nTools used: {}\n", p.tools.join(", ")));
    }
    let messages = [ChatMessage::system(INSTRUCTIONS), ChatMessage::user(ask)];
    let answer = llm
        .stream_chat(&messages, &[], &CancellationToken::new(), &mut |_| {})
        .await?;
    let text = answer.content.clone().unwrap_or_default();
    let estimate = (
        messages.iter().map(message_tokens).sum::<u64>(),
        estimate_tokens(&text),
    );
    crate::budget::record(
        inner,
        Origin::Evolution,
        None,
        answer.usage.as_ref(),
        estimate,
    );
    Ok(skill_md(&p.name, &p.summary, &text))
}

/// The SKILL.md for `name` from the model's reply: the description line
/// it gave (or the proposal's summary), then its instructions.
pub fn skill_md(name: &str, summary: &str, reply: &str) -> String {
    let reply = reply
        .trim()
        .trim_start_matches("```markdown")
        .trim_start_matches("```");
    let reply = reply.trim_end_matches("```").trim();
    let (description, body) = match reply.lines().position(|l| {
        l.trim_start()
            .to_ascii_lowercase()
            .starts_with("description:")
    }) {
        Some(at) => {
            let lines: Vec<&str> = reply.lines().collect();
            let d = lines[at].trim_start()["description:".len()..]
                .trim()
                .to_string();
            (d, lines[at + 1..].join("\n"))
        }
        None => (String::new(), reply.to_string()),
    };
    let description = if description.is_empty() {
        format!("Use when the user asks to {summary}.")
    } else {
        description
    };
    // One line, at most 1,024 characters, single-quoted: YAML reads
    // nothing in it as an escape, and a quote is written twice.
    let description: String = description
        .replace(['\n', '\r'], " ")
        .chars()
        .take(1000)
        .collect::<String>()
        .replace('\'', "''");
    let body = body.trim();
    let body = if body.is_empty() {
        format!("# {name}\n\nDo what the user asks: {summary}.")
    } else {
        body.to_string()
    };
    format!("---\nname: {name}\ndescription: '{description}'\n---\n\n{body}\n")
}

/// A digest of the installed skill's whole folder (every file's path and
/// bytes, symlinks by their target), when there is one: a script edited
/// beside an unchanged SKILL.md changes it too.
pub fn target_sha(home: &Path, name: &str) -> Option<String> {
    let root = home.join("skills").join(name);
    if !root.is_dir() {
        return None;
    }
    let mut entries = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            // Unreadable: a digest of its own, so it never matches a draft's.
            return Some(format!("unreadable:{}", dir.display()));
        };
        for e in rd.flatten() {
            let p = e.path();
            let rel = p
                .strip_prefix(&root)
                .unwrap_or(&p)
                .to_string_lossy()
                .into_owned();
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(p),
                Ok(t) if t.is_symlink() => {
                    let to = std::fs::read_link(&p).unwrap_or_default();
                    entries.push((rel, format!("link:{}", to.display())));
                }
                _ => {
                    let d = crate::digest::sha256_file(&p).unwrap_or_else(|e| format!("error:{e}"));
                    entries.push((rel, d));
                }
            }
        }
    }
    entries.sort();
    let listing: String = entries.iter().map(|(p, d)| format!("{p}\0{d}\n")).collect();
    Some(crate::digest::sha256(listing.as_bytes()))
}

/// The installed skill's instructions (`SKILL.md`, or the lenient `skill.md`).
fn installed_text(home: &Path, name: &str) -> Option<String> {
    let dir = home.join("skills").join(name);
    ["SKILL.md", "skill.md"]
        .iter()
        .find_map(|f| std::fs::read_to_string(dir.join(f)).ok())
}

/// The draft in a folder of its own, inspected as an install would be.
pub fn stage(home: &Path, name: &str, text: &str) -> Result<Staged, BrainError> {
    let io = |e: std::io::Error| BrainError::Skill(format!("staging the draft: {e}"));
    let parent = home.join(".staging");
    std::fs::create_dir_all(&parent).map_err(io)?;
    let tmp = tempfile::Builder::new()
        .prefix("evolve-")
        .tempdir_in(&parent)
        .map_err(io)?;
    let dir = tmp.path().join(name);
    std::fs::create_dir_all(&dir).map_err(io)?;
    std::fs::write(dir.join("SKILL.md"), text).map_err(io)?;
    inspect(&dir, home).map_err(|e| BrainError::Skill(e.to_string()))
}

pub fn check(home: &Path, name: &str, text: &str) -> Result<Checked, BrainError> {
    let staged = stage(home, name, text)?;
    let old = installed_text(home, name);
    let diff = old.map(|old| {
        similar::TextDiff::from_lines(old.as_str(), text)
            .unified_diff()
            .context_radius(3)
            .header("installed", "draft")
            .to_string()
    });
    Ok(Checked {
        problems: staged.report.problems,
        findings: staged.report.findings,
        diff,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_front_matter_is_jarvis_own_and_the_body_the_models() {
        let md = skill_md(
            "french-translate",
            "translate into french",
            "```markdown\nDESCRIPTION: Translates text into French, keeping the tone.\n\n# French\n1. Ask for the text.\n```",
        );
        assert!(md.starts_with("---\nname: french-translate\ndescription: 'Translates text into French, keeping the tone.'\n---\n"), "{md}");
        assert!(md.contains("# French\n1. Ask for the text."), "{md}");
        let plain = skill_md("x-y", "sum the column", "");
        assert!(
            plain.contains("description: 'Use when the user asks to sum the column.'"),
            "{plain}"
        );
        // Quotes and backslashes from the model stay text, and valid YAML.
        let odd = skill_md(
            "x-y",
            "s",
            "DESCRIPTION: Don't \\d \"escape\" C:\\Temp\n# T\n1. Go.",
        );
        assert!(
            odd.contains("description: 'Don''t \\d \"escape\" C:\\Temp'"),
            "{odd}"
        );
        assert!(
            crate::skills::validate::validate_text(&odd, "x-y").is_empty(),
            "{odd}"
        );
        assert!(
            crate::skills::validate::validate_text(&plain, "x-y").is_empty(),
            "{plain}"
        );
    }
}
