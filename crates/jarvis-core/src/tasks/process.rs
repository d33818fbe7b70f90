//! Telling a live task runner from a dead one: its pid, and the moment that
//! process started (a reused pid belongs to a different start).

use crate::store::Runner;

/// This process, as a runner.
pub fn this_runner() -> Runner {
    let pid = std::process::id();
    Runner {
        name: format!(
            "pid {pid} ({})",
            &uuid::Uuid::new_v4().simple().to_string()[..8]
        ),
        pid,
        start: start_time(pid),
    }
}

/// When the process started, in clock ticks since boot (`/proc/PID/stat`,
/// field 22); `None` where there is no `/proc`.
fn start_time(pid: u32) -> Option<i64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: count after the last `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the runner that claimed a task is still the same live process.
/// Without `/proc` it cannot tell and says yes (the heartbeat decides).
pub fn alive(pid: u32, start: Option<i64>) -> bool {
    if !std::path::Path::new("/proc/self/stat").exists() {
        return true;
    }
    match start_time(pid) {
        None => false,
        Some(now) => start.is_none_or(|s| s == now),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_dead_one_is_not() {
        let me = this_runner();
        assert!(alive(me.pid, me.start));
        // Same pid, another start: a reused pid is not the runner.
        assert!(!alive(me.pid, me.start.map(|s| s + 1)));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!alive(pid, None));
    }
}
