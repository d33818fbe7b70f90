//! Scanning a skill's files with the command policy: shell scripts line by
//! line, shell code blocks in Markdown, interpreter scripts as one-liners,
//! and long encoded blobs. A `block` verdict is a finding.

use std::path::Path;

use crate::policy::Verdict;
use crate::policy::shell::{ShellEnv, analyze, quote};

pub use jarvis_protocol::skills::Finding;

const SHELL_FENCES: &[&str] = &["bash", "sh", "shell", "zsh", "console", "shell-session"];

fn interpreter_for(ext: &str) -> Option<&'static str> {
    Some(match ext {
        "py" => "python3",
        "js" | "mjs" | "cjs" => "node",
        "rb" => "ruby",
        "pl" => "perl",
        "php" => "php",
        _ => return None,
    })
}

fn check(env: &ShellEnv, file: &str, line: usize, text: &str, out: &mut Vec<Finding>) {
    let t = text.trim().trim_start_matches("$ ");
    if t.is_empty() || t.starts_with('#') {
        return;
    }
    let a = analyze(t, env);
    if a.verdict == Verdict::Block {
        out.push(Finding {
            file: file.into(),
            line,
            reason: a.reason,
            text: t.chars().take(160).collect(),
        });
    }
}

/// Long base64 runs hide payloads from keyword filters.
fn encoded_blob(line: &str) -> bool {
    let mut run = 0;
    for c in line.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=') {
            run += 1;
            if run >= 200 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Findings for every text file below `dir`.
pub fn scan_dir(dir: &Path) -> Vec<Finding> {
    let env = ShellEnv::default();
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(p);
                continue;
            }
            if !ft.is_file() {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let rel = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
            let ext = p
                .extension()
                .map(|x| x.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            for (i, line) in text.lines().enumerate() {
                if encoded_blob(line) {
                    out.push(Finding {
                        file: rel.clone(),
                        line: i + 1,
                        reason: "a long encoded blob (a hidden payload?)".into(),
                        text: line.chars().take(80).collect(),
                    });
                }
            }
            match ext.as_str() {
                "sh" | "bash" | "zsh" => {
                    // The whole script at once: `case` arms and loops make sense only in context.
                    check(&env, &rel, 1, &text, &mut out);
                }
                "md" | "markdown" => {
                    let is_skill_md = p
                        .file_name()
                        .is_some_and(|n| n.eq_ignore_ascii_case("SKILL.md"));
                    let mut block = String::new();
                    let mut block_line = 0;
                    let mut in_shell = false;
                    let mut in_fence = false;
                    for (i, line) in text.lines().enumerate() {
                        let t = line.trim_start();
                        if let Some(lang) = t.strip_prefix("```") {
                            if in_fence {
                                if in_shell && !block.is_empty() {
                                    check(&env, &rel, block_line, &block, &mut out);
                                }
                                block.clear();
                                in_fence = false;
                                in_shell = false;
                            } else {
                                in_fence = true;
                                in_shell = SHELL_FENCES.contains(&lang.trim());
                            }
                            continue;
                        }
                        if in_shell {
                            if block.is_empty() {
                                block_line = i + 1;
                            }
                            block.push_str(line);
                            block.push('\n');
                        } else if !in_fence && is_skill_md {
                            // Inline commands in prose (`cat ~/.ssh/id_rsa | curl …`).
                            for (j, part) in line.split('`').enumerate() {
                                if j % 2 == 1 && part.contains(' ') {
                                    check(&env, &rel, i + 1, part, &mut out);
                                }
                            }
                        }
                    }
                }
                other => {
                    if let Some(interp) = interpreter_for(other) {
                        // Line by line: fetching and running in one statement is the
                        // pattern; a server that imports http and spawns is not.
                        for (i, line) in text.lines().enumerate() {
                            let t = line.trim();
                            if t.is_empty() || t.starts_with("//") || t.starts_with('#') {
                                continue;
                            }
                            let a = analyze(&format!("{interp} -c {}", quote(t)), &env);
                            if a.verdict == Verdict::Block {
                                out.push(Finding {
                                    file: rel.clone(),
                                    line: i + 1,
                                    reason: a.reason,
                                    text: t.chars().take(160).collect(),
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    out
}
