//! Notice → propose: each request the user makes (in chat, by voice or in
//! the terminal; never a scheduled or unattended run's) joins the group of
//! similar ones, and a group that reached enough requests over enough
//! conversations, that no enabled skill already covers, becomes one skill
//! proposal. Nothing is written to `skills/` here.

use jarvis_protocol::settings::EvolveConfig;

use super::terms::{self, Frequencies, Terms};
use crate::store::{GroupRow, Member, NewRequest, ProposalRow, Store, StoreError};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The group a request joins: the most similar recent one, when it is
/// similar enough; `None` for a group of its own. The similarity is the
/// TF-IDF cosine against the group's summed terms.
pub fn closest(freq: &Frequencies, groups: &[GroupRow], t: &Terms, threshold: f64) -> Option<i64> {
    groups
        .iter()
        .map(|g| (g.id, freq.cosine(t, &g.terms)))
        .filter(|(_, s)| *s >= threshold)
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(id, _)| id)
}

/// Distinct terms a request needs to be grouped.
const MIN_TERMS: usize = 2;

/// Records one request; returns its group, or `None` when it had too little
/// to group by (under two words left once specifics and filler are out).
pub fn observe(
    store: &Store,
    cfg: &EvolveConfig,
    session_id: &str,
    turn_id: &str,
    text: &str,
) -> Result<Option<i64>, StoreError> {
    let t = terms::terms(text);
    // One word left ("run something" → run) says too little to make a
    // skill from, and would group with every other request using it.
    if t.len() < MIN_TERMS || !cfg.enabled {
        return Ok(None);
    }
    let since = crate::store::now_ms() - i64::from(cfg.window_days) * DAY_MS;
    let req = NewRequest {
        session_id,
        turn_id,
        text,
        terms: &t,
        since,
    };
    let threshold = cfg.similarity;
    let seen = store.observe_request(&req, |freq, groups| closest(freq, groups, &t, threshold))?;
    Ok(Some(seen.group_id))
}

/// A skill that already does what a group asks for: its name and
/// description are as similar to the group's requests as a request would
/// have to be to join it.
pub fn covered_by<'a>(
    freq: &Frequencies,
    group: &Terms,
    skills: &'a [(String, String)],
    threshold: f64,
) -> Option<&'a str> {
    skills
        .iter()
        .find(|(name, description)| {
            let t = terms::terms(&format!("{} {description}", name.replace(['-', '_'], " ")));
            freq.cosine(&t, group) >= threshold
        })
        .map(|(n, _)| n.as_str())
}

/// Why a group gets no proposal now; `None` when it does.
pub fn why_not(
    cfg: &EvolveConfig,
    members: &[Member],
    existing: &[ProposalRow],
    group_id: i64,
    now: i64,
) -> Option<String> {
    let n = members.len() as i64;
    if n < i64::from(cfg.min_requests) {
        return Some(format!("{n} of {} requests", cfg.min_requests));
    }
    let sessions: std::collections::BTreeSet<&str> =
        members.iter().map(|m| m.session_id.as_str()).collect();
    if sessions.len() < cfg.min_sessions as usize {
        return Some(format!(
            "asked in {} of {} conversations",
            sessions.len(),
            cfg.min_sessions
        ));
    }
    let mine: Vec<&ProposalRow> = existing.iter().filter(|p| p.group_id == group_id).collect();
    if mine.iter().any(|p| {
        matches!(
            p.status.as_str(),
            "pending" | "drafted" | "stale" | "applied"
        )
    }) {
        return Some("a proposal for it exists".into());
    }
    // Dismissed: not again until as many new requests came since (counted
    // from the dismissal, not in the window, which ages old ones out).
    if let Some(d) = mine
        .iter()
        .filter(|p| p.status == "dismissed")
        .map(|p| p.updated_at)
        .max()
    {
        let since = members.iter().filter(|m| m.at > d).count() as i64;
        if since < i64::from(cfg.min_requests) {
            return Some(format!("dismissed; {since} requests since"));
        }
    }
    if existing.iter().any(|p| now - p.created_at < DAY_MS) {
        return Some("one proposal a day at most".into());
    }
    None
}

/// A name for the skill: the group's most frequent words (whole, as the
/// user wrote them), lower-case, joined by `-`, as the Agent Skills spec
/// wants names.
pub fn suggested_name(members: &[Member]) -> String {
    let mut counts: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for (i, m) in members.iter().enumerate() {
        let norm = terms::normalise(&m.text);
        let words: std::collections::BTreeSet<String> = norm
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() >= 3 && !terms::is_filler(w))
            .map(str::to_string)
            .collect();
        for w in words {
            let e = counts.entry(w).or_insert((0, i));
            e.0 += 1;
        }
    }
    let mut ranked: Vec<(String, (usize, usize))> = counts.into_iter().collect();
    ranked.sort_by(|a, b| {
        b.1.0
            .cmp(&a.1.0)
            .then(a.1.1.cmp(&b.1.1))
            .then(a.0.cmp(&b.0))
    });
    let name: Vec<String> = ranked
        .into_iter()
        .filter(|(w, _)| w.chars().all(|c| c.is_ascii_alphanumeric()))
        .take(2)
        .map(|(w, _)| w)
        .collect();
    if name.is_empty() {
        "repeated-request".into()
    } else {
        name.join("-")
    }
}

/// The request that says it best: the member closest to the group's centre.
pub fn summary(freq: &Frequencies, members: &[Member], centre: &Terms) -> String {
    members
        .iter()
        .map(|m| (freq.cosine(&terms::terms(&m.text), centre), m))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, m)| said_back(&m.text))
        .unwrap_or_default()
}

/// Politeness around a request, taken off when it is said back.
const OPENINGS: &[&str] = &[
    "jarvis",
    "hey",
    "please",
    "pls",
    "can you",
    "could you",
    "would you",
    "will you",
    "i want you to",
    "i need you to",
    "i'd like you to",
    "help me",
    "请",
    "帮我",
    "麻烦你",
    "麻烦",
    "能不能",
    "可以",
];
const ENDINGS: &[&str] = &["please", "for me", "吧", "谢谢"];

/// The request as it can follow "You asked me to …": its specifics out,
/// its politeness off, the user's own capitals kept.
fn said_back(text: &str) -> String {
    let mut s = terms::without_specifics(text);
    let trim = |s: &str| {
        s.trim_matches(|c: char| c.is_whitespace() || ",.;:!?，。；：！？、".contains(c))
            .to_string()
    };
    loop {
        let before = s.clone();
        s = trim(&s);
        for w in OPENINGS {
            let head = s.get(..w.len()).is_some_and(|h| h.eq_ignore_ascii_case(w));
            let rest = s.get(w.len()..).unwrap_or_default();
            // A whole word: "please" opens "please translate", not "pleased".
            if head
                && rest
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_ascii_alphanumeric())
            {
                s = rest.to_string();
            }
        }
        for w in ENDINGS {
            let cut = s.len().saturating_sub(w.len());
            if s.len() >= w.len() && s.get(cut..).is_some_and(|t| t.eq_ignore_ascii_case(w)) {
                s.truncate(cut);
            }
        }
        s = trim(&s);
        if s == before {
            break;
        }
    }
    let mut chars = s.chars();
    match chars.next() {
        // "Translate" → "translate"; "French", "I" and acronyms stay.
        Some(c) if c.is_uppercase() && chars.clone().next().is_some_and(char::is_lowercase) => {
            c.to_lowercase().chain(chars).collect()
        }
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(session: &str, text: &str) -> Member {
        Member {
            session_id: session.into(),
            text: text.into(),
            tools: vec![],
            at: 0,
        }
    }

    fn cfg() -> EvolveConfig {
        EvolveConfig::default()
    }

    #[test]
    fn a_request_that_says_one_thing_or_nothing_is_not_grouped() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("jarvis.db")).unwrap();
        let seen = |t: &str| observe(&store, &cfg(), "s", t, t).unwrap();
        assert_eq!(seen("run something"), None);
        assert_eq!(seen("run another"), None);
        assert_eq!(seen("“quoted only” ~/x.txt"), None);
        assert!(seen("run the test suite").is_some());
    }

    #[test]
    fn a_dismissed_group_waits_for_three_requests_after_the_dismissal() {
        let at = |session: &str, at: i64| Member {
            at,
            ..member(session, "x")
        };
        let dismissed = ProposalRow {
            id: "p".into(),
            group_id: 1,
            status: "dismissed".into(),
            name: "n".into(),
            summary: String::new(),
            requests: vec![],
            tools: vec![],
            size_at: 5,
            draft: None,
            target_sha: None,
            created_at: 0,
            updated_at: 100,
        };
        let now = 10 * DAY_MS;
        // Two old requests aged out of the window, two came since: not yet.
        let two = [at("a", 150), at("b", 160), at("a", 50)];
        assert!(why_not(&cfg(), &two, std::slice::from_ref(&dismissed), 1, now).is_some());
        let three = [at("a", 150), at("b", 160), at("a", 170)];
        assert_eq!(
            why_not(&cfg(), &three, std::slice::from_ref(&dismissed), 1, now),
            None
        );
    }

    #[test]
    fn a_request_is_said_back_without_its_specifics_or_politeness() {
        assert_eq!(
            said_back("Please translate 'good morning everyone' into French, please!"),
            "translate into French"
        );
        assert_eq!(
            said_back("Can you translate my notes into French? “Launch is on track”"),
            "translate my notes into French"
        );
        assert_eq!(
            said_back("请把这段话翻译成英文：「会议改到周五」"),
            "把这段话翻译成英文"
        );
        assert_eq!(said_back("PDF to text for ~/a.pdf"), "PDF to text for");
        assert_eq!(said_back("pleased to summarise"), "pleased to summarise");
    }

    #[test]
    fn a_group_needs_three_requests_in_two_conversations_and_no_proposal_yet() {
        let one = [member("a", "x"), member("a", "y"), member("a", "z")];
        assert!(
            why_not(&cfg(), &one[..2], &[], 1, 0)
                .unwrap()
                .contains("2 of 3")
        );
        assert!(
            why_not(&cfg(), &one, &[], 1, 0)
                .unwrap()
                .contains("conversations")
        );
        let two = [member("a", "x"), member("b", "y"), member("a", "z")];
        assert_eq!(why_not(&cfg(), &two, &[], 1, 10 * DAY_MS), None);
        let p = ProposalRow {
            id: "p".into(),
            group_id: 1,
            status: "dismissed".into(),
            name: "n".into(),
            summary: String::new(),
            requests: vec![],
            tools: vec![],
            size_at: 3,
            draft: None,
            target_sha: None,
            created_at: 0,
            updated_at: 0,
        };
        assert!(
            why_not(&cfg(), &two, std::slice::from_ref(&p), 1, 10 * DAY_MS)
                .unwrap()
                .contains("dismissed")
        );
        // Three more after the dismissal (made at 0).
        let six: Vec<Member> = (0..6)
            .map(|i| Member {
                at: i,
                ..member(if i % 2 == 0 { "a" } else { "b" }, "t")
            })
            .collect();
        assert_eq!(
            why_not(&cfg(), &six, std::slice::from_ref(&p), 1, 10 * DAY_MS),
            None
        );
        // Another group's proposal made today holds this one back a day.
        let today = ProposalRow {
            group_id: 2,
            status: "pending".into(),
            created_at: 10 * DAY_MS - 1000,
            ..p
        };
        assert!(
            why_not(&cfg(), &two, &[today], 1, 10 * DAY_MS)
                .unwrap()
                .contains("a day")
        );
    }

    #[test]
    fn names_come_from_the_words_the_user_repeats() {
        let m = [
            member("a", "Translate this paragraph into French"),
            member("b", "Please translate \"good morning\" into French"),
            member("a", "Can you translate my notes into French?"),
        ];
        assert_eq!(suggested_name(&m), "french-translate");
    }
}
