//! Command verdict time: the whole analysis of one command line (parse,
//! expansion, effect rules), per command, over the visible security corpus
//! and the five red-team sets; side by side with the floor every
//! tree-sitter-based analyser pays, parsing the same line alone.
//!
//! `cargo bench -p jarvis-core --bench policy`

#![allow(clippy::unwrap_used, clippy::expect_used)]

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

/// The median of `iters` timings of `f` on each command, in µs.
fn per_command(cmds: &[String], iters: usize, mut f: impl FnMut(&str)) -> Vec<f64> {
    let mut out: Vec<f64> = cmds
        .iter()
        .map(|c| {
            f(c); // warm: the thread's parser, the allocator
            let mut t: Vec<f64> = (0..iters)
                .map(|_| {
                    let t0 = Instant::now();
                    f(c);
                    t0.elapsed().as_secs_f64() * 1e6
                })
                .collect();
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect();
    out.sort_by(f64::total_cmp);
    out
}

fn pct(sorted: &[f64], p: usize) -> f64 {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let iters = if quick { 3 } else { 200 };
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
    ] {
        sets.push((
            f.to_string(),
            commands(&fixtures.join(format!("{f}.jsonl"))),
        ));
    }
    let all: Vec<String> = sets.iter().flat_map(|(_, c)| c.clone()).collect();
    sets.push(("all".into(), all));
    let env = ShellEnv::default().at(Path::new("/home/u/proj"), Some(Path::new("/home/u")));
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .unwrap();
    println!();
    println!(
        "| commands | n | verdict median / p99 / max | parse only median / p99 (baseline) | goal |"
    );
    println!("|---|---|---|---|---|");
    for (name, cmds) in &sets {
        let verdict = per_command(cmds, iters, |c| {
            std::hint::black_box(analyze(c, &env));
        });
        let parse = per_command(cmds, iters, |c| {
            std::hint::black_box(parser.parse(c, None));
        });
        println!(
            "| {name} | {} | {:.1} / {:.1} / {:.1} µs | {:.1} / {:.1} µs | ≤ 100 µs median and p99 |",
            cmds.len(),
            pct(&verdict, 50),
            pct(&verdict, 99),
            verdict[verdict.len() - 1],
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
        let mut timed: Vec<(f64, &String)> = all
            .iter()
            .map(|c| {
                let t = per_command(std::slice::from_ref(c), iters, |c| {
                    std::hint::black_box(analyze(c, &env));
                });
                (t[0], c)
            })
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
