//! When a schedule's slots fall: the calendar is jiff's (time zones,
//! daylight saving) and cron's is croner's; this module only says which
//! instants count. A local time that does not exist on a day (clocks go
//! forward) is skipped with the reason; one that happens twice (clocks go
//! back) runs once, at the first.

use jarvis_protocol::When;
use jiff::civil::{Date, Time, Weekday};
use jiff::tz::{AmbiguousOffset, TimeZone};
use jiff::{Timestamp, ZonedDateTime};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WhenError {
    #[error("unknown time zone {0:?} (use an IANA name such as Europe/Berlin)")]
    TimeZone(String),
    #[error("{0:?} is not an RFC 3339 instant (e.g. 2026-12-24T09:00:00+01:00)")]
    Instant(String),
    #[error("{0:?} is not a time of day (HH:MM)")]
    TimeOfDay(String),
    #[error("{0:?} is not a weekday (mon, tue, wed, thu, fri, sat, sun)")]
    Weekday(String),
    #[error("every {0} minutes: give at least 1")]
    Interval(u32),
    #[error("cron expression {expr:?}: {why}")]
    Cron { expr: String, why: String },
}

/// The next slot after an instant, and the slots passed over on the way
/// because their local time did not exist.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Next {
    pub at: Option<Timestamp>,
    pub skipped: Vec<(Timestamp, String)>,
}

pub fn time_zone(name: &str) -> Result<TimeZone, WhenError> {
    TimeZone::get(name).map_err(|_| WhenError::TimeZone(name.to_string()))
}

/// The user's time zone, by its IANA name (UTC when the system has none).
pub fn local_zone_name() -> String {
    TimeZone::system().iana_name().unwrap_or("UTC").to_string()
}

fn weekday(s: &str) -> Result<Weekday, WhenError> {
    Ok(match s.trim().to_ascii_lowercase().get(..3).unwrap_or("") {
        "mon" => Weekday::Monday,
        "tue" => Weekday::Tuesday,
        "wed" => Weekday::Wednesday,
        "thu" => Weekday::Thursday,
        "fri" => Weekday::Friday,
        "sat" => Weekday::Saturday,
        "sun" => Weekday::Sunday,
        _ => return Err(WhenError::Weekday(s.to_string())),
    })
}

/// `weekdays`/`weekends` or a list of names.
pub fn weekdays(list: &[String]) -> Result<Vec<Weekday>, WhenError> {
    let mut out = Vec::new();
    for s in list {
        match s.trim().to_ascii_lowercase().as_str() {
            "weekdays" => out.extend([
                Weekday::Monday,
                Weekday::Tuesday,
                Weekday::Wednesday,
                Weekday::Thursday,
                Weekday::Friday,
            ]),
            "weekends" => out.extend([Weekday::Saturday, Weekday::Sunday]),
            other => out.push(weekday(other)?),
        }
    }
    Ok(out)
}

fn time_of_day(s: &str) -> Result<Time, WhenError> {
    Time::strptime("%H:%M", s.trim()).map_err(|_| WhenError::TimeOfDay(s.to_string()))
}

fn cron(expr: &str) -> Result<croner::Cron, WhenError> {
    expr.parse::<croner::Cron>().map_err(|e| WhenError::Cron {
        expr: expr.to_string(),
        why: e.to_string(),
    })
}

/// Checks a schedule's `when` and zone before it is stored.
pub fn validate(when: &When, tz: &str) -> Result<(), WhenError> {
    time_zone(tz)?;
    match when {
        When::Once { at } => {
            at.parse::<Timestamp>()
                .map_err(|_| WhenError::Instant(at.clone()))?;
        }
        When::Every { minutes } if *minutes == 0 => return Err(WhenError::Interval(0)),
        When::Every { .. } => {}
        When::Daily { time, weekdays: w } => {
            time_of_day(time)?;
            weekdays(w)?;
        }
        When::Cron { expr } => {
            cron(expr)?;
        }
    }
    Ok(())
}

/// The first slot strictly after `after`. `created` anchors intervals.
pub fn next_after(
    when: &When,
    tz: &str,
    created: Timestamp,
    after: Timestamp,
) -> Result<Next, WhenError> {
    let zone = time_zone(tz)?;
    match when {
        When::Once { at } => {
            let at = at
                .parse::<Timestamp>()
                .map_err(|_| WhenError::Instant(at.clone()))?;
            // Slots are kept in milliseconds: compare them so.
            let at = Timestamp::from_millisecond(at.as_millisecond()).unwrap_or(at);
            Ok(Next {
                at: (at > after).then_some(at),
                skipped: vec![],
            })
        }
        When::Every { minutes } => {
            if *minutes == 0 {
                return Err(WhenError::Interval(0));
            }
            let period = i64::from(*minutes) * 60_000;
            let (c, a) = (created.as_millisecond(), after.as_millisecond());
            let k = if a < c { 0 } else { (a - c) / period + 1 };
            Ok(Next {
                at: Timestamp::from_millisecond(c + k * period).ok(),
                skipped: vec![],
            })
        }
        When::Daily { time, weekdays: w } => {
            daily(&zone, tz, time_of_day(time)?, &weekdays(w)?, after)
        }
        When::Cron { expr } => cron_next(&cron(expr)?, &zone, after),
    }
}

fn daily(
    zone: &TimeZone,
    tz: &str,
    at: Time,
    days: &[Weekday],
    after: Timestamp,
) -> Result<Next, WhenError> {
    let mut next = Next::default();
    let mut day: Date = after.to_zoned_datetime(zone.clone()).date();
    // A year of days covers any weekday set; the loop ends well before.
    for _ in 0..370 {
        if days.is_empty() || days.contains(&day.weekday()) {
            let local = day.to_datetime(at);
            let amb = zone.to_ambiguous_zoned_datetime(local);
            let slot = match amb.offset() {
                AmbiguousOffset::Unambiguous { .. } => amb.unambiguous().ok(),
                // Twice that day: once, at the first.
                AmbiguousOffset::Fold { .. } => amb.earlier().ok(),
                AmbiguousOffset::Gap { .. } => {
                    if let Ok(nominal) = amb.compatible() {
                        let ts = nominal.timestamp();
                        if ts > after {
                            next.skipped.push((
                                ts,
                                format!(
                                    "{} did not exist on {day} in {tz} (the clocks went forward)",
                                    at.strftime("%H:%M")
                                ),
                            ));
                        }
                    }
                    None
                }
            };
            if let Some(z) = slot
                && z.timestamp() > after
            {
                next.at = Some(z.timestamp());
                return Ok(next);
            }
        }
        match day.tomorrow() {
            Ok(d) => day = d,
            Err(_) => break,
        }
    }
    Ok(next)
}

/// A local time for croner, in jiff's types.
#[derive(Clone)]
struct Local(ZonedDateTime);

impl croner::time::CronDateTime for Local {
    fn to_civil(&self) -> croner::time::CivilDateTime {
        let d = self.0.datetime();
        croner::time::CivilDateTime::new(
            croner::time::CivilDate::from_parts_unchecked(
                i32::from(d.year()),
                d.month() as u32,
                d.day() as u32,
            ),
            croner::time::CivilTime::from_parts_unchecked(
                d.hour() as u32,
                d.minute() as u32,
                d.second() as u32,
            ),
        )
    }

    fn civil_weekday(&self) -> croner::time::Weekday {
        croner::time::Weekday::from_days_from_sunday(self.0.weekday().to_sunday_zero_offset() as u32)
    }

    fn resolve_civil(
        &self,
        civil: croner::time::CivilDateTime,
    ) -> Result<croner::time::Resolution<Self>, croner::errors::CronError> {
        use croner::errors::CronError;
        use croner::time::Resolution;
        let year = i16::try_from(civil.year()).map_err(|_| CronError::InvalidDate)?;
        let dt = jiff::civil::DateTime::new(
            year,
            civil.month() as i8,
            civil.day() as i8,
            civil.hour() as i8,
            civil.minute() as i8,
            civil.second() as i8,
            0,
        )
        .map_err(|_| CronError::InvalidDate)?;
        let amb = self.0.time_zone().to_ambiguous_zoned_datetime(dt);
        Ok(match amb.offset() {
            AmbiguousOffset::Unambiguous { .. } => Resolution::Single(Local(
                amb.unambiguous().map_err(|_| CronError::InvalidTime)?,
            )),
            AmbiguousOffset::Fold { .. } => Resolution::Ambiguous(
                Local(amb.clone().earlier().map_err(|_| CronError::InvalidTime)?),
                Local(amb.later().map_err(|_| CronError::InvalidTime)?),
            ),
            AmbiguousOffset::Gap { .. } => Resolution::Gap,
        })
    }

    fn checked_add_seconds(&self, seconds: i64) -> Option<Self> {
        self.0
            .checked_add(jiff::SignedDuration::from_secs(seconds))
            .ok()
            .map(Local)
    }

    fn cmp_instant(&self, other: &Self) -> std::cmp::Ordering {
        self.0.timestamp().cmp(&other.0.timestamp())
    }
}

fn cron_next(c: &croner::Cron, zone: &TimeZone, after: Timestamp) -> Result<Next, WhenError> {
    let mut next = Next::default();
    let mut from = Local(after.to_zoned_datetime(zone.clone()));
    for _ in 0..64 {
        let Ok(found) = c.find_next_occurrence(&from, false) else {
            return Ok(next);
        };
        // croner moves a fixed time that falls in a gap past it; here such
        // a slot is skipped, like a daily one.
        if c.is_time_matching(&found).unwrap_or(true) {
            next.at = Some(found.0.timestamp());
            return Ok(next);
        }
        next.skipped.push((
            found.0.timestamp(),
            format!(
                "the time {} asks for did not exist that day (the clocks went forward)",
                c.pattern
            ),
        ));
        from = found;
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn local(t: Timestamp, tz: &str) -> String {
        t.to_zoned_datetime(time_zone(tz).unwrap())
            .strftime("%Y-%m-%d %H:%M %z")
            .to_string()
    }

    fn daily(time: &str) -> When {
        When::Daily {
            time: time.into(),
            weekdays: vec![],
        }
    }

    /// Every slot from `from` for `n` slots, with what was skipped.
    fn slots(when: &When, tz: &str, from: &str, n: usize) -> (Vec<String>, Vec<String>) {
        let mut at = ts(from);
        let (mut out, mut skipped) = (vec![], vec![]);
        for _ in 0..n {
            let next = next_after(when, tz, ts(from), at).unwrap();
            skipped.extend(
                next.skipped
                    .iter()
                    .map(|(t, why)| format!("{} {why}", local(*t, tz))),
            );
            at = next.at.unwrap();
            out.push(local(at, tz));
        }
        (out, skipped)
    }

    #[test]
    fn daily_nine_oclock_keeps_local_time_across_both_changes() {
        for (tz, spring, fall) in [
            (
                "Europe/Berlin",
                "2026-03-27T12:00:00Z",
                "2026-10-23T12:00:00Z",
            ),
            (
                "America/New_York",
                "2026-03-06T12:00:00Z",
                "2026-10-30T12:00:00Z",
            ),
        ] {
            for from in [spring, fall] {
                let (got, skipped) = slots(&daily("09:00"), tz, from, 4);
                assert!(skipped.is_empty(), "{skipped:?}");
                assert!(got.iter().all(|s| s.contains(" 09:00 ")), "{tz}: {got:?}");
                // The offset changes across the week: the UTC hour moved.
                let offsets: std::collections::BTreeSet<&str> =
                    got.iter().map(|s| s.rsplit(' ').next().unwrap()).collect();
                assert_eq!(offsets.len(), 2, "{tz}: {got:?}");
            }
        }
    }

    #[test]
    fn a_time_that_does_not_exist_is_skipped_and_one_that_happens_twice_runs_once() {
        // Berlin springs forward on 2026-03-29 at 02:00 and falls back on
        // 2026-10-25 at 03:00.
        let (got, skipped) = slots(&daily("02:30"), "Europe/Berlin", "2026-03-27T12:00:00Z", 3);
        assert_eq!(
            got,
            [
                "2026-03-28 02:30 +0100",
                "2026-03-30 02:30 +0200",
                "2026-03-31 02:30 +0200"
            ]
        );
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert!(
            skipped[0].contains("02:30 did not exist on 2026-03-29"),
            "{skipped:?}"
        );
        let (got, _) = slots(&daily("02:30"), "Europe/Berlin", "2026-10-23T12:00:00Z", 3);
        assert_eq!(
            got,
            [
                "2026-10-24 02:30 +0200",
                "2026-10-25 02:30 +0200",
                "2026-10-26 02:30 +0100"
            ],
            "the first 02:30 only"
        );
        // New York: 2026-03-08 at 02:00 forward, 2026-11-01 at 02:00 back.
        let (got, skipped) = slots(
            &daily("02:30"),
            "America/New_York",
            "2026-03-07T12:00:00Z",
            2,
        );
        assert_eq!(got, ["2026-03-09 02:30 -0400", "2026-03-10 02:30 -0400"]);
        assert_eq!(skipped.len(), 1);
        let (got, _) = slots(
            &daily("01:30"),
            "America/New_York",
            "2026-10-31T12:00:00Z",
            2,
        );
        assert_eq!(got, ["2026-11-01 01:30 -0400", "2026-11-02 01:30 -0500"]);
    }

    #[test]
    fn cron_weekdays_and_gaps_follow_the_same_rules() {
        let weekdays = When::Cron {
            expr: "0 9 * * 1-5".into(),
        };
        let (got, _) = slots(&weekdays, "Europe/Berlin", "2026-12-04T12:00:00Z", 3);
        assert_eq!(
            got,
            [
                "2026-12-07 09:00 +0100",
                "2026-12-08 09:00 +0100",
                "2026-12-09 09:00 +0100"
            ]
        );
        let gap = When::Cron {
            expr: "30 2 * * *".into(),
        };
        let (got, skipped) = slots(&gap, "Europe/Berlin", "2026-03-28T12:00:00Z", 1);
        assert_eq!(got, ["2026-03-30 02:30 +0200"]);
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        let fold = When::Cron {
            expr: "30 2 * * *".into(),
        };
        let (got, _) = slots(&fold, "Europe/Berlin", "2026-10-24T12:00:00Z", 2);
        assert_eq!(got, ["2026-10-25 02:30 +0200", "2026-10-26 02:30 +0100"]);
    }

    #[test]
    fn weekly_intervals_and_one_shots() {
        let weekly = When::Daily {
            time: "18:15".into(),
            weekdays: vec!["fri".into()],
        };
        let (got, _) = slots(&weekly, "UTC", "2026-12-01T00:00:00Z", 2);
        assert_eq!(got, ["2026-12-04 18:15 +0000", "2026-12-11 18:15 +0000"]);
        let every = When::Every { minutes: 90 };
        let (got, _) = slots(&every, "UTC", "2026-12-01T00:00:00Z", 2);
        assert_eq!(got, ["2026-12-01 01:30 +0000", "2026-12-01 03:00 +0000"]);
        let once = When::Once {
            at: "2026-12-24T09:00:00+01:00".into(),
        };
        let n = next_after(
            &once,
            "UTC",
            ts("2026-12-01T00:00:00Z"),
            ts("2026-12-01T00:00:00Z"),
        )
        .unwrap();
        assert_eq!(n.at, Some(ts("2026-12-24T08:00:00Z")));
        let n = next_after(
            &once,
            "UTC",
            ts("2026-12-01T00:00:00Z"),
            ts("2026-12-25T00:00:00Z"),
        )
        .unwrap();
        assert_eq!(n.at, None);
        // A one-shot's slot is kept in ms: once reached, it is behind.
        let precise = When::Once {
            at: "2026-12-24T09:00:00.123456789Z".into(),
        };
        let slot = next_after(
            &precise,
            "UTC",
            ts("2026-12-01T00:00:00Z"),
            ts("2026-12-01T00:00:00Z"),
        )
        .unwrap()
        .at
        .unwrap();
        assert_eq!(next_after(&precise, "UTC", slot, slot).unwrap().at, None);
        assert!(validate(&When::Every { minutes: 0 }, "UTC").is_err());
        assert!(validate(&daily("25:00"), "UTC").is_err());
        assert!(validate(&daily("09:00"), "Mars/Olympus").is_err());
        assert!(
            validate(
                &When::Cron {
                    expr: "every day".into()
                },
                "UTC"
            )
            .is_err()
        );
    }
}
