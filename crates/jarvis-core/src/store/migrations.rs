//! The one numbered list of schema changes. Each issue appends its own; a
//! migration never changes once it has shipped.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use super::StoreError;

const MIGRATIONS: &[&str] = &[
    // 1: sessions, messages, turns, audit, grants
    "CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    );
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL REFERENCES sessions(id),
        turn_id TEXT NOT NULL,
        role TEXT NOT NULL,
        content TEXT,
        tool_calls TEXT,
        tool_call_id TEXT,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX messages_session ON messages(session_id, id);
    CREATE TABLE turns (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        stop TEXT,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        total_tokens INTEGER,
        rounds INTEGER
    );
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        call_id TEXT NOT NULL,
        session_id TEXT,
        tool TEXT NOT NULL,
        arguments TEXT NOT NULL,
        verdict TEXT NOT NULL,
        reason TEXT NOT NULL,
        decided_by TEXT NOT NULL,
        outcome TEXT,
        duration_ms INTEGER
    );
    CREATE TABLE grants (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tool TEXT NOT NULL,
        scope TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (tool, scope)
    );",
    // 2: skill state (the skills issue)
    "CREATE TABLE skill_state (
        name TEXT PRIMARY KEY,
        enabled INTEGER NOT NULL DEFAULT 1,
        usage_count INTEGER NOT NULL DEFAULT 0,
        last_used INTEGER
    );",
    // 3: the services lease (the one-brain issue): one leader across processes
    "CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        heartbeat_at INTEGER NOT NULL
    );",
    // 4: summaries of the earlier part of long conversations (compaction);
    // the audit indexed for retention and the Runs view's pages
    "CREATE TABLE summaries (
        session_id TEXT PRIMARY KEY,
        through_turn TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX audit_at ON audit(at);
    CREATE INDEX audit_session ON audit(session_id, id);",
    // 5: background tasks and what was announced about them (the hub issue)
    "CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        origin TEXT NOT NULL,
        schedule_id TEXT,
        instruction TEXT NOT NULL,
        status TEXT NOT NULL,
        session_id TEXT NOT NULL,
        parent_session TEXT,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER,
        summary TEXT,
        reason TEXT,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        total_tokens INTEGER NOT NULL DEFAULT 0,
        report TEXT,
        report_topic TEXT,
        allow TEXT NOT NULL DEFAULT '[]',
        needs TEXT NOT NULL DEFAULT '[]',
        notify TEXT NOT NULL DEFAULT 'done_only',
        retry_of TEXT,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        runner TEXT,
        runner_pid INTEGER,
        runner_start INTEGER,
        heartbeat_at INTEGER
    );
    CREATE INDEX tasks_status ON tasks(status, created_at);
    CREATE INDEX tasks_created ON tasks(created_at);
    CREATE TABLE announcements (
        id TEXT PRIMARY KEY,
        task_id TEXT,
        status TEXT,
        text TEXT NOT NULL,
        at INTEGER NOT NULL,
        UNIQUE (task_id, status)
    );",
    // 6: schedules and their slots; a slot is run at most once, ever
    "CREATE TABLE schedules (
        id TEXT PRIMARY KEY,
        instruction TEXT NOT NULL,
        when_json TEXT NOT NULL,
        tz TEXT NOT NULL,
        next_run INTEGER,
        paused INTEGER NOT NULL DEFAULT 0,
        allow TEXT NOT NULL DEFAULT '[]',
        failures INTEGER NOT NULL DEFAULT 0,
        notify TEXT NOT NULL DEFAULT 'done_only',
        created_at INTEGER NOT NULL
    );
    CREATE INDEX schedules_due ON schedules(paused, next_run);
    CREATE TABLE schedule_runs (
        schedule_id TEXT NOT NULL,
        slot INTEGER NOT NULL,
        status TEXT NOT NULL,
        task_id TEXT,
        reason TEXT,
        at INTEGER NOT NULL,
        PRIMARY KEY (schedule_id, slot)
    );
    CREATE INDEX schedule_runs_task ON schedule_runs(task_id);",
    // 7: the usage ledger: every model request, by local day
    "CREATE TABLE usage_ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        day TEXT NOT NULL,
        origin TEXT NOT NULL,
        session_id TEXT,
        model TEXT NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        estimated INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL NOT NULL DEFAULT 0
    );
    CREATE INDEX usage_day ON usage_ledger(day);",
    // 8: what a follower needs to say an announcement the leader made
    "ALTER TABLE announcements ADD COLUMN session_id TEXT;
    ALTER TABLE announcements ADD COLUMN priority TEXT NOT NULL DEFAULT 'normal';
    ALTER TABLE announcements ADD COLUMN loud INTEGER NOT NULL DEFAULT 1;",
    // 9: Stop everything, and the hold on schedules it leaves until resumed
    "CREATE TABLE stops (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        by TEXT NOT NULL,
        resumed_at INTEGER
    );",
    // 10: what the agent did to files, so a turn or task can be undone:
    // the old bytes kept aside (`before_file`, none when there was no
    // file), and hashes of the file before and after (none: absent);
    // `path` is relative to `root`, the folder it was written beneath;
    // `lost`: the file existed but its old bytes could not be kept.
    "CREATE TABLE changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT,
        turn_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        root TEXT NOT NULL,
        path TEXT NOT NULL,
        before_file TEXT,
        before_sha TEXT,
        after_sha TEXT,
        lost INTEGER NOT NULL DEFAULT 0,
        at INTEGER NOT NULL,
        undone_at INTEGER
    );
    CREATE INDEX changes_turn ON changes (turn_id);
    CREATE INDEX changes_session ON changes (session_id);",
    // 11: which process runs a turn (its pid and that pid's start), so
    // another process can tell a turn running now from one a crash left
    // unfinished (undo leaves a running one alone)
    "ALTER TABLE turns ADD COLUMN pid INTEGER;
    ALTER TABLE turns ADD COLUMN pid_start INTEGER;",
    // 12: self-evolution. The user's requests with their terms (for the
    // repetition detector), the groups of similar ones, how often each
    // term occurs (`term = ''` counts the requests), the skill proposals
    // made from a group; and what Jarvis remembers of the user.
    "CREATE TABLE requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        turn_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        text TEXT NOT NULL,
        terms TEXT NOT NULL,
        tools TEXT NOT NULL DEFAULT '[]',
        group_id INTEGER
    );
    CREATE INDEX requests_group ON requests (group_id, at);
    CREATE INDEX requests_turn ON requests (turn_id);
    CREATE TABLE request_groups (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        terms TEXT NOT NULL,
        size INTEGER NOT NULL,
        last_at INTEGER NOT NULL
    );
    CREATE TABLE group_terms (
        term TEXT NOT NULL,
        group_id INTEGER NOT NULL,
        PRIMARY KEY (term, group_id)
    ) WITHOUT ROWID;
    CREATE TABLE term_df (term TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE proposals (
        id TEXT PRIMARY KEY,
        group_id INTEGER NOT NULL,
        status TEXT NOT NULL,
        name TEXT NOT NULL,
        summary TEXT NOT NULL,
        requests TEXT NOT NULL,
        tools TEXT NOT NULL,
        size_at INTEGER NOT NULL,
        draft TEXT,
        target_sha TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    );
    CREATE TABLE memory (
        id TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        kind TEXT NOT NULL,
        source TEXT NOT NULL,
        state TEXT NOT NULL,
        at INTEGER NOT NULL
    );
    ALTER TABLE skill_state ADD COLUMN made_by_jarvis INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE skill_state ADD COLUMN made_at INTEGER;
    ALTER TABLE skill_state ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE skill_state ADD COLUMN stale_since INTEGER;
    ALTER TABLE skill_state ADD COLUMN trashed_at INTEGER;
    CREATE TABLE marks (name TEXT PRIMARY KEY, at INTEGER NOT NULL);",
];

/// The schema this binary writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

pub fn refuse_newer(found: i64, path: &Path) -> Result<(), StoreError> {
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.display().to_string(),
            found,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(())
}

/// Brings the schema up to date. Each step runs in a `BEGIN IMMEDIATE`
/// transaction that re-reads the version inside it: two processes opening a
/// fresh home at once take turns (the busy timeout waits) and the second
/// finds the work done instead of failing on "table already exists".
pub fn apply(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    loop {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let current: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        refuse_newer(current, path)?;
        let Some(sql) = usize::try_from(current)
            .ok()
            .and_then(|c| MIGRATIONS.get(c))
        else {
            return Ok(());
        };
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", current + 1)?;
        tx.commit()?;
    }
}
