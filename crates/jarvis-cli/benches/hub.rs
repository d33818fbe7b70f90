//! The hub's figures, each beside its baseline in the same run:
//! - one scheduler tick with 10,000 schedules, none due: the indexed due
//!   query against loading every schedule and filtering (a full scan);
//! - an idle `jarvis serve` (the real binary) with 0 and with 100 schedules:
//!   CPU time per hour and wake-ups (context switches of all its threads)
//!   per minute, over `JARVIS_BENCH_IDLE_SEC` seconds (default 40).
//!
//! `cargo bench -p jarvis-cli --bench hub`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jarvis_core::policy::NoApprover;
use jarvis_core::schedule::ScheduleRequest;
use jarvis_core::{Brain, BrainOptions, Overrides};
use jarvis_protocol::When;

fn brain(home: &Path) -> Brain {
    Brain::open(BrainOptions {
        home: home.to_path_buf(),
        secrets: Arc::new(jarvis_core::secrets::MemorySecretStore::default()),
        approver: Arc::new(NoApprover),
        overrides: Overrides {
            workdir: Some(home.to_path_buf()),
            ..Default::default()
        },
        registry: None,
        resolver: None,
        sandbox_helper: None,
    })
    .unwrap()
}

/// `n` daily schedules spread over the day, made at `at`.
fn fill(b: &Brain, n: usize, at: jiff::Timestamp) {
    for i in 0..n {
        let minutes = (i * 7) % 1440;
        b.create_schedule_at(
            ScheduleRequest {
                instruction: format!("job {i}"),
                when: When::Daily {
                    time: format!("{:02}:{:02}", minutes / 60, minutes % 60),
                    weekdays: vec![],
                },
                tz: Some("UTC".into()),
                allow: vec![],
                notify: Default::default(),
            },
            at,
        )
        .unwrap();
    }
}

fn percentile(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn tick_cost() {
    let home = tempfile::tempdir().unwrap();
    let b = brain(home.path());
    // Made at 00:00:30 and ticked just after: every slot lies ahead.
    let made: jiff::Timestamp = "2026-12-01T00:00:30Z".parse().unwrap();
    let t0 = Instant::now();
    fill(&b, 10_000, made);
    eprintln!(
        "made 10,000 schedules in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    let now: jiff::Timestamp = "2026-12-01T00:00:40Z".parse().unwrap();
    let mut tick = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let r = b.schedule_tick(now).unwrap();
        tick.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(r.started, 0);
    }
    let mut scan = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let due = b
            .schedules()
            .unwrap()
            .into_iter()
            .filter(|s| !s.paused && s.next_run.is_some_and(|n| n <= now.as_millisecond()))
            .count();
        scan.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(due, 0);
    }
    println!();
    println!("| one tick, 10,000 schedules, none due | median | p99 | goal |");
    println!("|---|---|---|---|");
    println!(
        "| indexed due query (now) | {:.3} ms | {:.3} ms | ≤ 5 ms |",
        percentile(tick.clone(), 0.5),
        percentile(tick, 0.99)
    );
    println!(
        "| full scan of every schedule (baseline) | {:.1} ms | {:.1} ms | |",
        percentile(scan.clone(), 0.5),
        percentile(scan, 0.99)
    );
}

/// CPU seconds of a process, and the context switches of each of its
/// threads by id.
fn usage(pid: u32) -> (f64, std::collections::HashMap<String, u64>) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let rest = &stat[stat.rfind(')').unwrap() + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap();
    let hz = 100.0;
    let mut switches = std::collections::HashMap::new();
    for t in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let t = t.unwrap();
        let status = std::fs::read_to_string(t.path().join("status")).unwrap_or_default();
        let n: u64 = status
            .lines()
            .filter_map(|line| {
                line.strip_prefix("voluntary_ctxt_switches:")
                    .or_else(|| line.strip_prefix("nonvoluntary_ctxt_switches:"))
            })
            .filter_map(|v| v.trim().parse::<u64>().ok())
            .sum();
        switches.insert(t.file_name().to_string_lossy().into_owned(), n);
    }
    (ticks / hz, switches)
}

/// Switches between two samples: a thread that appeared counts in full.
fn switched(
    before: &std::collections::HashMap<String, u64>,
    after: &std::collections::HashMap<String, u64>,
) -> u64 {
    after
        .iter()
        .map(|(tid, n)| n.saturating_sub(before.get(tid).copied().unwrap_or(0)))
        .sum()
}

fn idle(schedules: usize, secs: u64, key: Key) -> (f64, f64) {
    let home = tempfile::tempdir().unwrap();
    {
        let b = brain(home.path());
        fill(&b, schedules, jiff::Timestamp::now());
    }
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_jarvis"));
    match key {
        Key::Env => {
            cmd.env("JARVIS_API_KEY", "bench");
        }
        Key::Helper => {
            cmd.env_remove("JARVIS_API_KEY")
                .env_remove("JARVIS_KEYRING");
        }
        Key::InProcess => {
            cmd.env_remove("JARVIS_API_KEY")
                .env("JARVIS_KEYRING", "in-process");
        }
    }
    let mut child = cmd
        .arg("serve")
        .env("JARVIS_HOME", home.path())
        .env("JARVIS_BASE_URL", "http://127.0.0.1:9/v1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let sock = home.path().join("hub.sock");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !sock.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    // Past the start-up work: the idle hub only.
    std::thread::sleep(Duration::from_secs(2));
    let (c0, s0) = usage(child.id());
    std::thread::sleep(Duration::from_secs(secs));
    let (c1, s1) = usage(child.id());
    let _ = child.kill();
    let _ = child.wait();
    (
        (c1 - c0) * 3600.0 / secs as f64,
        switched(&s0, &s1) as f64 * 60.0 / secs as f64,
    )
}

fn main() {
    tick_cost();
    let secs = std::env::var("JARVIS_BENCH_IDLE_SEC")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let none = idle(0, secs, Key::Env);
    let hundred = idle(100, secs, Key::Env);
    let keyring = idle(100, secs, Key::Helper);
    let in_process = idle(100, secs, Key::InProcess);
    println!();
    println!(
        "| idle `jarvis serve`, {secs} s measured | CPU time per hour | wake-ups per minute | goal |"
    );
    println!("|---|---|---|---|");
    println!(
        "| 100 schedules (API key from the environment) | {:.2} s | {:.1} | < 1 s/h, ≤ 2 + the tick (2/min) |",
        hundred.0, hundred.1
    );
    println!(
        "| no schedules (baseline) | {:.2} s | {:.1} | |",
        none.0, none.1
    );
    println!(
        "| 100 schedules, API key in the OS keyring, read by a helper process | {:.2} s | {:.1} | as above |",
        keyring.0, keyring.1
    );
    println!(
        "| 100 schedules, API key in the OS keyring, read in-process (baseline) | {:.2} s | {:.1} | |",
        in_process.0, in_process.1
    );
}

/// Where `jarvis serve` finds the API key.
#[derive(Clone, Copy)]
enum Key {
    Env,
    Helper,
    InProcess,
}
