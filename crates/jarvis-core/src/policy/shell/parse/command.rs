//! A simple command: its words, assignments and redirects.

use super::*;

impl Walker<'_> {
    pub(super) fn command(&mut self, n: Node, nested: bool) {
        let Parts {
            mut argv,
            grown,
            assigns,
            redirects,
            tails,
        } = self.parts(n, nested);
        if let Some(name) = argv.first().map(|w| w.text.clone())
            && self.current_fn.contains(&name)
            && moves_folder(n, self.src)
        {
            self.recursive_movers.insert(name.clone());
        }
        if let Some(name) = argv.first().map(|w| w.text.clone())
            && unbounded_recursion(n)
        {
            if self.current_fn.contains(&name) {
                self.out.recursive_functions.push(name.clone());
            } else if let Some(caller) = self.current_fn.last() {
                self.fn_calls.push((caller.clone(), name.clone()));
            }
            // `f(){ eval 'f & f'; }`: the call spelled in eval's text.
            if name == "eval"
                && let Some(f) = self.current_fn.last()
                && argv[1..].iter().any(|w| {
                    w.text
                        .split(|ch: char| ch.is_whitespace() || matches!(ch, ';' | '&' | '|'))
                        .any(|t| t == f)
                        && w.text.contains(['&', '|'])
                })
            {
                self.out.recursive_functions.push(f.clone());
            }
        }
        // `eval`'s code runs now, a DEBUG, RETURN or ERR trap's between the
        // commands: with the values this line gave its variables. An EXIT
        // trap's runs at the end, with the values then (see `parse`).
        let at_end = argv.first().is_some_and(|w| w.text == "trap")
            && !argv[1..]
                .iter()
                .any(|w| matches!(w.text.as_str(), "DEBUG" | "RETURN" | "ERR"));
        if !at_end
            && argv
                .first()
                .is_some_and(|w| w.text == "trap" || w.text == "eval")
        {
            for w in argv.iter_mut().skip(1).filter(|w| !w.dynamic) {
                w.text = self.with_known(&w.text);
            }
        }
        // (After the values `eval`'s own words read: what it runs may then
        // set anything.)
        self.bind_read(&argv, &redirects, &assigns);
        self.forget_set_names(&argv);
        self.printf_to_variable(&argv);
        self.set_positional(&argv, n);
        if argv.first().is_some_and(|w| w.text == "shopt")
            && argv.iter().any(|w| w.text == "-s")
            && argv.iter().any(|w| w.text == "cdable_vars")
        {
            self.cdable_vars = true;
        }
        self.track_cd(&argv);
        let moves = self.code_elsewhere(&argv);
        // A function that moves and calls itself leaves the line somewhere
        // this analysis cannot say (as `popd` does).
        let wanders = argv
            .first()
            .is_some_and(|w| self.recursive_movers.contains(&w.text));
        // `getopts SPEC NAME`: sets NAME (and OPTARG, OPTIND).
        if argv.first().is_some_and(|w| w.text == "getopts") {
            for name in argv
                .get(2)
                .map(|w| w.text.clone())
                .into_iter()
                .chain(["OPTARG".into(), "OPTIND".into()])
            {
                self.vars.forget(&name);
            }
        }
        // An EXIT trap may also fire before the line's end (`exit`, `set
        // -e`, a subshell's end): judged with the values now as well.
        // (Only when every value it reads is known now: one the line sets
        // later is empty if the trap fires first.)
        let now = at_end
            .then(|| {
                let mut copy = argv.clone();
                for w in copy.iter_mut().skip(1).filter(|w| !w.dynamic) {
                    w.text = self.with_known(&w.text);
                }
                copy
            })
            .filter(|copy| {
                copy != &argv
                    && !copy
                        .iter()
                        .skip(1)
                        .any(|w| w.text.replace("${HOME}", "").contains('$'))
            });
        self.out.commands.push(Command {
            argv,
            assigns,
            redirects,
            cwd: self.cwd.clone(),
            cwd_choices: self.vars.cwd_alts.clone(),
            nested,
            at: n.start_byte(),
            ..Default::default()
        });
        if let Some(copy) = now {
            self.out.commands.push(Command {
                argv: copy,
                cwd: self.cwd.clone(),
                cwd_choices: self.vars.cwd_alts.clone(),
                nested,
                at: n.start_byte(),
                ..Default::default()
            });
        }
        // After it runs, the line may be anywhere (the command itself
        // starts where it is).
        if moves {
            self.cwd = Some(UNKNOWN_DIR.into());
            self.vars.cwd_alts.clear();
        }
        if wanders {
            self.cwd = Some(ELSEWHERE_DIR.into());
            self.vars.cwd_alts.clear();
        }
        if let Some(places) = self.after_call.take() {
            self.set_places(places);
        }
        let owner = self.out.commands.len() - 1;
        for h in tails {
            self.heredoc_tail(h, owner, nested);
        }
        self.with_grown_arrays(owner, grown);
    }

    /// A command reading an array grown piece by piece is judged also as
    /// if it held every word the line may have put in it: what it does
    /// with the most it may be given (`curl "${args[@]}" URL` where a loop
    /// added `-F "f=@$f"` for each file, `.env` among them). The array's
    /// word stays unknown in the command itself, so nothing is allowed on
    /// the strength of this copy.
    fn with_grown_arrays(&mut self, owner: usize, grown: Vec<(usize, Vec<Word>)>) {
        let Some(real) = self.out.commands.get(owner) else {
            return;
        };
        if grown.is_empty()
            || !grown
                .iter()
                .all(|(i, _)| real.argv.get(*i).is_some_and(|w| w.dynamic))
        {
            return;
        }
        let mut copy = real.clone();
        for (i, words) in grown.into_iter().rev() {
            copy.argv.splice(i..=i, words);
        }
        self.out.commands.push(copy);
    }

    /// The command's words, joined where the grammar cut one in two, its
    /// leading assignments, its redirects and the heredocs among them.
    fn parts<'n>(&mut self, n: Node<'n>, nested: bool) -> Parts<'n> {
        let mut tails = Vec::new();
        let mut grown = Vec::new();
        let mut argv = Vec::new();
        let mut assigns = Vec::new();
        let mut redirects = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        let mut i = 0;
        while i < kids.len() {
            let k = kids[i];
            match k.kind() {
                "variable_assignment" if argv.is_empty() => {
                    let (name, value) = self.assignment(k, nested);
                    if let Some(name) = name {
                        assigns.push((name, value));
                    }
                    i += 1;
                    continue;
                }
                "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                    redirects.push(self.redirect(k));
                    if k.kind() == "heredoc_redirect" {
                        tails.push(k);
                    }
                    i += 1;
                    continue;
                }
                // `sh 0<&2`: the grammar splits the descriptor off its
                // redirect, and after `&&` hangs the redirect on the whole
                // list; digits right before `<`/`>` are never an argument.
                "number" | "word"
                    if self.text(k).bytes().all(|b| b.is_ascii_digit())
                        && (kids.get(i + 1).is_some_and(|n| {
                            n.kind() == "file_redirect" && n.start_byte() == k.end_byte()
                        }) || self
                            .src
                            .get(k.end_byte()..)
                            .is_some_and(|rest| rest.starts_with(['<', '>']))) =>
                {
                    // `sh 0<&2`: the grammar splits the descriptor off its redirect.
                    i += 1;
                    continue;
                }
                _ => {}
            }
            let end = self.word_end(&kids, i);
            let spelled = self
                .src
                .get(kids[i].start_byte()..kids[end].end_byte())
                .unwrap_or("");
            // `"$@"` with the operands known (a function judged at a call
            // with literal arguments, after its `shift`s): those words, as
            // the call wrote them.
            if spelled == "\"$@\""
                && !self.positional.is_empty()
                && !(argv.is_empty() && self.positional_set)
            {
                argv.extend(self.positional[1..].iter().map(Word::lit));
                i = end + 1;
                continue;
            }
            // Operands only: a program named by an array stays a name
            // computed at run time (`a=(rm -rf x); "${a[@]}"`).
            if !argv.is_empty()
                && let Some(elements) = self.array_elements(spelled)
            {
                argv.extend(elements.into_iter().map(Word::lit));
                i = end + 1;
                continue;
            }
            if !argv.is_empty()
                && let Some(words) = self.grown_elements(spelled)
            {
                grown.push((argv.len(), words));
            }
            let (w, split) = self.joined_word(&kids[i..=end], nested);
            // `sh 0<&2`: the grammar puts the descriptor in the command and
            // its redirect after it.
            let glued_fd = end + 1 == kids.len()
                && kids[i].kind() == "number"
                && n.next_sibling().is_some_and(|s| {
                    s.kind() == "file_redirect" && s.start_byte() == kids[end].end_byte()
                });
            if !glued_fd {
                let ifs = self.ifs();
                let mut w = w;
                // Split by an IFS a branch may have changed: the words it
                // makes are not known.
                if split
                    && self.ifs_known().is_none()
                    && w.text.chars().any(|c| !c.is_alphanumeric())
                {
                    w.dynamic = true;
                }
                push_words(&mut argv, w, split, &ifs);
            }
            i = end + 1;
        }
        Parts {
            argv,
            grown,
            assigns,
            redirects,
            tails,
        }
    }
    /// The last piece of the word starting at `kids[i]`: tree-sitter
    /// sometimes cuts one shell word in two (`-rf$` + `IFS/`), and
    /// `r\<newline>m` is one word to bash where the grammar sees two.
    fn word_end(&self, kids: &[Node], i: usize) -> usize {
        let joined = |a: Node, b: Node| {
            a.end_byte() == b.start_byte()
                || self
                    .src
                    .get(a.end_byte()..b.start_byte())
                    .is_some_and(|gap| {
                        !gap.is_empty() && gap.chars().all(|ch| ch == '\\' || ch == '\n')
                    })
        };
        let mut end = i;
        while end + 1 < kids.len()
            && joined(kids[end], kids[end + 1])
            && !matches!(
                kids[end + 1].kind(),
                "file_redirect" | "heredoc_redirect" | "herestring_redirect"
            )
        {
            end += 1;
        }
        end
    }

    /// Pieces of one word as one, and whether it splits on `IFS`.
    fn joined_word(&mut self, pieces: &[Node], nested: bool) -> (Word, bool) {
        let mut w = Word::default();
        let mut split = false;
        for (j, piece) in pieces.iter().enumerate() {
            let inner = if piece.kind() == "command_name" {
                piece.named_child(0).unwrap_or(*piece)
            } else {
                *piece
            };
            split |= splittable(inner, self.src);
            let part = self.word_at_start(inner, nested, j == 0);
            w.merge(part);
            if j > 0 {
                w.spliced = true;
            }
        }
        (w, split)
    }
}

struct Parts<'n> {
    argv: Vec<Word>,
    /// Where `argv` reads an array grown piece by piece, and every word it
    /// may hold.
    grown: Vec<(usize, Vec<Word>)>,
    assigns: Vec<(String, Word)>,
    redirects: Vec<Redirect>,
    tails: Vec<Node<'n>>,
}

impl Walker<'_> {
    /// Code the walk does not see into, run in this shell: a sourced file,
    /// an `eval`, a trap, a call of a function defined elsewhere in the
    /// line. It may set any variable it names, or move.
    fn code_elsewhere(&mut self, argv: &[Word]) -> bool {
        let peeled: Vec<&Word> = argv
            .iter()
            .skip_while(|w| matches!(w.text.as_str(), "builtin" | "command"))
            .collect();
        let Some(first) = peeled.first().map(|w| w.text.as_str()) else {
            return false;
        };
        let moves = |text: &str| {
            ["cd", "pushd", "popd", "CDPATH"].iter().any(|k| {
                text.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|t| t == *k)
            })
        };
        let body = self
            .out
            .functions
            .iter()
            .rev()
            .find(|(n, _)| n == first)
            .map(|(_, b)| b.clone());
        // A call of a function of the line: what its body sets, set.
        // A body's literal moves, from the folder it was defined in: the
        // call moves the line there (after the call's own commands).
        let placed = body.is_some()
            && self
                .fn_cwds
                .get(first)
                .is_some_and(|(from, _)| *from == self.cwd && self.vars.cwd_alts.is_empty());
        if placed && let Some((_, places)) = self.fn_cwds.get(first).cloned() {
            // Where the body moves, or here if its `cd` failed.
            let mut places = places;
            places.push(self.cwd.clone());
            self.after_call = Some(places);
        }
        if body.is_some()
            && let Some(sets) = self.fn_sets.get(first).cloned()
        {
            for (name, value) in sets {
                match value {
                    Some(v) => {
                        self.vars.set(name, v);
                    }
                    None => self.loosen_names(&[name]),
                }
            }
        }
        // A trap on EXIT or a signal runs after the line: only DEBUG, RETURN
        // and ERR run between its commands.
        let between = peeled[1..]
            .iter()
            .any(|w| matches!(w.text.as_str(), "DEBUG" | "RETURN" | "ERR"));
        if first == "trap" {
            self.traps.push(self.out.commands.len());
            if !between {
                return false;
            }
        }
        let (code, everything) = match first {
            "." | "source" => (Word::join(&argv[1..]), true),
            "eval" | "trap" => (
                peeled[1..]
                    .iter()
                    .map(|w| w.text.clone())
                    .collect::<Vec<_>>()
                    .join(" "),
                true,
            ),
            _ => match body {
                Some(b) => (b, false),
                None => return false,
            },
        };
        let dynamic = peeled[1..].iter().any(|w| w.dynamic);
        if everything {
            self.loosen_all();
        }
        (first == "eval" && dynamic) || (moves(&code) && !placed)
    }
}

/// Whether every assignment of `name` in `code` is a literal (`R=./cache`,
/// the same at every call), and there is one.
pub(super) fn assigns_literally(code: &str, name: &str) -> bool {
    let mut found = false;
    for (i, _) in code.match_indices(&format!("{name}=")) {
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let value: String = code[i + name.len() + 1..]
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != ';')
            .collect();
        if value.contains(['$', '`', '(']) {
            return false;
        }
        found = true;
    }
    found
}

/// The names a function body declares local (`local x`, `declare x`,
/// `typeset x` without `-g`): they do not outlive a call. Only in a body
/// simple enough to be sure: statements in a row, no pipeline, subshell,
/// background job, branch, loop, `unset`, `eval` or call of another of
/// the line's functions (whose `unset` reaches the caller's locals), and
/// the declaration is the first statement naming the variable.
pub(super) fn declared_locals(
    body: &str,
    functions: &[String],
) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    let words: Vec<&str> = body
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    let tangled = body.contains(['|', '&', '(', '`'])
        || body.contains(" -g")
        || words.iter().any(|w| {
            matches!(
                *w,
                "if" | "case"
                    | "for"
                    | "while"
                    | "until"
                    | "select"
                    | "unset"
                    | "eval"
                    | "source"
                    | "."
            ) || functions.iter().any(|f| f == w)
        });
    if tangled {
        return out;
    }
    let statements: Vec<&str> = body.split(['\n', ';']).map(str::trim).collect();
    for (k, stmt) in statements.iter().enumerate() {
        let mut words = stmt.split_whitespace();
        if !matches!(words.next(), Some("local" | "declare" | "typeset")) {
            continue;
        }
        let rest: Vec<&str> = words.collect();
        if rest
            .iter()
            .any(|w| w.starts_with('-') && w.contains(['g', 'p', 'f', 'F', 'n']))
        {
            continue;
        }
        for w in rest.iter().filter(|w| !w.starts_with('-')) {
            let name = w.split(['=', '[']).next().unwrap_or(w);
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let named_before = statements[..k].iter().any(|s| {
                s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|t| t == name)
            });
            if !named_before {
                out.insert(name.to_string());
            }
        }
    }
    out
}

/// A function's call of itself that multiplies (`f | f`, `f &`), or that
/// no condition stops: a fork bomb. Recursion under a test (`[ "$1" = . ]
/// && echo 0 || … $(f "$(dirname "$1")")`) ends.
fn unbounded_recursion(n: Node) -> bool {
    let mut at = Some(n);
    let mut guarded = false;
    while let Some(x) = at {
        if x.kind() == "function_definition" {
            break;
        }
        if x.kind() == "pipeline" || x.next_sibling().is_some_and(|s| s.kind() == "&") {
            return true;
        }
        guarded |= matches!(
            x.kind(),
            "list" | "if_statement" | "case_statement" | "while_statement" | "elif_clause"
        );
        at = x.parent();
    }
    !guarded
}

/// The function around `n` changes directory (`cd`, `pushd`).
fn moves_folder(n: Node, src: &str) -> bool {
    let mut at = Some(n);
    while let Some(x) = at {
        if x.kind() == "function_definition" {
            let text = src.get(x.byte_range()).unwrap_or("");
            return text.contains("cd ") || text.contains("pushd ");
        }
        at = x.parent();
    }
    false
}
