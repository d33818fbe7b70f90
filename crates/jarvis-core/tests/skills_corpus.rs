//! Skills over the 87-skill corpus: strict validation agrees with the
//! reference validator per error class, lenient loading loads every skill
//! that has a name and a description, and the catalog is byte for byte the
//! reference's `to-prompt`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use jarvis_core::skills::validate::{ErrorClass, validate_dir};
use jarvis_core::skills::{SkillRoot, catalog, discover, load_dir};

fn oracles() -> PathBuf {
    std::fs::canonicalize(jarvis_testkit::shared_dir().join("oracles")).unwrap()
}

fn class_of(msg: &str) -> Vec<ErrorClass> {
    let mut v = Vec::new();
    let pairs: &[(&str, ErrorClass)] = &[
        (
            "must start with YAML frontmatter",
            ErrorClass::NoFrontmatter,
        ),
        ("not properly closed", ErrorClass::NotClosed),
        ("Invalid YAML", ErrorClass::InvalidYaml),
        ("Unexpected fields", ErrorClass::UnexpectedFields),
        (
            "Missing required field in frontmatter: name",
            ErrorClass::MissingName,
        ),
        ("must be lowercase", ErrorClass::NameRules),
        ("invalid characters", ErrorClass::NameRules),
        ("exceeds 64", ErrorClass::NameRules),
        ("hyphen", ErrorClass::NameRules),
        ("Directory name", ErrorClass::NameMismatch),
        (
            "Missing required field in frontmatter: description",
            ErrorClass::MissingDescription,
        ),
        ("Description exceeds", ErrorClass::DescriptionLength),
        ("Field 'compatibility'", ErrorClass::Compatibility),
        ("Compatibility exceeds", ErrorClass::Compatibility),
        ("Missing required file", ErrorClass::NoSkillFile),
    ];
    for (needle, c) in pairs {
        if msg.contains(needle) {
            v.push(*c);
        }
    }
    v
}

#[test]
fn validate_agrees_with_the_reference_per_error_class() {
    let base = oracles();
    let tsv = std::fs::read_to_string(base.join("skills-ref/results.tsv")).unwrap();
    let (mut agree, mut rows, mut passes) = (0, 0, 0);
    let mut disagreements = Vec::new();
    for line in tsv.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (dir, verdict, errors) = (cols[0], cols[1], cols[3]);
        rows += 1;
        let want: BTreeSet<ErrorClass> = errors.split(" || ").flat_map(class_of).collect();
        let got_problems = validate_dir(&base.join("skills/corpus").join(dir));
        let got: BTreeSet<ErrorClass> = got_problems.iter().map(|p| p.class).collect();
        if got.is_empty() {
            passes += 1;
        }
        if (verdict == "pass") == got.is_empty() && want == got {
            agree += 1;
        } else {
            disagreements.push(format!(
                "{dir}: reference {want:?} ({errors}) vs ours {got:?} {got_problems:?}"
            ));
        }
    }
    println!("agreement {agree}/{rows}; {passes} valid");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert_eq!(rows, 87);
}

#[test]
fn every_skill_with_a_name_and_description_loads() {
    let base = oracles();
    let catalog = discover(&[SkillRoot {
        path: base.join("skills/corpus"),
        source: "corpus".into(),
    }]);
    let index = std::fs::read_to_string(base.join("skills/index.tsv")).unwrap();
    let header: Vec<&str> = index.lines().next().unwrap().split('\t').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let (dcol, ncol, desccol) = (col("skill_dir"), col("name"), col("description"));
    let mut expected = 0;
    for line in index.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (dir, name, desc) = (cols[dcol], cols[ncol], cols[desccol]);
        if name.trim().is_empty() || desc.trim().is_empty() {
            continue;
        }
        expected += 1;
        let full = std::fs::canonicalize(base.join("skills/corpus").join(dir)).unwrap();
        let found = catalog.skills.iter().find(|s| s.dir == full);
        let shadowed = catalog
            .skills
            .iter()
            .any(|s| s.name == name && s.dir != full);
        assert!(
            found.is_some() || shadowed,
            "{dir} ({name}) was not loaded; broken: {:?}",
            catalog.broken.iter().find(|b| b.dir == full)
        );
        if let Some(s) = found {
            assert_eq!(s.name, name, "{dir}");
        }
    }
    println!(
        "{} loaded, {} broken, {expected} expected",
        catalog.skills.len(),
        catalog.broken.len()
    );
    assert!(expected >= 80);
    for b in &catalog.broken {
        assert!(!b.reason.is_empty());
    }
}

#[test]
fn the_catalog_is_byte_for_byte_the_reference_to_prompt() {
    let base = oracles();
    let dir = base.join("skills-ref/prompt_examples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let want = std::fs::read_to_string(&path)
            .unwrap()
            .replace("ORACLES/", &format!("{}/", base.display()));
        let want = want.trim_end_matches('\n');
        let locations: Vec<String> = want
            .lines()
            .collect::<Vec<_>>()
            .windows(2)
            .filter(|w| w[0] == "<location>")
            .map(|w| w[1].to_string())
            .collect();
        let skills: Vec<_> = locations
            .iter()
            .map(|l| load_dir(PathBuf::from(l).parent().unwrap(), "test").unwrap())
            .collect();
        let got = catalog::to_prompt(skills.iter().map(|s| {
            (
                s.name.as_str(),
                s.description.as_str(),
                s.location.display().to_string(),
            )
        }));
        assert_eq!(got, want, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 5);
}

#[test]
fn the_prompt_section_is_absent_without_skills_and_fits_its_budget() {
    let empty = jarvis_core::skills::Catalog::default();
    assert_eq!(catalog::prompt_section(&empty, 15_000), "");
    let base = oracles();
    let all = discover(&[SkillRoot {
        path: base.join("skills/corpus"),
        source: "corpus".into(),
    }]);
    let full = catalog::prompt_section(&all, usize::MAX);
    let names = |s: &str| s.matches("<name>").count();
    assert_eq!(names(&full), all.skills.len());
    // A budget just below the full size shortens descriptions and keeps every skill.
    let shorter = catalog::prompt_section(&all, full.chars().count() - 1);
    assert!(shorter.chars().count() < full.chars().count());
    assert_eq!(
        names(&shorter),
        all.skills.len(),
        "descriptions shrink before any skill is dropped"
    );
    assert!(shorter.contains('…'));
    // The default budget holds; past that, whole skills go, never half a block.
    let tight = catalog::prompt_section(&all, 15_000);
    assert!(tight.chars().count() <= 15_000 && names(&tight) > 0);
    assert!(tight.ends_with("</available_skills>"));
    // Stable: the same catalog gives the same bytes.
    assert_eq!(catalog::prompt_section(&all, 15_000), tight);
}
