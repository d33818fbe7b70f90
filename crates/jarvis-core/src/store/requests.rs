//! What the user asked for, kept to notice repetition: each request's
//! terms, the groups of similar requests, how often each term occurs (for
//! the inverse document frequency), and the skill proposals made from a
//! group. One transaction per request: two processes noticing at once do
//! not lose each other's counts.

use std::collections::{BTreeMap, BTreeSet};

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError, now_ms};
use crate::evolve::terms::{Frequencies, Terms};

/// A request to remember.
pub struct NewRequest<'a> {
    pub session_id: &'a str,
    pub turn_id: &'a str,
    pub text: &'a str,
    pub terms: &'a Terms,
    /// Groups last joined before this are not considered (ms).
    pub since: i64,
}

/// A group of similar requests, as the detector compares it.
#[derive(Debug, Clone)]
pub struct GroupRow {
    pub id: i64,
    /// The members' terms summed.
    pub terms: Terms,
    pub size: i64,
}

/// Where a request went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Observed {
    pub request_id: i64,
    pub group_id: i64,
}

/// One member of a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub session_id: String,
    pub text: String,
    pub tools: Vec<String>,
    pub at: i64,
}

/// A proposal as stored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ProposalRow {
    pub id: String,
    pub group_id: i64,
    /// `pending`, `drafted`, `applied`, `dismissed` or `stale`.
    pub status: String,
    pub name: String,
    pub summary: String,
    pub requests: Vec<String>,
    pub tools: Vec<String>,
    /// The group's size when proposed, or when dismissed.
    pub size_at: i64,
    pub draft: Option<String>,
    /// The installed skill's SKILL.md digest when the draft was made
    /// (`None`: there was none).
    pub target_sha: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

fn parse<T: serde::de::DeserializeOwned + Default>(s: &str) -> T {
    serde_json::from_str(s).unwrap_or_default()
}

const DOCS: &str = "";

/// Groups read as candidates for a request, at most.
const CANDIDATES: usize = 48;

impl Store {
    /// Records a request and puts it in a group: `pick` is given the term
    /// frequencies and every recent group that shares a term with it, and
    /// names the group it joins (`None`: a group of its own).
    pub fn observe_request(
        &self,
        req: &NewRequest<'_>,
        pick: impl FnOnce(&Frequencies, &[GroupRow]) -> Option<i64>,
    ) -> Result<Observed, StoreError> {
        self.with_conn(|conn| {
            let tx = conn.transaction()?;
            let at = now_ms();
            for t in req.terms.keys().map(String::as_str).chain([DOCS]) {
                tx.execute(
                    "INSERT INTO term_df (term, n) VALUES (?1, 1)
                     ON CONFLICT(term) DO UPDATE SET n = n + 1",
                    params![t],
                )?;
            }
            let mut groups = Vec::new();
            {
                // Groups sharing a term, the most shared first: the closest
                // group shares the most, so only the first few are read
                // (their terms are the cost of noticing a request).
                let mut shared: BTreeMap<i64, usize> = BTreeMap::new();
                let mut stmt = tx.prepare_cached(
                    "SELECT g.id FROM group_terms t JOIN request_groups g ON g.id = t.group_id
                     WHERE t.term = ?1 AND g.last_at >= ?2",
                )?;
                for t in req.terms.keys() {
                    for id in stmt.query_map(params![t, req.since], |r| r.get::<_, i64>(0))? {
                        *shared.entry(id?).or_insert(0) += 1;
                    }
                }
                let mut ranked: Vec<(i64, usize)> = shared.into_iter().collect();
                ranked.sort_by(|a, b| b.1.cmp(&a.1).then(b.0.cmp(&a.0)));
                let ids: Vec<i64> = ranked.into_iter().take(CANDIDATES).map(|(id, _)| id).collect();
                let mut load =
                    tx.prepare_cached("SELECT terms, size FROM request_groups WHERE id = ?1")?;
                for id in ids {
                    let (terms, size): (String, i64) =
                        load.query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
                    groups.push(GroupRow {
                        id,
                        terms: parse(&terms),
                        size,
                    });
                }
            }
            let mut freq = Frequencies::default();
            {
                let mut needed: BTreeSet<&str> = req.terms.keys().map(String::as_str).collect();
                for g in &groups {
                    needed.extend(g.terms.keys().map(String::as_str));
                }
                let mut df = tx.prepare_cached("SELECT n FROM term_df WHERE term = ?1")?;
                freq.docs = df
                    .query_row([DOCS], |r| r.get::<_, i64>(0))
                    .optional()?
                    .unwrap_or(0)
                    .max(0) as u64;
                for t in needed {
                    if let Some(n) = df.query_row([t], |r| r.get::<_, i64>(0)).optional()? {
                        freq.df.insert(t.to_string(), n.max(0) as u64);
                    }
                }
            }
            let chosen = pick(&freq, &groups).and_then(|id| groups.iter().find(|g| g.id == id));
            let group_id = match chosen {
                Some(g) => {
                    let mut sum = g.terms.clone();
                    for (k, n) in req.terms {
                        *sum.entry(k.clone()).or_insert(0) += n;
                    }
                    tx.execute(
                        "UPDATE request_groups SET terms = ?2, size = size + 1, last_at = ?3 WHERE id = ?1",
                        params![g.id, json(&sum), at],
                    )?;
                    g.id
                }
                None => {
                    tx.execute(
                        "INSERT INTO request_groups (terms, size, last_at) VALUES (?1, 1, ?2)",
                        params![json(req.terms), at],
                    )?;
                    tx.last_insert_rowid()
                }
            };
            for t in req.terms.keys() {
                tx.execute(
                    "INSERT OR IGNORE INTO group_terms (term, group_id) VALUES (?1, ?2)",
                    params![t, group_id],
                )?;
            }
            tx.execute(
                "INSERT INTO requests (session_id, turn_id, at, text, terms, group_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    req.session_id,
                    req.turn_id,
                    at,
                    req.text,
                    json(req.terms),
                    group_id
                ],
            )?;
            let request_id = tx.last_insert_rowid();
            tx.commit()?;
            Ok(Observed {
                request_id,
                group_id,
            })
        })
    }

    /// The tools a turn's calls used, kept with its request.
    pub fn record_request_tools(&self, turn_id: &str, tools: &[String]) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "UPDATE requests SET tools = ?2 WHERE turn_id = ?1",
                params![turn_id, json(&tools)],
            )?;
            Ok(())
        })
    }

    /// The group of a turn's request, if it made one.
    pub fn request_group(&self, turn_id: &str) -> Result<Option<i64>, StoreError> {
        self.with_conn(|conn| {
            Ok(conn
                .query_row(
                    "SELECT group_id FROM requests WHERE turn_id = ?1",
                    [turn_id],
                    |r| r.get(0),
                )
                .optional()?
                .flatten())
        })
    }

    /// A group's members since `since` (ms), oldest first.
    pub fn group_members(&self, group_id: i64, since: i64) -> Result<Vec<Member>, StoreError> {
        self.with_conn(|conn| {
            let mut stmt = conn.prepare(
                "SELECT session_id, text, tools, at FROM requests
                 WHERE group_id = ?1 AND at >= ?2 ORDER BY id",
            )?;
            let rows = stmt.query_map(params![group_id, since], |r| {
                Ok(Member {
                    session_id: r.get(0)?,
                    text: r.get(1)?,
                    tools: parse(&r.get::<_, String>(2)?),
                    at: r.get(3)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// A group's summed terms.
    pub fn group_terms(&self, group_id: i64) -> Result<Terms, StoreError> {
        self.with_conn(|conn| {
            let t: Option<String> = conn
                .query_row(
                    "SELECT terms FROM request_groups WHERE id = ?1",
                    [group_id],
                    |r| r.get(0),
                )
                .optional()?;
            Ok(t.map(|t| parse::<BTreeMap<String, u32>>(&t))
                .unwrap_or_default())
        })
    }

    /// The term frequencies of these terms (and the number of requests).
    pub fn term_frequencies<'a>(
        &self,
        terms: impl IntoIterator<Item = &'a str>,
    ) -> Result<Frequencies, StoreError> {
        self.with_conn(|conn| {
            let mut f = Frequencies::default();
            let mut df = conn.prepare_cached("SELECT n FROM term_df WHERE term = ?1")?;
            f.docs = df
                .query_row([DOCS], |r| r.get::<_, i64>(0))
                .optional()?
                .unwrap_or(0)
                .max(0) as u64;
            for t in terms {
                if let Some(n) = df.query_row([t], |r| r.get::<_, i64>(0)).optional()? {
                    f.df.insert(t.to_string(), n.max(0) as u64);
                }
            }
            Ok(f)
        })
    }

    /// Records a proposal unless, checked in the same write transaction (two
    /// processes may finish turns at once), its group already has an open
    /// one or any proposal was made since `not_since`. Returns whether it
    /// was recorded.
    pub fn insert_proposal(&self, p: &ProposalRow, not_since: i64) -> Result<bool, StoreError> {
        self.with_conn(|conn| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let busy: bool = tx
                .query_row(
                    "SELECT 1 FROM proposals WHERE (group_id = ?1
                        AND status IN ('pending', 'drafted', 'stale', 'applied'))
                        OR created_at >= ?2 LIMIT 1",
                    params![p.group_id, not_since],
                    |_| Ok(()),
                )
                .optional()?
                .is_some();
            if busy {
                return Ok(false);
            }
            tx.execute(
                "INSERT INTO proposals (id, group_id, status, name, summary, requests, tools,
                    size_at, draft, target_sha, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    p.id,
                    p.group_id,
                    p.status,
                    p.name,
                    p.summary,
                    json(&p.requests),
                    json(&p.tools),
                    p.size_at,
                    p.draft,
                    p.target_sha,
                    p.created_at,
                    p.updated_at
                ],
            )?;
            tx.commit()?;
            Ok(true)
        })
    }

    /// Changes a proposal's status, draft and target; the rest stays.
    pub fn update_proposal(&self, p: &ProposalRow) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "UPDATE proposals SET status = ?2, name = ?3, draft = ?4, target_sha = ?5,
                    size_at = ?6, updated_at = ?7 WHERE id = ?1",
                params![
                    p.id,
                    p.status,
                    p.name,
                    p.draft,
                    p.target_sha,
                    p.size_at,
                    now_ms()
                ],
            )?;
            Ok(())
        })
    }

    /// Proposals, newest first.
    pub fn proposals(&self) -> Result<Vec<ProposalRow>, StoreError> {
        self.with_conn(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, group_id, status, name, summary, requests, tools, size_at, draft,
                    target_sha, created_at, updated_at
                 FROM proposals ORDER BY created_at DESC, id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(ProposalRow {
                    id: r.get(0)?,
                    group_id: r.get(1)?,
                    status: r.get(2)?,
                    name: r.get(3)?,
                    summary: r.get(4)?,
                    requests: parse(&r.get::<_, String>(5)?),
                    tools: parse(&r.get::<_, String>(6)?),
                    size_at: r.get(7)?,
                    draft: r.get(8)?,
                    target_sha: r.get(9)?,
                    created_at: r.get(10)?,
                    updated_at: r.get(11)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }
}
