//! Schedules: instructions stored verbatim, run as tasks at their slots by
//! the services leader's tick. The tick takes the time it is given, so
//! tests run a year of slots in milliseconds.

pub mod tools;
pub mod when;

use jarvis_protocol::{Event, NotifyPolicy, Origin, ScheduleInfo, TaskInfo, TaskStatus, When};
use jiff::Timestamp;

use crate::Brain;
use crate::agent::BrainError;
use crate::store::{NewSchedule, Skip};
use crate::tasks::TaskRequest;

/// A slot later than this when a leader first sees it was missed: it is
/// recorded skipped, never run late.
pub const LATE_MS: i64 = 30_000;
/// Failures in a row that pause a schedule.
pub const MAX_FAILURES: u32 = 5;
/// Skipped slots recorded one by one per tick; the rest are counted.
const MAX_SKIP_ROWS: usize = 100;
/// Missed slots walked one by one before jumping to the first one ahead.
const MAX_CATCH_UP: u32 = 1_000;

/// What to schedule.
#[derive(Debug, Clone)]
pub struct ScheduleRequest {
    pub instruction: String,
    pub when: When,
    /// IANA zone; the user's when absent.
    pub tz: Option<String>,
    /// What its runs may do without a question (approved now).
    pub allow: Vec<String>,
    pub notify: NotifyPolicy,
}

/// What one tick did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TickReport {
    pub started: usize,
    pub skipped: usize,
}

fn err(e: impl std::fmt::Display) -> BrainError {
    BrainError::Other(e.to_string())
}

fn ts(ms: i64) -> Timestamp {
    Timestamp::from_millisecond(ms).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// A slot in the schedule's own zone, for people.
pub fn local(ms: i64, tz: &str) -> String {
    match when::time_zone(tz) {
        Ok(z) => ts(ms)
            .to_zoned_datetime(z)
            .strftime("%a %Y-%m-%d %H:%M %Z")
            .to_string(),
        Err(_) => ts(ms).to_string(),
    }
}

/// A slot as RFC 3339 with the zone's offset (`2026-12-07T09:00:00+01:00`).
pub fn rfc3339(ms: i64, tz: &str) -> String {
    match when::time_zone(tz) {
        Ok(z) => ts(ms)
            .to_zoned_datetime(z)
            .strftime("%Y-%m-%dT%H:%M:%S%:z")
            .to_string(),
        Err(_) => ts(ms).to_string(),
    }
}

impl Brain {
    pub fn create_schedule(&self, req: ScheduleRequest) -> Result<ScheduleInfo, BrainError> {
        self.create_schedule_at(req, Timestamp::now())
    }

    /// As [`Brain::create_schedule`], made at `now`.
    pub fn create_schedule_at(
        &self,
        req: ScheduleRequest,
        now: Timestamp,
    ) -> Result<ScheduleInfo, BrainError> {
        if req.instruction.trim().is_empty() {
            return Err(err("a schedule needs an instruction"));
        }
        crate::tasks::check_allow(&req.allow)?;
        let tz = req.tz.unwrap_or_else(when::local_zone_name);
        when::validate(&req.when, &tz).map_err(err)?;
        let next = when::next_after(&req.when, &tz, now, now).map_err(err)?;
        if next.at.is_none() {
            return Err(err("that time has passed: the schedule would never run"));
        }
        let s = self.inner.store.insert_schedule(&NewSchedule {
            id: uuid::Uuid::new_v4().to_string(),
            instruction: req.instruction,
            when: req.when,
            tz,
            next_run: next.at.map(Timestamp::as_millisecond),
            allow: req.allow,
            notify: req.notify,
            created_at: now.as_millisecond(),
        })?;
        self.schedule_changed(&s);
        Ok(s)
    }

    pub fn schedules(&self) -> Result<Vec<ScheduleInfo>, BrainError> {
        Ok(self.inner.store.schedules()?)
    }

    /// By id or a unique prefix of it.
    pub fn schedule(&self, id: &str) -> Result<ScheduleInfo, BrainError> {
        if let Some(s) = self.inner.store.schedule(id)? {
            return Ok(s);
        }
        let hits: Vec<ScheduleInfo> = self
            .schedules()?
            .into_iter()
            .filter(|s| id.len() >= 4 && s.id.starts_with(id))
            .collect();
        match hits.as_slice() {
            [only] => Ok(only.clone()),
            [] => Err(BrainError::Other(format!(
                "no schedule {id:?} (see `jarvis schedule list`)"
            ))),
            _ => Err(BrainError::Other(format!(
                "{id:?} names {} schedules; give more of the id",
                hits.len()
            ))),
        }
    }

    /// Every slot of a schedule so far, oldest first.
    pub fn schedule_runs(&self, id: &str) -> Result<Vec<jarvis_protocol::ScheduleRun>, BrainError> {
        let s = self.schedule(id)?;
        Ok(self.inner.store.schedule_runs(&s.id)?)
    }

    pub fn cancel_schedule(&self, id: &str) -> Result<ScheduleInfo, BrainError> {
        let s = self.schedule(id)?;
        self.inner.store.delete_schedule(&s.id)?;
        let mut gone = s.clone();
        gone.next_run = None;
        gone.paused = true;
        self.schedule_changed(&gone);
        Ok(gone)
    }

    /// Pauses, or resumes from the next slot after now (slots while paused
    /// are not run late).
    pub fn pause_schedule(&self, id: &str, paused: bool) -> Result<ScheduleInfo, BrainError> {
        let s = self.schedule(id)?;
        let next = if paused {
            s.next_run
        } else {
            let now = Timestamp::now();
            when::next_after(&s.when, &s.tz, ts(s.created_at), now)
                .map_err(err)?
                .at
                .map(Timestamp::as_millisecond)
        };
        self.inner.store.set_schedule_paused(&s.id, paused, next)?;
        let s = self.schedule(&s.id)?;
        self.schedule_changed(&s);
        Ok(s)
    }

    /// Changes what or when; the next slot is worked out again.
    pub fn edit_schedule(
        &self,
        id: &str,
        instruction: Option<String>,
        when: Option<When>,
        tz: Option<String>,
    ) -> Result<ScheduleInfo, BrainError> {
        let s = self.schedule(id)?;
        let instruction = instruction.unwrap_or(s.instruction);
        let when = when.unwrap_or(s.when);
        let tz = tz.unwrap_or(s.tz);
        when::validate(&when, &tz).map_err(err)?;
        let now = Timestamp::now();
        let next = when::next_after(&when, &tz, ts(s.created_at), now)
            .map_err(err)?
            .at
            .map(Timestamp::as_millisecond);
        self.inner
            .store
            .update_schedule(&s.id, &instruction, &when, &tz, next)?;
        let s = self.schedule(&s.id)?;
        self.schedule_changed(&s);
        Ok(s)
    }

    /// Runs the schedule's instruction now, as its slots would.
    pub fn run_schedule_now(&self, id: &str) -> Result<TaskInfo, BrainError> {
        let s = self.schedule(id)?;
        let slot = crate::store::now_ms();
        self.inner.store.record_manual_run(&s.id, slot)?;
        self.start_scheduled(&s, slot)
    }

    fn start_scheduled(&self, s: &ScheduleInfo, slot: i64) -> Result<TaskInfo, BrainError> {
        let started = self.start_task(TaskRequest {
            instruction: s.instruction.clone(),
            origin: Origin::Schedule,
            schedule_id: Some(s.id.clone()),
            allow: s.allow.clone(),
            notify: s.notify,
            ..Default::default()
        });
        let store = &self.inner.store;
        match &started {
            Ok(t) => {
                store.attach_schedule_task(&s.id, slot, Some(&t.id), t.status.as_str(), None)?
            }
            Err(e) => {
                store.attach_schedule_task(&s.id, slot, None, "refused", Some(&e.to_string()))?
            }
        }
        started
    }

    /// One tick of the scheduler at `now`: every due slot is either started
    /// (claimed first, so never twice) or, when it is more than a tick
    /// late, recorded skipped and not run.
    pub fn schedule_tick(&self, now: Timestamp) -> Result<TickReport, BrainError> {
        self.schedule_tick_since(now, now.as_millisecond() - LATE_MS)
    }

    /// As [`Brain::schedule_tick`], with the slots since `on_time_from`
    /// (ms) on time: a hub that ticked then could not have claimed them
    /// earlier, however long its tick took.
    pub fn schedule_tick_since(
        &self,
        now: Timestamp,
        on_time_from: i64,
    ) -> Result<TickReport, BrainError> {
        let now_ms = now.as_millisecond();
        let mut report = TickReport::default();
        // Stop everything holds every schedule: its slots pass, recorded
        // skipped, until the user resumes.
        let held = self.inner.store.stop_hold()?;
        for s in self.inner.store.due_schedules(now_ms, 1_000)? {
            let Some(slot) = s.next_run else { continue };
            let created = ts(s.created_at);
            let mut skips: Vec<Skip> = Vec::new();
            let mut unreadable = None;
            let mut skipped = 0usize;
            let mut cur = slot;
            let mut run = None;
            let mut steps = 0u32;
            let next = loop {
                steps += 1;
                let late = cur < on_time_from;
                if late || held.is_some() {
                    skipped += 1;
                    if skips.len() < MAX_SKIP_ROWS {
                        let reason = match &held {
                            Some(h) => format!(
                                "held by Stop everything ({}, {}); resume to run again",
                                h.by,
                                local(h.at, &s.tz)
                            ),
                            None => format!(
                                "Jarvis was not running at {}; not run late",
                                local(cur, &s.tz)
                            ),
                        };
                        skips.push(Skip { slot: cur, reason });
                    }
                } else {
                    run = Some(cur);
                }
                // After a long time closed, count no further: go to the
                // first slot that is not behind.
                let from = if steps > MAX_CATCH_UP {
                    ts(on_time_from.max(cur))
                } else {
                    ts(cur)
                };
                let n = match when::next_after(&s.when, &s.tz, created, from) {
                    Ok(n) => n,
                    Err(e) => {
                        unreadable = Some(e.to_string());
                        break s.next_run;
                    }
                };
                for (t, why) in n.skipped {
                    skipped += 1;
                    if skips.len() < MAX_SKIP_ROWS {
                        skips.push(Skip {
                            slot: t.as_millisecond(),
                            reason: why,
                        });
                    }
                }
                match n.at.map(Timestamp::as_millisecond) {
                    // Still behind: a slot missed while closed.
                    Some(t) if run.is_none() && t <= now_ms => cur = t,
                    other => break other,
                }
            };
            if let Some(why) = unreadable {
                // Not run and not lost: paused, with the reason said.
                tracing::warn!("schedule {}: {why}", s.id);
                self.pause_unreadable(&s, &why);
                continue;
            }
            if !self
                .inner
                .store
                .advance_schedule(&s.id, slot, next, &skips, run)?
            {
                // Another process moved it first.
                continue;
            }
            report.skipped += skipped;
            if let Some(at) = run {
                report.started += 1;
                if let Err(e) = self.start_scheduled(&s, at) {
                    tracing::warn!("schedule {}: {e}", s.id);
                }
            }
            if let Ok(s) = self.schedule(&s.id) {
                self.schedule_changed(&s);
            }
        }
        Ok(report)
    }

    fn pause_unreadable(&self, s: &ScheduleInfo, why: &str) {
        if let Err(e) = self
            .inner
            .store
            .set_schedule_paused(&s.id, true, s.next_run)
        {
            tracing::warn!("schedule {}: {e}", s.id);
            return;
        }
        crate::announce::note(
            self,
            &format!("unreadable:{}", s.id),
            format!(
                "I paused the schedule “{}”: its timing cannot be worked out ({why}).",
                crate::announce::short(&s.instruction)
            ),
            jarvis_protocol::Priority::High,
        );
        if let Ok(s) = self.schedule(&s.id) {
            self.schedule_changed(&s);
        }
    }

    pub(crate) fn schedule_changed(&self, s: &ScheduleInfo) {
        self.inner.events.emit(
            None,
            Event::ScheduleChanged {
                schedule: s.clone(),
            },
        );
    }
}

/// A scheduled task ended: its slot says how; five failures in a row pause
/// the schedule, and Jarvis says so.
pub(crate) fn task_ended(brain: &Brain, task: &TaskInfo) {
    let Some(id) = &task.schedule_id else { return };
    // Only the run's own failures count: not the budget, a cancel, or
    // Jarvis stopping under it.
    let ok = match task.status {
        TaskStatus::Failed | TaskStatus::TimedOut | TaskStatus::NeedsApproval => false,
        TaskStatus::Succeeded => true,
        _ => {
            if let Err(e) =
                brain
                    .inner
                    .store
                    .schedule_task_ended(id, &task.id, task.status.as_str(), None)
            {
                tracing::warn!("schedule {id}: {e}");
            }
            return;
        }
    };
    let failures =
        match brain
            .inner
            .store
            .schedule_task_ended(id, &task.id, task.status.as_str(), Some(ok))
        {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!("schedule {id}: {e}");
                return;
            }
        };
    if failures >= MAX_FAILURES
        && let Ok(s) = brain.pause_schedule(id, true)
    {
        crate::announce::note(
            brain,
            &format!("paused:{id}:{}", task.id),
            format!(
                "I paused the schedule “{}”: it failed {failures} times in a row. Resume it when it can run again.",
                crate::announce::short(&s.instruction)
            ),
            jarvis_protocol::Priority::High,
        );
    }
}
