//! Strict validation, matching the reference validator (`skills-ref`) rule
//! for rule, so what Jarvis writes is valid everywhere.

use std::path::Path;

use unicode_normalization::UnicodeNormalization;

use super::frontmatter::{FrontError, parse_strict};

pub const ALLOWED_FIELDS: &[&str] = &[
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];

/// The kind of each problem, for agreement with the reference per class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorClass {
    NoSkillFile,
    NoFrontmatter,
    NotClosed,
    InvalidYaml,
    UnexpectedFields,
    MissingName,
    NameRules,
    NameMismatch,
    MissingDescription,
    DescriptionLength,
    Compatibility,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub class: ErrorClass,
    pub message: String,
}

fn p(class: ErrorClass, message: impl Into<String>) -> Problem {
    Problem {
        class,
        message: message.into(),
    }
}

/// The SKILL.md of a skill directory (`skill.md` also counts).
pub fn skill_file(dir: &Path) -> Option<std::path::PathBuf> {
    ["SKILL.md", "skill.md"]
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

/// Every problem the reference validator would report for this directory.
pub fn validate_dir(dir: &Path) -> Vec<Problem> {
    let Some(file) = skill_file(dir) else {
        return vec![p(
            ErrorClass::NoSkillFile,
            "Missing required file: SKILL.md",
        )];
    };
    let text = match std::fs::read(&file) {
        Ok(b) => match String::from_utf8(b) {
            Ok(t) => t,
            Err(_) => return vec![p(ErrorClass::InvalidYaml, "SKILL.md is not UTF-8")],
        },
        Err(e) => {
            return vec![p(
                ErrorClass::NoSkillFile,
                format!("cannot read SKILL.md: {e}"),
            )];
        }
    };
    let dir_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    validate_text(&text, &dir_name)
}

pub fn validate_text(text: &str, dir_name: &str) -> Vec<Problem> {
    let fm = match parse_strict(text) {
        Ok(fm) => fm,
        Err(e) => {
            let class = match e {
                FrontError::NoFrontmatter => ErrorClass::NoFrontmatter,
                FrontError::NotClosed => ErrorClass::NotClosed,
                FrontError::InvalidYaml(_) => ErrorClass::InvalidYaml,
            };
            return vec![p(class, e.to_string())];
        }
    };
    let mut out = Vec::new();
    let mut extra: Vec<&String> = fm
        .keys
        .iter()
        .filter(|k| !ALLOWED_FIELDS.contains(&k.as_str()))
        .collect();
    extra.sort();
    if !extra.is_empty() {
        let names: Vec<&str> = extra.iter().map(|s| s.as_str()).collect();
        out.push(p(
            ErrorClass::UnexpectedFields,
            format!(
                "Unexpected fields in frontmatter: {}. Only {ALLOWED_FIELDS:?} are allowed.",
                names.join(", ")
            ),
        ));
    }
    match fm.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        None => out.push(p(
            ErrorClass::MissingName,
            "Missing required field in frontmatter: name",
        )),
        Some(name) => {
            let name: String = name.nfkc().collect();
            if name.chars().count() > 64 {
                out.push(p(
                    ErrorClass::NameRules,
                    format!("Skill name '{name}' exceeds 64 character limit"),
                ));
            }
            if name != name.to_lowercase() {
                out.push(p(
                    ErrorClass::NameRules,
                    format!("Skill name '{name}' must be lowercase"),
                ));
            }
            if name.starts_with('-') || name.ends_with('-') {
                out.push(p(
                    ErrorClass::NameRules,
                    "Skill name cannot start or end with a hyphen",
                ));
            }
            if name.contains("--") {
                out.push(p(
                    ErrorClass::NameRules,
                    "Skill name cannot contain consecutive hyphens",
                ));
            }
            if !name.chars().all(|c| c.is_alphanumeric() || c == '-') {
                out.push(p(
                    ErrorClass::NameRules,
                    format!("Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."),
                ));
            }
            let dir: String = dir_name.nfkc().collect();
            if dir != name {
                out.push(p(
                    ErrorClass::NameMismatch,
                    format!("Directory name '{dir_name}' must match skill name '{name}'"),
                ));
            }
        }
    }
    match fm.description.as_deref().filter(|d| !d.trim().is_empty()) {
        None => out.push(p(
            ErrorClass::MissingDescription,
            "Missing required field in frontmatter: description",
        )),
        Some(d) if d.chars().count() > 1024 => out.push(p(
            ErrorClass::DescriptionLength,
            format!(
                "Description exceeds 1024 character limit ({} chars)",
                d.chars().count()
            ),
        )),
        Some(_) => {}
    }
    if fm.compatibility_not_string {
        out.push(p(
            ErrorClass::Compatibility,
            "Field 'compatibility' must be a string",
        ));
    } else if fm
        .compatibility
        .as_ref()
        .is_some_and(|c| c.chars().count() > 500)
    {
        out.push(p(
            ErrorClass::Compatibility,
            "Compatibility exceeds 500 character limit",
        ));
    }
    out
}
