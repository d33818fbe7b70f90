//! Command verdict time: the whole analysis of one command line (parse,
//! expansion, effect rules), per command, over the visible security corpus
//! and the five red-team sets; side by side with the floor every
//! tree-sitter-based analyser pays, parsing the same line alone.
//!
//! `cargo bench -p jarvis-core --bench policy`

#![allow(clippy::unwrap_used, clippy::expect_used)]

// The allocator the hosts (`jarvis`, the desktop app) run the guard with.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::Path;
use std::time::Instant;

use jarvis_core::policy::shell::{ShellEnv, analyze};

fn commands(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["command"].as_str().unwrap().replace("APPNAME", "jarvis")
        })
        .collect()
}

/// Each command's time in µs with its caches warm: `f` runs on it
/// `iters / ROUNDS` times in a row (the median kept), and the commands
/// take turns for `ROUNDS` rounds, the median round kept; a burst of load
/// from elsewhere on the machine then lands in one round of the commands
/// it meets, which that median drops.
fn timings(cmds: &[String], iters: usize, mut f: impl FnMut(&str)) -> Vec<f64> {
    const ROUNDS: usize = 5;
    let per_round = iters.div_ceil(ROUNDS);
    let mut rounds: Vec<Vec<f64>> = vec![Vec::with_capacity(ROUNDS); cmds.len()];
    for _ in 0..ROUNDS {
        for (c, r) in cmds.iter().zip(rounds.iter_mut()) {
            f(c); // warm: the thread's parser, the allocator, this command's data
            let t: Vec<f64> = (0..per_round)
                .map(|_| {
                    let t0 = Instant::now();
                    f(c);
                    t0.elapsed().as_secs_f64() * 1e6
                })
                .collect();
            r.push(median(t));
        }
    }
    rounds.into_iter().map(median).collect()
}

/// Each command's time in µs interleaved: every command of the set runs
/// once before the same one runs again, so its own data is out of the
/// caches (the parser and the name tables stay warm, as in the app).
fn interleaved_timings(cmds: &[String], passes: usize, mut f: impl FnMut(&str)) -> Vec<f64> {
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(passes); cmds.len()];
    for _ in 0..passes {
        for (c, t) in cmds.iter().zip(times.iter_mut()) {
            let t0 = Instant::now();
            f(c);
            t.push(t0.elapsed().as_secs_f64() * 1e6);
        }
    }
    let mut out: Vec<f64> = times.into_iter().map(median).collect();
    out.sort_by(f64::total_cmp);
    out
}

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// [`timings`], fastest first.
fn per_command(cmds: &[String], iters: usize, f: impl FnMut(&str)) -> Vec<f64> {
    let mut out = timings(cmds, iters, f);
    out.sort_by(f64::total_cmp);
    out
}

fn pct(sorted: &[f64], p: usize) -> f64 {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let iters = match std::env::var("JARVIS_BENCH_ITERS") {
        Ok(n) => n
            .parse::<usize>()
            .expect("JARVIS_BENCH_ITERS is a number")
            .max(1),
        Err(_) if quick => 3,
        Err(_) => 200,
    };
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/redteam");
    let mut sets = vec![(
        "visible corpus".to_string(),
        commands(&jarvis_testkit::shared_dir().join("oracles/security/commands.jsonl")),
    )];
    for f in [
        "siblings-a",
        "blind-b",
        "blind-c",
        "siblings-d",
        "blind-e",
        "blind-f",
        "blind-g",
        "blind-h",
        "blind-i",
        "blind-j",
        "blind-k",
        "blind-l",
        "blind-m",
        "blind-n",
        "blind-o",
        "blind-p",
        "blind-q",
        "blind-r",
        "blind-s",
        "blind-t",
        "blind-u",
        "blind-v",
        "blind-w",
        "blind-y",
        "blind-z",
        "blind-aa",
        "blind-ab",
        "blind-ac",
        "blind-ad",
        "blind-ae",
        "blind-ag",
        "blind-ah",
        "blind-ai",
        "blind-aj",
        "blind-ak",
        "blind-am",
        "blind-an",
        "blind-ao",
        "blind-ap",
        "blind-aq",
        "blind-ar",
        "blind-as",
        "blind-at",
        "blind-au",
        "blind-av",
        "blind-aw",
        "blind-ax",
        "blind-ay",
        "blind-az",
        "blind-ba",
        "blind-bb",
        "blind-bc",
        "blind-bd",
        "blind-be",
        "blind-bf",
        "blind-bg",
        "blind-bh",
        "blind-bi",
        "blind-bj",
        "blind-bk",
        "blind-bl",
        "blind-bm",
        "blind-bn",
        "blind-bo",
        "blind-bp",
        "blind-bq",
        "blind-br",
        "hunt-4",
        "blind-bt",
        "blind-bu",
        "blind-bv",
        "hunt-5",
        "blind-bw",
        "blind-bx",
        "blind-by",
        "blind-bz",
        "blind-cb",
        "blind-cc",
        "blind-cd",
        "blind-ce",
        "blind-cf",
        "blind-cg",
        "blind-ch",
        "blind-ci",
        "blind-cj",
        "blind-ck",
        "blind-cl",
        "blind-cm",
        "blind-cn",
        "blind-co",
        "blind-cp",
        "blind-cq",
        "blind-cr",
        "blind-cs",
        "blind-ct",
        "blind-cu",
        "blind-cv",
        "blind-cw",
        "blind-cx",
        "blind-cy",
        "blind-cz",
        "blind-da",
        "blind-db",
        "blind-dc",
        "blind-dd",
        "blind-de",
        "blind-df",
        "blind-dg",
        "blind-dh",
        "blind-di",
        "blind-dj",
        "blind-dk",
        "blind-dl",
        "blind-dm",
        "blind-dn",
        "blind-do",
        "blind-dp",
        "blind-dq",
        "blind-dr",
        "blind-ds",
        "blind-dt",
        "blind-du",
        "blind-dv",
        "blind-dw",
        "blind-dx",
        "blind-dy",
        "blind-dz",
    ] {
        sets.push((
            f.to_string(),
            commands(&fixtures.join(format!("{f}.jsonl"))),
        ));
    }
    let all: Vec<String> = sets.iter().flat_map(|(_, c)| c.clone()).collect();
    sets.push(("all".into(), all));
    // `JARVIS_BENCH_ONLY=NAME`: time one set alone (its slowest lines too).
    if let Ok(only) = std::env::var("JARVIS_BENCH_ONLY") {
        sets.retain(|(name, _)| *name == only);
    }
    // `JARVIS_BENCH_LINE=CMD`: one line, many times over (for a profiler).
    if let Ok(line) = std::env::var("JARVIS_BENCH_LINE") {
        sets = vec![("line".into(), vec![line])];
    }
    // `JARVIS_BENCH_LINES=FILE`: these lines (one per line of FILE).
    if let Ok(file) = std::env::var("JARVIS_BENCH_LINES") {
        let lines = std::fs::read_to_string(file).expect("JARVIS_BENCH_LINES is a readable file");
        sets = vec![("lines".into(), lines.lines().map(String::from).collect())];
    }
    // Jarvis's own state and binaries, as the app protects them.
    let protected: Vec<std::path::PathBuf> = [
        "/home/u/.jarvis",
        "/home/u/.local/share/jarvis",
        "/home/u/.config/jarvis",
        "/usr/local/bin/jarvis",
        "/usr/local/bin/jarvis-sandbox",
    ]
    .iter()
    .map(std::path::PathBuf::from)
    .collect();
    let env = ShellEnv::with_protected(&protected)
        .at(Path::new("/home/u/proj"), Some(Path::new("/home/u")));
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .unwrap();
    println!();
    println!(
        "| commands | n | verdict median / p99 / max | interleaved median / p99 | parse only median / p99 (baseline) | goal |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, cmds) in &sets {
        let verdict = per_command(cmds, iters, |c| {
            std::hint::black_box(analyze(c, &env));
        });
        let interleaved = interleaved_timings(cmds, (iters / 8).max(3), |c| {
            std::hint::black_box(analyze(c, &env));
        });
        let parse = per_command(cmds, iters, |c| {
            std::hint::black_box(parser.parse(c, None));
        });
        println!(
            "| {name} | {} | {:.1} / {:.1} / {:.1} µs | {:.1} / {:.1} µs | {:.1} / {:.1} µs | ≤ 100 µs median and p99 |",
            cmds.len(),
            pct(&verdict, 50),
            pct(&verdict, 99),
            verdict[verdict.len() - 1],
            pct(&interleaved, 50),
            pct(&interleaved, 99),
            pct(&parse, 50),
            pct(&parse, 99),
        );
    }
    // `JARVIS_BENCH_SLOWEST=N`: the N slowest lines, to see what the tail is.
    let slowest: usize = std::env::var("JARVIS_BENCH_SLOWEST")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    if slowest > 0 {
        let all = &sets[sets.len() - 1].1;
        let mut timed: Vec<(f64, &String)> = timings(all, iters, |c| {
            std::hint::black_box(analyze(c, &env));
        })
        .into_iter()
        .zip(all)
        .collect();
        timed.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (t, c) in timed.iter().take(slowest) {
            println!(
                "{t:8.1} µs  {}",
                c.replace('\n', "\\n").chars().take(150).collect::<String>()
            );
        }
    }
}
