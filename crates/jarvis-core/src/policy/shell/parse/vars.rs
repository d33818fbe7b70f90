//! Values the parser keeps beyond plain variables: arrays of literal
//! elements, and the lines a `read` takes from the pipe before it.

use super::*;

/// Between the key and the value of an associative array's element.
pub(super) const KEYED: char = '\u{1F}';

impl Walker<'_> {
    /// `set -- a b c`: the positional parameters from here on, when every
    /// one is known; unknown otherwise.
    pub(super) fn set_positional(&mut self, argv: &[Word], n: Node) {
        // `command set -- …`, `builtin shift`: the builtin itself.
        let mut argv = argv;
        while argv
            .first()
            .is_some_and(|w| matches!(w.text.as_str(), "command" | "builtin"))
        {
            argv = &argv[1..];
        }
        // Code run in this shell (`eval 'set -- x'`, `. ./lib.sh`) may set
        // them to anything.
        if argv
            .first()
            .is_some_and(|w| w.dynamic || matches!(w.text.as_str(), "eval" | "source" | "."))
        {
            self.positional.clear();
            return;
        }
        // Inside a loop, a branch, a function or a background job, how
        // often (or whether) it runs here is not known: the parameters
        // become unknown.
        let conditional = conditional(n);
        if argv.first().is_some_and(|w| w.text == "shift") {
            let by = match argv.get(1) {
                None => Some(1),
                Some(w) if !w.dynamic => w.text.parse::<usize>().ok(),
                Some(_) => None,
            };
            match by {
                // `shift N` past the operands fails and changes nothing.
                Some(k)
                    if !conditional
                        && k >= self.positional.len()
                        && !self.positional.is_empty() => {}
                Some(k) if !conditional && self.positional.len() > 1 => {
                    let zero = self.positional[0].clone();
                    let rest: Vec<String> = self.positional.iter().skip(1 + k).cloned().collect();
                    self.positional = std::iter::once(zero).chain(rest).collect();
                }
                _ => self.positional.clear(),
            }
            return;
        }
        if argv.first().is_none_or(|w| w.text != "set") {
            return;
        }
        // `set ~`, `set -e -- x`: any other form that names operands.
        let [_, dashes, rest @ ..] = argv else {
            return;
        };
        // `set -euo pipefail`: a bundle ending in `o` takes an option's name.
        let mut options_only = true;
        let mut k = 1;
        while let Some(w) = argv.get(k) {
            let t = w.text.as_str();
            if !(t.starts_with('-') || t.starts_with('+')) || t == "--" || w.dynamic {
                options_only = false;
                break;
            }
            k += if t.len() > 1
                && t.ends_with('o')
                && argv.get(k + 1).is_some_and(|n| {
                    !n.dynamic && n.text.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                }) {
                2
            } else {
                1
            };
        }
        if options_only {
            return;
        }
        if conditional || dashes.text != "--" {
            self.positional.clear();
            return;
        }
        let zero = self.positional.first().cloned().unwrap_or_default();
        self.positional_set = true;
        // A wildcard is as many words as it matches.
        self.positional = if rest.iter().all(|w| !w.dynamic && !w.glob) {
            std::iter::once(zero)
                .chain(rest.iter().map(|w| w.text.clone()))
                .collect()
        } else {
            Vec::new()
        };
    }

    /// `printf -v NAME FORMAT ARGS…`: an assignment, resolved when the
    /// format and arguments are known.
    pub(super) fn printf_to_variable(&mut self, argv: &[Word]) {
        if argv.first().is_none_or(|w| w.text != "printf") {
            return;
        }
        // `printf -v NAME …`, `printf -vNAME …`, then an optional `--`.
        let (name, mut rest) = match argv.get(1).map(|w| w.text.as_str()) {
            Some("-v") => match argv.get(2) {
                Some(n) if !n.dynamic => (n.text.clone(), &argv[3..]),
                _ => return,
            },
            Some(t) if t.starts_with("-v") && t.len() > 2 => (t[2..].to_string(), &argv[2..]),
            _ => return,
        };
        if rest.first().is_some_and(|w| w.text == "--") {
            rest = &rest[1..];
        }
        // Widths and precisions (`%.7s`) cut and pad what this evaluator
        // does not: such a value is unknown.
        let shaped = rest.first().is_some_and(|f| {
            f.text.split('%').skip(1).any(|spec| {
                spec.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '.' | '-' | '*'))
            })
        });
        self.vars.lines.remove(&name);
        let known = rest.iter().all(|w| !w.dynamic) && !shaped;
        match rest.split_first() {
            Some((format, args)) if known => {
                let args: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
                let value = crate::policy::shell::eval::printf(&format.text, &args);
                self.vars.set(name.clone(), value);
                self.vars.from.remove(&name);
            }
            _ => {
                self.vars.forget(&name);
                let subs = rest.iter().flat_map(|w| w.subs.clone()).collect();
                self.vars.from.insert(name, subs);
            }
        }
    }

    /// `${name[N]}` or `${name[key]}` of a known array: that element, when
    /// no blank in it could split it into other words.
    pub(super) fn array_element(&self, t: &str) -> Option<String> {
        let inner = t.strip_prefix("${")?.strip_suffix('}')?;
        let (name, index) = inner.strip_suffix(']')?.split_once('[')?;
        if matches!(index, "@" | "*") || name.starts_with(['#', '!']) {
            return None;
        }
        let v = self.array_elements(&format!("\"${{{name}[{index}]}}\""))?;
        let e = v.into_iter().next()?;
        (!e.contains(char::is_whitespace)).then_some(e)
    }

    /// `${name[EXPR]}` of a known indexed array where EXPR is not known:
    /// the elements it may be (each free of blanks, which would split it).
    pub(super) fn array_choices(&self, t: &str) -> Option<Vec<String>> {
        let inner = t.strip_prefix("${")?.strip_suffix('}')?;
        let (name, index) = inner.strip_suffix(']')?.split_once('[')?;
        if matches!(index, "@" | "*") || name.starts_with(['#', '!']) {
            return None;
        }
        let elements = self.vars.arrays.get(name)?;
        let plain = elements
            .iter()
            .all(|e| !e.contains(KEYED) && !e.contains(char::is_whitespace));
        // An index past the end, or unset, reads as empty.
        (plain && !elements.is_empty() && elements.len() < MAX_CHOICES).then(|| {
            let mut e = elements.clone();
            e.push(String::new());
            e
        })
    }

    /// `"${name[@]}"` of an array that is not known but was only ever given
    /// words by this line's `name=(…)` and `name+=(…)`: every such word.
    pub(super) fn grown_elements(&self, spelled: &str) -> Option<Vec<Word>> {
        let inner = spelled
            .trim_matches('"')
            .strip_prefix("${")?
            .strip_suffix('}')?;
        let name = inner
            .strip_suffix("[@]")
            .or_else(|| inner.strip_suffix("[*]"))?;
        if self.vars.arrays.contains_key(name) {
            return None;
        }
        self.grown.get(name).filter(|w| !w.is_empty()).cloned()
    }

    /// `"${name[@]}"` of an array whose elements are known: each a word;
    /// `"${name[N]}"`: one of them. Quoted only: unquoted, bash splits
    /// the elements again.
    pub(super) fn array_elements(&self, spelled: &str) -> Option<Vec<String>> {
        let inner = spelled
            .strip_prefix('"')?
            .strip_suffix('"')?
            .strip_prefix("${")?
            .strip_suffix('}')?;
        let (name, index) = inner.strip_suffix(']')?.split_once('[')?;
        let elements = self.vars.arrays.get(name)?;
        if index == "@" {
            return Some(
                elements
                    .iter()
                    .map(|e| e.split_once(KEYED).map(|(_, v)| v).unwrap_or(e).to_string())
                    .collect(),
            );
        }
        // `declare -A m=([out]=x)`: `${m[out]}`.
        let key = index.trim_matches(['"', '\'']);
        let keyed = elements.iter().any(|e| e.contains(KEYED));
        if let Some(v) = elements.iter().rev().find_map(|e| {
            e.split_once(KEYED)
                .filter(|(k, _)| *k == key)
                .map(|(_, v)| v.to_string())
        }) {
            return Some(vec![v]);
        }
        if keyed {
            return None;
        }
        let i: i64 = index
            .parse()
            .ok()
            .or_else(|| arith::eval(index, &|name| self.arith_var(name)))?;
        let n = i64::try_from(elements.len()).ok()?;
        let at = if i < 0 { n + i } else { i };
        usize::try_from(at)
            .ok()
            .and_then(|k| elements.get(k))
            .map(|e| vec![e.clone()])
    }
}

/// Arrays assigned once (`NAME=(…)`) and otherwise named only as
/// `"${NAME[@]}"` or `"${NAME[N]}"`: no index assignment, `+=`, `mapfile`,
/// `read -a`, `unset` or name reference can have changed them.
pub(super) fn stable_arrays(src: &str) -> std::collections::HashSet<String> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = std::collections::HashSet::new();
    for (i, _) in src.match_indices("=(") {
        let name: String = src[..i]
            .chars()
            .rev()
            .take_while(|c| ident(*c))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let assigned = src.matches(&format!("{name}=(")).count();
        let reads = src.matches(&format!("${{{name}[")).count()
            + src.matches(&format!("${{#{name}[")).count();
        // The elements themselves (`logs=(logs/*.log)`) name no variable.
        let start = i + 2;
        let end = src[start..].find(')').map_or(src.len(), |e| start + e);
        let outside = format!("{}{}", &src[..start], &src[end..]);
        let mentions = variable_mentions(&outside, &name);
        if assigned == 1 && mentions == 1 + reads {
            out.insert(name);
        }
    }
    out
}

/// How often `name` appears where a shell word could name the variable:
/// at a word's start (`unset a`, `read -a a`, `a=`) or after `$`, `${`,
/// `${#`, `${!`; not inside another word (`"c=@…"`, `src/a`).
fn variable_mentions(src: &str, name: &str) -> usize {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    src.match_indices(name)
        .filter(|(i, _)| {
            let before = src[..*i].chars().last();
            let after = src[i + name.len()..].chars().next();
            // `unset "a"`, `printf -v 'a[0]'`, `declare -n r=a` name it too;
            // `"c=@…"` (another word starting with the letter) does not.
            let quoted =
                matches!(before, Some('\'' | '"')) && matches!(after, Some('\'' | '"' | '['));
            let plain = before.is_none_or(|c| {
                c.is_whitespace()
                    || matches!(c, ';' | '&' | '|' | '(' | '{' | '$' | '!' | '#' | '`' | '=')
            });
            (plain || quoted) && after.is_none_or(|c| !ident(c))
        })
        .count()
}

impl Walker<'_> {
    /// `IFS=, read -ra t <<< "a,b"`: the array's fields are the string's,
    /// when the string and the separators are known and nothing else
    /// touches the array.
    pub(super) fn read_array_from_string(
        &mut self,
        argv: &[Word],
        redirects: &[Redirect],
        assigns: &[(String, Word)],
    ) {
        if argv.first().is_none_or(|w| w.text != "read") {
            return;
        }
        let Some(k) = argv.iter().position(|w| {
            w.text.starts_with('-') && !w.text.starts_with("--") && w.text.ends_with('a')
        }) else {
            return;
        };
        let Some(name) = argv.get(k + 1).map(|w| w.text.clone()) else {
            return;
        };
        self.vars.arrays.remove(&name);
        let body = redirects
            .iter()
            .find(|r| r.op == "<<<")
            .and_then(|r| r.body.as_ref().or(Some(&r.target)));
        let ifs = match assigns.iter().find(|(n, _)| n == "IFS") {
            Some((_, w)) if !w.dynamic => w.text.clone(),
            Some(_) => return,
            None => self.ifs().into_iter().collect(),
        };
        let reads = self.src.matches(&format!("${{{name}[")).count()
            + self.src.matches(&format!("${{#{name}[")).count();
        if let Some(b) = body.filter(|b| !b.dynamic)
            && variable_mentions(self.src, &name) == 1 + reads
        {
            let fields: Vec<String> = b
                .text
                .trim_end_matches('\n')
                .split(|c: char| ifs.contains(c))
                .filter(|f| !f.is_empty())
                .map(str::to_string)
                .collect();
            self.vars.arrays.insert(name, fields);
        }
    }
}

impl Walker<'_> {
    /// `echo /x > list`, `printf 'a\nb\n' >> list`: the text a command
    /// wrote into a literal file, kept for a later loop reading it.
    pub(super) fn remember_written(&mut self, i: usize, redirects: &[Redirect], n: Node) {
        for r in redirects.iter().filter(|r| r.op.contains('>')) {
            self.written.remove(&r.target.text);
        }
        if conditional(n) {
            return;
        }
        let Some(text) = self
            .out
            .commands
            .get(i)
            .and_then(crate::policy::shell::eval::printed)
        else {
            return;
        };
        for r in redirects
            .iter()
            .filter(|r| r.op == ">" && !r.target.dynamic)
        {
            self.written
                .insert(r.target.text.clone(), (text.clone(), self.cwd.clone()));
        }
    }

    /// The text of the file a statement's `< FILE` reads, when this line
    /// wrote it.
    pub(super) fn input_written_here(&self, n: Node) -> Option<String> {
        let mut c = n.walk();
        let redirects: Vec<Node> = n.children_by_field_name("redirect", &mut c).collect();
        let inputs: Vec<&str> = redirects
            .iter()
            .map(|r| self.text(*r).trim())
            .filter(|t| t.starts_with('<') || t.starts_with("0<"))
            .collect();
        // One input, a plain file, named nowhere else in the line than where
        // it was written and where it is read, in the folder it was written.
        let [only] = inputs.as_slice() else {
            return None;
        };
        let file = only.trim_start_matches('0').strip_prefix('<')?.trim();
        if file.starts_with(['<', '(', '&']) || self.input_tricks() {
            return None;
        }
        let mentions = self
            .src
            .split(|c: char| {
                c.is_whitespace() || matches!(c, ';' | '&' | '|' | '<' | '>' | '(' | ')')
            })
            .filter(|t| t.trim_matches(['"', '\'']) == file)
            .count();
        let (text, cwd) = self.written.get(file)?;
        (mentions == 2 && *cwd == self.cwd).then(|| text.clone())
    }

    /// What could replace a loop's input unseen: `exec <`, a function named
    /// `read`, `env -S`.
    pub(super) fn input_tricks(&self) -> bool {
        self.src.contains("exec <")
            || self.src.contains("exec 0<")
            || self.src.contains("read()")
            || self.src.contains("read ()")
            || self.src.contains("function read")
            || self.src.contains("-S")
            || self.src.contains("--split-string")
    }
}

impl Walker<'_> {
    /// After `done < <(cmd)` is parsed: the lines read inside the loop came
    /// from `cmd`.
    pub(super) fn tie_pending_source(&mut self, before: usize, redirects: &[Redirect]) {
        // A lone command in the substitution: `<(git ls-files | cat - x)`
        // or `<(a; b)` mixes in other lines.
        let source = redirects.iter().filter(|r| r.target.procsub).find_map(|r| {
            match r.target.subs.as_slice() {
                [one] => self
                    .out
                    .commands
                    .get(*one)
                    .filter(|c| c.stdin_from.is_none() && !c.pipes_out)
                    .map(|_| *one),
                _ => None,
            }
        });
        let tie = |subs: &mut Vec<usize>| {
            if subs.contains(&PENDING_SOURCE) {
                subs.retain(|s| *s != PENDING_SOURCE);
                subs.extend(source);
            }
        };
        for c in self.out.commands.iter_mut().skip(before) {
            for w in c
                .argv
                .iter_mut()
                .chain(c.redirects.iter_mut().map(|r| &mut r.target))
            {
                tie(&mut w.subs);
                if source.is_none() {
                    w.line = false;
                }
            }
        }
        for subs in self.vars.from.values_mut() {
            tie(subs);
        }
    }
}

/// Whether a command runs only sometimes, or elsewhere, from here: inside a
/// loop, a branch, a function, a subshell, a pipeline, `$(…)`, `<(…)`, or
/// sent to the background.
pub(super) fn conditional(n: Node) -> bool {
    let background = n.next_sibling().is_some_and(|s| s.kind() == "&");
    let mut p = n.parent();
    while let Some(x) = p {
        if matches!(
            x.kind(),
            "while_statement"
                | "until_statement"
                | "for_statement"
                | "c_style_for_statement"
                | "if_statement"
                | "case_statement"
                | "function_definition"
                | "subshell"
                | "list"
                | "pipeline"
                | "command_substitution"
                | "process_substitution"
        ) {
            return true;
        }
        p = x.parent();
    }
    background
}

impl Walker<'_> {
    /// Builtins that set or remove variables by name (`unset d`, `mapfile
    /// -t f`, `declare -g f`, `eval …`): what was known of those names is
    /// not any more.
    pub(super) fn forget_set_names(&mut self, argv: &[Word]) {
        let Some(first) = argv.first().map(|w| w.text.as_str()) else {
            return;
        };
        if first == "eval" {
            self.vars.known.clear();
            self.vars.lines.clear();
            self.vars.arrays.clear();
            return;
        }
        if !matches!(
            first,
            "unset"
                | "mapfile"
                | "readarray"
                | "declare"
                | "typeset"
                | "local"
                | "export"
                | "readonly"
        ) {
            return;
        }
        for w in argv[1..].iter().filter(|w| !w.text.starts_with('-')) {
            let name: String = w
                .text
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                continue;
            }
            self.vars.lines.remove(&name);
            self.vars.arrays.remove(&name);
            // `unset NAME` (not `-f`, not an element): NAME is empty now,
            // as `${NAME:-default}` then reads the default.
            // (Not a name the line made readonly, where `unset` fails, nor
            // a reference, which unsets its target; `unset IFS` is the
            // default splitting, not an empty one.)
            let fixed = self.src.contains(&format!("readonly {name}"))
                || self.src.contains("declare -r")
                || self.src.contains("typeset -r")
                || self.vars.refs.contains_key(&name)
                || ["declare -n", "local -n", "typeset -n"]
                    .iter()
                    .any(|d| self.src.contains(d));
            let unset_var = first == "unset"
                && !w.dynamic
                && w.text == name
                && !fixed
                && name != "IFS"
                && !argv[1..].iter().any(|o| o.text == "-f" || o.text == "-n");
            if unset_var {
                self.vars.set(name, String::new());
            } else if matches!(first, "unset" | "mapfile" | "readarray") || w.dynamic {
                self.vars.forget(&name);
            }
        }
    }
}
