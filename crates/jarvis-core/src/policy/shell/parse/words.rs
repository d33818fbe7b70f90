//! Words: what a word-like node evaluates to without running anything
//! (quotes, escapes, `$'…'`, variables the line set, `$(echo …)`), and how
//! unquoted results split into arguments.

use tree_sitter::Node;

use super::*;

impl Walker<'_> {
    pub(super) fn lookup(&self, name: &str) -> Option<String> {
        // Bash gives these a new value at each read, whatever was assigned.
        const LIVE: &[&str] = &[
            "RANDOM",
            "SRANDOM",
            "BASHPID",
            "EPOCHSECONDS",
            "EPOCHREALTIME",
            "SECONDS",
            "LINENO",
            "BASH_COMMAND",
            "BASH_SUBSHELL",
            "PPID",
            "UID",
            "EUID",
        ];
        if LIVE.contains(&name) {
            return None;
        }
        match name {
            "HOME" => Some(HOME.to_string()),
            "PWD" => Some(".".into()),
            "IFS" => Some(
                self.vars
                    .known
                    .get("IFS")
                    .cloned()
                    .unwrap_or_else(|| " ".into()),
            ),
            _ => {
                if let Ok(i) = name.parse::<usize>() {
                    // Known operands (never empty once known: `$0` is
                    // there): one past the last is empty, as in bash.
                    if self.positional.is_empty() {
                        return None;
                    }
                    return Some(self.positional.get(i).cloned().unwrap_or_default());
                }
                self.vars.known.get(name).cloned()
            }
        }
    }

    /// A `$NAME` that could not be resolved: keeps its spelling (rules read
    /// `$PPID`, `$USER`) and the commands its value came from; a variable
    /// a branch set to one of several values has those as its choices.
    pub(super) fn unresolved(&self, spelled: &str, name: &str) -> Word {
        let plain = spelled == format!("${name}") || spelled == format!("${{{name}}}");
        let (choices, open) = match self.vars.alts.get(name) {
            Some((values, open)) if plain => (values.clone(), *open),
            _ => (Vec::new(), false),
        };
        let spelled = match self.vars.copies.get(name) {
            Some(source) if plain => source.as_str(),
            _ => spelled,
        };
        Word {
            text: spelled.to_string(),
            dynamic: true,
            subs: self.vars.from.get(name).cloned().unwrap_or_default(),
            computed: true,
            line: self.vars.lines.contains(name),
            choices,
            open,
            open_as: spelled.to_string(),
            ..Default::default()
        }
    }

    /// The values a branch left a variable with, when it left several.
    pub(super) fn choices_of(&self, name: &str) -> (Vec<String>, bool) {
        self.vars
            .alts
            .get(name)
            .map(|(c, open)| (c.clone(), *open))
            .unwrap_or_default()
    }

    /// How a variable's value not known here is spelled: as the variable
    /// it copies (`t=$GITHUB_TOKEN`), or as itself.
    pub(super) fn spelled_open(&self, name: &str) -> String {
        self.vars
            .copies
            .get(name)
            .cloned()
            .unwrap_or_else(|| format!("${name}"))
    }

    /// A variable's text as arithmetic reads it: `#` is the count of the
    /// positional words when the line set them.
    pub(super) fn arith_var(&self, name: &str) -> Option<String> {
        // A branch or a loop left it one of several values.
        if self.vars.alts.contains_key(name) {
            return None;
        }
        match name {
            "#" => (!self.positional.is_empty()).then(|| (self.positional.len() - 1).to_string()),
            "HOME" | "PWD" => None,
            _ => self.lookup(name),
        }
    }

    /// `$NAME` and `${NAME}` left inside a plain word by the grammar.
    pub(super) fn expand_inline(&self, raw: &str) -> Word {
        let b: Vec<char> = raw.chars().collect();
        let mut w = Word::default();
        let mut i = 0;
        while i < b.len() {
            if b[i] == '\\' && i + 1 < b.len() {
                w.text.push(b[i + 1]);
                w.spliced |= i > 0;
                i += 2;
                continue;
            }
            if b[i] != '$' {
                w.text.push(b[i]);
                i += 1;
                continue;
            }
            let braced = b.get(i + 1) == Some(&'{');
            let start = if braced { i + 2 } else { i + 1 };
            let mut j = start;
            while j < b.len() && (b[j].is_alphanumeric() || b[j] == '_') {
                j += 1;
            }
            let name: String = b[start..j].iter().collect();
            if braced && b.get(j) == Some(&'}') {
                j += 1;
            }
            let spelled: String = b[i..j.max(i + 1)].iter().collect();
            match self.lookup(&name).filter(|_| !name.is_empty()) {
                Some(v) => {
                    let (choices, open) = self.choices_of(&name);
                    w.merge(Word {
                        text: v,
                        computed: !matches!(name.as_str(), "HOME" | "PWD"),
                        choices,
                        open,
                        open_as: self.spelled_open(&name),
                        ..Default::default()
                    });
                }
                None => w.merge(self.unresolved(&spelled, &name)),
            }
            i = j.max(i + 1);
        }
        w
    }

    /// IFS as `read` splits with it, when known: not after a branch or a
    /// value the line cannot read.
    pub(super) fn ifs_known(&self) -> Option<Vec<char>> {
        if self.vars.alts.contains_key("IFS")
            || !self.vars.known.contains_key("IFS") && self.vars.seen.contains("IFS")
        {
            return None;
        }
        Some(self.ifs())
    }

    pub(super) fn ifs(&self) -> Vec<char> {
        self.vars
            .known
            .get("IFS")
            .map(|s| s.chars().collect())
            .unwrap_or_else(|| vec![' ', '\t', '\n'])
    }

    pub(super) fn word(&mut self, n: Node, nested: bool) -> Word {
        self.word_at_start(n, nested, true)
    }

    /// Evaluates a word-like node statically where it can; `start` says the
    /// node begins the word (where tilde expands).
    pub(super) fn word_at_start(&mut self, n: Node, nested: bool, start: bool) -> Word {
        match n.kind() {
            "word" => {
                let t = self.text(n);
                if let Some(rest) = t.strip_prefix("~\\").filter(|_| start) {
                    return Word::lit(format!("{HOME}/{rest}"));
                }
                if looks_windows(t) {
                    return Word::lit(t);
                }
                let tilde = if start { expand_tilde(t) } else { None };
                let t2 = tilde.as_deref().unwrap_or(t);
                let mut w = if t2.contains('$') {
                    self.expand_inline(t2)
                } else {
                    Word {
                        text: unescape_word(t2),
                        // A leading `\` only skips alias lookup (`\rm`).
                        spliced: t2.get(1..).is_some_and(|r| r.contains('\\')),
                        ..Default::default()
                    }
                };
                w.glob = t2.contains(['*', '?']) || (t2.contains('[') && t2.contains(']'));
                w.brace = t2.contains(['{', '}']);
                w
            }
            "number" => Word::lit(self.text(n)),
            "raw_string" => {
                let t = self.text(n);
                Word::lit(
                    t.strip_prefix('\'')
                        .and_then(|x| x.strip_suffix('\''))
                        .unwrap_or(t),
                )
            }
            "ansi_c_string" => {
                let t = self.text(n);
                Word {
                    text: eval::ansi_c(t),
                    computed: t.contains('\\'),
                    ..Default::default()
                }
            }
            "string_content" => Word::lit(unescape_dq(self.text(n))),
            "simple_expansion" | "expansion" => self.expansion(n, nested),
            "arithmetic_expansion" => {
                let text = self.text(n).to_string();
                let mut subs = self.arithmetic(&text);
                // `$(( $(curl … | sh) ))`: the substitution runs before
                // the sum is taken, and its output is evaluated.
                let nested = self.nested_subs(n);
                subs.extend(nested.iter().copied());
                self.evaluated_output(nested);
                let value = text
                    .strip_prefix("$((")
                    .and_then(|t| t.strip_suffix("))"))
                    .and_then(|e| arith::eval(e, &|name| self.arith_var(name)));
                if let (Some(v), true) = (value, subs.is_empty()) {
                    return Word {
                        text: v.to_string(),
                        computed: true,
                        ..Default::default()
                    };
                }
                Word {
                    text,
                    dynamic: true,
                    computed: true,
                    subs,
                    ..Default::default()
                }
            }
            "command_substitution" | "process_substitution" => self.substitution(n),
            "concatenation" if looks_windows(self.text(n)) => Word::lit(self.text(n)),
            "string" | "translated_string" | "concatenation" | "heredoc_body" => {
                let mut w = Word::default();
                let mut cursor = n.walk();
                let kids: Vec<Node> = n.named_children(&mut cursor).collect();
                if kids.is_empty() {
                    if n.kind() == "concatenation" {
                        return Word::lit(unescape_word(self.text(n)));
                    }
                    return Word::default();
                }
                let mut pieces = 0;
                let quoted = n.kind() == "string";
                // Inside `"…"`, text between the named pieces (a newline the
                // grammar leaves out of them) is part of the value.
                let mut last_end = n.start_byte() + usize::from(quoted);
                for (j, k) in kids.iter().enumerate() {
                    if matches!(k.kind(), "heredoc_content" | "heredoc_end") {
                        continue;
                    }
                    if n.kind() == "concatenation" && k.start_byte() > last_end {
                        // Unquoted text between named children.
                        let gap = &self.src[last_end..k.start_byte()];
                        w.text.push_str(&unescape_word(gap));
                    }
                    if quoted && k.start_byte() > last_end {
                        let gap = self.src.get(last_end..k.start_byte()).unwrap_or("");
                        w.text.push_str(&unescape_dq(gap));
                    }
                    let part = self.word_at_start(*k, nested, start && j == 0);
                    w.merge(part);
                    last_end = k.end_byte();
                    pieces += 1;
                }
                if quoted && last_end + 1 < n.end_byte() {
                    let gap = self.src.get(last_end..n.end_byte() - 1).unwrap_or("");
                    w.text.push_str(&unescape_dq(gap));
                }
                if n.kind() == "concatenation" {
                    if last_end < n.end_byte() {
                        w.text
                            .push_str(&unescape_word(&self.src[last_end..n.end_byte()]));
                    }
                    w.spliced |= pieces > 1;
                }
                if n.kind() == "heredoc_body" && w.text.is_empty() && !w.dynamic {
                    w.text = self.text(n).to_string();
                }
                w
            }
            _ => {
                let t = self.text(n).to_string();
                // `$[ $(…) ]` and any other form the grammar leaves as
                // text: its substitutions still run.
                let subs = self.text_subs(&t);
                Word {
                    text: unescape_word(&t),
                    dynamic: t.contains('$') || t.contains('`'),
                    computed: t.contains('$') || t.contains('`'),
                    subs,
                    ..Default::default()
                }
            }
        }
    }

    pub(super) fn expansion(&mut self, n: Node, nested: bool) -> Word {
        let t = self.text(n);
        // zsh's `${(e)…}` evaluates the value's `$(…)` again: the output
        // of a substitution in it is run.
        if let Some(flags) = t
            .strip_prefix("${(")
            .and_then(|r| r.split_once(')'))
            .map(|(f, _)| f)
            && flags.contains('e')
        {
            let subs = self.nested_subs(n);
            self.evaluated_output(subs);
        }
        let t = self.text(n);
        // `"$*"`: the positional words the line set, joined by the first
        // character of IFS (`set -- home u .ssh id_rsa; IFS=/; k="/$*"`).
        if matches!(t, "$*" | "${*}")
            && n.parent().is_some_and(|p| p.kind() == "string")
            && self.positional.len() > 1
            && !self.vars.alts.contains_key("IFS")
            && !self.vars.from.contains_key("IFS")
        {
            let ifs = self.vars.known.get("IFS").map_or(" ".to_string(), |v| {
                v.chars().next().map(String::from).unwrap_or_default()
            });
            return Word {
                text: self.positional[1..].join(&ifs),
                computed: true,
                ..Default::default()
            };
        }
        // `${a[i++]}`, `${#a[i=1]}`: the subscript is arithmetic, run.
        if let Some(open) = t.find('[')
            && let Some(close) = t.rfind(']')
            && close > open
            && arith::assigns_anything(&t[open + 1..close])
        {
            let index = t[open + 1..close].to_string();
            self.arithmetic(&index);
        }
        // `${p@P}` expands the value as a prompt, running the `$(…)` in it.
        if let Some(name) = t.strip_prefix("${").and_then(|x| x.strip_suffix("@P}")) {
            let value = match self.vars.known.get(name) {
                Some(v) => Word::lit(v.clone()),
                None => self.unresolved(&format!("${name}"), name),
            };
            let at = self.evaluated_value(value);
            return Word {
                text: t.to_string(),
                dynamic: true,
                computed: true,
                subs: vec![at],
                ..Default::default()
            };
        }
        if let Some(v) = self.array_element(t) {
            return Word {
                text: v,
                computed: true,
                ..Default::default()
            };
        }
        // `${a[i]}` at an index not known: one of the elements.
        if let Some(choices) = self.array_choices(t) {
            return Word {
                text: t.to_string(),
                dynamic: true,
                computed: true,
                choices,
                ..Default::default()
            };
        }
        if let Some(mut w) = self.operated(t) {
            // `${x#$(…)}`: the operand's substitutions run first (parsed
            // from the text where the grammar left the operand as text).
            let mut subs = self.nested_subs(n);
            if subs.is_empty() {
                let t = t.to_string();
                subs = self.text_subs(&t);
            }
            w.subs.extend(subs);
            return w;
        }
        // `${!ref}` with `ref` known to name a variable whose value is not:
        // the same as writing that variable (`v=AWS_SECRET_ACCESS_KEY;
        // echo "${!v}"` prints the key).
        // `${!v}` where a branch left `v` naming one of several variables:
        // read as the one whose name marks a secret, if any.
        if let Some(r) = t.strip_prefix("${!").and_then(|x| x.strip_suffix('}'))
            && let Some((names, _)) = self.vars.alts.get(r)
        {
            let secret = names.iter().find(|n| branches::secret_name(n));
            let spelled = match secret {
                Some(n) => format!("${n}"),
                None => t.to_string(),
            };
            return self.unresolved(&spelled, r);
        }
        if let Some(target) = t
            .strip_prefix("${!")
            .and_then(|x| x.strip_suffix('}'))
            .and_then(|r| self.lookup(r))
            .filter(|x| !x.is_empty() && x.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            return self.unresolved(&format!("${target}"), &target);
        }
        let name: String = t
            .trim_start_matches('$')
            .trim_start_matches('{')
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // `$10` is `$1` then `0` to bash; only `${10}` is the tenth.
        if !t.starts_with("${") && name.len() > 1 && name.chars().all(|c| c.is_ascii_digit()) {
            return self.unresolved(t, &name);
        }
        let plain = t == format!("${name}") || t == format!("${{{name}}}");
        // Substitutions inside `${x:-$(…)}` still run.
        let mut subs = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        for k in &kids {
            if matches!(k.kind(), "command_substitution" | "process_substitution") {
                subs.extend(self.substitution(*k).subs);
            }
        }
        // (In a subscript, `${x[$(…)]}`, they are deeper than its children.)
        // (In a subscript, `${x[$(…)]}`, or an operand, `${v%%$(…)}`,
        // they are deeper than its children, or left as text.)
        if subs.is_empty() && (t.contains("$(") || t.contains('`')) {
            subs = self.nested_subs(n);
            if subs.is_empty() {
                let t = t.to_string();
                subs = self.text_subs(&t);
            }
        }
        // Known empty (`unset OUT`, `OUT=`): `${OUT:-build/out}` is the default.
        if self.lookup(&name).is_some_and(|v| v.is_empty())
            && self.choices_of(&name).0.is_empty()
            && (t.contains(":-") || t.contains(":="))
            && kids.len() > 1
        {
            let w = self.default_word(&kids, nested, subs);
            if t.contains(":=") && !name.is_empty() && !w.dynamic {
                self.vars.set(name, w.text.clone());
            }
            return w;
        }
        // `${XDG_CONFIG_HOME:-$HOME/.config}`: unset on most machines, so the
        // default is where it points.
        if self.lookup(&name).is_none() && (t.contains(":-") || t.contains(":=")) && kids.len() > 1
        {
            let mut w = self.default_word(&kids, nested, subs);
            // `${P:=default}` also sets P when it was unset: P may now hold
            // the default, or the value it had.
            if t.contains(":=") && !name.is_empty() {
                self.vars.forget(&name);
                if !w.dynamic && w.choices.is_empty() {
                    self.vars
                        .alts
                        .insert(name.clone(), (vec![w.text.clone()], true));
                }
            }
            if !(name.starts_with("XDG_") || name == "HOME" || name == "TMPDIR") {
                if !w.dynamic && w.choices.is_empty() {
                    w.choices = vec![w.text.clone()];
                    w.open = true;
                }
                w.dynamic = true;
            }
            return w;
        }
        match self.lookup(&name) {
            Some(v) if plain && !name.is_empty() => Word {
                text: v,
                computed: !matches!(name.as_str(), "HOME" | "PWD"),
                subs,
                choices: self.choices_of(&name).0,
                open: self.choices_of(&name).1,
                open_as: self.spelled_open(&name),
                ..Default::default()
            },
            _ => {
                let mut w = self.unresolved(t, &name);
                w.subs.extend(subs);
                w
            }
        }
    }

    /// The commands of every substitution below `n`, however deep (a
    /// subscript's, an operator's operand, arithmetic's).
    pub(super) fn nested_subs(&mut self, n: Node) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            let mut cursor = x.walk();
            let kids: Vec<Node> = x.named_children(&mut cursor).collect();
            for k in kids.into_iter().rev() {
                if matches!(k.kind(), "command_substitution" | "process_substitution") {
                    out.extend(self.substitution(k).subs);
                } else {
                    stack.push(k);
                }
            }
        }
        out
    }

    /// The commands of each `$(…)` and `` `…` `` written inside text the
    /// grammar did not split (arithmetic, a subscript, an operator's
    /// operand), each run as the shell would run it.
    pub(super) fn text_subs(&mut self, text: &str) -> Vec<usize> {
        if !text.contains("$(") && !text.contains('`') {
            return Vec::new();
        }
        let mut out = Vec::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let open = if bytes[i] == b'`' {
                Some((i + 1, b'`'))
            } else if text[i..].starts_with("$((") {
                // Arithmetic's own parentheses: its inside is scanned on.
                i += 3;
                continue;
            } else if text[i..].starts_with("$(") {
                Some((i + 2, b')'))
            } else {
                None
            };
            let Some((start, close)) = open else {
                i += 1;
                continue;
            };
            let mut depth = 0usize;
            let mut end = None;
            for (k, &b) in bytes.iter().enumerate().skip(start) {
                if close == b'`' {
                    if b == b'`' {
                        end = Some(k);
                        break;
                    }
                } else if b == b'(' {
                    depth += 1;
                } else if b == b')' {
                    if depth == 0 {
                        end = Some(k);
                        break;
                    }
                    depth -= 1;
                }
            }
            let end = end.unwrap_or(bytes.len());
            let inner = text.get(start..end).unwrap_or("").trim();
            if !inner.is_empty() {
                out.push(self.evaluated_value(Word {
                    text: inner.to_string(),
                    dynamic: true,
                    ..Default::default()
                }));
            }
            i = end + 1;
        }
        out
    }

    pub(super) fn substitution(&mut self, n: Node) -> Word {
        let start = self.out.commands.len();
        // A substitution runs in a subshell: what it sets stays there.
        let saved = (self.vars.clone(), self.cwd.clone());
        self.children(n, true);
        // `$(cd build && pwd)`: the folder the substitution moved to, when
        // it is one known place and the line is at the project's top.
        let moved_to = self
            .out
            .commands
            .last()
            .filter(|_| self.out.commands.len() > start)
            .filter(|c| {
                c.argv.first().is_some_and(|w| w.text == "pwd")
                    && c.argv[1..]
                        .iter()
                        .all(|w| matches!(w.text.as_str(), "-P" | "-L"))
                    && c.cwd_choices.is_empty()
                    && c.redirects.is_empty()
            })
            // Nothing else prints: the other commands only move, and
            // `pwd` is the builtin, not a function of the line.
            .filter(|_| {
                self.out.commands[start..self.out.commands.len() - 1]
                    .iter()
                    .all(|c| c.argv.first().is_some_and(|w| w.text == "cd"))
                    && !self
                        .out
                        .functions
                        .iter()
                        .any(|(n, _)| n == "pwd" || n == "cd")
            })
            .and_then(|c| c.cwd.clone())
            .filter(|d| {
                saved.1.is_none()
                    && !d.starts_with(['/', '$', HOME])
                    && !d.contains(UNKNOWN_DIR)
                    && !d.contains(ELSEWHERE_DIR)
                    && !d.split('/').any(|p| p == "..")
            });
        (self.vars, self.cwd) = saved;
        let subs: Vec<usize> = (start..self.out.commands.len()).collect();
        if let Some(dir) = moved_to {
            // If the `cd` fails, it prints nothing: the value is empty
            // (`rm -rf "$d"/*` is then `rm -rf /*`), unless `set -e` stops
            // the line at a plain assignment (`local d=$(…)` hides the
            // failure from it).
            // The assignment must be a statement by itself (not in a
            // list with `||`, negated, or one of several).
            let alone = n
                .parent()
                .filter(|p| p.kind() == "variable_assignment")
                .is_some_and(|a| {
                    a.parent().is_some_and(|s| {
                        matches!(s.kind(), "program" | "compound_statement" | "do_group")
                    })
                });
            let stops = alone && errexit(&self.src[..n.start_byte().min(self.src.len())]);
            return Word {
                choices: if stops {
                    Vec::new()
                } else {
                    vec![dir.clone(), String::new()]
                },
                text: dir,
                computed: true,
                subs,
                ..Default::default()
            };
        }
        if n.kind() == "process_substitution" {
            return Word {
                text: "/dev/fd/63".into(),
                dynamic: true,
                computed: true,
                procsub: true,
                feeds: self.text(n).starts_with(">("),
                subs,
                ..Default::default()
            };
        }
        // `$(echo rm)` is as good as `rm`; `$(readlink -f "$(command -v x)")`
        // and a function of this line that only prints are too.
        if let Some(top) = self.only_top_command(start)
            && let Some(text) = self.output_of(&self.out.commands[top])
        {
            return Word {
                text,
                computed: true,
                subs,
                ..Default::default()
            };
        }
        // `$(git rev-parse --show-toplevel 2>/dev/null || pwd)`: either
        // way the same known text.
        if let Some(text) = self.either_output(n, start) {
            return Word {
                text,
                computed: true,
                subs,
                ..Default::default()
            };
        }
        Word {
            text: "$(…)".into(),
            dynamic: true,
            computed: true,
            subs,
            ..Default::default()
        }
    }
}

/// Whether `set -e` is on at the end of `src` (`set -e`, `set -euo
/// pipefail`, `set -o errexit`; `set +e` turns it off; `set -- -e` sets
/// words, not options).
fn errexit(src: &str) -> bool {
    let mut on = false;
    for stmt in src.split(['\n', ';', '&', '|']) {
        let mut words = stmt.split_whitespace();
        if words.next() != Some("set") {
            continue;
        }
        let words: Vec<&str> = words.collect();
        let mut i = 0;
        while let Some(t) = words.get(i) {
            if *t == "--" || !t.starts_with(['-', '+']) {
                break;
            }
            let enable = t.starts_with('-');
            if matches!(*t, "-o" | "+o") {
                if words.get(i + 1) == Some(&"errexit") {
                    on = enable;
                }
                i += 2;
                continue;
            }
            if t.contains('e') {
                on = enable;
            }
            i += 1;
        }
    }
    on
}

thread_local! {
    /// How many function bodies are being parsed for their output now.
    static OUTPUT_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Walker<'_> {
    /// The default of `${v:-DEFAULT}` (the expansion's words after the name).
    fn default_word(&mut self, kids: &[Node], nested: bool, subs: Vec<usize>) -> Word {
        let mut w = Word::default();
        for (j, k) in kids.iter().skip(1).enumerate() {
            let part = self.word_at_start(*k, nested, j == 0);
            w.merge(part);
        }
        w.computed = true;
        w.subs.extend(subs);
        w
    }

    /// `$(A || B)` of two plain commands that print the same known text.
    fn either_output(&self, n: Node, start: usize) -> Option<String> {
        let inner = self.text(n).strip_prefix("$(")?.strip_suffix(')')?;
        let (a, b) = inner.split_once("||")?;
        let plain = |t: &str| !t.contains(['|', ';', '&', '\n', '$', '`', '(']);
        if !plain(a) || !plain(b) {
            return None;
        }
        let cmds = self.out.commands.get(start..)?;
        let [x, y] = cmds else { return None };
        let ox = self.output_of(x)?;
        (self.output_of(y)? == ox).then_some(ox)
    }

    /// The one command of a substitution whose commands start at `start`,
    /// when every other is inside its words (`$(a "$(b)")`).
    fn only_top_command(&self, start: usize) -> Option<usize> {
        let end = self.out.commands.len();
        let top = end.checked_sub(1).filter(|t| *t >= start)?;
        let mut seen = vec![top];
        let mut i = 0;
        while let Some(&k) = seen.get(i) {
            let c = &self.out.commands[k];
            for w in c.argv.iter().chain(c.redirects.iter().map(|r| &r.target)) {
                seen.extend(w.subs.iter().filter(|s| (start..end).contains(*s)));
            }
            i += 1;
            if seen.len() > end - start {
                return None;
            }
        }
        seen.sort_unstable();
        seen.dedup();
        (seen.len() == end - start).then_some(top)
    }

    /// What a command prints, when known: a function of the line's by its
    /// body (it shadows `echo`), anything else by what it is.
    fn output_of(&self, c: &Command) -> Option<String> {
        let shadowed = c
            .argv
            .first()
            .is_some_and(|w| self.out.functions.iter().any(|(n, _)| *n == w.text));
        // `git rev-parse --show-toplevel` is the project only while nothing
        // in the line moved git's repository or work tree.
        let git_moved = ["GIT_DIR", "GIT_WORK_TREE"]
            .iter()
            .any(|v| self.vars.seen.contains(*v))
            || c.argv
                .iter()
                .any(|w| w.text.starts_with("--git-dir") || w.text.starts_with("--work-tree"));
        let asks_git = c.argv.first().is_some_and(|w| w.text == "git");
        if shadowed {
            self.function_output(c)
        } else if asks_git && git_moved {
            None
        } else {
            eval::static_output(c).or_else(|| self.function_output(c))
        }
    }

    /// What a call of a function this line defined prints, when its body is
    /// one command that only prints (`target(){ echo ~/.ssh/x; }`).
    fn function_output(&self, c: &Command) -> Option<String> {
        let name = c
            .argv
            .first()
            .filter(|w| !w.dynamic && c.argv.iter().all(|w| !w.dynamic))?;
        // `declare -f f g`: the definitions, as bash prints them.
        if matches!(name.text.as_str(), "declare" | "typeset")
            && c.argv.get(1).is_some_and(|w| w.text == "-f")
            && c.argv.len() > 2
        {
            let mut out = Vec::new();
            for w in &c.argv[2..] {
                let (n, body) = self
                    .out
                    .functions
                    .iter()
                    .rev()
                    .find(|(n, _)| *n == w.text)?;
                out.push(format!("{n} () \n{{ \n{}\n}}", body.trim()));
            }
            return Some(out.join("\n"));
        }
        let (_, body) = self
            .out
            .functions
            .iter()
            .rev()
            .find(|(n, _)| *n == name.text)?;
        let positional: Vec<String> = c.argv.iter().map(|w| w.text.clone()).collect();
        // A body that calls functions that call functions: parsed two
        // levels deep at most.
        if OUTPUT_DEPTH.with(|d| d.get()) >= 2 {
            return None;
        }
        OUTPUT_DEPTH.with(|d| d.set(d.get() + 1));
        let inner = parse(body, &positional);
        OUTPUT_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
        match inner.commands.as_slice() {
            [only] if !inner.parse_error => eval::static_output(only),
            _ => None,
        }
    }
}

/// An unquoted expansion is split into words by IFS (`rm${IFS}-rf${IFS}~`).
pub(super) fn splittable(n: Node, src: &str) -> bool {
    match n.kind() {
        "simple_expansion" | "expansion" | "command_substitution" => true,
        // Only an expansion left inside the word splits (`rm${IFS}-rf`); an
        // escaped space (`Application\ Support`) does not.
        "word" => src
            .get(n.start_byte()..n.end_byte())
            .is_some_and(|t| t.contains('$')),
        "concatenation" => {
            let mut c = n.walk();
            n.named_children(&mut c).any(|k| {
                matches!(
                    k.kind(),
                    "simple_expansion" | "expansion" | "command_substitution"
                )
            })
        }
        _ => false,
    }
}

/// Adds a word to argv: split by IFS where the shell would, then brace-expanded.
pub(super) fn push_words(argv: &mut Vec<Word>, mut w: Word, split: bool, ifs: &[char]) {
    // Unquoted, a line is split into words again: no longer one whole line.
    if split && w.dynamic {
        w.line = false;
    }
    let pieces: Vec<Word> = if split && !w.dynamic && w.text.contains(ifs) {
        // Substitutions stay attached to every piece.
        w.text
            .split(ifs)
            .filter(|p| !p.is_empty())
            .map(|p| Word {
                text: p.to_string(),
                computed: true,
                ..w.clone()
            })
            .collect()
    } else {
        vec![w]
    };
    for p in pieces {
        match eval::brace_expand(&p.text).filter(|_| p.brace && !p.dynamic) {
            // Tilde expansion comes after brace expansion.
            Some(items) => argv.extend(items.into_iter().map(|t| Word {
                text: expand_tilde(&t).unwrap_or(t),
                computed: true,
                ..p.clone()
            })),
            _ => argv.push(p),
        }
    }
}
