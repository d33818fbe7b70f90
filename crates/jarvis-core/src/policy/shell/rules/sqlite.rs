//! Database clients (sqlite3, psql, mysql): the statements they run against
//! which database (Jarvis's own among them), their dot- and backslash
//! commands, and the escapes SQL has to files and programs.

use super::*;

impl Analyzer<'_> {
    /// What a database client's statements reach beyond the database:
    /// `\! cmd` (psql, mysql) and mysql's `system cmd` run a shell command;
    /// a quoted path (`LOAD DATA LOCAL INFILE '…'`, `load_file('…')`,
    /// `pg_read_file('…')`, `\copy … from '…'`, `readfile('…')`) is a
    /// file the client or the server reads, and may send away.
    fn sql_escapes(&mut self, c: &Cmd<'_>) {
        let mysql = matches!(c.lb.as_str(), "mysql" | "mariadb");
        // The statements on the line and those fed on its input.
        let (fed, _) = self.statements(c);
        let texts: Vec<Word> = c
            .words
            .iter()
            .skip(1)
            .cloned()
            .chain([Word::lit(fed)])
            .collect();
        for w in &texts {
            for stmt in w.text.split([';', '\n']) {
                let t = stmt.trim();
                let l = lower(t);
                // `\! cmd`; mysql's `system cmd` (any case); psql's `\o |cmd`
                // and `\g |cmd` pipe results into a command.
                let shell = t
                    .strip_prefix("\\!")
                    .or_else(|| {
                        (mysql && l.starts_with("system "))
                            .then(|| t.get(7..))
                            .flatten()
                    })
                    .or_else(|| {
                        ["\\o", "\\g", "\\gx", "\\out", "\\w", "\\write"]
                            .iter()
                            .find_map(|m| {
                                t.strip_prefix(m)
                                    .map(str::trim_start)
                                    .and_then(|r| r.strip_prefix('|'))
                            })
                    });
                if let Some(cmd) = shell {
                    self.script(cmd.trim(), &[], c.depth + 1);
                    self.ask(format!("{} runs a shell command", c.base));
                }
                // psql's meta-commands that write a client-side file (`\o F`,
                // `\w F`, `\g F`, `\lo_export OID F`) or read one into the
                // database (`\lo_import F`).
                let words: Vec<&str> = t.split_whitespace().collect();
                let file = |at: usize| {
                    words
                        .get(at)
                        .map(|f| super::script_opts::expanded(f.trim_matches(['\'', '"'])))
                        .filter(|f| !f.text.starts_with('|'))
                };
                match words.first().copied() {
                    Some("\\o" | "\\out" | "\\w" | "\\write" | "\\g" | "\\gx") => {
                        if let Some(f) = file(1) {
                            self.write_path(&f, c.cwd(), &c.base);
                        }
                    }
                    Some("\\lo_export") => {
                        if let Some(f) = file(2) {
                            self.write_path(&f, c.cwd(), &c.base);
                        }
                    }
                    // `\getenv VAR NAME`: a secret put where statements
                    // send it.
                    Some("\\getenv") => {
                        if let Some(name) = words.get(2)
                            && super::effects::secret_var(name)
                        {
                            self.block(format!(
                                "{} reads the secret variable {name} into its statements (\\getenv)",
                                c.base
                            ));
                        }
                    }
                    Some("\\lo_import") => {
                        if let Some(f) = file(1) {
                            self.read_path(&f, c.cwd());
                            self.ask(format!("{} copies a file into the database", c.base));
                        }
                    }
                    _ => {}
                }
                // `COPY … FROM PROGRAM '…'` / `\copy … to program '…'`.
                if let Some(at) = l.find("program ")
                    && let Some(cmd) = super::code::string_literals(t.get(at..).unwrap_or(""))
                        .into_iter()
                        .next()
                {
                    self.script(&cmd, &[], c.depth + 1);
                    self.ask(format!("{} runs a program from SQL", c.base));
                }
            }
            for lit in super::code::string_literals(&w.text) {
                if lit.contains('/') || lit.starts_with('~') {
                    self.read_path(&Word::lit(&lit), c.cwd());
                }
            }
        }
    }

    /// A database client's statements, from its arguments and its
    /// standard input (a here-document or here-string, text a command
    /// prints into the pipe), and whether some come from where this line
    /// cannot see (a file, a program's output).
    pub(super) fn statements(&self, c: &Cmd<'_>) -> (String, bool) {
        let mut raw = c.args.join(" ");
        let mut unseen = false;
        for r in &c.src.redirects {
            match (r.op.as_str(), &r.body) {
                ("<<<" | "<<" | "<<-", Some(body)) => {
                    unseen |= body.dynamic;
                    raw.push(' ');
                    raw.push_str(&body.text);
                }
                ("<", _) => unseen = true,
                _ => {}
            }
        }
        if let Some(p) = c.src.stdin_from.and_then(|i| c.script.commands.get(i)) {
            match super::super::eval::printed(p) {
                Some(text) => {
                    raw.push(' ');
                    raw.push_str(&text);
                }
                None => unseen = true,
            }
        }
        (raw, unseen)
    }

    /// Database shells: reading is asked, changing Jarvis's database is not.
    pub(super) fn database(&mut self, c: &Cmd<'_>) -> bool {
        // SQL comes from the arguments, and from standard input: a here-
        // document or here-string, text a command prints into the pipe,
        // or a file (`< dump.sql`) whose statements this line cannot see.
        let (raw, unseen) = self.statements(c);
        // Statements a download or a decoder spells run as given, and they
        // can run programs (`psql -c "$(echo … | base64 -d)"`).
        for w in &c.words[1..] {
            if let Some(why) = self.fed_by(w, c.script) {
                self.block(format!(
                    "{why} ({} runs statements built from it, and statements can run programs)",
                    c.base
                ));
            }
        }
        // ASCII case only, so positions in `sql` are positions in `raw`.
        let sql = raw.to_ascii_lowercase();
        let mutating = [
            "drop ",
            "delete ",
            "update ",
            "insert ",
            "alter ",
            "create ",
            "replace ",
            "vacuum",
            "attach",
            ".restore",
            ".import",
            "truncate",
            "pragma writable_schema",
            ".shell",
            ".system",
            "load_extension",
            ".load",
            "writefile(",
            ".output",
            ".once",
        ]
        .iter()
        .any(|k| sql.contains(k));
        // The database named as an operand, or inside the SQL (`ATTACH
        // '/home/u/.jarvis/jarvis.db' AS a`).
        let words = uri_paths(&c.words[1..]);
        let on_state = words.iter().any(|w| {
            // A database named at run time by a command that looks in
            // Jarvis's folder (`db=$(ls ~/.jarvis/*.db | head -1)`).
            w.dynamic && super::effects::in_word_or_subs(w, c.script, |x| self.mentions_self(x))
                || !w.dynamic
                    && (self.app_state(&self.norm(w, c.cwd()))
                        || quoted_strings(&w.text)
                            .iter()
                            .any(|q| self.app_state(&self.norm_text(q, c.cwd()))))
        });
        if mutating && on_state {
            self.block("changes Jarvis's own database");
        }
        // Statements this line cannot read, against Jarvis's database, may
        // change it: only a read-only open is a read.
        if unseen && on_state && !c.args.iter().any(|a| a == "-readonly") {
            self.block("feeds Jarvis's own database statements this line does not show (it may change them)");
        }
        // The grants live in Jarvis's database beside the conversations:
        // reading them is reading its approvals (the conversations ask).
        // `.dump` with no table, or of the grants, prints them too.
        // `.dump` takes LIKE patterns (`.dump gr%`); a copy of the whole
        // file (`.clone`, `.backup`, `.recover`, raw pages) holds them too.
        let dumps_grants = sql.split(".dump").skip(1).any(|rest| {
            let table = rest.split_whitespace().next().unwrap_or("");
            table.is_empty()
                || table.starts_with('-')
                || like_match(table.trim_matches(['\'', '"']), "grants")
        }) || [
            ".clone",
            ".backup",
            ".save",
            ".recover",
            "sqlite_dbpage",
            ".archive",
        ]
        .iter()
        .any(|k| sql.contains(k));
        if on_state && (mentions_word(&sql, "grants") || dumps_grants) {
            self.block("reads Jarvis's grants (its approvals) from its database");
        }
        if sql.contains(".shell")
            || sql.contains(".system")
            || sql.contains("load_extension")
            || sql.contains(".load ")
        {
            if let Some(pos) = sql.find(".shell").or_else(|| sql.find(".system")) {
                let rest = raw.get(pos..).unwrap_or("");
                let cmd = rest.split_once(' ').map(|(_, r)| r).unwrap_or("");
                self.script(cmd.trim_matches(['\'', '"']), &[], c.depth + 1);
            }
            self.ask(format!("{} runs a program", c.base));
        }
        // The shell's `edit(TEXT, EDITOR)` runs EDITOR as a command line
        // (`select edit('x', 'rm -rf ~;')`).
        if let Some(pos) = sql.find("edit(") {
            let args = raw.get(pos + 5..).unwrap_or("");
            let second = args
                .split_once(',')
                .map(|(_, r)| r.trim_start())
                .and_then(|r| {
                    let q = r.chars().next().filter(|q| matches!(q, '\'' | '"'))?;
                    r[1..].split(q).next()
                });
            if let Some(editor) = second {
                self.script(editor, &[], c.depth + 1);
                self.ask(format!("{} edit() runs a program", c.base));
            }
        }
        // DuckDB's native extensions: one installed from a location, or
        // any loaded with signature checks off, is code from there.
        if c.lb == "duckdb" {
            let unsigned = c.args.iter().any(|a| a == "-unsigned")
                || sql.contains("allow_unsigned_extensions");
            let from_location = sql.contains("install")
                && sql.split("install").skip(1).any(|r| {
                    let r = r.split(';').next().unwrap_or("");
                    r.contains(" from ") && (r.contains("http") || r.contains("s3://"))
                        || r.contains("'http")
                        || r.contains("'/")
                        || r.contains("'.")
                });
            let loads_file = sql.contains("load '") || sql.contains("load \"");
            if from_location
                || unsigned && (sql.contains("load") || sql.contains("install"))
                || loads_file && unsigned
            {
                self.block("download and execute (duckdb installs or loads a native extension from elsewhere)");
            }
        }
        // `.once '|cmd'`, `.output |cmd`: what the statements after it print
        // goes to cmd's input, as `sqlite3 DB 'SQL' | cmd` would.
        for (pos, _) in sql
            .match_indices(".once")
            .chain(sql.match_indices(".output"))
        {
            // The target: quoted, or up to the next blank.
            let name_end = raw[pos..]
                .find(char::is_whitespace)
                .map_or(raw.len(), |e| pos + e);
            let after = &raw[name_end..];
            let lead = after.len() - after.trim_start().len();
            let start = name_end + lead;
            let (target, end) = match raw[start..].chars().next() {
                Some(q @ ('\'' | '"')) => {
                    let close = raw[start + 1..]
                        .find(q)
                        .map_or(raw.len(), |e| start + 1 + e);
                    (&raw[start + 1..close], (close + 1).min(raw.len()))
                }
                _ => {
                    let e = raw[start..]
                        .find(char::is_whitespace)
                        .map_or(raw.len(), |e| start + e);
                    (&raw[start..e], e)
                }
            };
            if let Some(cmd) = target.strip_prefix('|') {
                let db = c
                    .operand_words()
                    .first()
                    .map(|w| w.text.clone())
                    .unwrap_or_default();
                // The statements it sends: the rest, the directive taken out.
                let rest = format!("{} {}", &raw[..pos], &raw[end..]);
                let line = format!(
                    "sqlite3 {} {} | {cmd}",
                    crate::policy::shell::quote(&db),
                    crate::policy::shell::quote(rest.trim())
                );
                self.block_only(|a| a.script(&line, &[], c.depth + 1));
                self.ask(format!("{} pipes its output to a command", c.base));
            }
        }
        self.sql_escapes(c);
        self.client_shell(c, &raw);
        if c.lb == "redis-cli" {
            self.redis_files(&raw, c.cwd());
            // `--rdb FILE`: the server's dump written here.
            for f in super::script_opts::values(c, &["--rdb"]) {
                self.write_path(&f, c.cwd(), "redis-cli --rdb");
            }
        }
        // A URI filename names its database's path (`file:PATH?mode=ro`).
        for (w, at) in c.words[1..].iter().zip(&words) {
            if w.text.starts_with("file:") {
                self.read_path(at, c.cwd());
            }
        }
        // A browser's stores by name, outside the project (a fixture of the
        // project's own is the project's; a statement naming a `cookies`
        // table is no file).
        let browser_store = words.iter().find(|w| {
            let l = lower(&w.text);
            let named = [
                "cookies",
                "login data",
                "key4.db",
                "logins.json",
                "web data",
            ]
            .iter()
            .any(|k| l.contains(k));
            let file_like = !l.contains(char::is_whitespace) || l.contains('/');
            named && file_like && (w.dynamic || !self.inside(&self.norm(w, c.cwd())))
        });
        if let Some(w) = browser_store {
            self.block(format!("reads browser secrets ({})", shown(&w.text)));
        }
        if self.sqlite_read_only(c, mutating) {
            return true;
        }
        self.ask(format!("{} can change databases", c.base));
        false
    }

    /// psql's and mysql's backslash commands that run a program: `\!
    /// CMD`, and `\o |CMD` / `\g |CMD` (the results piped into it). Query
    /// results naming secrets (`SELECT token FROM api_tokens`) piped to a
    /// program that sends them are secrets sent away.
    fn client_shell(&mut self, c: &Cmd<'_>, raw: &str) {
        if !matches!(c.lb.as_str(), "psql" | "mysql" | "mariadb") {
            return;
        }
        // Each argument, and each line of the statements the input carries
        // (a here-document, text printed into the pipe).
        let lines: Vec<String> = c
            .args
            .iter()
            .cloned()
            .chain(raw.lines().map(str::to_string))
            .collect();
        for a in &lines {
            // `\!` runs the rest of its line; `\o |CMD`, `\g |CMD` pipe
            // the results into CMD: wherever they stand in the line.
            let code = a.find("\\!").map(|at| &a[at + 2..]).or_else(|| {
                ["\\o", "\\g"].iter().find_map(|m| {
                    a.find(m)
                        .map(|at| a[at + 2..].trim_start_matches('x').trim_start())
                        .and_then(|r| r.strip_prefix('|'))
                })
            });
            let Some(code) = code else { continue };
            self.script(code.trim(), &[], c.depth + 1);
            let sender = code
                .split_whitespace()
                .next()
                .map(program_name)
                .is_some_and(|p| {
                    tables::FETCHERS.contains(&p.as_str())
                        || matches!(p.as_str(), "nc" | "ncat" | "netcat" | "socat")
                });
            if sender && super::pipe_sources::harvests_secrets(&c.words) {
                self.block(format!(
                    "exfiltration ({} sends query results naming secrets through {})",
                    c.base,
                    code.trim()
                ));
            }
            self.ask(format!("{} runs a program", c.base));
        }
    }

    /// Redis commands that reach this machine's files: `CONFIG SET dir` and
    /// `dbfilename` choose where the next `SAVE` writes (a crontab, an
    /// `authorized_keys`), `MODULE LOAD` runs a native library.
    fn redis_files(&mut self, text: &str, cwd: Option<&str>) {
        let words: Vec<&str> = text
            .split_whitespace()
            .map(|w| w.trim_matches(['\'', '"']))
            .collect();
        let lower_words: Vec<String> = words.iter().map(|w| lower(w)).collect();
        let value = |key: &str| {
            lower_words
                .windows(4)
                .position(|w| w[0] == "config" && w[1] == "set" && w[2] == key)
                .and_then(|i| words.get(i + 3).map(|v| v.to_string()))
        };
        let dir = value("dir");
        let file = value("dbfilename");
        if dir.is_some() || file.is_some() {
            let target = match (&dir, &file) {
                (Some(d), Some(f)) => format!("{}/{f}", d.trim_end_matches('/')),
                (Some(d), None) => format!("{}/dump.rdb", d.trim_end_matches('/')),
                (None, Some(f)) => f.clone(),
                (None, None) => String::new(),
            };
            self.write_path(&Word::lit(target), cwd, "redis's SAVE");
        }
        for i in lower_words
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w[0] == "module" && matches!(w[1].as_str(), "load" | "loadex"))
            .map(|(i, _)| i)
        {
            if let Some(lib) = words.get(i + 2) {
                self.loaded_here(&Word::lit(*lib), cwd, "redis");
            }
            self.ask("redis loads a native module (code it runs)");
        }
    }

    /// `sqlite3 -readonly FILE 'SELECT …'` / `'.tables'`: the file opened
    /// read-only, queries and listings only, one statement.
    fn sqlite_read_only(&mut self, c: &Cmd<'_>, mutating: bool) -> bool {
        const OPTIONS: &[&str] = &[
            "-readonly",
            "-header",
            "-noheader",
            "-column",
            "-json",
            "-csv",
            "-line",
            "-list",
            "-box",
            "-markdown",
            "-table",
            "-batch",
            "-bail",
        ];
        const LISTINGS: &[&str] = &[".tables", ".schema", ".indexes", ".indices", ".dbinfo"];
        if !matches!(c.lb.as_str(), "sqlite3" | "sqlite")
            || !c.args.iter().any(|a| a == "-readonly")
            || mutating
        {
            return false;
        }
        let (opts, rest): (Vec<&String>, Vec<&String>) =
            c.args.iter().partition(|a| a.starts_with('-'));
        // Display settings a script of statements may carry between them.
        const DISPLAY: &[&str] = &[
            ".mode",
            ".headers",
            ".header",
            ".width",
            ".nullvalue",
            ".separator",
            ".timer",
        ];
        if !opts.iter().all(|o| OPTIONS.contains(&o.as_str())) || c.words.iter().any(|w| w.dynamic)
        {
            return false;
        }
        // Pragmas that report on the file; one with `=` sets.
        const REPORTS: &[&str] = &[
            "table_info",
            "table_list",
            "index_list",
            "index_info",
            "foreign_key_list",
            "database_list",
            "integrity_check",
            "quick_check",
            "page_count",
            "page_size",
            "freelist_count",
            "encoding",
            "compile_options",
            "user_version",
        ];
        let is_query = |sql: &str| {
            let pragma = sql.strip_prefix("pragma ").is_some_and(|p| {
                !p.contains('=') && REPORTS.iter().any(|r| p.trim_start().starts_with(r))
            });
            (sql.starts_with("select ")
                || sql.starts_with("with ")
                || pragma
                || sql.starts_with("explain "))
                && !sql.contains("readfile")
                && !sql.contains("fts3_tokenizer")
        };
        let is_listing = |sql: &str| {
            LISTINGS
                .iter()
                .any(|l| sql == *l || sql.starts_with(&format!("{l} ")))
        };
        match rest.len() {
            2 => {
                // One query, or reporting pragmas one after another.
                let sql = lower(rest[1].trim().trim_end_matches(';'));
                let pragmas = sql.contains(';')
                    && sql
                        .split(';')
                        .all(|st| st.trim().starts_with("pragma ") && is_query(st.trim()));
                if !((is_query(&sql) && !sql.contains(';')) || pragmas || is_listing(&sql)) {
                    return false;
                }
            }
            // `sqlite3 -readonly db <<'SQL' … SQL`: every line a listing or
            // a display setting, every statement a query.
            1 => {
                let bodies: Vec<&Word> = c
                    .src
                    .redirects
                    .iter()
                    .filter_map(|r| r.body.as_ref())
                    .collect();
                let [body] = bodies.as_slice() else {
                    return false;
                };
                if body.dynamic {
                    return false;
                }
                let text = lower(&body.text);
                let mut statements = String::new();
                for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    if line.starts_with('.') {
                        let word = line.split_whitespace().next().unwrap_or("");
                        if !(is_listing(line) || DISPLAY.contains(&word)) {
                            return false;
                        }
                    } else {
                        statements.push_str(line);
                        statements.push(' ');
                    }
                }
                if !statements
                    .split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .all(is_query)
                {
                    return false;
                }
            }
            _ => return false,
        }
        let db = c.words.iter().skip(1).position(|w| w.text == *rest[0]);
        let words = uri_paths(&c.words[1..]);
        db.and_then(|i| words.get(i))
            .is_some_and(|w| self.read_path(w, c.cwd()))
    }
}

/// The text of each '…' or "…" inside a word (SQL, a script).
fn quoted_strings(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for q in ['\'', '"'] {
        let parts: Vec<&str> = text.split(q).collect();
        out.extend(parts.iter().skip(1).step_by(2).map(|s| s.to_string()));
    }
    out
}

/// `word` as a name of its own in the text (`from grants;`, not `grantsmith`).
fn mentions_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        edge(text[..i].chars().next_back()) && edge(text[i + word.len()..].chars().next())
    })
}

/// The words with each SQLite URI filename (`file:PATH?mode=ro`,
/// `file://localhost/PATH`, `%2F` escapes) replaced by the path it opens.
fn uri_paths(words: &[Word]) -> Vec<Word> {
    words
        .iter()
        .map(|w| match w.text.strip_prefix("file:") {
            Some(rest) => {
                let rest = rest.split(['?', '#']).next().unwrap_or("");
                let rest = match rest.strip_prefix("//") {
                    Some(auth) => auth.find('/').map_or("", |i| &auth[i..]),
                    None => rest,
                };
                Word {
                    text: percent_decoded(rest),
                    ..w.clone()
                }
            }
            None => w.clone(),
        })
        .collect()
}

/// `%HH` escapes decoded (an invalid one is kept as written).
pub(super) fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (ch, _) => {
                out.push(ch);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// SQL's LIKE: `%` any run, `_` any one character, case-insensitive.
fn like_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.to_ascii_lowercase().chars().collect();
    let n: Vec<char> = name.to_ascii_lowercase().chars().collect();
    fn go(p: &[char], n: &[char]) -> bool {
        match p.split_first() {
            None => n.is_empty(),
            Some(('%', rest)) => (0..=n.len()).any(|k| go(rest, &n[k..])),
            Some((c, rest)) => n.first().is_some_and(|f| *c == '_' || c == f) && go(rest, &n[1..]),
        }
    }
    go(&p, &n)
}

/// The database `sqlite3 [OPTIONS] FILE [SQL…]` opens, its URI decoded.
pub(super) fn opened_database(argv: &[Word]) -> Option<Word> {
    let first = argv.first()?;
    if !matches!(program_name(&first.text).as_str(), "sqlite3" | "sqlite") {
        return None;
    }
    let mut i = 1;
    while let Some(w) = argv.get(i) {
        let t = w.text.as_str();
        if !t.starts_with('-') {
            return uri_paths(std::slice::from_ref(w)).pop();
        }
        // Options that take a value.
        let valued = matches!(
            t.trim_start_matches('-'),
            "cmd"
                | "separator"
                | "newline"
                | "nullvalue"
                | "init"
                | "vfs"
                | "mmap"
                | "lookaside"
                | "maxsize"
                | "pagecache"
                | "heap"
                | "escape"
                | "A"
        );
        i += if valued { 2 } else { 1 };
    }
    None
}
