//! The file tools' sandbox scored on `../shared/oracles/security/paths.jsonl`
//! (setup DSL in its README): zero escapes, every `[FP]` path served, and
//! the `[race]` rows executed with a hook between the policy's check and the
//! open — as many as the file has.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::*;
use jarvis_core::policy::AllowOnceApprover;
use jarvis_core::tools::sandbox::{self, locate};
use jarvis_protocol::ToolStatus;
use serde_json::{Value, json};

const SECRET: &str = "OUTSIDE-SECRET-7f3a";
const KEY: &str = "PRIVATE-KEY-MARKER-91c2";

struct World {
    _tmp: tempfile::TempDir,
    h: PathBuf,
    s: PathBuf,
    o: PathBuf,
    sp: PathBuf,
    sa: PathBuf,
}

impl World {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let h = base.join("home/u");
        let s = h.join("proj");
        let o = h.join("outside");
        let sp = h.join("proj-evil");
        for d in [&s, &o, &sp, &h.join(".ssh")] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(o.join("secret.txt"), SECRET).unwrap();
        std::fs::write(sp.join("secret.txt"), SECRET).unwrap();
        std::fs::write(h.join(".ssh/id_rsa"), KEY).unwrap();
        std::fs::write(h.join(".bashrc"), SECRET).unwrap();
        let sa = base.join("alias-proj");
        World {
            _tmp: tmp,
            h,
            s,
            o,
            sp,
            sa,
        }
    }

    /// Replaces the placeholders S, H, O, SP, SA at the start of a token.
    fn sub(&self, text: &str) -> String {
        let text = expand_repeat(text);
        let mut out = Vec::new();
        for tok in text.split(' ') {
            let mut t = tok.to_string();
            for (ph, path) in [
                ("SP", &self.sp),
                ("SA", &self.sa),
                ("S", &self.s),
                ("H", &self.h),
                ("O", &self.o),
            ] {
                if t == ph {
                    t = path.display().to_string();
                    break;
                }
                if let Some(rest) = t.strip_prefix(&format!("{ph}/")) {
                    t = format!("{}/{rest}", path.display());
                    break;
                }
            }
            out.push(t);
        }
        out.join(" ")
    }

    fn setup(&self, setup: &str) -> Option<String> {
        let mut race = None;
        for step in setup.split(" ; ").map(str::trim) {
            if step == "none" || step.is_empty() {
                continue;
            }
            let (verb, rest) = step.split_once(' ').unwrap_or((step, ""));
            match verb {
                "mkdir" => std::fs::create_dir_all(self.sub(rest)).unwrap(),
                "file" => {
                    let p = PathBuf::from(self.sub(rest));
                    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                    std::fs::write(&p, "inside content").unwrap();
                }
                "symlink" | "hardlink" | "alias" => {
                    let (p, t) = rest.split_once(" -> ").unwrap();
                    let (p, t) = (self.sub(p), self.sub(t));
                    if let Some(parent) = Path::new(&p).parent() {
                        std::fs::create_dir_all(parent).unwrap();
                    }
                    if verb == "hardlink" {
                        std::fs::hard_link(&t, &p).unwrap();
                    } else {
                        std::os::unix::fs::symlink(&t, &p).unwrap();
                    }
                }
                "exec:" => {
                    let ok = std::process::Command::new("sh")
                        .arg("-c")
                        .arg(rest)
                        .current_dir(&self.s)
                        .status()
                        .unwrap();
                    assert!(ok.success(), "setup {rest:?} failed");
                }
                "race:" => race = Some(rest.to_string()),
                other => panic!("unknown setup step {other}"),
            }
        }
        race
    }

    fn outside_untouched(&self) -> bool {
        std::fs::read_to_string(self.o.join("secret.txt")).unwrap() == SECRET
            && std::fs::read_to_string(self.h.join(".bashrc")).unwrap() == SECRET
            && std::fs::read_to_string(self.h.join(".ssh/id_rsa")).unwrap() == KEY
            && !self.o.join("new.txt").exists()
            && !self.h.join(".config/autostart/update.desktop").exists()
    }
}

fn expand_repeat(s: &str) -> String {
    let Some(start) = s.find("REPEAT(") else {
        return s.to_string();
    };
    let end = s[start..].find(')').unwrap() + start;
    let (x, n) = s[start + 7..end].rsplit_once(',').unwrap();
    format!(
        "{}{}{}",
        &s[..start],
        x.repeat(n.trim().parse().unwrap()),
        expand_repeat(&s[end + 1..])
    )
}

fn leaked(content: &str) -> bool {
    content.contains(SECRET) || content.contains(KEY) || content.contains("root:x:0:0")
}

#[tokio::test]
async fn the_path_corpus_never_escapes_and_serves_what_is_inside() {
    let text =
        std::fs::read_to_string(jarvis_testkit::shared_dir().join("oracles/security/paths.jsonl"))
            .unwrap();
    let rows: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (mut escapes, mut refused_fp, mut served, mut races, mut skipped) =
        (Vec::new(), Vec::new(), 0, 0, Vec::new());
    let race_rows = rows
        .iter()
        .filter(|r| r["note"].as_str().unwrap().contains("[race]"))
        .count();
    for r in &rows {
        let id = r["id"].as_str().unwrap();
        let note = r["note"].as_str().unwrap();
        let setup = r["setup"].as_str().unwrap();
        let verdict = r["verdict"].as_str().unwrap();
        if setup.contains("mount --bind") {
            // Needs CAP_SYS_ADMIN, and a bind mount left in a temp dir would
            // make its cleanup delete the mounted directory. RESOLVE_NO_XDEV
            // is what refuses it.
            skipped.push(id.to_string());
            continue;
        }
        let w = World::new();
        let race = w.setup(setup);
        let path = w.sub(r["path"].as_str().unwrap());
        let (ok, content) = if let Some(action) = race {
            // The policy checks, then the hook changes the disk, then the tool opens.
            let policy_view = jarvis_core::tools::paths::resolve(&w.s, &path);
            assert!(
                policy_view.is_ok_and(|p| p.starts_with(&w.s)),
                "{id}: the check sees an inside path"
            );
            let at = locate(&w.s, &[], &path).unwrap();
            let hook = || race_action(&w, &action);
            races += 1;
            match sandbox::read_all(&at, Some(&hook)) {
                Ok(bytes) => (true, String::from_utf8_lossy(&bytes).to_string()),
                Err(e) => (false, e.to_string()),
            }
        } else {
            let e = env(Setup {
                config: &[("tools.read", "true"), ("tools.write", "true")],
                ..Setup::new("http://127.0.0.1:9/v1".into(), Arc::new(AllowOnceApprover))
            });
            e.brain
                .submit(jarvis_protocol::Op::SetWorkdir {
                    path: w.s.display().to_string(),
                })
                .unwrap();
            let (tool, args) = if note.contains("[write]") {
                (
                    "local_write_file",
                    json!({"path": path, "content": "x", "mode": "overwrite"}),
                )
            } else if note.contains("[list]") || Path::new(&path).is_dir() || path.ends_with('/') {
                ("local_list_dir", json!({"path": path}))
            } else {
                ("local_read_file", json!({"path": path}))
            };
            let out = e.brain.run_tool(tool, &args.to_string()).await;
            (out.status == ToolStatus::Ok, out.content)
        };
        match verdict {
            "escape" => {
                if ok || leaked(&content) || !w.outside_untouched() {
                    escapes.push(format!(
                        "{id} {path:?}: {}",
                        content.chars().take(120).collect::<String>()
                    ));
                }
            }
            _ => {
                if ok {
                    served += 1;
                }
                if note.contains("[FP]") && !ok {
                    refused_fp.push(format!("{id} {path:?}: {content}"));
                }
                assert!(
                    !leaked(&content) && w.outside_untouched(),
                    "{id}: an inside row leaked"
                );
            }
        }
    }
    println!(
        "served inside: {served}; races run with a hook: {races}/{race_rows}; skipped: {skipped:?}"
    );
    assert!(escapes.is_empty(), "escapes:\n{}", escapes.join("\n"));
    assert!(
        refused_fp.is_empty(),
        "[FP] refused:\n{}",
        refused_fp.join("\n")
    );
    assert_eq!(
        races, race_rows,
        "every [race] row ran with a hook between check and open"
    );
}

fn race_action(w: &World, action: &str) {
    if let Some(rest) = action.strip_prefix("replace ") {
        // replace P with symlink P -> T
        let (_, link) = rest.split_once(" with symlink ").unwrap();
        let (p, t) = link.split_once(" -> ").unwrap();
        let (p, t) = (w.sub(p), w.sub(t));
        std::fs::remove_file(&p).unwrap();
        std::os::unix::fs::symlink(t, p).unwrap();
    } else if let Some(rest) = action.strip_prefix("rename ") {
        let (from, rest) = rest.split_once(" to ").unwrap();
        let to = rest.split(' ').next().unwrap();
        std::fs::rename(w.sub(from), w.sub(to)).unwrap();
    } else {
        panic!("unknown race action {action}");
    }
}

/// `file_write_prefixes.jsonl`: writes never land under a system prefix,
/// judged on the canonical path (symlinked parents, merged /usr), by whole
/// components (`/usr2` is not `/usr`). Rows for other platforms are skipped.
#[test]
fn system_prefixes_are_blocked_for_writes_by_canonical_components() {
    use jarvis_core::policy::{Policy, PolicySettings, Verdict};
    use jarvis_core::tools::Capability;
    let text = std::fs::read_to_string(
        jarvis_testkit::shared_dir().join("oracles/security/file_write_prefixes.jsonl"),
    )
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let home_path = std::fs::canonicalize(home.path()).unwrap();
    // Writes are judged as if the user had granted the whole filesystem.
    let policy = Policy::new(PolicySettings {
        read: true,
        write: true,
        granted_roots: vec![PathBuf::from("/")],
        ..Default::default()
    });
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let r: Value = serde_json::from_str(line).unwrap();
        if !matches!(r["platform"].as_str().unwrap(), "any" | "linux") {
            continue;
        }
        let setup = r["setup"].as_str().unwrap();
        if let Some(rest) = setup.strip_prefix("symlink ") {
            let (p, t) = rest.split_once(" -> ").unwrap();
            std::os::unix::fs::symlink(t, home_path.join(p.trim_start_matches("~/"))).unwrap();
        }
        let raw = r["path"]
            .as_str()
            .unwrap()
            .replace('~', &home_path.display().to_string());
        let resolved = jarvis_core::tools::paths::resolve(Path::new("/"), &raw).unwrap();
        let d = policy.check(
            &[Capability::Write(resolved.clone())],
            Path::new("/"),
            jarvis_core::policy::TurnFacts::default(),
        );
        let want_block = r["verdict"] == "block";
        assert_eq!(
            d.verdict == Verdict::Block,
            want_block,
            "{} {raw} → {} ({})",
            r["id"],
            resolved.display(),
            d.reason
        );
        checked += 1;
    }
    assert!(checked >= 10, "{checked} rows checked");
}
