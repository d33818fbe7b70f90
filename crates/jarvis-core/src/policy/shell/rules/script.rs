//! A whole script: parsed, salvaged where the grammar fails, and each
//! command judged in order with what the line wrote and defined before it.

use super::*;

impl Analyzer<'_> {
    /// Analyses a whole script; `positional` are `$0`, `$1`, … for `sh -c`.
    pub fn script(&mut self, src: &str, positional: &[String], depth: usize) {
        // Nothing lowers a block and its first reason is the one kept: the
        // rest of the line cannot change the verdict.
        if self.settled() {
            return;
        }
        if depth > MAX_DEPTH {
            self.ask("nested too deeply to analyse");
            return;
        }
        self.work += 1;
        if self.work > MAX_WORK {
            self.block("too much nested code to analyse (a line built to exhaust the analyser)");
            return;
        }
        // Brackets nested past any real line's would take the analysis's
        // own stack down (the process, not just the verdict).
        if nesting(src) > MAX_NESTING {
            self.block(format!(
                "brackets nested more than {MAX_NESTING} deep cannot be analysed (a line built to exhaust the analyser)"
            ));
            return;
        }
        // A Windows line ending (`\r` before a newline or at the end) hides
        // nothing: what the terminal shows is what runs.
        let crlf = |i: usize| matches!(src.as_bytes().get(i + 1), None | Some(b'\n'));
        if src
            .char_indices()
            .any(|(i, c)| c.is_control() && !matches!(c, '\n' | '\t') && !(c == '\r' && crlf(i)))
        {
            self.ask("contains control characters that can hide what runs");
        }
        // `{rm,-rf,~}`: a leading brace list is the command bash runs once
        // expanded (the grammar rejects it, slowly). Judged expanded first;
        // a block there needs no more.
        if let Some(first) = src.split_whitespace().next()
            && first.starts_with('{')
            && first.contains(',')
            && let Some(words) = crate::policy::shell::eval::brace_expand(first)
        {
            let rest = &src.trim_start()[first.len()..];
            self.block_only(|a| {
                a.script(&format!("{}{rest}", words.join(" ")), positional, depth + 1)
            });
            if self.verdict == Verdict::Block {
                return;
            }
        }
        let key = (src.to_string(), positional.to_vec());
        let script = match self.parsed.get(&key) {
            Some(s) => std::rc::Rc::clone(s),
            None => {
                let s = std::rc::Rc::new(parse::parse(src, positional));
                self.parsed.insert(key, std::rc::Rc::clone(&s));
                s
            }
        };
        let script = &*script;
        if script.commands.len() > MAX_COMMANDS {
            self.block(format!(
                "too many commands in one line to analyse ({}, at most {MAX_COMMANDS}); write a script file and run it instead",
                script.commands.len()
            ));
            return;
        }
        self.dormant_code(script, depth);
        if script.parse_error {
            self.salvage(src, positional, depth);
        }
        for c in &script.commands {
            match self.producer(c) {
                Producer::Net => self.fetches = true,
                Producer::Decode => self.decodes = true,
                Producer::Other => {}
            }
        }
        // `export X=…`, `declare -x`, `set -a`: later programs see it.
        self.env_changed |= script.commands.iter().any(|c| {
            let pa = peeled(&c.argv);
            let b = pa
                .first()
                .map(|w| program_name(&w.text))
                .unwrap_or_default();
            matches!(b.as_str(), "export" | "setenv")
                || matches!(b.as_str(), "declare" | "typeset")
                    && pa
                        .iter()
                        .any(|w| w.text.starts_with('-') && w.text.contains('x'))
                || b == "set" && pa.iter().any(|w| w.text == "-a" || w.text == "allexport")
        });
        let known = self.written.len();
        self.track_written(script);
        self.dropped_code_started(script);
        let fresh: Vec<(String, String)> = self.written[known..].to_vec();
        for (path, text) in fresh {
            self.planted_text(&path, &text, depth);
        }
        self.planted_filters(script, depth);
        for f in &script.recursive_functions {
            self.block(format!("fork bomb (function {} calls itself)", shown(f)));
        }
        if script.spawning_loop {
            self.block("fork bomb (an endless loop that starts background jobs)");
        }
        // (In text an unknown program may run, `{dry_run: false}` is data.)
        if script.brace_program && !self.guessed {
            self.block(
                "obfuscated program name (a brace expansion spells the command: {prog,arg,…})",
            );
        }
        for subs in &script.evaluated_outputs {
            let output = Word {
                dynamic: true,
                subs: subs.clone(),
                ..Default::default()
            };
            if self.fetched(&output, script) {
                self.block("download and execute (fetched text is evaluated: arithmetic's `a[$(cmd)]`, zsh's (e) flag)");
            }
            self.ask("a command's output is evaluated (arithmetic's `a[$(cmd)]`, zsh's (e) flag, run what it holds)");
        }
        if script.watching_loop {
            self.block("surveillance (an endless loop keeps recording the clipboard, the screen or the keyboard)");
        }
        if script.filling_loop {
            self.block(
                "disk fill (an endless loop writes or allocates more space each time round)",
            );
        }
        self.functions.extend(script.functions.iter().cloned());
        self.maybe_functions
            .extend(script.maybe_functions.iter().cloned());
        self.judge_each(src, script, depth);
    }

    /// Text the grammar could not fully parse: judged again in the
    /// spellings it would parse, for what blocks.
    fn salvage(&mut self, src: &str, positional: &[String], depth: usize) {
        self.ask("the shell text could not be fully parsed");
        // Brace lists the parser rejects, like `{rm,-rf,~}`.
        let expanded: Vec<String> = src
            .split_whitespace()
            .map(|t| {
                crate::policy::shell::eval::brace_expand(t)
                    .map(|i| i.join(" "))
                    .unwrap_or_else(|| t.to_string())
            })
            .collect();
        let expanded = expanded.join(" ");
        if expanded != src.split_whitespace().collect::<Vec<_>>().join(" ") {
            self.script(&expanded, positional, depth + 1);
        }
        // Text the grammar rejects (PowerShell's `(…)`): judge its words
        // without the grouping, for what blocks.
        let flat: String = src
            .chars()
            .map(|ch| {
                if matches!(ch, '(' | ')' | '{' | '}') {
                    ' '
                } else {
                    ch
                }
            })
            .collect();
        if flat != src {
            self.block_only(|a| a.script(&flat, positional, depth + 1));
        }
        // Redirections bash takes and the grammar rejects (`3<>file`,
        // descriptors of two digits, zsh's `=(…)`): judged in the
        // spelling the grammar knows, for what blocks.
        let plain = plain_redirects(src);
        if plain != src {
            self.block_only(|a| a.script(&plain, positional, depth + 1));
        }
        // A line that goes on after `<<EOF`, which the grammar rejects:
        // the command lines again, bodies left out, for what blocks.
        if let Some(lines) = parse::without_heredocs(src) {
            self.block_only(|a| a.script(&lines, positional, depth + 1));
        }
        // Another shell's blocks (fish's `function …; …; end`, `begin;
        // …; end`): each statement on its own, for what blocks. One
        // with a variable depends on the block it was cut from (a loop's
        // `$f`), and is left to the question.
        let statements = statements(src);
        if statements.len() > 1 {
            for st in statements.into_iter().filter(|st| !st.contains('$')) {
                self.block_only(|a| a.script(&st, positional, depth + 1));
            }
        }
        // cmd.exe and PowerShell paths: `\` separates, it does not escape.
        let l = lower(src);
        if src.contains('\\') && (l.contains('%') || l.contains(":\\") || l.contains("$env:")) {
            let slashed = src.replace('\\', "/");
            self.block_only(|a| a.script(&slashed, positional, depth + 1));
        }
    }

    /// What this line writes to files, and with what text: a download's or
    /// a decoder's output is tainted, a printed text is kept for a later
    /// read of that file.
    fn track_written(&mut self, script: &Script) {
        for (i, full) in script.commands.iter().enumerate() {
            // What runs past `env`, `timeout`, `nice`… decides what is written.
            let view = Command {
                argv: peeled(&full.argv).to_vec(),
                ..full.clone()
            };
            let c = &view;
            // `git clone URL DIR`: everything in DIR came from there.
            if let Some(dir) = cloned_into(&c.argv) {
                let p = self.norm(&dir, c.cwd.as_deref());
                self.cloned.push(format!("{}/", p.trim_end_matches('/')));
            }
            if self.passes_on(i, script) != Producer::Other {
                let outs = writes::output_files(c);
                // Written into a folder on PATH, a download runs as a command.
                if let Some(o) = outs.iter().find(|o| paths::user_bin(o)) {
                    self.block(format!(
                        "download and execute ({} is written into a folder on PATH, where it runs as a command)",
                        shown(o)
                    ));
                }
                // Into a startup file or an application's script folder: it
                // runs at the next login or start of that program. (Also
                // a folder named for the download: `wget -P`, `curl
                // --output-dir`, `aria2c -d`.)
                let dirs: Vec<String> = download_dirs(c)
                    .iter()
                    .map(|d| format!("{}/{}", self.norm(d, c.cwd.as_deref()), url_name(c)))
                    .collect();
                if let Some(o) = outs
                    .iter()
                    .chain(&dirs)
                    .find(|o| paths::persistence_normalized(o))
                {
                    self.block(format!(
                        "persistence: downloaded or decoded text is written to {}, which runs code at login or when a program starts",
                        shown(o)
                    ));
                }
                // Into a config that tells a tool what to run: the
                // downloaded or decoded text is that command.
                const RUN_CONFIGS: &[&str] = &[
                    ".git/config",
                    ".gitconfig",
                    ".gitmodules",
                    ".git/hooks/",
                    ".husky/",
                    ".cargo/config",
                    ".npmrc",
                    ".pre-commit-config",
                    "devcontainer.json",
                    ".vscode/",
                    "makefile",
                    ".envrc",
                    ".github/workflows/",
                    "conftest.py",
                    "tox.ini",
                    "setup.cfg",
                    "package.json",
                ];
                if let Some(o) = outs.iter().find(|o| {
                    RUN_CONFIGS
                        .iter()
                        .any(|k| o.to_ascii_lowercase().contains(k))
                        || build_file(o)
                }) {
                    self.block(format!(
                        "download and execute ({} gets downloaded or decoded text, and it configures what a tool runs)",
                        shown(o)
                    ));
                }
                // Every address the download names is on a code forge (and
                // no bare `host/path` names another).
                let words = || c.argv.iter().skip(1).map(|w| w.text.as_str());
                let urls: Vec<&str> = words()
                    .filter_map(|t| t.split_once("://").map(|(_, r)| r))
                    .collect();
                let bare_host = words().any(|t| {
                    !t.starts_with(['-', '.', '/', '~'])
                        && !t.contains("://")
                        && t.split_once('/').is_some_and(|(h, _)| h.contains('.'))
                });
                let forge_only = !urls.is_empty()
                    && !bare_host
                    && urls.iter().all(|r| {
                        super::project_out::forge_host(&super::project_out::address_host(r))
                    });
                if forge_only {
                    self.forge_fetched.extend(outs.iter().cloned());
                } else {
                    // A later download over the same file is what it holds.
                    self.forge_fetched.retain(|f| !outs.contains(f));
                }
                self.tainted.extend(outs);
            }
            // `echo CODE | tee FILE`: tee writes what the pipe carries.
            if c.argv.first().is_some_and(|w| base_name(&w.text) == "tee")
                && let Some(text) = piped_text(c, script)
            {
                for w in c.argv.iter().skip(1).filter(|w| !w.text.starts_with('-')) {
                    let t = self.norm(w, c.cwd.as_deref());
                    self.written.push((t, text.clone()));
                }
            }
            // `install -m 755 /dev/stdin DEST <<EOF`, `… | cp /dev/stdin DEST`:
            // the input is what DEST holds.
            let prog = c.argv.first().map(|w| program_name(&w.text));
            if matches!(prog.as_deref(), Some("install" | "cp"))
                && c.argv.iter().any(|w| {
                    matches!(
                        w.text.as_str(),
                        "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0"
                    )
                })
                && let Some(text) = c
                    .redirects
                    .iter()
                    .find_map(|r| r.body.as_ref().map(|b| b.text.clone()))
                    .or_else(|| piped_text(c, script))
                && let Some(dest) = writes::last_operand(
                    &c.argv[1..]
                        .iter()
                        .map(|w| w.text.as_str())
                        .collect::<Vec<_>>(),
                )
                .and_then(|d| c.argv.iter().find(|w| w.text == d))
            {
                let t = self.norm(dest, c.cwd.as_deref());
                self.written.push((t, text));
            }
            // A function of the line's named `echo` prints what it likes.
            let shadowed = c
                .argv
                .first()
                .is_some_and(|w| script.functions.iter().any(|(n, _)| *n == w.text));
            if let Some(text) = crate::policy::shell::eval::printed(c).filter(|_| !shadowed) {
                let mut targets: Vec<String> = c
                    .redirects
                    .iter()
                    .filter(|r| r.writes_file())
                    .map(|r| self.norm(&r.target, c.cwd.as_deref()))
                    .collect();
                if c.argv.first().is_some_and(|w| base_name(&w.text) == "tee") {
                    targets.extend(
                        c.argv
                            .iter()
                            .skip(1)
                            .filter(|w| !w.text.starts_with('-'))
                            .map(|w| self.norm(w, c.cwd.as_deref())),
                    );
                }
                for t in targets {
                    self.written.push((t, text.clone()));
                }
            }
        }
    }

    /// Each command in order, with this script's listers and functions as
    /// they stand at it; the outer script's are restored after.
    fn judge_each(&mut self, src: &str, script: &Script, depth: usize) {
        let followed = functions::followed_bodies(src, script);
        let outer_listers = std::mem::replace(&mut self.listers, listers::project_listers(script));
        let outer_places =
            std::mem::replace(&mut self.place_listers, listers::place_listers(script));
        let outer_finders =
            std::mem::replace(&mut self.secret_finders, listers::secret_finders(script));
        // (Read only for what runs on another machine.)
        let machine = if self.remote {
            listers::machine_listers(script)
        } else {
            Vec::new()
        };
        let outer_machine = std::mem::replace(&mut self.machine_listers, machine);
        let outer_hidden = std::mem::take(&mut self.hidden_fns);
        let outer_bodies = std::mem::take(&mut self.bodies_now);
        for (i, c) in script.commands.iter().enumerate() {
            if self.settled() {
                return;
            }
            // A body judged at each of its calls, with their arguments, is
            // not judged again with arguments unknown.
            if followed.iter().any(|r| r.contains(&i)) {
                continue;
            }
            self.hidden_fns = functions::hidden_at(script, i);
            self.bodies_now = functions::bodies_at(script, i);
            let before = self.state_reads;
            let outer_cwd = self.cwd_now.clone();
            let opened = super::sqlite::opened_database(peeled(&c.argv))
                .map(|w| self.norm(&w, c.cwd.as_deref()));
            let outer_engine = std::mem::replace(&mut self.db_engine, opened);
            match choices::variants(c) {
                Some(variants) => {
                    for v in &variants {
                        self.cwd_now = v.cwd.clone().or_else(|| outer_cwd.clone());
                        self.command(v, script, depth);
                    }
                }
                None => {
                    self.cwd_now = c.cwd.clone().or_else(|| outer_cwd.clone());
                    self.command(c, script, depth);
                }
            }
            self.cwd_now = outer_cwd;
            self.db_engine = outer_engine;
            if self.state_reads > before {
                self.sensitive.push(std::ptr::from_ref(c) as usize);
            }
        }
        self.pipes(script);
        self.planted(script);
        self.listers = outer_listers;
        self.place_listers = outer_places;
        self.secret_finders = outer_finders;
        self.machine_listers = outer_machine;
        self.hidden_fns = outer_hidden;
        self.bodies_now = outer_bodies;
    }
}

/// How deep a line's brackets nest, and the most the analysis takes.
const MAX_NESTING: usize = 100;
/// The most commands one line may hold (each is judged against the others).
const MAX_COMMANDS: usize = 400;

fn nesting(src: &str) -> usize {
    let (mut depth, mut most) = (0usize, 0usize);
    for b in src.bytes() {
        match b {
            b'(' | b'{' | b'[' => {
                depth += 1;
                most = most.max(depth);
            }
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    most
}

/// `196<>f` as `9>f`, `<>` as `>`, ` =(` as ` <(`: the same effect for the
/// analysis (a read-write open writes), in words the grammar parses.
fn plain_redirects(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let starts_word = i == 0 || chars[i - 1].is_whitespace() || ";|&(".contains(chars[i - 1]);
        if c.is_ascii_digit() && starts_word {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            if j - i >= 2 && chars.get(j).is_some_and(|n| matches!(n, '<' | '>')) {
                out.push('9');
                i = j;
                continue;
            }
        }
        if c == '<' && chars.get(i + 1) == Some(&'>') {
            out.push('>');
            i += 2;
            continue;
        }
        if c == '=' && chars.get(i + 1) == Some(&'(') && starts_word {
            out.push('<');
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// `src` cut at the `;` and line ends outside quotes.
fn statements(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut chars = src.chars();
    while let Some(ch) = chars.next() {
        match (quote, ch) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (None, '\\') => {
                cur.push(ch);
                cur.extend(chars.next());
            }
            (None, '\'' | '"') => {
                quote = Some(ch);
                cur.push(ch);
            }
            (None, ';' | '\n') => {
                if !cur.trim().is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
            _ => cur.push(ch),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// A file a build or task tool reads as code when it runs with no option
/// naming another (`just`, `rake`, `bundle`, `gradle`, `cargo` with
/// `build.rs`, `pip install .` with `setup.py`): written from a download,
/// the next plain run of that tool runs the download.
fn build_file(path: &str) -> bool {
    const NAMES: &[&str] = &[
        "justfile",
        ".justfile",
        "rakefile",
        "rakefile.rb",
        "gemfile",
        "taskfile.yml",
        "taskfile.yaml",
        "noxfile.py",
        "tasks.py",
        "fabfile.py",
        "sconstruct",
        "build.gradle",
        "build.gradle.kts",
        "settings.gradle",
        "settings.gradle.kts",
        "pom.xml",
        "build.rs",
        "cargo.toml",
        "pyproject.toml",
        "setup.py",
        "composer.json",
        "cmakelists.txt",
        "meson.build",
        "vagrantfile",
        "deno.json",
        ".pnpmfile.cjs",
        ".yarnrc.yml",
        "pytest.ini",
    ];
    let name = base_name(path).to_ascii_lowercase();
    // `vite.config.ts`, `gulpfile.js`: JavaScript the tool imports.
    let js_config = [".config.js", ".config.ts", ".config.mjs", ".config.cjs"]
        .iter()
        .any(|e| name.ends_with(e))
        || ["gulpfile.", "gruntfile.", ".eslintrc.js", ".eslintrc.cjs"]
            .iter()
            .any(|p| name.starts_with(p));
    NAMES.contains(&name.as_str()) || js_config
}

/// The folder a download is told to save into, its file named by the
/// server: `wget -P DIR`, `-qP DIR`, `curl --output-dir DIR`, `aria2c -d DIR`.
pub(super) fn download_dirs(c: &Command) -> Vec<Word> {
    c.argv
        .windows(2)
        .filter(|w| {
            let t = w[0].text.as_str();
            matches!(
                t,
                "-P" | "--directory-prefix" | "--output-dir" | "-d" | "--dir"
            ) || letter_flags(t).is_some_and(|b| b.ends_with('P'))
        })
        .map(|w| w[1].clone())
        .chain(c.argv.iter().filter_map(|w| {
            let (k, v) = w.text.split_once('=')?;
            matches!(k, "--directory-prefix" | "--output-dir" | "--dir").then(|| Word {
                text: v.to_string(),
                ..w.clone()
            })
        }))
        .collect()
}

/// The name a download takes from its address (`…/EssentialsX.jar`), `x`
/// when none is spelled.
pub(super) fn url_name(c: &Command) -> String {
    c.argv
        .iter()
        .find_map(|w| {
            let (_, rest) = w.text.split_once("://")?;
            let path = rest.split(['?', '#']).next().unwrap_or(rest);
            let name = path.trim_end_matches('/').rsplit('/').next()?;
            (path.contains('/') && !name.is_empty()).then(|| name.to_string())
        })
        .unwrap_or_else(|| "x".to_string())
}

/// What the stage before `c` prints into its input, when it is a fixed
/// text (`echo CODE | tee FILE`).
fn piped_text(c: &Command, script: &Script) -> Option<String> {
    let p = script.commands.get(c.stdin_from?)?;
    crate::policy::shell::eval::printed(&Command {
        argv: peeled(&p.argv).to_vec(),
        ..p.clone()
    })
}

/// The folder `git clone` (or `gh repo clone`) fills from another machine:
/// the one named, or the repository's own name.
pub(super) fn cloned_into(argv: &[Word]) -> Option<Word> {
    let first = argv.first()?;
    let b = lower(&base_name(&first.text));
    // `kaggle kernels pull X -p DIR`, `huggingface-cli download R --local-dir DIR`.
    if matches!(b.as_str(), "kaggle" | "huggingface-cli" | "hf") {
        let pulls = argv
            .iter()
            .any(|w| matches!(w.text.as_str(), "pull" | "download"));
        let dir = argv.windows(2).find_map(|w| {
            matches!(w[0].text.as_str(), "-p" | "--path" | "--local-dir").then(|| w[1].clone())
        });
        return dir.filter(|_| pulls);
    }
    // `ansible-galaxy role install SRC -p DIR`: the role's tasks and
    // plugins came from SRC.
    if b == "ansible-galaxy"
        && argv.iter().any(|w| w.text == "install")
        && argv
            .iter()
            .any(|w| w.text.contains("://") || w.text.starts_with("git+"))
    {
        return argv.windows(2).find_map(|w| {
            matches!(
                w[0].text.as_str(),
                "-p" | "--roles-path" | "--collections-path"
            )
            .then(|| w[1].clone())
        });
    }
    // (`git submodule add URL [DIR]`, `hg clone`, `svn checkout`: the
    // same, a repository's files from elsewhere.)
    let at = match b.as_str() {
        "git" => argv.iter().position(|w| w.text == "clone").or_else(|| {
            let sub = argv.iter().position(|w| w.text == "submodule")?;
            argv.get(sub + 1)
                .filter(|w| w.text == "add")
                .map(|_| sub + 1)
        })?,
        "hg" => argv.iter().position(|w| w.text == "clone")?,
        "svn" => argv
            .iter()
            .position(|w| matches!(w.text.as_str(), "checkout" | "co" | "export"))?,
        "gh" | "glab" => {
            argv.get(1).filter(|w| w.text == "repo")?;
            argv.get(2).filter(|w| w.text == "clone")?;
            2
        }
        _ => return None,
    };
    // Options that take the next word as their value.
    const VALUED: &[&str] = &[
        "--depth",
        "-b",
        "--branch",
        "-o",
        "--origin",
        "-c",
        "--config",
        "--reference",
        "--separate-git-dir",
        "-j",
        "--jobs",
        "--filter",
        "-u",
        "--upload-pack",
        "--template",
        "--shallow-since",
        "--shallow-exclude",
        "--name",
        "-r",
        "--rev",
        "--updaterev",
        "-e",
        "--ssh",
        "--username",
        "--password",
    ];
    let mut operands: Vec<&Word> = Vec::new();
    let mut i = at + 1;
    while let Some(w) = argv.get(i) {
        if w.text == "--" {
            operands.extend(argv[i + 1..].iter());
            break;
        }
        if w.text.starts_with('-') {
            i += if VALUED.contains(&w.text.as_str()) {
                2
            } else {
                1
            };
            continue;
        }
        operands.push(w);
        i += 1;
    }
    let repo = operands.first()?;
    let remote = b != "git"
        || repo.text.contains("://")
        || repo
            .text
            .split_once(':')
            .is_some_and(|(h, _)| !h.contains('/') && h.contains('@'));
    if !remote {
        return None;
    }
    if let Some(dir) = operands.get(1) {
        return Some((*dir).clone());
    }
    let name = repo.text.trim_end_matches('/').rsplit(['/', ':']).next()?;
    let name = name.strip_suffix(".git").unwrap_or(name);
    (!name.is_empty()).then(|| Word::lit(name))
}
