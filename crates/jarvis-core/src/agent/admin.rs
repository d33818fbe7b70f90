//! What hosts change, through the brain: settings, conversations, grants,
//! skills. The brain is the only writer of its state; each change is
//! applied before the call returns, so the next turn sees it in every host.

use std::path::PathBuf;

use super::{Brain, BrainError};
use crate::config::{Config, ConfigError};
use crate::skills::install::{InstallError, Staged};
use crate::skills::manage::{self, ManageError};
use crate::store::{AuditRow, TurnUsage};

impl From<ManageError> for BrainError {
    fn from(e: ManageError) -> Self {
        BrainError::Skill(e.to_string())
    }
}

impl From<InstallError> for BrainError {
    fn from(e: InstallError) -> Self {
        BrainError::Skill(e.to_string())
    }
}

/// At most this many audit rows in one answer; the rest is paged.
pub const MAX_AUDIT_PAGE: usize = 1000;

impl Brain {
    /// Sets one dotted key (`tools.exec`, `workdir`, …), validated, written
    /// atomically, and applied: a new working directory holds from the
    /// next call on.
    pub fn set_config(&self, key: &str, value: &str) -> Result<Config, BrainError> {
        self.update_config(|c| Ok(c.set(key, value)?))
    }

    /// Changes several settings at once, as one atomic write.
    pub fn update_config(
        &self,
        change: impl FnOnce(&mut Config) -> Result<(), ConfigError>,
    ) -> Result<Config, BrainError> {
        let inner = &self.inner;
        let cfg = inner.config_store.update(change)?;
        inner.skill_index.invalidate();
        inner.apply(cfg.clone())?;
        inner.kick_mcp();
        Ok(cfg)
    }

    /// Registers the MCP server project in `dir` (the user saw its server
    /// file first); its tools are offered from the next turn.
    pub fn register_mcp(
        &self,
        name: &str,
        dir: &std::path::Path,
        trusted: bool,
        network: bool,
    ) -> Result<crate::tools::mcp::Registration, BrainError> {
        let reg = crate::tools::mcp_projects::register(
            &self.inner.config_store,
            name,
            dir,
            trusted,
            network,
        )
        .map_err(|e| BrainError::Other(e.to_string()))?;
        self.reapply()?;
        Ok(reg)
    }

    /// True if a server of that name was configured.
    pub fn remove_mcp(&self, name: &str) -> Result<bool, BrainError> {
        let mut found = false;
        self.update_config(|c| {
            found = c.mcp_servers.remove(name).is_some();
            Ok(())
        })?;
        Ok(found)
    }

    /// Applies what is on disk now.
    fn reapply(&self) -> Result<(), BrainError> {
        let cfg = self.inner.config_store.load()?;
        self.inner.skill_index.invalidate();
        self.inner.apply(cfg)?;
        self.inner.kick_mcp();
        Ok(())
    }

    /// config.json as it is on disk now (the settings view).
    pub fn stored_config(&self) -> Result<Config, BrainError> {
        Ok(self.inner.config_store.load()?)
    }

    pub fn rename_session(&self, id: &str, title: &str) -> Result<(), BrainError> {
        Ok(self.inner.store.rename_session(id, title)?)
    }

    /// Deletes a conversation; not while a turn runs in it.
    pub fn delete_session(&self, id: &str) -> Result<(), BrainError> {
        if self.is_running(id) {
            return Err(BrainError::Busy(id.into()));
        }
        Ok(self.inner.store.delete_session(id)?)
    }

    pub fn grants(&self) -> Result<Vec<(String, String)>, BrainError> {
        Ok(self.inner.store.grants()?)
    }

    /// True if there was such a grant.
    pub fn revoke_grant(&self, tool: &str, scope: &str) -> Result<bool, BrainError> {
        Ok(self.inner.store.revoke_grant(tool, scope)?)
    }

    /// The newest audit rows, optionally of one tool.
    pub fn audit(&self, limit: usize, tool: Option<&str>) -> Result<Vec<AuditRow>, BrainError> {
        Ok(self.inner.store.audit(limit, tool)?)
    }

    /// One conversation's calls, newest first.
    pub fn session_audit(&self, session: &str, limit: usize) -> Result<Vec<AuditRow>, BrainError> {
        Ok(self
            .inner
            .store
            .session_audit(session, limit.min(MAX_AUDIT_PAGE))?)
    }

    pub fn turn_usage(&self, session: &str) -> Result<Vec<TurnUsage>, BrainError> {
        Ok(self.inner.store.turn_usage(session)?)
    }

    /// Uses of a skill so far, and when it was last used.
    pub fn skill_usage(&self, name: &str) -> Result<(i64, Option<i64>), BrainError> {
        let (_, count, last) = self.inner.store.skill_state(name)?;
        Ok((count, last))
    }

    /// Moves a skill to the trash (restorable); returns where it went.
    pub fn delete_skill(&self, name: &str) -> Result<PathBuf, BrainError> {
        let to = manage::delete(&self.inner.home, &self.skills(), name)?;
        self.inner.skill_index.invalidate();
        Ok(to)
    }

    /// Brings a skill back from the trash.
    pub fn restore_skill(&self, name: &str) -> Result<PathBuf, BrainError> {
        let to = manage::restore(&self.inner.home, name)?;
        self.inner.skill_index.invalidate();
        // Restored by the user's hand: it will not go stale again unless
        // Jarvis remakes it.
        self.inner.store.clear_made_by_jarvis(name)?;
        Ok(to)
    }

    /// Installs a staged, inspected skill the user confirmed. What sits
    /// under that name is the user's now, not a skill Jarvis made.
    pub fn install_skill(&self, staged: Staged, force: bool) -> Result<PathBuf, BrainError> {
        let name = staged.report.name.clone();
        let to = crate::skills::install::commit(staged, force)?;
        self.inner.skill_index.invalidate();
        self.inner.store.clear_made_by_jarvis(&name)?;
        Ok(to)
    }
}
