//! Assignments and declarations: what a line gives its variables.

use super::*;

impl Walker<'_> {
    pub(super) fn assignment(&mut self, n: Node, nested: bool) -> (Option<String>, Word) {
        // `a[$(cmd)]=v`: an indexed array's subscript is arithmetic, and its
        // substitutions run before the value is stored.
        if let Some(x) = n
            .child_by_field_name("name")
            .filter(|x| x.kind() == "subscript")
        {
            self.nested_subs(x);
        }
        let name = n
            .child_by_field_name("name")
            .map(|x| self.text(x).to_string())
            .map(|x| self.vars.refs.get(&x).cloned().unwrap_or(x));
        let value = match n.child_by_field_name("value") {
            Some(v) if v.kind() == "array" => self.array_value(n, v, name.as_deref(), nested),
            Some(v) => {
                if let Some(name) = &name {
                    self.vars.arrays.remove(name);
                }
                self.word_at_start(v, nested, true)
            }
            None => Word::lit(""),
        };
        // An integer's value is arithmetic, evaluated with its side effects
        // (`declare -i n; n=i=1` sets `i`).
        let value = match (&name, n.child_by_field_name("value")) {
            (Some(name), Some(v)) if self.vars.integers.contains(name) => {
                let text = self.text(v).to_string();
                self.arithmetic(&text);
                value
            }
            _ => value,
        };
        // `J+=vis` appends to what J held.
        let appends = self
            .text(n)
            .split_once('=')
            .is_some_and(|(l, _)| l.ends_with('+'));
        let value = match (&name, appends) {
            (Some(name), true) => match self.vars.known.get(name) {
                Some(before) if !value.dynamic => Word {
                    text: format!("{before}{}", value.text),
                    ..value
                },
                // Appended to a value a branch chose: each choice appended.
                None if !value.dynamic && self.vars.alts.contains_key(name) => {
                    let mut w = self.unresolved(&format!("${name}"), name);
                    w.merge(value);
                    w
                }
                _ => Word {
                    dynamic: true,
                    computed: true,
                    ..value
                },
            },
            _ => value,
        };
        if let Some(name) = &name {
            self.vars.lines.remove(name);
            if value.dynamic {
                self.vars.forget(name);
                self.vars.from.insert(name.clone(), value.subs.clone());
                // `d="$t"`, `p="$t/x"`: the choices travel with the value.
                if !value.choices.is_empty() {
                    let alt = (value.choices.clone(), value.open);
                    self.vars.alts.insert(name.clone(), alt);
                }
                // `pp=$PPID`: a copy of a variable not known here.
                if value.subs.is_empty() && is_expansion(&value.text) {
                    self.vars.copies.insert(name.clone(), value.text.clone());
                }
            } else {
                self.vars.set(name.clone(), value.text.clone());
                self.vars.from.remove(name);
                // A value that may also be another (`d=$(cd x && pwd)`
                // is empty when the `cd` fails).
                if !value.choices.is_empty() {
                    let alt = (value.choices.clone(), value.open);
                    self.vars.alts.insert(name.clone(), alt);
                }
            }
        }
        (name, value)
    }

    /// `a=(x y)`: run-time text, with its elements kept while they are
    /// literals and the array is only ever read whole or by index.
    fn array_value(&mut self, n: Node, v: Node, name: Option<&str>, nested: bool) -> Word {
        let mut w = Word {
            text: self.text(v).to_string(),
            dynamic: true,
            computed: true,
            ..Default::default()
        };
        let mut c = v.walk();
        let kids: Vec<Node> = v.named_children(&mut c).collect();
        let mut elements = Some(Vec::new());
        // `[key]=value` keys are names only in `declare -A`; in a
        // plain array they are arithmetic (`[safe]` is 0).
        let assoc = n.parent().is_some_and(|p| {
            p.kind() == "declaration_command"
                && self
                    .text(p)
                    .split_whitespace()
                    .any(|t| t.starts_with('-') && !t.starts_with("--") && t.contains('A'))
        });
        for k in kids {
            let x = self.word(k, nested);
            if let Some(name) = name {
                let seen = self.grown.entry(name.to_string()).or_default();
                // Every distinct word (the line's own text bounds them):
                // dropping any could hide the one that matters.
                if !seen.iter().any(|w| w.text == x.text) {
                    seen.push(x.clone());
                }
            }
            let raw = self.text(k);
            if x.dynamic || x.text.contains('{') {
                elements = None;
            } else if let Some(e) = elements.as_mut() {
                // `[key]=value`: kept as key and value.
                match raw.strip_prefix('[').and_then(|r| r.split_once("]=")) {
                    Some(_) if !assoc => elements = None,
                    Some((key, _)) => {
                        let value = x
                            .text
                            .split_once("]=")
                            .map(|(_, v)| v)
                            .unwrap_or(&x.text)
                            .trim_matches(['"', '\''])
                            .to_string();
                        e.push(format!("{key}{}{value}", vars::KEYED));
                    }
                    None => e.push(x.text.clone()),
                }
            }
            w.subs.extend(x.subs);
        }
        if let Some(name) = name {
            match elements {
                Some(e)
                    if !self.text(n).contains("+=") && self.vars.stable_arrays.contains(name) =>
                {
                    self.vars.arrays.insert(name.to_string(), e);
                }
                _ => {
                    self.vars.arrays.remove(name);
                }
            }
        }
        w
    }

    /// `text` with `$name` and `${name}` replaced by the values this line
    /// gave them, where those are plain words (a path, a number).
    pub(super) fn with_known(&self, text: &str) -> String {
        let plain = |v: &str| {
            !v.is_empty()
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_./~:+@%,-".contains(c))
        };
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let braced = after.starts_with('{');
            let body = after.trim_start_matches('{');
            let name: String = body
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let closed = !braced || body[name.len()..].starts_with('}');
            // A value a branch chose among several stays a variable.
            let chosen = self.vars.alts.contains_key(&name);
            // Home, as the parser marks it, is spelled `${HOME}` again for
            // the code that reads it (`d=~; eval 'cat "$d"/.netrc'`).
            match self
                .vars
                .known
                .get(&name)
                .filter(|v| closed && plain(&v.replace(HOME, "h")) && !chosen)
            {
                Some(v) if !name.is_empty() => {
                    out.push_str(&v.replace(HOME, "${HOME}"));
                    rest = &body[name.len() + usize::from(braced)..];
                }
                _ => {
                    out.push('$');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// A name reference: `name` reads as the variable `target` does.
    pub(super) fn alias_variable(&mut self, name: &str, target: &str) {
        let ident = !target.is_empty()
            && target
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ident {
            self.vars.refs.insert(name.to_string(), target.to_string());
        }
        match self.lookup(target) {
            Some(v) => {
                self.vars.set(name.to_string(), v);
                self.vars.from.remove(name);
            }
            None => {
                self.vars.forget(name);
                let subs = self.vars.from.get(target).cloned().unwrap_or_default();
                self.vars.from.insert(name.to_string(), subs);
                // Read, it is spelled as the variable it names
                // (`declare -n r=GITHUB_TOKEN; echo $r`).
                if ident {
                    self.vars
                        .copies
                        .insert(name.to_string(), format!("${target}"));
                }
            }
        }
    }

    /// Substitutions bash runs out of a variable's value: the value of a
    /// variable in arithmetic (`[[ $n -gt 0 ]]` with `n='a[$(cmd)]'`), or
    /// prompt-expanded (`${p@P}`). Recorded as the `eval` of the value in
    /// double quotes that it amounts to (the value is not itself a command);
    /// a value nobody knows is evaluated as it stands.
    pub(super) fn evaluated_value(&mut self, value: Word) -> usize {
        let code = if value.dynamic {
            value
        } else {
            Word::lit(format!(
                "echo \"{}\"",
                value.text.replace('\\', "\\\\").replace('"', "\\\"")
            ))
        };
        self.out.commands.push(Command {
            argv: vec![Word::lit("eval"), code],
            cwd: self.cwd.clone(),
            cwd_choices: self.vars.cwd_alts.clone(),
            nested: true,
            ..Default::default()
        });
        self.out.commands.len() - 1
    }

    /// Command substitutions whose output an arithmetic context evaluates
    /// (`[[ $(git log -1 --format=%s) -eq 1 ]]`, `$(( $(cat n) ))`): text
    /// like `a[$(cmd)]` in it runs cmd, as `eval` would. Programs that
    /// print only numbers are left out.
    pub(super) fn evaluated_output(&mut self, subs: Vec<usize>) {
        const NUMBERS: &[&str] = &[
            "wc", "date", "nproc", "id", "stat", "du", "getconf", "expr", "seq",
        ];
        // (A command piped into another prints into the pipe, not the
        // output: `$(ls | wc -l)` is wc's number.)
        let producers_print_numbers = subs.iter().all(|&i| {
            self.out.commands.iter().any(|k| k.stdin_from == Some(i))
                || self
                    .out
                    .commands
                    .get(i)
                    .and_then(|c| c.argv.first())
                    .is_some_and(|w| {
                        NUMBERS.contains(&w.text.rsplit('/').next().unwrap_or(&w.text))
                    })
        });
        if subs.is_empty() || producers_print_numbers {
            return;
        }
        self.out.evaluated_outputs.push(subs);
    }

    /// The variables an arithmetic context reads whose values hold a
    /// command substitution: bash runs it when it evaluates them.
    pub(super) fn arithmetic(&mut self, text: &str) -> Vec<usize> {
        let mut out = Vec::new();
        let names: Vec<String> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|s| !s.is_empty() && !s.starts_with(|c: char| c.is_ascii_digit()))
            .map(str::to_string)
            .collect();
        // `((i++))`, `let n=3`, `(( $j = 1 ))`: what it assigns, and the
        // variables the names in it hold, are not known from here on.
        if arith::assigns_anything(text) {
            let held: Vec<String> = names
                .iter()
                .filter_map(|n| self.vars.known.get(n).cloned())
                .filter(|v| v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
                .collect();
            for name in names.iter().chain(held.iter()) {
                self.vars.forget(name);
                self.vars.from.remove(name);
            }
        }
        for name in names {
            // Every value the variable may hold, a branch's others too.
            let mut values: Vec<String> = self.vars.known.get(&name).cloned().into_iter().collect();
            if let Some((alts, _)) = self.vars.alts.get(&name) {
                values.extend(alts.iter().cloned());
            }
            for v in values {
                if v.contains("$(") || v.contains('`') {
                    out.push(self.evaluated_value(Word::lit(v)));
                }
            }
        }
        out
    }

    /// `export X=…`, `declare -x X=…`, `local`, `readonly`: assignments, and
    /// a command of its own (`export -p` prints the environment).
    pub(super) fn declaration(&mut self, n: Node, nested: bool) {
        let mut argv = Vec::new();
        let mut assigns = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.children(&mut cursor).collect();
        // `declare -n d=HOME`: `$d` is `$HOME` from here on.
        let mut nameref = false;
        let (mut case_lower, mut case_upper) = (false, false);
        let mut integer = false;
        for k in kids {
            if !k.is_named() {
                let t = self.text(k);
                if argv.is_empty() && !t.trim().is_empty() {
                    argv.push(Word::lit(t));
                }
                continue;
            }
            if k.kind() == "variable_assignment" {
                let (name, mut value) = self.assignment(k, nested);
                // `typeset -l d=/HOME/U`: the value stored lower-cased.
                if let Some(name) = &name
                    && !value.dynamic
                    && (case_lower || case_upper)
                {
                    value.text = if case_lower {
                        value.text.to_lowercase()
                    } else {
                        value.text.to_uppercase()
                    };
                    self.vars.set(name.clone(), value.text.clone());
                }
                if let Some(name) = name {
                    if nameref && !value.dynamic {
                        self.alias_variable(&name, &value.text);
                    }
                    assigns.push((name, value));
                }
            } else {
                let t = self.text(k);
                nameref |= t.starts_with('-') && !t.starts_with("--") && t.contains('n');
                integer |= t.starts_with('-') && !t.starts_with("--") && t.contains('i');
                case_lower |= t.starts_with('-') && !t.starts_with("--") && t.contains('l');
                case_upper |= t.starts_with('-') && !t.starts_with("--") && t.contains('u');
                let w = self.word(k, nested);
                // `declare "$n=/tmp/x:$PATH"` with `n` known: an assignment
                // to the variable it names.
                if !t.starts_with('-')
                    && t.contains('$')
                    && let Some((name, value)) = w.text.split_once('=')
                    && !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    let value = Word {
                        text: value.to_string(),
                        ..w.clone()
                    };
                    self.vars.forget(name);
                    assigns.push((name.to_string(), value));
                    continue;
                }
                argv.push(w);
            }
        }
        if integer {
            let names = argv[1..]
                .iter()
                .filter(|w| !w.text.starts_with(['-', '+']))
                .map(|w| w.text.clone())
                .chain(assigns.iter().map(|(n, _)| n.clone()));
            self.vars.integers.extend(names);
        }
        self.forget_set_names(&argv);
        self.out.commands.push(Command {
            argv,
            assigns,
            cwd: self.cwd.clone(),
            cwd_choices: self.vars.cwd_alts.clone(),
            nested,
            declares: true,
            ..Default::default()
        });
    }
}

/// `$NAME` or `${NAME}`: one variable's value, nothing else.
fn is_expansion(t: &str) -> bool {
    let name = t
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| t.strip_prefix('$'));
    name.is_some_and(|n| {
        !n.is_empty()
            && !n.starts_with(|c: char| c.is_ascii_digit())
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}
