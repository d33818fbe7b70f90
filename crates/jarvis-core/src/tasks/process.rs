//! Telling a live task runner from a dead one: its pid, and the moment that
//! process started (a reused pid belongs to a different start).

use crate::store::Runner;

/// This process, as a runner: its name is `pid N start S (tag)`, which
/// [`name_alive`] reads back.
pub fn this_runner() -> Runner {
    let pid = std::process::id();
    let start = start_time(pid);
    Runner {
        name: format!(
            "pid {pid} start {} ({})",
            start.unwrap_or(0),
            &uuid::Uuid::new_v4().simple().to_string()[..8]
        ),
        pid,
        start,
    }
}

/// Whether the process a runner or lease-holder name names is alive; a
/// name it cannot read counts as alive (its lease then simply expires).
pub fn name_alive(name: &str) -> bool {
    let mut words = name.split_whitespace();
    let (Some("pid"), Some(pid), Some("start"), Some(start)) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return true;
    };
    match (pid.parse::<u32>(), start.parse::<i64>()) {
        (Ok(pid), Ok(start)) => alive(pid, (start != 0).then_some(start)),
        _ => true,
    }
}

/// When the process started, in clock ticks since boot (`/proc/PID/stat`,
/// field 22); `None` where there is no `/proc`.
pub(crate) fn start_time(pid: u32) -> Option<i64> {
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
        assert!(name_alive(&me.name));
        assert!(!name_alive(&format!("pid {pid} start 5 (gone)")));
        assert!(
            name_alive("someone else"),
            "unreadable names wait for the expiry"
        );
    }
}
