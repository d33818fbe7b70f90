//! Statements: subshells, pipelines, redirected bodies, loops and
//! function definitions, walked in the order bash runs them.

use super::*;

/// Text that writes ever more: an endless source appended, or written to
/// a name that changes each round (`> "blob_$i"`), or space allocated
/// under such a name or grown (`truncate -s +1G`). Writing the same file
/// again, or to /dev/null, fills nothing.
fn fills(body: &str) -> bool {
    let endless_source = ["/dev/zero", "/dev/urandom", "/dev/random"]
        .iter()
        .any(|s| body.contains(s))
        || body
            .split(['|', ';', '\n'])
            .any(|seg| seg.trim_start().starts_with("yes"));
    let targets: Vec<(bool, &str)> = body
        .match_indices('>')
        .filter(|(i, _)| !body[..*i].ends_with(['2', '&', '>']) || body[..*i].ends_with(">>"))
        .map(|(i, _)| {
            let rest = body[i + 1..].trim_start_matches('>').trim_start();
            let append = body[i + 1..].starts_with('>');
            (append, rest.split_whitespace().next().unwrap_or(""))
        })
        .filter(|(_, t)| !t.starts_with("/dev/null") && !t.starts_with('&') && !t.is_empty())
        .collect();
    let grows = targets.iter().any(|(append, t)| *append || t.contains('$'));
    let allocates = body.split(['\n', ';', '|']).any(|seg| {
        let mut seg = seg.trim();
        for kw in ["do ", "then ", "else "] {
            seg = seg.strip_prefix(kw).unwrap_or(seg).trim_start();
        }
        (seg.starts_with("fallocate") || seg.starts_with("mkfile") || seg.starts_with("xfs_mkfile"))
            && seg.contains('$')
            || seg.starts_with("truncate") && seg.contains("-s +")
    });
    endless_source && grows || allocates
}

/// Text that reads the clipboard, the screen or the keyboard: a command
/// of its own, not a word in a name (`ls screenshots | grep scrot`).
fn watches(body: &str) -> bool {
    body.split(['|', ';', '\n', '&', '(', ')'])
        .filter_map(|seg| {
            let mut words = seg
                .split_whitespace()
                .skip_while(|w| matches!(*w, "do" | "then" | "else" | "{" | "}" | "!" | "done"));
            let first = words.next()?;
            Some((first.rsplit('/').next().unwrap_or(first), seg))
        })
        .any(|(cmd, seg)| match cmd {
            "xclip" => seg.contains(" -o") || seg.contains("-out"),
            "xsel" => !seg.contains(" -i") && !seg.contains("--input"),
            "wl-paste" | "pbpaste" | "scrot" | "gnome-screenshot" | "grim" | "showkey"
            | "logkeys" | "spectacle" | "maim" => true,
            "import" => seg.contains("-window"),
            "xinput" => seg.contains("test"),
            "get-clipboard" | "Get-Clipboard" => true,
            _ => false,
        })
}

fn has_background(n: Node) -> bool {
    let mut c = n.walk();
    n.children(&mut c)
        .any(|k| (!k.is_named() && k.kind() == "&") || (k.is_named() && has_background(k)))
}

impl Walker<'_> {
    /// The grammar drops a word standing right before a heredoc (`make -f -
    /// <<EOF`): whatever lies between the command and its first redirect is
    /// given back to the command, as literals, or as run-time text when it
    /// is more than plain characters.
    pub(super) fn words_before_redirect(&mut self, n: Node, target: Option<usize>) {
        let (Some(body), Some(i)) = (n.child_by_field_name("body"), target) else {
            return;
        };
        let mut cursor = n.walk();
        let Some(first) = n
            .children_by_field_name("redirect", &mut cursor)
            .next()
            .filter(|r| r.start_byte() > body.end_byte())
        else {
            return;
        };
        let Some(gap) = self.src.get(body.end_byte()..first.start_byte()) else {
            return;
        };
        for piece in gap.split_whitespace() {
            let mut w = Word::lit(piece);
            w.dynamic = !piece
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "-_./=:,+@%".contains(ch));
            self.out.commands[i].argv.push(w);
        }
    }

    /// Walks statements; `nested` marks commands inside substitutions.
    pub(super) fn statement(&mut self, n: Node, nested: bool) {
        match n.kind() {
            "command" => {
                // `let x=n+1` evaluates its arguments.
                let t = self.text(n).to_string();
                if t.starts_with("let ") {
                    self.arithmetic(&t);
                }
                self.command(n, nested);
            }
            "subshell" => self.subshell(n, nested),
            "redirected_statement" => self.redirected(n, nested),
            "pipeline" => self.pipeline(n, nested),
            "variable_assignment" => {
                let (name, value) = self.assignment(n, nested);
                if let Some(name) = name {
                    self.out.commands.push(Command {
                        assigns: vec![(name, value)],
                        cwd: self.cwd.clone(),
                        cwd_choices: self.vars.cwd_alts.clone(),
                        nested,
                        ..Default::default()
                    });
                }
            }
            "declaration_command" | "unset_command" => self.declaration(n, nested),
            "function_definition" => self.function_definition(n, nested),
            "for_statement" => self.for_loop(n, nested),
            "if_statement" => self.if_branches(n, nested),
            "case_statement" => self.case_branches(n, nested),
            "list" => self.list_branches(n, nested),
            "while_statement" | "until_statement" | "c_style_for_statement" => {
                self.condition_loop(n, nested)
            }
            "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                let r = self.redirect(n);
                self.out.commands.push(Command {
                    redirects: vec![r],
                    cwd: self.cwd.clone(),
                    cwd_choices: self.vars.cwd_alts.clone(),
                    nested,
                    ..Default::default()
                });
                if n.kind() == "heredoc_redirect" {
                    self.heredoc_tail(n, self.out.commands.len() - 1, nested);
                }
            }
            "heredoc_body" | "comment" => {}
            // `(( n ))` and `[[ $n -gt 0 ]]` evaluate their operands.
            "test_command" | "arithmetic_expansion" | "compound_statement"
                if n.kind() != "compound_statement" || self.text(n).starts_with("((") =>
            {
                let t = self.text(n).to_string();
                let arith = t.starts_with("((")
                    || n.kind() == "arithmetic_expansion"
                    || ["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]
                        .iter()
                        .any(|op| t.split_whitespace().any(|w| w == *op));
                if arith {
                    self.arithmetic(&t);
                }
                // `[[ -v 'a[$(cmd)]' ]]`, `[ 'a[$(cmd)]' -eq 1 ]`: a quoted
                // array subscript is expanded when the test evaluates it.
                if arith || t.split_whitespace().any(|w| w == "-v") {
                    for q in raw_strings(n) {
                        let inner = self
                            .text(q)
                            .trim_start_matches('$')
                            .trim_matches('\'')
                            .to_string();
                        if inner.contains('[') && (inner.contains("$(") || inner.contains('`')) {
                            self.evaluated_value(Word::lit(inner));
                        }
                    }
                }
                // (`[ x -eq 1 ]` compares integers; `[[ ]]` and `(( ))`
                // evaluate.)
                if arith && n.kind() != "arithmetic_expansion" && !t.starts_with("[ ") {
                    let subs = self.nested_subs(n);
                    self.evaluated_output(subs);
                    return;
                }
                self.children(n, nested);
            }
            _ => self.children(n, nested),
        }
    }

    /// `( dir=./build )`: assignments and `cd` inside stay inside.
    fn subshell(&mut self, n: Node, nested: bool) {
        let saved = (self.vars.clone(), self.cwd.clone());
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        for k in kids {
            self.statement(k, nested);
        }
        (self.vars, self.cwd) = saved;
    }

    /// A body with its redirects (`while …; done < file`, `cmd > out`).
    fn redirected(&mut self, n: Node, nested: bool) {
        let before = self.out.commands.len();
        if let Some(body) = n.child_by_field_name("body") {
            // `… | while read f; do …; done < file`: the loop's
            // input is the file, whatever the pipe carries.
            let tail = self.src.get(body.end_byte()..n.end_byte()).unwrap_or("");
            let input = tail.contains('<');
            // `done < <(git ls-files …)`: the loop reads that
            // command, which is parsed after the body; its lines are
            // tied to it below.
            let from_procsub =
                tail.trim_start().starts_with("< <(") && tail.matches('<').count() == 2;
            let outer = self.pipe_input_replaced;
            let outer_source = self.pipe_source;
            if from_procsub {
                self.pipe_source = Some(PENDING_SOURCE);
            } else {
                self.pipe_input_replaced |= input;
            }
            // `while read -r t; do …; done < list` over a list this
            // line wrote: its lines are known.
            let written = self
                .input_written_here(n)
                .or_else(|| self.input_literal_here(n));
            if !written
                .as_ref()
                .is_some_and(|t| self.read_loop_over(body, t, nested))
            {
                self.statement(body, nested);
            }
            self.pipe_input_replaced = outer;
            self.pipe_source = outer_source;
        }
        // The body's last command, found before the redirects'
        // own substitutions add commands of their own.
        let target = (self.out.commands.len() > before).then(|| self.out.commands.len() - 1);
        self.words_before_redirect(n, target);
        let redirects = self.redirects(n);
        self.tie_pending_source(before, &redirects);
        // `mapfile -t a < <(cmd)`: the redirect is the statement's (on a
        // list, `x || mapfile …`, the grammar hangs it there too: the
        // branch is behind it, and the lines are not bound).
        let simple = n
            .child_by_field_name("body")
            .is_some_and(|b| b.kind() == "command");
        if let Some(i) = target.filter(|_| simple) {
            let argv = self.out.commands[i].argv.clone();
            self.map_lines(&argv, &redirects);
        }
        // `read -r f < file` reads the file, not the pipe.
        if let Some(i) = target
            && self.out.commands[i]
                .argv
                .first()
                .is_some_and(|w| w.text == "read")
        {
            for w in self.out.commands[i].argv[1..].iter() {
                self.vars.lines.remove(&w.text);
            }
        }
        if let Some(i) = target {
            self.remember_written(i, &redirects, n);
        }
        // `{ echo; env; git remote -v; } > report.txt`: every command of a
        // group or loop writes its output there, not only the last.
        // (A pipeline's redirect is its last stage's; a list's, its last
        // command's.)
        let grouped = n.child_by_field_name("body").is_some_and(|b| {
            matches!(
                b.kind(),
                "compound_statement"
                    | "subshell"
                    | "for_statement"
                    | "c_style_for_statement"
                    | "while_statement"
                    | "if_statement"
                    | "case_statement"
            )
        });
        if grouped && let Some(t) = target {
            let to_file: Vec<Redirect> = redirects
                .iter()
                .filter(|r| r.stdout_to_file())
                .cloned()
                .collect();
            if !to_file.is_empty() {
                for i in before..t {
                    if self.out.commands[i].nested == nested {
                        self.out.commands[i]
                            .redirects
                            .extend(to_file.iter().cloned());
                    }
                }
            }
        }
        let owner = match target {
            Some(i) => {
                self.feed_substitutions(i, &redirects);
                self.out.commands[i].redirects.extend(redirects);
                i
            }
            None => {
                self.out.commands.push(Command {
                    redirects,
                    cwd: self.cwd.clone(),
                    cwd_choices: self.vars.cwd_alts.clone(),
                    nested,
                    ..Default::default()
                });
                self.out.commands.len() - 1
            }
        };
        let mut cursor = n.walk();
        let heredocs: Vec<Node> = n
            .children_by_field_name("redirect", &mut cursor)
            .filter(|r| r.kind() == "heredoc_redirect")
            .collect();
        for h in heredocs {
            self.heredoc_tail(h, owner, nested);
        }
    }

    /// `terraform plan 2> >(curl -T - …)`: what the command writes into
    /// `>(…)` is the substitution's input, as a pipe's next stage reads it.
    fn feed_substitutions(&mut self, writer: usize, redirects: &[Redirect]) {
        for r in redirects
            .iter()
            .filter(|r| r.target.feeds && !r.op.starts_with('<'))
        {
            let subs = &r.target.subs;
            // The substitution's own commands, not those of its `$(…)`.
            let inner: Vec<usize> = subs
                .iter()
                .flat_map(|&k| self.out.commands.get(k).into_iter())
                .flat_map(|c| c.argv.iter().flat_map(|w| w.subs.iter().copied()))
                .collect();
            // Each of its own commands may read it (`>(sleep 1; nc …)`,
            // `>(read -r x; nc …)`), not only the first.
            for k in subs.iter().copied().filter(|k| !inner.contains(k)) {
                if let Some(c) = self.out.commands.get_mut(k)
                    && c.stdin_from.is_none()
                {
                    c.stdin_from = Some(writer);
                }
            }
        }
    }

    /// The stages of a pipeline, each reading the one before.
    fn pipeline(&mut self, n: Node, nested: bool) {
        let mut prev: Option<usize> = None;
        let mut prev_copies: Vec<usize> = Vec::new();
        let mut cursor = n.walk();
        let stages: Vec<Node> = n.named_children(&mut cursor).collect();
        // Each stage of a pipeline runs in a subshell: what it sets
        // is gone after (`echo x | read d` leaves `d` as it was).
        // (Unless `lastpipe` keeps the last one in this shell.)
        let scope = (stages.len() > 1 && !self.src.contains("lastpipe"))
            .then(|| (self.vars.clone(), self.cwd.clone()));
        let mut simple = false;
        for stage in stages {
            let before = self.out.commands.len();
            // `… | while read f; do …; done < file` reads the file.
            // A loop or group ending in its own redirect reads that.
            let tail = self.text(stage).trim_end();
            let own_input = stage.kind() == "redirected_statement"
                || !(tail.ends_with("done")
                    || tail.ends_with('}')
                    || tail.ends_with(')')
                    || stage.kind() == "command");
            self.stage(stage, nested, prev.filter(|_| !own_input), simple);
            // What the next stage reads is this one's, whole, only
            // when this one is a single command (not `{ a; b; }`).
            simple = stage.kind() == "command";
            if self.out.commands.len() > before {
                // The stage's first top-level command reads the pipe.
                let first = (before..self.out.commands.len())
                    .find(|&i| self.out.commands[i].nested == nested)
                    .unwrap_or(before);
                let last = self.out.commands.len() - 1;
                // A simple command's copies (the same place, judged with
                // what a grown array may hold) share its pipe.
                let commands = &self.out.commands;
                let copies = |i: usize| -> Vec<usize> {
                    if !simple {
                        return vec![i];
                    }
                    (before..commands.len())
                        .filter(|&j| {
                            commands[j].at == commands[i].at
                                && commands[j].nested == commands[i].nested
                        })
                        .collect()
                };
                let (readers, writers) = (copies(first), copies(last));
                if let Some(p) = prev {
                    for i in readers {
                        self.out.commands[i].stdin_from = Some(p);
                    }
                    for &i in &prev_copies {
                        self.out.commands[i].pipes_out = true;
                    }
                }
                prev_copies = writers;
                prev = Some(last);
            }
        }
        if let Some((vars, cwd)) = scope {
            self.vars = vars;
            self.cwd = cwd;
        }
    }

    /// A function's body, kept to be judged at each call, and walked once here.
    fn function_definition(&mut self, n: Node, nested: bool) {
        let name = n
            .child_by_field_name("name")
            .map(|x| self.text(x).to_string())
            .unwrap_or_default();
        if let Some(body) = n.child_by_field_name("body") {
            let text = self.text(body);
            let inner = text
                .trim()
                .strip_prefix('{')
                .and_then(|t| t.strip_suffix('}'))
                .or_else(|| {
                    text.trim()
                        .strip_prefix('(')
                        .and_then(|t| t.strip_suffix(')'))
                })
                .unwrap_or(text);
            // `f() { cat; } < ~/.ssh/id_rsa`: the redirect applies
            // at every call, so it travels with the body.
            let mut c = n.walk();
            let redirs: Vec<String> = n
                .named_children(&mut c)
                .filter(|k| k.kind().ends_with("redirect"))
                .map(|k| self.text(k).to_string())
                .collect();
            let stored = if redirs.is_empty() {
                inner.to_string()
            } else {
                format!("{{ {inner}\n}} {}", redirs.join(" "))
            };
            // Defined in a subshell, a branch, a pipeline or the
            // background, it may not exist at a later call: the call
            // is judged as the program of that name, the body alone.
            let sure = !vars::conditional(n);
            if sure {
                self.out.functions.push((name.clone(), stored.clone()));
            } else {
                self.out
                    .maybe_functions
                    .push((name.clone(), stored.clone()));
            }
            self.current_fn.push(name.clone());
            let start = self.out.commands.len();
            // The body runs at its calls, as often as it is called: what it
            // sets may hold its value or the one before, or another.
            let before = (self.vars.clone(), self.cwd.clone());
            // `$1`… in the body are the call's operands, not the line's.
            let outer = std::mem::take(&mut self.positional);
            self.statement(body, nested);
            self.positional = outer;
            let names: Vec<String> = self.out.functions.iter().map(|(n, _)| n.clone()).collect();
            let locals = command::declared_locals(&stored, &names);
            // What the body declares `local` is gone after it.
            for name in &locals {
                self.vars.restore(name, &before.0);
            }
            // What a call sets: a literal the same at every call, anything
            // else not known.
            let sets: Vec<(String, Option<String>)> = self
                .vars
                .seen
                .iter()
                .filter(|n| !locals.contains(*n))
                .filter(|n| {
                    self.vars.known.get(*n) != before.0.known.get(*n)
                        || self.vars.from.get(*n) != before.0.from.get(*n)
                        || !before.0.seen.contains(*n)
                })
                .map(|n| {
                    let literal = command::assigns_literally(&stored, n);
                    (
                        n.clone(),
                        self.vars.known.get(n).cloned().filter(|_| literal),
                    )
                })
                .collect();
            if sure {
                self.fn_sets.insert(name.clone(), sets);
                // A body that moves moves its caller: the places it may
                // leave the line in.
                // (Only a body whose moves are literal: `cd "$d"` goes where
                // `d` is at the call.)
                let literal = !stored.contains(['$', '`']);
                if literal && (self.cwd != before.1 || !self.vars.cwd_alts.is_empty()) {
                    let places = if self.vars.cwd_alts.is_empty() {
                        vec![self.cwd.clone()]
                    } else {
                        self.vars.cwd_alts.clone()
                    };
                    self.fn_cwds
                        .insert(name.clone(), (before.1.clone(), places));
                }
            }
            self.join_open(&before);
            // Defining a function moves nothing: its calls do.
            self.cwd = before.1.clone();
            self.vars.cwd_alts = before.0.cwd_alts.clone();
            let end = self.out.commands.len();
            if sure {
                self.out.function_spans.push((name.clone(), start..end));
                self.out.function_defs.push((name, start, stored));
            }
            self.current_fn.pop();
        }
    }

    /// `while`, `until` and C-style `for`: an endless loop that starts
    /// background jobs is a fork bomb; a read loop over known lines is walked per line.
    fn condition_loop(&mut self, n: Node, nested: bool) {
        let endless = match n.kind() {
            "c_style_for_statement" => n.child_by_field_name("condition").is_none(),
            kind => n.child_by_field_name("condition").is_some_and(|c| {
                let t = self.text(c).trim().trim_end_matches(';').trim();
                let until =
                    kind == "until_statement" || self.text(n).trim_start().starts_with("until");
                if until {
                    t == "false"
                } else {
                    matches!(t, "true" | ":" | "[ 1 ]" | "((1))")
                }
            }),
        };
        // (`for ((i=0; i<100000; i++))`: a bound past the process table.)
        let bound = n.kind() == "c_style_for_statement"
            && n.child_by_field_name("condition").is_some_and(|c| {
                self.text(c)
                    .split(|ch: char| !ch.is_ascii_digit())
                    .filter_map(|d| d.parse::<u64>().ok())
                    .any(|d| d >= MANY_JOBS)
            });
        if (endless || bound) && n.child_by_field_name("body").is_some_and(has_background) {
            self.out.spawning_loop = true;
        }
        // Sleeping between rounds, it fills the disk as surely, if slower.
        let sleeps = n.child_by_field_name("condition").is_some_and(|c| {
            let t = self.text(c).trim();
            t.starts_with("sleep ") && n.kind() == "while_statement"
        });
        if (endless || sleeps)
            && n.child_by_field_name("body")
                .is_some_and(|b| fills(self.text(b)))
        {
            self.out.filling_loop = true;
        }
        if (endless || sleeps)
            && n.child_by_field_name("body")
                .is_some_and(|b| watches(self.text(b)))
        {
            self.out.watching_loop = true;
        }
        if n.kind() == "c_style_for_statement" {
            // `for ((i=0; i<n; i++))`: the header assigns.
            let header: Vec<String> = ["initializer", "condition", "update"]
                .iter()
                .filter_map(|f| n.child_by_field_name(f))
                .map(|k| self.text(k).to_string())
                .collect();
            self.arithmetic(&header.join(";"));
        }
        if !self.read_loop_over_printed(n, nested) {
            // Run any number of times: what the body sets may hold any of
            // its values.
            let before = (self.vars.clone(), self.cwd.clone());
            self.children(n, nested);
            self.join_open(&before);
        }
    }

    /// One stage of a pipeline, reading `source` (whole when `simple`).
    pub(super) fn stage(&mut self, n: Node, nested: bool, source: Option<usize>, simple: bool) {
        let outer = (self.pipe_source, self.pipe_source_simple);
        self.pipe_source = source;
        self.pipe_source_simple = simple;
        self.statement(n, nested);
        (self.pipe_source, self.pipe_source_simple) = outer;
    }

    pub(super) fn children(&mut self, n: Node, nested: bool) {
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.children(&mut cursor).collect();
        for (i, k) in kids.iter().enumerate() {
            if !k.is_named() {
                continue;
            }
            // `read x <<< v &`: a background job runs in a subshell.
            let background = kids
                .get(i + 1)
                .is_some_and(|next| !next.is_named() && next.kind() == "&");
            if background {
                let saved = (self.vars.clone(), self.cwd.clone());
                self.statement(*k, nested);
                (self.vars, self.cwd) = saved;
            } else {
                self.statement(*k, nested);
            }
        }
    }

    pub(super) fn for_loop(&mut self, n: Node, nested: bool) {
        let var = n
            .child_by_field_name("variable")
            .map(|v| self.text(v).to_string());
        let mut cursor = n.walk();
        let nodes: Vec<Node> = n.children_by_field_name("value", &mut cursor).collect();
        // `for i in $(seq 1 100000); do sleep 1000 & done`: as many
        // background jobs as the process table holds.
        let counted = nodes
            .iter()
            .fold(0u64, |n, v| n.saturating_add(seq_count(self.text(*v))));
        if counted >= MANY_JOBS && n.child_by_field_name("body").is_some_and(has_background) {
            self.out.spawning_loop = true;
        }
        let mut values: Vec<Word> = Vec::new();
        for v in nodes {
            if let Some(elements) = self.array_elements(self.text(v)) {
                values.extend(elements.into_iter().map(Word::lit));
                continue;
            }
            let w = self.word(v, nested);
            let split = splittable(v, self.src);
            push_words(&mut values, w, split, &self.ifs());
        }
        let Some(body) = n.child_by_field_name("body") else {
            return;
        };
        let Some(var) = var else {
            self.statement(body, nested);
            return;
        };
        if values.is_empty() {
            // `for x; do …` iterates the positional parameters: known after
            // a `set -- a b` of this line, else not.
            if self.positional.len() > 1 {
                values = self.positional[1..].iter().map(Word::lit).collect();
            } else {
                self.vars.forget(&var);
                self.statement(body, nested);
                return;
            }
        }
        // The body once per value, so a dangerous value anywhere in the list counts.
        self.vars.lines.remove(&var);
        let more = values.len() > MAX_LOOP_VALUES;
        for v in values.into_iter().take(MAX_LOOP_VALUES) {
            if v.dynamic {
                self.vars.forget(&var);
                self.vars.from.insert(var.clone(), v.subs.clone());
            } else {
                self.vars.set(var.clone(), v.text.clone());
            }
            self.statement(body, nested);
        }
        // Past the cap, the rest as one value known only at run time.
        if more {
            self.vars.forget(&var);
            self.vars.from.remove(&var);
            self.statement(body, nested);
        }
    }
}

/// Background jobs that, started together, fill the process table.
const MANY_JOBS: u64 = 5000;

/// How many values a `for` list's `$(seq …)` or `{A..B}` gives (0 when
/// neither).
fn seq_count(text: &str) -> u64 {
    let nums = |s: &str| -> Vec<i64> {
        s.split_whitespace()
            .filter_map(|w| w.parse::<i64>().ok())
            .collect()
    };
    if let Some(inner) = text
        .strip_prefix("$(seq")
        .or_else(|| text.strip_prefix("`seq"))
        .map(|r| r.trim_end_matches([')', '`']))
    {
        let n = nums(inner);
        let (first, step, last) = match n.as_slice() {
            [last] => (1, 1, *last),
            [first, last] => (*first, 1, *last),
            [first, step, last] => (*first, *step, *last),
            _ => return 0,
        };
        // (Saturating: the numbers are the line's, any size.)
        return match last.saturating_sub(first).checked_div(step) {
            None => u64::MAX,
            Some(n) => n.saturating_add(1).max(0).unsigned_abs(),
        };
    }
    if let Some((a, b)) = text
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .and_then(|r| r.split_once(".."))
    {
        let (a, b) = (
            a.parse::<i64>().unwrap_or(0),
            b.split("..")
                .next()
                .unwrap_or("")
                .parse::<i64>()
                .unwrap_or(0),
        );
        return b.saturating_sub(a).unsigned_abs().saturating_add(1);
    }
    0
}

/// The single-quoted strings (`'…'`, `$'…'`) anywhere below `n`.
fn raw_strings(n: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if matches!(x.kind(), "raw_string" | "ansi_c_string") {
            out.push(x);
            continue;
        }
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
    }
    out
}
