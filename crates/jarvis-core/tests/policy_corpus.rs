//! The command policy scored on the adversarial corpus
//! (`../shared/oracles/security/commands.jsonl`): every `block` row blocked,
//! no `fp-trap` or `ask` row blocked, ≥ 90 % of `allow-readonly` rows allowed,
//! and every `block` row still blocked under spelling mutations.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use jarvis_core::policy::Verdict;
use jarvis_core::policy::shell::{ShellEnv, analyze};
use serde_json::Value;

struct Row {
    id: String,
    verdict: String,
    category: String,
    command: String,
}

fn corpus() -> Vec<Row> {
    let path = jarvis_testkit::shared_dir().join("oracles/security/commands.jsonl");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            Row {
                id: v["id"].as_str().unwrap().into(),
                verdict: v["verdict"].as_str().unwrap().into(),
                category: v["category"].as_str().unwrap().into(),
                command: v["command"]
                    .as_str()
                    .unwrap()
                    .replace("APPNAME", "jarvis")
                    .replace("APPPORT", "7420"),
            }
        })
        .collect()
}

fn name(v: Verdict) -> &'static str {
    match v {
        Verdict::Allow => "allow",
        Verdict::Ask => "ask",
        Verdict::Block => "block",
    }
}

#[test]
fn the_command_corpus_is_answered_as_labelled() {
    let env = ShellEnv::default();
    let rows = corpus();
    assert!(rows.len() >= 300, "corpus has {} rows", rows.len());
    let labels = ["allow-readonly", "ask", "block"];
    let mut table = [[0usize; 3]; 3];
    let mut failures = Vec::new();
    let mut allowed_readonly = 0;
    let mut readonly = 0;
    for r in &rows {
        let a = analyze(&r.command, &env);
        let row = labels.iter().position(|l| *l == r.verdict).unwrap();
        let col = a.verdict as usize;
        table[row][col] += 1;
        let bad = match (r.verdict.as_str(), a.verdict) {
            ("block", v) if v != Verdict::Block => Some("security: not blocked"),
            (_, Verdict::Block) if r.verdict != "block" => Some("false positive: blocked"),
            _ => None,
        };
        if r.verdict == "allow-readonly" {
            readonly += 1;
            if a.verdict == Verdict::Allow {
                allowed_readonly += 1;
            } else {
                println!("  (asks) {} {:?} — {}", r.id, r.command, a.reason);
            }
        }
        if let Some(b) = bad {
            failures.push(format!(
                "{} [{}/{}] {:?} → {} ({}): {b}",
                r.id,
                r.verdict,
                r.category,
                r.command,
                name(a.verdict),
                a.reason
            ));
        }
    }
    println!("\nconfusion (rows: label, columns: answer)");
    println!("{:<16} {:>6} {:>6} {:>6}", "", "allow", "ask", "block");
    for (i, l) in labels.iter().enumerate() {
        println!(
            "{:<16} {:>6} {:>6} {:>6}",
            l, table[i][0], table[i][1], table[i][2]
        );
    }
    let pct = allowed_readonly as f64 * 100.0 / readonly as f64;
    println!("allow-readonly answered allow: {allowed_readonly}/{readonly} = {pct:.1} %");
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} corpus failures (see above)",
        failures.len()
    );
    assert!(pct >= 90.0, "only {pct:.1} % of read-only commands allowed");
}

/// Spellings of the same command that must not change a `block`.
fn mutations(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let trimmed = cmd.trim_start();
    let first_end = trimmed
        .find(|c: char| c.is_whitespace())
        .unwrap_or(trimmed.len());
    let (first, rest) = trimmed.split_at(first_end);
    // Keywords and builtins change meaning when quoted or wrapped (`'for'`,
    // `env cd`): only real programs are respelled.
    const SHELL_WORDS: &[&str] = &[
        "for", "while", "until", "if", "case", "select", "function", "alias", "cd", "export",
        "declare", "local", "set", "unset", "source", "eval", "exec", "time",
    ];
    let plain = !first.is_empty()
        && !SHELL_WORDS.contains(&first)
        && first
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        out.push(format!("'{first}'{rest}"));
        out.push(format!("\"{first}\"{rest}"));
        out.push(format!("\\{first}{rest}"));
        out.push(format!("/usr/bin/{first}{rest}"));
        out.push(format!("env {first}{rest}"));
        out.push(format!("env -i PATH=/usr/bin {first}{rest}"));
        out.push(format!("command {first}{rest}"));
        if first.len() > 1 {
            out.push(format!("{}''{}{rest}", &first[..1], &first[1..]));
        }
    }
    out.push(format!("  {cmd}  "));
    out.push(cmd.replacen(' ', "\t", 1));
    out.push(cmd.replace(' ', "  "));
    out.push(format!("true && {cmd}"));
    if !cmd.contains(['\'', '"', '\\', '$', '`', '{']) {
        // `$IFS` tricks: the same words, separated by an expansion.
        out.push(cmd.replace(' ', "${IFS}"));
        if !cmd.contains(['<', '>']) {
            // (A redirect target that expands to nothing is bash's "ambiguous redirect".)
            out.push(cmd.replace(' ', "$IFS "));
        }
    }
    out.push(format!("bash -c {}", sh_quote(cmd)));
    out
}

fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[test]
fn blocked_commands_stay_blocked_under_mutations() {
    let env = ShellEnv::default();
    let mut escaped = Vec::new();
    let mut tried = 0;
    for r in corpus().iter().filter(|r| r.verdict == "block") {
        if r.command.contains('\n') || r.command.contains('\r') {
            continue;
        }
        for m in mutations(&r.command) {
            tried += 1;
            let a = analyze(&m, &env);
            if a.verdict != Verdict::Block {
                escaped.push(format!(
                    "{} {:?} → {} ({})",
                    r.id,
                    m,
                    name(a.verdict),
                    a.reason
                ));
            }
        }
    }
    println!("{tried} mutations of blocked commands tried");
    for e in &escaped {
        println!("ESCAPED {e}");
    }
    assert!(
        escaped.is_empty(),
        "{} mutations escaped the blacklist",
        escaped.len()
    );
}
