//! A small, bounded memory of what the user said about themselves: their
//! preferences, facts, and when not to be disturbed. The user's own words
//! are kept; what Jarvis infers is only a suggestion until the user says
//! yes; text that came from a tool never becomes memory. Over the bound,
//! the oldest inferred items are archived (listed, not in the prompt); the
//! user's own items are never pushed out, so an add that would not fit
//! among them is refused with the room left. Every change is audited.

use jarvis_protocol::evolve::{MemoryItem, MemoryList};

use super::terms::{self, Frequencies};
use crate::Brain;
use crate::agent::{BrainError, Inner};
use crate::store::{MemoryRow, now_ms};

pub const KINDS: &[&str] = &["preference", "fact", "do_not_disturb"];

/// How alike two items must be to be one (plain cosine of their terms).
const SAME: f64 = 0.8;

fn norm(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(['.', '!', ';'])
        .to_lowercase()
}

fn chars(rows: &[&MemoryRow]) -> u32 {
    rows.iter().map(|r| r.text.chars().count() as u32).sum()
}

fn item(r: &MemoryRow) -> MemoryItem {
    MemoryItem {
        id: r.id.clone(),
        text: r.text.clone(),
        kind: r.kind.clone(),
        source: if r.state == "suggested" {
            "suggested".into()
        } else {
            r.source.clone()
        },
        at: r.at,
    }
}

/// The same item said again: exactly, or in nearly the same words with the
/// same specifics ("allergic to “latex”" is not "allergic to “penicillin”").
fn same(a: &str, b: &str) -> bool {
    norm(a) == norm(b)
        || specifics(a) == specifics(b)
            && Frequencies::default().cosine(&terms::terms(a), &terms::terms(b)) >= SAME
}

/// The words the terms leave out: quoted text, numbers, paths.
fn specifics(text: &str) -> std::collections::BTreeSet<String> {
    let words = |t: &str| -> std::collections::BTreeSet<String> {
        t.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let lower = text.to_lowercase();
    let kept = words(&terms::normalise(&lower));
    words(&lower)
        .into_iter()
        .filter(|w| !kept.contains(w))
        .collect()
}

/// The hours a do-not-disturb item names, as `voice.do_not_disturb`
/// spells them (`22:00-07:00`): "after 22:00" runs to 07:00, "before 8"
/// from midnight, "between 13:00 and 14:00" as said.
pub fn quiet_hours(text: &str) -> Option<String> {
    let l = text.to_lowercase();
    let times: Vec<(usize, String)> = clock_times(&l);
    let at = |w: &str| l.find(w);
    match times.as_slice() {
        [(_, a), (_, b), ..] => Some(format!("{a}-{b}")),
        [(pos, a)]
            if at("after").is_some_and(|p| p < *pos)
                || at("以后").is_some()
                || at("之后").is_some() =>
        {
            Some(format!("{a}-07:00"))
        }
        [(pos, a)] if at("before").is_some_and(|p| p < *pos) || at("之前").is_some() => {
            Some(format!("00:00-{a}"))
        }
        _ => None,
    }
}

/// Clock times in text: `22:00`, `9:30`, `10pm`, `7 am`, `22点`.
fn clock_times(l: &str) -> Vec<(usize, String)> {
    let b = l.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && b[i - 1].is_ascii_digit()) {
            i += 1;
            continue;
        }
        let start = i;
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let mut h: u32 = l[start..j].parse().unwrap_or(99);
        let mut m = 0;
        if b.get(j) == Some(&b':') {
            let k = j + 1;
            let mut e = k;
            while e < b.len() && b[e].is_ascii_digit() {
                e += 1;
            }
            m = l[k..e].parse().unwrap_or(99);
            j = e;
        }
        let rest = l[j..].trim_start();
        // "for 2 weeks", "3 days": a count, not a time of day.
        let counted = rest.starts_with(|c: char| c.is_alphabetic())
            && !["am", "a.m", "pm", "p.m", "o'clock", "oclock", "点", "时"]
                .iter()
                .any(|w| rest.starts_with(w));
        if counted && b.get(j) != Some(&b':') && !l[start..j].contains(':') {
            i = j;
            continue;
        }
        let clock = if rest.starts_with("pm") || rest.starts_with("p.m") {
            h = if h == 12 { 12 } else { h + 12 };
            true
        } else if rest.starts_with("am") || rest.starts_with("a.m") {
            h = if h == 12 { 0 } else { h };
            true
        } else {
            j > start + 2
                || l[..j].ends_with(|c: char| c.is_ascii_digit()) && b.get(j - 1) != Some(&b'x')
        };
        let zh = rest.starts_with('点');
        if (clock || zh || b.get(start.wrapping_sub(1)) == Some(&b' ')) && h < 24 && m < 60 {
            out.push((start, format!("{h:02}:{m:02}")));
        }
        i = j;
    }
    out
}

impl Inner {
    fn memory_config(&self) -> u32 {
        self.config().memory.max_chars.max(1)
    }

    fn audit_memory(&self, session: Option<&str>, what: &str, by: &str) {
        self.audit_change("memory", session, what, "memory changed", by);
    }

    /// Puts `new` in the memory (merged with an item it repeats), keeping
    /// the bound: older inferred items are archived to make room; the
    /// user's own never are.
    pub(crate) fn memory_put(
        &self,
        mut new: MemoryRow,
        by: &str,
    ) -> Result<MemoryItem, BrainError> {
        if new.text.trim().is_empty() {
            return Err(BrainError::Other(
                "nothing to remember: the text is empty".into(),
            ));
        }
        if !KINDS.contains(&new.kind.as_str()) {
            return Err(BrainError::Other(format!(
                "kind {:?}: one of {}",
                new.kind,
                KINDS.join(", ")
            )));
        }
        let max = self.memory_config();
        let rows = self.store.memory_rows()?;
        let mut delete = Vec::new();
        // A repeat replaces what it repeats (the newer words, the stronger
        // source) — except a suggestion, which never rewrites what the user
        // has: it is already remembered. An archived item merges with none.
        let repeats = rows.iter().find(|r| {
            r.id != new.id
                && r.state != "archived"
                && new.state != "archived"
                && same(&r.text, &new.text)
        });
        if let Some(old) = repeats {
            if new.state == "suggested" && old.state == "active" {
                return Ok(item(old));
            }
            delete.push(old.id.clone());
            if old.source == "user" {
                new.source = "user".into();
            }
        }
        let mut upsert = vec![];
        if new.state == "active" {
            let kept: Vec<&MemoryRow> = rows
                .iter()
                .filter(|r| r.state == "active" && r.id != new.id && !delete.contains(&r.id))
                .collect();
            let size = new.text.chars().count() as u32;
            let users: Vec<&MemoryRow> = kept
                .iter()
                .copied()
                .filter(|r| r.source == "user")
                .collect();
            let room = max.saturating_sub(chars(&users));
            if size > room {
                return Err(BrainError::Other(format!(
                    "the memory is full: what you told me takes {} of {max} characters, {room} are left and this needs {size}; forget something first (`jarvis memory forget ID`) or raise memory.max_chars",
                    chars(&users)
                )));
            }
            // Oldest inferred items out first until it fits.
            let mut inferred: Vec<&MemoryRow> = kept
                .iter()
                .copied()
                .filter(|r| r.source != "user")
                .collect();
            inferred.sort_by_key(|r| r.at);
            let mut total = chars(&kept) + size;
            for r in inferred {
                if total <= max {
                    break;
                }
                total -= r.text.chars().count() as u32;
                upsert.push(MemoryRow {
                    state: "archived".into(),
                    ..r.clone()
                });
            }
        }
        upsert.push(new.clone());
        self.store.memory_apply(&upsert, &delete)?;
        self.audit_memory(
            None,
            &serde_json::json!({"put": new.text, "kind": new.kind, "state": new.state}).to_string(),
            by,
        );
        if new.kind == "do_not_disturb" && new.state == "active" {
            self.apply_quiet_hours(&new.text)?;
        }
        Ok(item(&new))
    }

    /// A confirmed do-not-disturb item sets the announcer's quiet hours.
    fn apply_quiet_hours(&self, text: &str) -> Result<(), BrainError> {
        if let Some(hours) = quiet_hours(text) {
            let cfg = self.config_store.update(|c| {
                c.voice.do_not_disturb = hours;
                Ok(())
            })?;
            self.apply(cfg)?;
        }
        Ok(())
    }

    /// The memory for the system prompt: the active items, one a line,
    /// within the bound even when it was lowered since (the user's own
    /// first, then the newest confirmed).
    pub(crate) fn memory_section(&self) -> String {
        let rows = self.store.memory_rows().unwrap_or_default();
        let active = within_bound(&rows, self.memory_config());
        if active.is_empty() {
            return String::new();
        }
        let mut s = String::from(
            "What the user told you about themselves (their preferences: follow them):\n",
        );
        for r in active {
            s.push_str(&format!("- {} ({})\n", r.text, r.kind.replace('_', " ")));
        }
        s
    }
}

/// The active items the bound lets into the prompt, in their order.
fn within_bound(rows: &[MemoryRow], max: u32) -> Vec<&MemoryRow> {
    let mut ranked: Vec<&MemoryRow> = rows.iter().filter(|r| r.state == "active").collect();
    ranked.sort_by_key(|r| (r.source != "user", std::cmp::Reverse(r.at)));
    let mut room = max;
    let keep: Vec<&str> = ranked
        .into_iter()
        .filter(|r| {
            let n = r.text.chars().count() as u32;
            let fits = n <= room;
            if fits {
                room -= n;
            }
            fits
        })
        .map(|r| r.id.as_str())
        .collect();
    rows.iter()
        .filter(|r| r.state == "active" && keep.contains(&r.id.as_str()))
        .collect()
}

impl Brain {
    /// Everything remembered: in the prompt, suggested, archived.
    pub fn memory(&self) -> Result<MemoryList, BrainError> {
        let rows = self.inner.store.memory_rows()?;
        let of = |state: &str| -> Vec<MemoryItem> {
            rows.iter().filter(|r| r.state == state).map(item).collect()
        };
        let max = self.inner.memory_config();
        let shown = within_bound(&rows, max);
        let items: Vec<MemoryItem> = shown.iter().map(|r| item(r)).collect();
        // Active but past a bound lowered since: not in the prompt either.
        let over = rows
            .iter()
            .filter(|r| r.state == "active" && !shown.iter().any(|s| s.id == r.id))
            .map(item);
        Ok(MemoryList {
            max_chars: max,
            used_chars: items.iter().map(|i| i.text.chars().count() as u32).sum(),
            items,
            suggested: of("suggested"),
            archived: over.chain(of("archived")).collect(),
        })
    }

    /// The user's own words, kept.
    pub fn memory_add(&self, text: &str, kind: &str, by: &str) -> Result<MemoryItem, BrainError> {
        let row = MemoryRow {
            id: uuid::Uuid::new_v4().simple().to_string()[..8].to_string(),
            text: text.trim().to_string(),
            kind: kind.to_string(),
            source: "user".into(),
            state: "active".into(),
            at: now_ms(),
        };
        self.inner.memory_put(row, by)
    }

    fn memory_row(&self, id: &str) -> Result<MemoryRow, BrainError> {
        let rows = self.inner.store.memory_rows()?;
        let mut hits = rows
            .into_iter()
            .filter(|r| !id.is_empty() && r.id.starts_with(id));
        match (hits.next(), hits.next()) {
            (Some(r), None) => Ok(r),
            (Some(_), Some(_)) => Err(BrainError::Other(format!(
                "{id:?} names more than one item"
            ))),
            (None, _) => Err(BrainError::Other(format!("nothing remembered as {id:?}"))),
        }
    }

    /// New words for an item; it stays what it was.
    pub fn memory_edit(&self, id: &str, text: &str, by: &str) -> Result<MemoryItem, BrainError> {
        let r = self.memory_row(id)?;
        self.inner.memory_put(
            MemoryRow {
                text: text.trim().to_string(),
                at: now_ms(),
                ..r
            },
            by,
        )
    }

    /// A suggestion the user agrees with goes into the prompt (an item
    /// the user said stays theirs).
    pub fn memory_confirm(&self, id: &str, by: &str) -> Result<MemoryItem, BrainError> {
        let r = self.memory_row(id)?;
        let source = if r.source == "user" {
            "user"
        } else {
            "confirmed"
        };
        self.inner.memory_put(
            MemoryRow {
                source: source.into(),
                state: "active".into(),
                ..r
            },
            by,
        )
    }

    /// Gone for good (an archived item too).
    pub fn memory_forget(&self, id: &str, by: &str) -> Result<MemoryItem, BrainError> {
        let r = self.memory_row(id)?;
        self.inner
            .store
            .memory_apply(&[], std::slice::from_ref(&r.id))?;
        self.inner
            .audit_memory(None, &serde_json::json!({"forget": r.text}).to_string(), by);
        // The quiet hours it set go with it.
        let hours = quiet_hours(&r.text);
        if r.kind == "do_not_disturb"
            && r.state == "active"
            && hours.is_some_and(|h| h == self.config().voice.do_not_disturb)
        {
            let cfg = self.inner.config_store.update(|c| {
                c.voice.do_not_disturb = String::new();
                Ok(())
            })?;
            self.inner.apply(cfg)?;
        }
        Ok(item(&r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_hours_come_from_the_words() {
        assert_eq!(
            quiet_hours("Don't disturb me after 22:00").as_deref(),
            Some("22:00-07:00")
        );
        assert_eq!(
            quiet_hours("no announcements after 10pm").as_deref(),
            Some("22:00-07:00")
        );
        assert_eq!(
            quiet_hours("quiet between 13:00 and 14:30 please").as_deref(),
            Some("13:00-14:30")
        );
        assert_eq!(
            quiet_hours("not before 8am").as_deref(),
            Some("00:00-08:00")
        );
        assert_eq!(
            quiet_hours("晚上22点以后别打扰我").as_deref(),
            Some("22:00-07:00")
        );
        assert_eq!(quiet_hours("I like tea"), None);
        assert_eq!(
            quiet_hours("no calls after 22:00 for 2 weeks").as_deref(),
            Some("22:00-07:00")
        );
    }

    #[test]
    fn repeats_are_the_same_item() {
        assert!(same("I prefer metric units.", "i prefer metric units"));
        assert!(same(
            "Always answer in French",
            "always answer me in French"
        ));
        assert!(!same("I prefer metric units", "I live in Oslo"));
        assert!(!same("Allergic to \"penicillin\"", "Allergic to \"latex\""));
        assert!(same("Allergic to \"latex\".", "allergic to \"latex\""));
    }

    fn row(id: &str, text: &str, source: &str, at: i64) -> MemoryRow {
        MemoryRow {
            id: id.into(),
            text: text.into(),
            kind: "fact".into(),
            source: source.into(),
            state: "active".into(),
            at,
        }
    }

    #[test]
    fn a_lowered_bound_keeps_the_users_own_then_the_newest() {
        let rows = [
            row("a", "0123456789", "confirmed", 1),
            row("b", "0123456789", "user", 2),
            row("c", "0123456789", "confirmed", 3),
        ];
        let ids = |max| {
            within_bound(&rows, max)
                .iter()
                .map(|r| r.id.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(30), ["a", "b", "c"]);
        assert_eq!(ids(20), ["b", "c"]);
        assert_eq!(ids(9), Vec::<String>::new());
    }
}
