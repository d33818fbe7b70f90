//! SKILL.md frontmatter, read two ways: leniently (how Jarvis loads skills
//! written for any client) and strictly (the Agent Skills spec, as the
//! reference validator reads it, for what Jarvis writes or is asked to check).

use yaml_rust2::{Yaml, YamlLoader};

/// The fields Jarvis uses, as text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frontmatter {
    pub name: Option<String>,
    pub description: Option<String>,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    /// Every top-level key, in order.
    pub keys: Vec<String>,
    /// `compatibility` was present but not a string.
    pub compatibility_not_string: bool,
}

/// Why a frontmatter could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontError {
    /// The file does not start with `---` (a BOM counts as not starting with it).
    NoFrontmatter,
    NotClosed,
    InvalidYaml(String),
}

impl std::fmt::Display for FrontError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrontError::NoFrontmatter => {
                f.write_str("SKILL.md must start with YAML frontmatter (---)")
            }
            FrontError::NotClosed => {
                f.write_str("SKILL.md frontmatter not properly closed with ---")
            }
            FrontError::InvalidYaml(e) => write!(f, "Invalid YAML in frontmatter: {e}"),
        }
    }
}

/// The text between the first two `---` lines.
fn block(text: &str) -> Result<String, FrontError> {
    let text = text.replace("\r\n", "\n");
    let rest = text.strip_prefix("---").ok_or(FrontError::NoFrontmatter)?;
    let rest = rest
        .strip_prefix('\n')
        .or_else(|| rest.strip_prefix("\r"))
        .unwrap_or(rest);
    let mut out = Vec::new();
    for line in rest.split('\n') {
        if line.trim_end() == "---" {
            return Ok(out.join("\n"));
        }
        out.push(line);
    }
    Err(FrontError::NotClosed)
}

fn scalar(y: &Yaml) -> Option<String> {
    match y {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn from_yaml(doc: &Yaml) -> Frontmatter {
    let mut fm = Frontmatter::default();
    if let Yaml::Hash(h) = doc {
        for (k, v) in h {
            let Some(key) = scalar(k) else { continue };
            match key.as_str() {
                "name" => fm.name = scalar(v),
                "description" => fm.description = scalar(v),
                "license" => fm.license = scalar(v),
                "compatibility" => {
                    fm.compatibility = scalar(v).filter(|_| matches!(v, Yaml::String(_)));
                    fm.compatibility_not_string = !matches!(v, Yaml::String(_));
                }
                _ => {}
            }
            fm.keys.push(key);
        }
    }
    fm
}

/// A flow collection (`{…}`, `[…]`) as a value: the reference's strictyaml
/// refuses those, so strict reading does too.
fn flow_value(yaml: &str) -> Option<usize> {
    // Lines of a `|` or `>` block scalar are text, whatever they start with.
    let mut block_indent: Option<usize> = None;
    for (i, line) in yaml.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim_start();
        if let Some(b) = block_indent {
            if t.is_empty() || indent > b {
                continue;
            }
            block_indent = None;
        }
        if t.starts_with('#') || t.is_empty() {
            continue;
        }
        let value = if let Some(rest) = t.strip_prefix("- ") {
            rest.trim_start()
        } else {
            match t.split_once(':') {
                Some((k, v)) if !k.starts_with(['"', '\'']) && !k.contains(' ') => v.trim_start(),
                // A continuation line: a flow collection may open here too.
                _ => t,
            }
        };
        if value.starts_with(['|', '>']) {
            block_indent = Some(indent);
            continue;
        }
        if value.starts_with('{') || value.starts_with('[') {
            return Some(i);
        }
    }
    None
}

fn parse_yaml(yaml: &str) -> Result<Frontmatter, FrontError> {
    let docs =
        YamlLoader::load_from_str(yaml).map_err(|e| FrontError::InvalidYaml(e.to_string()))?;
    match docs.first() {
        Some(doc @ Yaml::Hash(_)) => Ok(from_yaml(doc)),
        Some(Yaml::Null) | None => Ok(Frontmatter::default()),
        Some(_) => Err(FrontError::InvalidYaml(
            "the frontmatter is not a mapping".into(),
        )),
    }
}

/// The reference validator's reading.
pub fn parse_strict(text: &str) -> Result<Frontmatter, FrontError> {
    let yaml = block(text)?;
    if let Some(line) = flow_value(&yaml) {
        return Err(FrontError::InvalidYaml(format!(
            "a JSON-style flow value on line {} (quote it to make it text)",
            line + 2
        )));
    }
    parse_yaml(&yaml)
}

/// How Jarvis loads skills: a BOM is skipped, and when the YAML does not
/// parse (an unquoted `: ` in a description is common) the `name:` and
/// `description:` lines are read directly, as the spec's client guide advises.
pub fn parse_lenient(text: &str) -> Result<Frontmatter, FrontError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let yaml = match block(text) {
        Ok(y) => y,
        // Never closed: everything after the opening line is the frontmatter.
        Err(FrontError::NotClosed) => text
            .replace("\r\n", "\n")
            .split_once('\n')
            .map(|(_, rest)| rest.to_string())
            .unwrap_or_default(),
        Err(e) => return Err(e),
    };
    match parse_yaml(&yaml) {
        Ok(fm) => Ok(fm),
        Err(e) => {
            let mut fm = Frontmatter::default();
            let lines: Vec<&str> = yaml.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let Some((k, v)) = line.split_once(':') else {
                    continue;
                };
                if line.starts_with([' ', '\t']) {
                    continue;
                }
                let key = k.trim().to_string();
                let mut value = v.trim().to_string();
                if matches!(value.as_str(), "|" | ">" | "|-" | ">-" | "") {
                    // A block or multi-line plain scalar: the indented lines that follow.
                    let body: Vec<&str> = lines[i + 1..]
                        .iter()
                        .take_while(|l| l.starts_with([' ', '\t']) || l.is_empty())
                        .map(|l| l.trim())
                        .collect();
                    value = body
                        .join(if value.starts_with('|') { "\n" } else { " " })
                        .trim()
                        .to_string();
                }
                let value = value.trim_matches(|c| c == '"' || c == '\'').to_string();
                match key.as_str() {
                    "name" => fm.name = Some(value),
                    "description" => fm.description = Some(value),
                    _ => {}
                }
                fm.keys.push(key);
            }
            if fm.name.is_none() && fm.description.is_none() {
                return Err(e);
            }
            Ok(fm)
        }
    }
}
