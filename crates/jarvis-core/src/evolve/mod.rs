//! Self-evolution: noticing the requests the user repeats and proposing a
//! skill for them (proposal first; apply is the only write to `skills/`),
//! keeping the skills Jarvis made tidy, remembering what the user says
//! about themselves, and an honest account of what Jarvis can do.

pub mod curator;
pub mod detect;
mod draft;
pub mod memory;
pub mod paraphrases;
pub mod reflect;
pub mod terms;

use std::path::PathBuf;
use std::sync::Arc;

use jarvis_protocol::evolve::ProposalInfo;
use jarvis_protocol::{Origin, Priority};

use crate::agent::{BrainError, Inner};
use crate::store::{ProposalRow, now_ms};
use crate::{Brain, announce};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

impl Inner {
    /// A change the user made (or confirmed) to what Jarvis keeps, in the
    /// audit beside the calls: who, what, when.
    pub(crate) fn audit_change(
        &self,
        tool: &str,
        session: Option<&str>,
        what: &str,
        reason: &str,
        by: &str,
    ) {
        let call = format!("{tool}-{}", uuid::Uuid::new_v4().simple());
        let entry = crate::store::AuditEntry {
            call_id: &call,
            session_id: session,
            tool,
            arguments: what,
            verdict: "allow",
            reason,
            decided_by: by,
        };
        match self.store.audit_begin(&entry) {
            Ok(id) => {
                let _ = self.store.audit_finish(id, "done", 0);
            }
            Err(e) => tracing::warn!("{tool}: audit: {e}"),
        }
    }
}

/// Whose words count as a request: the user's, typed or spoken, in a run
/// that asks them. A scheduled or unattended run's instruction does not.
/// A `jarvis` the agent itself ran (its environment says so) is not the user.
pub(crate) fn counts(origin: Origin, interactive: bool) -> bool {
    interactive
        && matches!(origin, Origin::Chat | Origin::Voice | Origin::Cli)
        && std::env::var_os(crate::tools::AGENT_EXEC_ENV).is_none()
}

/// Keeps a request the user made; errors are logged, never the turn's.
pub(crate) fn notice(inner: &Inner, session: &str, turn_id: &str, text: &str) {
    let cfg = inner.config().evolve;
    if let Err(e) = detect::observe(&inner.store, &cfg, session, turn_id, text) {
        tracing::warn!("evolve: could not keep the request: {e}");
    }
}

/// After the user's turn: the tools it used are kept with its request, and
/// its group may now be worth a proposal, said once.
pub(crate) fn after_turn(inner: &Arc<Inner>, turn_id: &str, tools: &[String]) {
    let run = || -> Result<Option<ProposalRow>, BrainError> {
        inner.store.record_request_tools(turn_id, tools)?;
        let Some(group) = inner.store.request_group(turn_id)? else {
            return Ok(None);
        };
        propose(inner, group)
    };
    match run() {
        Ok(Some(p)) => {
            let brain = Brain {
                inner: inner.clone(),
            };
            let text = format!(
                "You asked me to {} {} times. Shall I make a skill for it? (the Skills view, or `jarvis evolve accept {}`)",
                p.summary.trim_end_matches(['.', '?', '!']),
                p.requests.len(),
                p.id
            );
            announce::note(
                &brain,
                &format!("proposal:{}", p.id),
                text,
                Priority::Normal,
            );
        }
        Ok(None) => {}
        Err(e) => tracing::warn!("evolve: {e}"),
    }
}

/// The proposal a group earns now, recorded; `None` when it earns none.
fn propose(inner: &Inner, group: i64) -> Result<Option<ProposalRow>, BrainError> {
    let cfg = inner.config().evolve;
    if !cfg.enabled {
        return Ok(None);
    }
    let now = now_ms();
    let since = now - i64::from(cfg.window_days) * DAY_MS;
    let members = inner.store.group_members(group, since)?;
    let existing = inner.store.proposals()?;
    if detect::why_not(&cfg, &members, &existing, group, now).is_some() {
        return Ok(None);
    }
    let centre = inner.store.group_terms(group)?;
    let skills: Vec<(String, String)> = inner
        .enabled_skills()
        .skills
        .into_iter()
        .map(|s| (s.name, s.description))
        .collect();
    let mut needed: Vec<String> = centre.keys().cloned().collect();
    for (n, d) in &skills {
        needed.extend(terms::terms(&format!("{n} {d}")).into_keys());
    }
    let freq = inner
        .store
        .term_frequencies(needed.iter().map(String::as_str))?;
    if detect::covered_by(&freq, &centre, &skills, cfg.similarity).is_some() {
        return Ok(None);
    }
    let mut tools: Vec<String> = members.iter().flat_map(|m| m.tools.clone()).collect();
    tools.sort();
    tools.dedup();
    let taken: Vec<String> = skills
        .iter()
        .map(|(n, _)| n.clone())
        .chain(inner.skills().skills.into_iter().map(|s| s.name))
        .chain(existing.iter().map(|p| p.name.clone()))
        .collect();
    let p = ProposalRow {
        id: uuid::Uuid::new_v4().simple().to_string()[..8].to_string(),
        group_id: group,
        status: "pending".into(),
        name: unique(detect::suggested_name(&members), &taken),
        summary: detect::summary(&freq, &members, &centre),
        requests: members.iter().map(|m| m.text.clone()).collect(),
        tools,
        size_at: members.len() as i64,
        draft: None,
        target_sha: None,
        created_at: now,
        updated_at: now,
    };
    if !inner.store.insert_proposal(&p, now - DAY_MS)? {
        return Ok(None);
    }
    Ok(Some(p))
}

/// `name`, or `name-2`, `name-3`… when a skill or another proposal has it.
fn unique(name: String, taken: &[String]) -> String {
    if !taken.contains(&name) {
        return name;
    }
    (2..)
        .map(|i| format!("{name}-{i}"))
        .find(|n| !taken.contains(n))
        .unwrap_or(name)
}

fn info(p: ProposalRow) -> ProposalInfo {
    ProposalInfo {
        id: p.id,
        status: p.status,
        name: p.name,
        summary: p.summary,
        requests: p.requests,
        tools: p.tools,
        created_at: p.created_at,
        draft: p.draft,
        problems: vec![],
        findings: vec![],
        diff: None,
    }
}

impl Brain {
    /// Every proposal, newest first.
    pub fn proposals(&self) -> Result<Vec<ProposalInfo>, BrainError> {
        Ok(self
            .inner
            .store
            .proposals()?
            .into_iter()
            .map(info)
            .collect())
    }

    fn proposal_row(&self, id: &str) -> Result<ProposalRow, BrainError> {
        let all = self.inner.store.proposals()?;
        let mut hits = all
            .into_iter()
            .filter(|p| p.id.starts_with(id) && !id.is_empty());
        match (hits.next(), hits.next()) {
            (Some(p), None) => Ok(p),
            (Some(_), Some(_)) => Err(BrainError::Other(format!(
                "{id:?} names more than one proposal: give more of its id"
            ))),
            (None, _) => Err(BrainError::Other(format!("no proposal {id:?}"))),
        }
    }

    /// A proposal with its draft checked: the validator's problems, the
    /// scan's findings, and the difference from the skill it would
    /// replace.
    pub fn proposal(&self, id: &str) -> Result<ProposalInfo, BrainError> {
        let p = self.proposal_row(id)?;
        let checked = p
            .draft
            .as_deref()
            .map(|d| draft::check(&self.inner.home, &p.name, d))
            .transpose()?;
        let mut out = info(p);
        if let Some(c) = checked {
            out.problems = c.problems;
            out.findings = c.findings;
            out.diff = c.diff;
        }
        Ok(out)
    }

    /// Drafts the skill (one model request, counted in the budget) and
    /// keeps the draft for review; nothing is installed.
    pub async fn accept_proposal(&self, id: &str) -> Result<ProposalInfo, BrainError> {
        let mut p = self.proposal_row(id)?;
        if matches!(p.status.as_str(), "applied" | "dismissed") {
            return Err(BrainError::Other(format!(
                "proposal {} is {}: nothing to draft",
                p.id, p.status
            )));
        }
        let text = draft::write(&self.inner, &p).await?;
        p.target_sha = draft::target_sha(&self.inner.home, &p.name);
        p.draft = Some(text);
        p.status = "drafted".into();
        self.inner.store.update_proposal(&p)?;
        self.proposal(&p.id)
    }

    /// Installs the drafted skill through the install path (validated,
    /// scanned, moved in atomically; a skill it replaces goes to the
    /// trash). A target changed since the draft makes it `stale`.
    pub fn apply_proposal(&self, id: &str, by: &str) -> Result<PathBuf, BrainError> {
        let mut p = self.proposal_row(id)?;
        let Some(text) = p.draft.clone().filter(|_| p.status == "drafted") else {
            return Err(BrainError::Other(format!(
                "proposal {} is {}: accept it first (it drafts the skill for review)",
                p.id, p.status
            )));
        };
        if draft::target_sha(&self.inner.home, &p.name) != p.target_sha {
            p.status = "stale".into();
            self.inner.store.update_proposal(&p)?;
            return Err(BrainError::Other(format!(
                "the skill {} changed since the draft was made: proposal {} is stale; accept it again to redraft",
                p.name, p.id
            )));
        }
        // The scan re-runs at apply, on what is installed.
        let staged = draft::stage(&self.inner.home, &p.name, &text)?;
        if !staged.report.problems.is_empty() {
            return Err(BrainError::Skill(format!(
                "the draft does not validate: {}",
                staged.report.problems.join("; ")
            )));
        }
        if let Some(f) = staged.report.findings.first() {
            return Err(BrainError::Skill(format!(
                "the draft was refused by the install scan ({} at line {}: {}); accept it again to redraft",
                f.file, f.line, f.reason
            )));
        }
        let replacing = staged.report.exists;
        let to = self.install_skill(staged, replacing)?;
        self.inner.store.mark_made_by_jarvis(&p.name)?;
        p.status = "applied".into();
        self.inner.store.update_proposal(&p)?;
        let what = format!("apply proposal {}: install skill {}", p.id, p.name);
        let why = if replacing {
            "a proposed skill installed; the one it replaced is in the trash"
        } else {
            "a proposed skill installed"
        };
        self.inner.audit_change("evolve", None, &what, why, by);
        Ok(to)
    }

    /// Undoes an apply: the installed skill goes to the trash and the one it
    /// replaced, if any, comes back. The proposal counts as dismissed.
    pub fn rollback_proposal(&self, id: &str, by: &str) -> Result<PathBuf, BrainError> {
        let p = self.proposal_row(id)?;
        if p.status != "applied" {
            return Err(BrainError::Other(format!(
                "proposal {} is {}: only an applied one can be rolled back",
                p.id, p.status
            )));
        }
        let dir = self.inner.home.join("skills").join(&p.name);
        if !dir.is_dir() {
            return Err(BrainError::Other(format!(
                "the skill {} is no longer installed: nothing to roll back",
                p.name
            )));
        }
        let applied_at = p.updated_at;
        let home = &self.inner.home;
        let trashed = crate::skills::manage::to_trash(home, &p.name, &dir).map_err(|e| {
            BrainError::Other(format!("could not move {} to the trash: {e}", p.name))
        })?;
        // The copy the apply replaced was trashed at the apply, just before.
        if p.target_sha.is_some()
            && let Err(e) = crate::skills::manage::restore_before(home, &p.name, applied_at + 1)
        {
            // Put the applied one back rather than leave neither.
            let back = crate::skills::manage::restore(home, &p.name);
            self.inner.skill_index.invalidate();
            return Err(BrainError::Other(format!(
                "could not bring back the skill {} replaced ({e}){}",
                p.name,
                if back.is_ok() {
                    "; the applied one stays"
                } else {
                    "; both are in the trash (`jarvis skill restore`)"
                }
            )));
        }
        self.inner.skill_index.invalidate();
        self.inner.store.clear_made_by_jarvis(&p.name)?;
        self.dismiss(p.clone(), by)?;
        let what = format!("roll back proposal {}: skill {} to the trash", p.id, p.name);
        self.inner
            .audit_change("evolve", None, &what, "an applied proposal undone", by);
        Ok(trashed)
    }

    /// Not wanted: not proposed again until the group grows by as many
    /// requests again.
    pub fn dismiss_proposal(&self, id: &str, by: &str) -> Result<(), BrainError> {
        let p = self.proposal_row(id)?;
        if p.status == "applied" {
            return Err(BrainError::Other(format!(
                "proposal {} is applied: roll it back instead (`jarvis evolve rollback {}`)",
                p.id, p.id
            )));
        }
        self.dismiss(p, by)
    }

    fn dismiss(&self, mut p: ProposalRow, by: &str) -> Result<(), BrainError> {
        let now = now_ms();
        let since = now - i64::from(self.config().evolve.window_days) * DAY_MS;
        p.size_at = self.inner.store.group_members(p.group_id, since)?.len() as i64;
        p.status = "dismissed".into();
        self.inner.store.update_proposal(&p)?;
        let what = format!("dismiss proposal {} ({})", p.id, p.name);
        self.inner.audit_change(
            "evolve",
            None,
            &what,
            "not proposed again until asked for more",
            by,
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_name_in_use_gets_a_number() {
        let taken = ["translate".to_string(), "translate-2".to_string()];
        assert_eq!(super::unique("notes".into(), &taken), "notes");
        assert_eq!(super::unique("translate".into(), &taken), "translate-3");
    }
}
