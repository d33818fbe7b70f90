//! Do-not-disturb hours (`voice.do_not_disturb`, e.g. `22:00-07:00` in local
//! time): the brain reads and applies them, so nothing a service raises
//! interrupts the user in those hours.

use jiff::civil::Time;

/// A do-not-disturb window that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("voice.do_not_disturb {spec:?}: {why}")]
pub struct QuietError {
    pub spec: String,
    pub why: String,
}

/// Whether `now` falls in `spec` (`HH:MM-HH:MM`, may wrap past midnight;
/// empty: never). An unreadable spec is an error, not silence.
pub fn in_window(spec: &str, now: Time) -> Result<bool, QuietError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Ok(false);
    }
    let bad = |why: String| QuietError {
        spec: spec.to_string(),
        why,
    };
    let (from, to) = spec
        .split_once('-')
        .ok_or_else(|| bad("expected HH:MM-HH:MM, e.g. 22:00-07:00".into()))?;
    let parse = |t: &str| {
        Time::strptime("%H:%M", t.trim())
            .map_err(|e| bad(format!("{:?} is not a time of day ({e})", t.trim())))
    };
    let (from, to) = (parse(from)?, parse(to)?);
    Ok(if from <= to {
        from <= now && now < to
    } else {
        now >= from || now < to
    })
}

/// `in_window` at the local time now.
pub fn quiet_now(spec: &str) -> Result<bool, QuietError> {
    in_window(spec, jiff::ZonedDateTime::now().time())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(h: i8, m: i8) -> Time {
        Time::new(h, m, 0, 0).unwrap()
    }

    #[test]
    fn windows_may_wrap_past_midnight() {
        assert!(in_window("22:00-07:00", t(23, 30)).unwrap());
        assert!(in_window("22:00-07:00", t(6, 59)).unwrap());
        assert!(!in_window("22:00-07:00", t(7, 0)).unwrap());
        assert!(!in_window("22:00-07:00", t(12, 0)).unwrap());
        assert!(in_window("12:00-13:30", t(13, 0)).unwrap());
        assert!(!in_window("12:00-13:30", t(13, 30)).unwrap());
        assert!(!in_window("", t(3, 0)).unwrap());
    }

    #[test]
    fn a_bad_window_says_why() {
        let e = in_window("10pm to 7", t(1, 0)).unwrap_err().to_string();
        assert!(e.contains("HH:MM-HH:MM"), "{e}");
        assert!(in_window("25:00-07:00", t(1, 0)).is_err());
    }
}
