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
        let (mut conditions, mut body, mut clauses) = (Vec::new(), Vec::new(), Vec::new());
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
                _ if !then_seen => conditions.push(k),
                _ => body.push(k),
            }
        }
        let start = (self.vars.clone(), self.cwd.clone());
        // The condition always runs; the body only when it succeeded.
        let failed = self.condition(&conditions, nested);
        let mut outcomes = Vec::new();
        for k in body {
            self.statement(k, nested);
        }
        outcomes.push(self.outcome(&failed));
        // Each `elif`'s condition runs after the ones before it failed: the
        // conditions add up; each body starts from them.
        let mut tested = failed;
        for c in clauses {
            let mut cursor = c.walk();
            let kids: Vec<Node> = c.children(&mut cursor).collect();
            let mut in_body = c.kind() == "else_clause";
            let (mut conditions, mut bodies) = (Vec::new(), Vec::new());
            for k in kids {
                if !k.is_named() {
                    in_body |= k.kind() == "then";
                } else if in_body {
                    bodies.push(k);
                } else {
                    conditions.push(k);
                }
            }
            let failed = self.condition(&conditions, nested);
            for k in bodies {
                self.statement(k, nested);
            }
            outcomes.push(self.outcome(&failed));
            tested = failed;
        }
        if !has_else {
            outcomes.push(tested);
        }
        self.join(&start, outcomes);
    }

    /// Walks a condition, leaving the walker where a body that runs on its
    /// success starts; returns where the next clause starts on its
    /// failure, which may have come before or after any of its effects.
    fn condition(&mut self, conditions: &[Node], nested: bool) -> Outcome {
        let before = (self.vars.clone(), self.cwd.clone());
        for &k in conditions {
            self.cd_success = None;
            self.statement(k, nested);
        }
        let only_cd = conditions.len() == 1 && self.is_cd(conditions[0]);
        let landed = self.cd_success.take().filter(|_| only_cd);
        let after = (self.vars.clone(), self.cwd.clone());
        // A `cd` that failed did not move.
        let failed = if landed.is_some() {
            before
        } else {
            self.join(&before, vec![before.clone(), after.clone()]);
            (
                std::mem::replace(&mut self.vars, after.0),
                std::mem::replace(&mut self.cwd, after.1),
            )
        };
        if let Some(landed) = landed {
            self.set_places(landed);
        }
        failed
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
            // `;&` and `;;&` go on into the next item, which starts either
            // from the values before the case or from this item's.
            if item.child_by_field_name("fallthrough").is_some() {
                let fell = (self.vars.clone(), self.cwd.clone());
                outcomes.push(fell.clone());
                self.join(&start, vec![start.clone(), fell]);
            } else {
                outcomes.push(self.outcome(&start));
            }
        }
        (self.vars, self.cwd) = start.clone();
        if !default {
            outcomes.push(start.clone());
        }
        self.join(&start, outcomes);
    }

    /// `a && b || c`: each part runs from the states in which the parts
    /// before it let it run: after `&&`, where they succeeded; after `||`,
    /// where they failed. A `cd` that succeeded landed; one that failed
    /// did not move; another part may have failed after its effects. After
    /// the list, the line is in any state it may have ended in.
    pub(super) fn list_branches(&mut self, n: Node, nested: bool) {
        let mut parts = Vec::new();
        operands(n, &mut parts, false);
        // Where the list so far has failed, and where it succeeded before
        // an `||` (the current state is where it succeeded last).
        let mut fails: Vec<Outcome> = Vec::new();
        let mut oks: Vec<Outcome> = Vec::new();
        for (i, &(part, or_before)) in parts.iter().enumerate() {
            if i > 0 && or_before {
                // Runs where the list failed; where it succeeded, it skips.
                oks.push((self.vars.clone(), self.cwd.clone()));
                let failed = std::mem::take(&mut fails);
                if let Some(start) = failed.first().cloned() {
                    self.join(&start, failed);
                }
            } else if i > 0 && !oks.is_empty() {
                // Runs wherever the list succeeded, on either way.
                oks.push((self.vars.clone(), self.cwd.clone()));
                let succeeded = std::mem::take(&mut oks);
                if let Some(start) = succeeded.first().cloned() {
                    self.join(&start, succeeded);
                }
            }
            let before = self
                .is_cd(part)
                .then(|| (self.vars.clone(), self.cwd.clone()));
            self.cd_success = None;
            self.statement(part, nested);
            let landed = self.cd_success.take().filter(|_| before.is_some());
            match (before, landed) {
                (Some(before), Some(landed)) => {
                    fails.push(before);
                    self.set_places(landed);
                }
                _ => fails.push((self.vars.clone(), self.cwd.clone())),
            }
        }
        self.cd_success = None;
        let mut ends = oks;
        ends.push((self.vars.clone(), self.cwd.clone()));
        ends.extend(fails);
        if let Some(start) = ends.first().cloned() {
            self.join(&start, ends);
        }
    }

    /// A plain `cd`/`pushd` in this shell (not in a pipeline, a subshell
    /// or a substitution, where the move is gone after).
    pub(super) fn is_cd(&self, n: Node) -> bool {
        let n = if n.kind() == "redirected_statement" {
            match n.named_child(0) {
                Some(body) => body,
                None => return false,
            }
        } else {
            n
        };
        if n.kind() != "command" {
            return false;
        }
        let t = self.text(n).trim_start();
        ["cd", "pushd", "builtin cd", "command cd"]
            .iter()
            .any(|p| t == *p || t.starts_with(&format!("{p} ")) || t.starts_with(&format!("{p}\t")))
    }

    /// After code that runs any number of times (a loop's body, a
    /// function's at its calls): each variable it changed may hold the
    /// value before or the one it left, and one it changed from a value
    /// set before may hold another (`i=$((i+1))` twice).
    pub(super) fn join_open(&mut self, before: &Outcome) {
        let after = (self.vars.clone(), self.cwd.clone());
        let changed: Vec<String> = after
            .0
            .seen
            .iter()
            // A name set before may be changed again and again (a count);
            // one set only here holds the value before or this one.
            .filter(|n| before.0.seen.contains(*n))
            .filter(|n| {
                after.0.known.get(*n) != before.0.known.get(*n)
                    || after.0.from.get(*n) != before.0.from.get(*n)
                    || after.0.alts.get(*n) != before.0.alts.get(*n)
            })
            .cloned()
            .collect();
        self.join(before, vec![before.clone(), after]);
        for name in changed {
            match self.vars.alts.get_mut(&name) {
                Some((_, open)) => *open = true,
                None => {
                    if self.vars.known.contains_key(&name) {
                        let v = self.vars.known.get(&name).cloned().unwrap_or_default();
                        self.vars.alts.insert(name, (vec![v], true));
                    }
                }
            }
        }
    }

    /// After code the parser cannot see into (a sourced file, an `eval`):
    /// every variable may still hold its value, or another.
    pub(super) fn loosen_all(&mut self) {
        let known: Vec<(String, String)> = self
            .vars
            .known
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (name, value) in known {
            let alt = self
                .vars
                .alts
                .entry(name)
                .or_insert_with(|| (vec![value], true));
            alt.1 = true;
        }
        for (_, open) in self.vars.alts.values_mut() {
            *open = true;
        }
        self.vars.arrays.clear();
        self.vars.lines.clear();
    }

    /// As [`Self::loosen_all`], for the named variables only.
    pub(super) fn loosen_names(&mut self, names: &[String]) {
        for name in names {
            self.vars.seen.insert(name.clone());
            match self.vars.known.get(name).cloned() {
                Some(v) => {
                    let alt = self
                        .vars
                        .alts
                        .entry(name.clone())
                        .or_insert_with(|| (vec![v], true));
                    alt.1 = true;
                }
                None => {
                    if let Some(alt) = self.vars.alts.get_mut(name) {
                        alt.1 = true;
                    }
                }
            }
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
            // The same on every way, or known on none: as the last way left it.
            let none_known = values.iter().all(|v| matches!(v, Value::Unknown));
            if same {
                continue;
            }
            if none_known {
                // Unknown on every way: the substitutions of all of them.
                keep_sources(&mut vars, &outcomes, name);
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
                keep_sources(&mut vars, &outcomes, name);
            } else if let Some(copy) = outcomes
                .iter()
                .find_map(|(v, _)| v.copies.get(name.as_str()))
            {
                // A way that left it a copy (`t=$GITHUB_TOKEN`) is still spelled so.
                vars.copies.insert(name.clone(), copy.clone());
            }
            if choices.len() <= MAX_CHOICES && !choices.is_empty() {
                vars.alts.insert(name.clone(), (choices, open));
            } else {
                vars.forget(name);
            }
        }
        // An array set on one way only is not known after; a variable is a
        // listing's whole line only when it is one on every way.
        for (v, _) in &outcomes {
            vars.arrays.retain(|k, e| v.arrays.get(k) == Some(e));
            vars.lines.retain(|k| v.lines.contains(k));
            vars.seen.extend(v.seen.iter().cloned());
        }
        let mut places: Vec<Option<String>> = Vec::new();
        for (v, c) in &outcomes {
            if v.cwd_alts.is_empty() {
                places.push(c.clone());
            } else {
                places.extend(v.cwd_alts.iter().cloned());
            }
        }
        self.vars = vars;
        self.set_places(places);
    }
}

/// The commands of a list, left to right (`a && b || c` nests as
/// `(a && b) || c`), each with whether `||` comes before it.
fn operands<'n>(n: Node<'n>, out: &mut Vec<(Node<'n>, bool)>, mut or: bool) {
    let mut cursor = n.walk();
    for k in n.children(&mut cursor) {
        if !k.is_named() {
            or = k.kind() == "||";
        } else if k.kind() == "list" {
            operands(k, out, or);
        } else {
            out.push((k, or));
        }
    }
}

/// The substitutions every way took `name` from, and a copy's spelling.
fn keep_sources(vars: &mut Vars, outcomes: &[Outcome], name: &str) {
    let subs: Vec<usize> = outcomes
        .iter()
        .filter_map(|(v, _)| v.from.get(name))
        .flatten()
        .copied()
        .collect();
    vars.from.insert(name.to_string(), subs);
    if let Some(copy) = outcomes.iter().find_map(|(v, _)| v.copies.get(name)) {
        vars.copies.insert(name.to_string(), copy.clone());
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
    let never_set = !v.seen.contains(name) && !start.seen.contains(name);
    match name {
        "HOME" if never_set => Value::Known(HOME.to_string()),
        "PWD" if never_set => Value::Known(".".into()),
        // A secret's name may hold the session's secret.
        _ if never_set && !from_environment(name) && !secret_name(name) => {
            Value::Known(String::new())
        }
        _ => Value::Unknown,
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

/// A name a token or a key is kept under (`GITHUB_TOKEN`, `AWS_SECRET_…`).
pub(super) fn secret_name(name: &str) -> bool {
    let up = name.to_ascii_uppercase();
    let up = if up.contains("AUTHORIZ") || up.contains("AUTHORIS") {
        up
    } else {
        up.replace("AUTHOR", "")
    };
    [
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "KEY",
        "CREDENTIAL",
        "AUTH",
        "COOKIE",
        "SESSION",
    ]
    .iter()
    .any(|k| up.contains(k))
}
