//! Branches: `if`, `case`, `&&` and `||`. Each way through starts from the
//! values before it; after the branch, a variable set differently on the
//! ways holds one of their values (its choices, each judged where it is
//! used), and a `cd` taken on one way only leaves the folder unknown.

use std::collections::HashSet;

use super::*;

/// What one way through left: the variables and the folder.
type Outcome = (Vars, Option<String>);

/// A variable's value after one way through.
enum Value {
    Known(String),
    OneOf(Vec<String>, bool),
    Unknown,
}

impl Walker<'_> {
    pub(super) fn if_branches(&mut self, n: Node, nested: bool) {
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.children(&mut cursor).collect();
        let (mut then_seen, mut has_else) = (false, false);
        let (mut body, mut clauses) = (Vec::new(), Vec::new());
        for k in kids {
            if !k.is_named() {
                then_seen |= k.kind() == "then";
                continue;
            }
            match k.kind() {
                "elif_clause" => clauses.push(k),
                "else_clause" => {
                    has_else = true;
                    clauses.push(k);
                }
                // The condition always runs.
                _ if !then_seen => self.statement(k, nested),
                _ => body.push(k),
            }
        }
        let start = (self.vars.clone(), self.cwd.clone());
        let mut outcomes = Vec::new();
        for k in body {
            self.statement(k, nested);
        }
        outcomes.push(self.outcome(&start));
        for c in clauses {
            self.children(c, nested);
            outcomes.push(self.outcome(&start));
        }
        if !has_else {
            outcomes.push(start.clone());
        }
        self.join(&start, outcomes);
    }

    pub(super) fn case_branches(&mut self, n: Node, nested: bool) {
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        let mut items = Vec::new();
        for k in kids {
            if k.kind() == "case_item" {
                items.push(k);
            } else {
                // The word matched: its substitutions run first.
                self.statement(k, nested);
            }
        }
        let start = (self.vars.clone(), self.cwd.clone());
        let mut outcomes = Vec::new();
        let mut default = false;
        for item in items {
            let mut c = item.walk();
            default |= item
                .children_by_field_name("value", &mut c)
                .any(|v| self.text(v) == "*");
            self.children(item, nested);
            outcomes.push(self.outcome(&start));
        }
        if !default {
            outcomes.push(start.clone());
        }
        self.join(&start, outcomes);
    }

    /// `a && b || c`: walked in order (each part sees the parts before it,
    /// as on the way where all run); after the list, the line may have
    /// stopped after any part.
    pub(super) fn list_branches(&mut self, n: Node, nested: bool) {
        let mut parts = Vec::new();
        operands(n, &mut parts);
        let mut outcomes = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            self.statement(*part, nested);
            if i + 1 < parts.len() {
                outcomes.push((self.vars.clone(), self.cwd.clone()));
            }
        }
        let start = outcomes.first().cloned();
        outcomes.push((self.vars.clone(), self.cwd.clone()));
        if let Some(start) = start {
            self.join(&start, outcomes);
        }
    }

    /// What this way left, with the walker set back to `start` for the next.
    fn outcome(&mut self, start: &Outcome) -> Outcome {
        (
            std::mem::replace(&mut self.vars, start.0.clone()),
            std::mem::replace(&mut self.cwd, start.1.clone()),
        )
    }

    fn join(&mut self, start: &Outcome, outcomes: Vec<Outcome>) {
        let Some((last, _)) = outcomes.last() else {
            return;
        };
        let mut vars = last.clone();
        let mut names: HashSet<&String> = HashSet::new();
        for (v, _) in &outcomes {
            names.extend(v.known.keys().chain(v.from.keys()).chain(v.alts.keys()));
        }
        for name in names {
            let values: Vec<Value> = outcomes
                .iter()
                .map(|(v, _)| value_of(v, name, &start.0))
                .collect();
            let first = match values.first() {
                Some(Value::Known(x)) => Some(x),
                _ => None,
            };
            let same = first.is_some_and(|f| {
                values
                    .iter()
                    .all(|v| matches!(v, Value::Known(x) if x == f))
            });
            if same {
                continue;
            }
            let (mut choices, mut open) = (Vec::new(), false);
            for v in values {
                match v {
                    Value::Known(x) => choices.push(x),
                    Value::OneOf(xs, o) => {
                        choices.extend(xs);
                        open |= o;
                    }
                    Value::Unknown => open = true,
                }
            }
            choices.sort();
            choices.dedup();
            // The last way's value stays what the variable reads as where
            // one value is needed (`${v#x}`, `cd "$v"` judged as before);
            // a plain `$v` carries every value, each judged.
            if !vars.known.contains_key(name.as_str()) {
                let subs: Vec<usize> = outcomes
                    .iter()
                    .filter_map(|(v, _)| v.from.get(name.as_str()))
                    .flatten()
                    .copied()
                    .collect();
                vars.from.insert(name.clone(), subs);
            }
            if choices.len() <= MAX_CHOICES && !choices.is_empty() {
                vars.alts.insert(name.clone(), (choices, open));
            } else {
                vars.forget(name);
            }
        }
        // An array set on one way only is not known after.
        for (v, _) in &outcomes {
            vars.arrays.retain(|k, e| v.arrays.get(k) == Some(e));
        }
        self.cwd = joined_cwd(outcomes.iter().map(|(_, c)| c));
        self.vars = vars;
    }
}

/// The commands of a list, left to right (`a && b || c` nests as
/// `(a && b) || c`).
fn operands<'n>(n: Node<'n>, out: &mut Vec<Node<'n>>) {
    let mut cursor = n.walk();
    for k in n.named_children(&mut cursor) {
        if k.kind() == "list" {
            operands(k, out);
        } else {
            out.push(k);
        }
    }
}

/// `name`'s value after one way through. A name nobody set holds the
/// empty string, unless it may come from the environment (upper case).
fn value_of(v: &Vars, name: &str, start: &Vars) -> Value {
    if let Some((xs, open)) = v.alts.get(name) {
        return Value::OneOf(xs.clone(), *open);
    }
    if let Some(x) = v.known.get(name) {
        return Value::Known(x.clone());
    }
    let never_set = !v.from.contains_key(name)
        && !start.from.contains_key(name)
        && !start.known.contains_key(name);
    if never_set && !from_environment(name) {
        Value::Known(String::new())
    } else {
        Value::Unknown
    }
}

/// Names the session's environment sets: their value before the line is
/// not known. Any other name the line never set is empty.
fn from_environment(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "PATH",
        "USER",
        "LOGNAME",
        "SHELL",
        "OLDPWD",
        "TMPDIR",
        "TMP",
        "TEMP",
        "LANG",
        "LANGUAGE",
        "TERM",
        "DISPLAY",
        "WAYLAND_DISPLAY",
        "EDITOR",
        "VISUAL",
        "PAGER",
        "MAIL",
        "HOSTNAME",
        "PPID",
        "UID",
        "EUID",
        "RANDOM",
        "SECONDS",
        "LINENO",
        "BASHPID",
        "CDPATH",
        "PS1",
        "PS4",
        "IFS",
        "OPTARG",
        "OPTIND",
        "REPLY",
        "MAKEFLAGS",
        "CI",
    ];
    NAMES.contains(&name)
        || ["XDG_", "LC_", "SSH_", "GIT_", "DBUS_", "BASH", "JARVIS"]
            .iter()
            .any(|p| name.starts_with(p))
}

/// The folder after the ways through: the same on all of them, or the
/// shallowest when each stays inside the working directory (`if [ -d src
/// ]; then cd src; fi`: a `..` from there reaches out soonest); anything
/// else is not known.
pub(super) fn joined_cwd<'a>(cwds: impl Iterator<Item = &'a Option<String>>) -> Option<String> {
    let all: Vec<&Option<String>> = cwds.collect();
    let mut cwds = all.iter().copied();
    let inside = |c: &Option<String>| match c {
        None => Some(0),
        Some(d) if !d.starts_with(['/', '$', HOME]) && !d.split('/').any(|p| p == "..") => {
            Some(d.split('/').filter(|p| !p.is_empty() && *p != ".").count())
        }
        Some(_) => None,
    };
    let first = cwds.next()?.clone();
    let mut same = true;
    let mut best = inside(&first).map(|depth| (depth, first.clone()));
    for c in cwds {
        same &= *c == first;
        best = match (best, inside(c)) {
            (Some((d, _)), Some(e)) if e < d => Some((e, c.clone())),
            (Some(b), Some(_)) => Some(b),
            _ => None,
        };
    }
    if same {
        return first;
    }
    match best {
        Some((_, c)) => c,
        // One place outside the working directory, on some way: judged
        // there, the stricter place.
        None => {
            let mut outside: Vec<&Option<String>> = all
                .iter()
                .copied()
                .filter(|c| inside(c).is_none())
                .collect();
            outside.sort();
            outside.dedup();
            match outside.as_slice() {
                [one] => (*one).clone(),
                _ => Some(UNKNOWN_DIR.into()),
            }
        }
    }
}
