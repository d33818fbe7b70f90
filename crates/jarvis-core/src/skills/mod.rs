//! Agent Skills: discovery across roots (later roots shadow earlier ones by
//! `name`), lenient loading (a broken skill is reported and skipped), strict
//! validation (the spec), and the `<available_skills>` catalog for the
//! system prompt. The model loads a skill by reading its SKILL.md.

pub mod catalog;
pub mod frontmatter;
pub mod index;
pub mod install;
pub mod manage;
pub mod scan;
pub mod validate;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// Skills are looked for this deep below a root (nested collections exist).
pub const MAX_DEPTH: usize = 4;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkillRoot {
    pub path: PathBuf,
    /// `bundled`, `claude`, `agents`, `jarvis`, `extra`.
    pub source: String,
}

pub use jarvis_protocol::skills::Skill;

/// A skill that could not be loaded, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Broken {
    pub dir: PathBuf,
    pub source: String,
    pub reason: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Catalog {
    /// By name: a stable order keeps the prompt cacheable.
    pub skills: Vec<Skill>,
    pub broken: Vec<Broken>,
}

impl Catalog {
    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.skills.iter().find(|s| s.name == name)
    }
}

/// Lowest precedence first: bundled, `~/.claude/skills`, `~/.agents/skills`,
/// `$JARVIS_HOME/skills`, then extra directories from config.
pub fn default_roots(
    jarvis_home: &Path,
    bundled: Option<&Path>,
    extra: &[PathBuf],
) -> Vec<SkillRoot> {
    let mut roots = Vec::new();
    let mut push = |p: PathBuf, source: &str| {
        roots.push(SkillRoot {
            path: p,
            source: source.into(),
        })
    };
    if let Some(b) = bundled {
        push(b.to_path_buf(), "bundled");
    }
    if let Some(h) = std::env::var_os("HOME").map(PathBuf::from) {
        push(h.join(".claude/skills"), "claude");
        push(h.join(".agents/skills"), "agents");
    }
    push(jarvis_home.join("skills"), "jarvis");
    for e in extra {
        push(e.clone(), "extra");
    }
    roots
}

/// Every skill directory below `root`, at most `MAX_DEPTH` levels down,
/// skipping dot-directories and never following a link out of the root.
fn find_skill_dirs(root: &Path) -> Vec<PathBuf> {
    let Ok(canon_root) = std::fs::canonicalize(root) else {
        return vec![];
    };
    let mut out = Vec::new();
    let mut stack = vec![(canon_root.clone(), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        if depth > 0 && validate::skill_file(&dir).is_some() {
            out.push(dir);
            continue;
        }
        if depth >= MAX_DEPTH {
            continue;
        }
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut children: Vec<PathBuf> = rd
            .flatten()
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .filter_map(|p| std::fs::canonicalize(&p).ok())
            .filter(|p| p.starts_with(&canon_root))
            .collect();
        children.sort();
        for c in children.into_iter().rev() {
            stack.push((c, depth + 1));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Loads one skill directory leniently.
pub fn load_dir(dir: &Path, source: &str) -> Result<Skill, Broken> {
    let broken = |reason: String| Broken {
        dir: dir.to_path_buf(),
        source: source.into(),
        reason,
    };
    let file = validate::skill_file(dir).ok_or_else(|| broken("no SKILL.md".into()))?;
    let bytes = std::fs::read(&file).map_err(|e| broken(format!("cannot read SKILL.md: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| broken("SKILL.md is not UTF-8".into()))?;
    let fm = frontmatter::parse_lenient(&text).map_err(|e| broken(e.to_string()))?;
    let name = fm
        .name
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .ok_or_else(|| broken("no name in the frontmatter".into()))?;
    let description = fm
        .description
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty())
        .ok_or_else(|| broken("no description in the frontmatter".into()))?;
    let mut warnings = Vec::new();
    let folder = dir
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_default();
    if folder != name {
        warnings.push(format!(
            "folder {folder:?} differs from the skill's name {name:?}"
        ));
    }
    if description.chars().count() > 1024 {
        warnings.push(format!(
            "description has {} characters (the spec allows 1024)",
            description.chars().count()
        ));
    }
    let extra: Vec<&String> = fm
        .keys
        .iter()
        .filter(|k| !validate::ALLOWED_FIELDS.contains(&k.as_str()))
        .collect();
    if !extra.is_empty() {
        warnings.push(format!(
            "fields outside the spec: {}",
            extra
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let location = std::fs::canonicalize(&file).unwrap_or(file);
    Ok(Skill {
        name,
        description,
        dir: dir.to_path_buf(),
        location,
        source: source.into(),
        warnings,
        shadows: vec![],
    })
}

/// Discovers every skill under the roots; a later root's skill shadows an
/// earlier one of the same name.
pub fn discover(roots: &[SkillRoot]) -> Catalog {
    let mut by_name: BTreeMap<String, Skill> = BTreeMap::new();
    let mut broken = Vec::new();
    for root in roots {
        for dir in find_skill_dirs(&root.path) {
            match load_dir(&dir, &root.source) {
                Ok(mut s) => {
                    if let Some(old) = by_name.remove(&s.name) {
                        tracing::info!(skill = %s.name, "{} shadows {}", s.source, old.source);
                        s.shadows = old.shadows;
                        s.shadows.push(old.source);
                    }
                    by_name.insert(s.name.clone(), s);
                }
                Err(b) => broken.push(b),
            }
        }
    }
    Catalog {
        skills: by_name.into_values().collect(),
        broken,
    }
}
