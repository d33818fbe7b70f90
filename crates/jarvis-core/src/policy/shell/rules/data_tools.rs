//! Data wrangling tools used to look at tables: csvkit, xsv/qsv, Miller,
//! DuckDB's and ClickHouse's local engines with a query that only selects,
//! gnuplot drawing on the terminal, units. Each is read-only only in the
//! forms named here; the files they read are checked like any read.

use super::*;

/// xsv's and qsv's commands that print what they compute from their input
/// (`index`, `split`, `schema` write files; `fetch`, `geocode` go out;
/// `luau`, `python` run code).
const XSV_READERS: &[&str] = &[
    "stats",
    "select",
    "search",
    "searchset",
    "frequency",
    "count",
    "headers",
    "table",
    "slice",
    "sort",
    "sample",
    "cat",
    "join",
    "flatten",
    "fmt",
    "fixlengths",
    "reverse",
    "sniff",
    "dedup",
    "exclude",
    "transpose",
    "behead",
    "enum",
    "explode",
    "rename",
    "replace",
];

/// csvkit's tools that print a table from their input.
const CSVKIT_READERS: &[&str] = &[
    "csvcut",
    "csvlook",
    "csvstat",
    "csvgrep",
    "csvsort",
    "csvjson",
    "csvformat",
    "csvjoin",
    "csvstack",
    "in2csv",
];

/// Statements that only read, first word (lower case).
const READING_STATEMENTS: &[&str] = &[
    "select",
    "with",
    "summarize",
    "describe",
    "show",
    "explain",
    "from",
    "values",
    "table",
];

/// The files a data tool reads when it only reads; `None` otherwise.
pub(super) fn data_reads(c: &Cmd<'_>) -> Option<Vec<Word>> {
    let a: Vec<&str> = c.args.iter().map(String::as_str).collect();
    let lb = c.lb.as_str();
    // Output named on the line is a write (`-o F`, `-oF`, `--dupes-output
    // F`, `-D F`, `--write-sheets`).
    let writes = a.iter().any(|x| {
        let l = x.to_ascii_lowercase();
        matches!(*x, "-I" | "--in-place" | "-D")
            || x.starts_with("-o") && !x.starts_with("--")
            || l.starts_with("--") && (l.contains("output") || l.contains("write"))
    });
    if writes {
        return None;
    }
    match (lb, a.as_slice()) {
        // (qsv's `stats` keeps a cache beside the file; `sniff` takes URLs.)
        ("xsv" | "qsv", [sub, ..])
            if XSV_READERS.contains(sub)
                && !(lb == "qsv" && *sub == "stats")
                && !a.iter().any(|x| x.contains("://")) =>
        {
            Some(files_after(c, 2))
        }
        ("xsv" | "qsv" | "mlr", ["help" | "--help" | "-h" | "--version" | "version", ..]) => {
            Some(vec![])
        }
        (lb, _) if CSVKIT_READERS.contains(&lb) => Some(files_after(c, 1)),
        // An in-memory database over the files named (`--db` or
        // `--insert` write one).
        ("csvsql", _)
            if !a.iter().any(|x| {
                x.starts_with("--db")
                    || *x == "--insert"
                    || x.starts_with("--before-insert")
                    || x.starts_with("--after-insert")
            }) && a.iter().filter(|x| x.starts_with("--query")).count() == 1 =>
        {
            let q = super::script_opts::first_value(c, &["--query"]).map(|w| w.text)?;
            only_reads_sql(&q)?;
            Some(files_after(c, 1))
        }
        ("mlr", _) => miller_reads(c),
        ("duckdb", _) => duckdb_reads(c),
        ("gnuplot", _) => gnuplot_draws(c),
        ("units", _) => a
            .iter()
            .all(|x| {
                !x.starts_with('-')
                    || matches!(
                        *x,
                        "-t" | "--terse"
                            | "-v"
                            | "--verbose"
                            | "-q"
                            | "--quiet"
                            | "-1"
                            | "--one-line"
                            | "-s"
                            | "--strict"
                    )
            })
            .then(Vec::new),
        _ => None,
    }
}

/// The operands from the `skip`th word on that are not options, nor the
/// values of options (`-c region`, `-s status`): files, when they look
/// like one.
fn files_after(c: &Cmd<'_>, skip: usize) -> Vec<Word> {
    let mut out = Vec::new();
    let mut prev_opt = false;
    for w in c.words.iter().skip(skip) {
        let t = w.text.as_str();
        if t.starts_with('-') {
            prev_opt = !t.contains('=');
            continue;
        }
        if !prev_opt || t.contains('/') || has_data_extension(t) {
            out.push(w.clone());
        }
        prev_opt = false;
    }
    out
}

fn has_data_extension(t: &str) -> bool {
    let l = t.to_ascii_lowercase();
    [
        ".csv", ".tsv", ".json", ".jsonl", ".ndjson", ".xlsx", ".xls", ".parquet", ".txt", ".dat",
        ".psv", ".ssv",
    ]
    .iter()
    .any(|e| l.ends_with(e))
}

/// `duckdb [-readonly DB] -c SQL`: one query, output formats only; the
/// database file, if any, opened read-only. (Every `-c` runs, in order;
/// a dot command can run a shell or redirect output.)
fn duckdb_reads(c: &Cmd<'_>) -> Option<Vec<Word>> {
    let mut sql: Option<String> = None;
    let mut db: Option<Word> = None;
    let mut readonly = false;
    let mut i = 1;
    while let Some(w) = c.words.get(i) {
        match w.text.as_str() {
            "-c" if sql.is_none() => {
                sql = Some(c.words.get(i + 1)?.text.clone());
                i += 1;
            }
            "-readonly" => readonly = true,
            "-json" | "-csv" | "-markdown" | "-box" | "-line" | "-list" | "-table"
            | "-noheader" | "-header" => {}
            t if !t.starts_with('-') && db.is_none() => db = Some(w.clone()),
            _ => return None,
        }
        i += 1;
    }
    let sql = sql?;
    if sql.trim_start().starts_with('.') {
        return None;
    }
    let mut files = only_reads_sql(&sql)?;
    if let Some(db) = db {
        if !readonly {
            return None;
        }
        files.push(db);
    }
    Some(files)
}

/// SQL whose every statement only reads; the files it names in strings
/// (`read_parquet('data/*.parquet')`, `file('logs/a.tsv', TSV)`), to be
/// checked as reads. `None` for anything that writes, attaches, installs,
/// loads, sets or reaches a URL.
fn only_reads_sql(sql: &str) -> Option<Vec<Word>> {
    // `remote (…)`: a call whatever the blanks before its bracket.
    let lower = sql.to_ascii_lowercase();
    let mut l = String::with_capacity(lower.len());
    for (i, ch) in lower.char_indices() {
        // (One pass: a blank followed, after more blanks, by a bracket.)
        if ch.is_whitespace() && lower[i..].trim_start().starts_with('(') {
            continue;
        }
        l.push(ch);
    }
    // Comments outside the strings shift where a string starts.
    let bare: String = l.split('\'').step_by(2).collect();
    if bare.contains("/*") || bare.contains("--") {
        return None;
    }
    // Text built at run time names what cannot be read here.
    if [
        "||",
        "chr(",
        "char(",
        "concat",
        "format(",
        "printf(",
        "getvariable(",
        "$$",
        "reverse(",
        "base64",
        "unhex(",
        "hex(",
        "trim(",
        "lower(",
        "upper(",
        "replace(",
        "substr",
        "regexp",
        "translate(",
        "repeat(",
        "lpad(",
        "rpad(",
        "string_agg",
        "list_",
        "array_to_string",
        "e'",
        "u&'",
        "x'",
    ]
    .iter()
    .any(|k| l.contains(k))
    {
        return None;
    }
    // Statements and functions, as whole words.
    const WRITES: &[&str] = &[
        "copy",
        "attach",
        "install",
        "load",
        "export",
        "import",
        "insert",
        "update",
        "delete",
        "create",
        "drop",
        "alter",
        "set",
        "call",
        "pragma",
        "checkpoint",
        "vacuum",
        "into",
        "system",
        "shell",
        "getenv",
        "secret",
    ];
    // Places elsewhere, anywhere in the text.
    // (DuckDB installs the extensions behind some readers on first use.)
    const REACHES: &[&str] = &[
        "http",
        "s3://",
        "gcs://",
        "gs://",
        "r2://",
        "azure",
        "url(",
        "remote(",
        "remotesecure(",
        "cluster(",
        "clusterallreplicas(",
        "executable(",
        "hdfs",
        "mysql(",
        "mysql_",
        "postgresql(",
        "postgres_",
        "sqlite_",
        "redis(",
        "mongodb(",
        "jdbc(",
        "odbc(",
        "s3(",
        "s3cluster(",
        "gcs(",
        "iceberg",
        "delta",
        "hudi",
        "input(",
        "read_xlsx",
        "st_read",
        "excel",
        "spatial",
        "httpfs",
        "fuzzall(",
        "generaterandom(",
        "secret",
        "tpch",
        "tpcds",
        "xlsx",
        "arrowflight",
        "ytsaurus",
        "paimon",
    ];
    let words: Vec<&str> = l
        .split(|ch: char| {
            !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '(' || ch == ':' || ch == '/')
        })
        .collect();
    let forbidden = REACHES.iter().any(|k| l.contains(k))
        || WRITES.iter().any(|k| {
            words
                .iter()
                .any(|w| w == k || w.trim_end_matches('(') == *k)
        });
    if forbidden {
        return None;
    }
    let statements_read = l
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .all(|s| {
            let first = s.split_whitespace().next().unwrap_or("");
            READING_STATEMENTS.contains(&first)
        });
    if !statements_read {
        return None;
    }
    // (DuckDB's and ClickHouse's globs match dot-files too: `*env` reaches
    // `.env`, read as `.*env` would be.)
    Some(
        super::code::string_literals(sql)
            .into_iter()
            .filter(|s| s.contains(['/', '.']) || paths::has_glob(s))
            .flat_map(|s| {
                let (dir, name) = s.rsplit_once('/').map_or(("", s.as_str()), |(d, n)| (d, n));
                let dotted = name.starts_with(['*', '?']).then(|| {
                    super::script_opts::expanded(&format!(
                        "{dir}{}.{name}",
                        if dir.is_empty() { "" } else { "/" }
                    ))
                });
                std::iter::once(super::script_opts::expanded(&s)).chain(dotted)
            })
            .collect(),
    )
}

/// `mlr --icsv --opprint stats1 … file.csv`: verbs that compute and print
/// (`tee`, `split`, and DSL output redirects write; `system`/`exec` run).
fn miller_reads(c: &Cmd<'_>) -> Option<Vec<Word>> {
    let risky = c.args.iter().any(|x| {
        let l = x.to_ascii_lowercase();
        matches!(
            l.as_str(),
            "tee" | "split" | "case" | "-s" | "--from-file" | "repl" | "--files" | "--mfrom"
        ) || l.contains("env")
            || l.contains("system")
            || l.contains("exec")
            || l.contains("os_")
            || l.contains("hostname")
            || l.contains('>')
            || l.contains('|')
            || l.starts_with("--from") && l.contains("http")
            || l.starts_with("--prepipe")
            || l.starts_with("--load")
            || l.starts_with("--mload")
    }) || {
        // `put [options] -f script.mlr`: the DSL from a file.
        let mut in_dsl = false;
        c.args.iter().any(|a| {
            match a.as_str() {
                "put" | "filter" => in_dsl = true,
                "then" => in_dsl = false,
                _ => {}
            }
            in_dsl && (a == "-f" || a == "-s")
        })
    };
    if risky {
        return None;
    }
    Some(
        c.words
            .iter()
            .skip(1)
            .filter(|w| {
                !w.text.starts_with('-') && (w.text.contains('/') || has_data_extension(&w.text))
            })
            .cloned()
            .collect(),
    )
}

/// `gnuplot -e "set terminal dumb; plot 'results/loss.dat' …"`: drawn on
/// the terminal, from files read. Every statement of every `-e` is one of
/// a few drawing commands spelled out whole (gnuplot takes abbreviations:
/// `sy` is `system`, `l` is `load`), nothing that runs, loads, writes or
/// names an output; data from a command (`'< cmd'`) or a built string is
/// not this.
fn gnuplot_draws(c: &Cmd<'_>) -> Option<Vec<Word>> {
    let mut code = String::new();
    let mut i = 1;
    while let Some(w) = c.words.get(i) {
        match w.text.as_str() {
            "-e" => {
                code.push_str(&c.words.get(i + 1)?.text);
                code.push(';');
                i += 1;
            }
            "-p" | "--persist" | "-persist" => {}
            _ => return None,
        }
        i += 1;
    }
    let l = code.to_ascii_lowercase();
    // Outside the strings; a string joined to another (`'a' . 'b'`) is
    // text built at run time. (Backquotes run a command even inside
    // double quotes.)
    let outside: String = l.replace('\'', "\"").split('"').step_by(2).collect();
    let masked: String = l
        .replace('\'', "\"")
        .split('"')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { "\u{1}" } else { part })
        .collect::<String>()
        .replace(' ', "");
    let joined = masked.contains("\u{1}.") || masked.contains(".\u{1}");
    if joined
        || [
            "system", "`", "eval", "load", "call", "sprintf", "gprintf", "substr", "word(",
        ]
        .iter()
        .any(|k| l.contains(k))
        || ["<", "|"].iter().any(|k| outside.contains(k))
    {
        return None;
    }
    const SETTINGS: &[&str] = &[
        "title", "xlabel", "ylabel", "zlabel", "key", "grid", "xrange", "yrange", "zrange",
        "logscale", "style", "xtics", "ytics", "format", "datafile", "border", "size",
    ];
    let drawn = l
        .split([';', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .all(|st| {
            let mut words = st.split_whitespace();
            match (words.next(), words.next()) {
                (Some("plot" | "splot" | "replot" | "stats" | "print" | "show"), _) => true,
                (Some("set"), Some("terminal" | "term")) => words.next() == Some("dumb"),
                (Some("set" | "unset"), Some(k)) => SETTINGS.contains(&k),
                _ => false,
            }
        });
    // `plot '< cmd'`: data read from a command.
    let piped = super::code::string_literals(&code)
        .iter()
        .any(|s| s.trim_start().starts_with(['<', '|']));
    if !drawn || piped {
        return None;
    }
    Some(
        super::code::string_literals(&code)
            .into_iter()
            .filter(|s| s.contains('/') || s.contains('.'))
            .map(|s| super::script_opts::expanded(&s))
            .collect(),
    )
}

impl Analyzer<'_> {
    /// gnuplot's output files: `set output 'F'`, `set print 'F' append`,
    /// `set table 'F'`, `save 'F'`, abbreviated as gnuplot takes them.
    pub(super) fn gnuplot_writes(&mut self, c: &Cmd<'_>) {
        if c.lb != "gnuplot" {
            return;
        }
        let mut code: Vec<String> = super::script_opts::values(c, &["-e"])
            .into_iter()
            .map(|w| w.text)
            .collect();
        for w in c.words[1..].iter().filter(|w| !w.text.starts_with('-')) {
            code.extend(self.written_text(w, c.cwd()));
        }
        for st in code.iter().flat_map(|t| t.split([';', '\n'])) {
            let words: Vec<&str> = st.split_whitespace().collect();
            let writes = match words.as_slice() {
                [set, what, ..] if set.len() >= 2 && "set".starts_with(set) => {
                    "output".starts_with(what)
                        || what.len() >= 2
                            && ("print".starts_with(what) || "table".starts_with(what))
                }
                [save, ..] => save.len() >= 2 && "save".starts_with(save),
                _ => false,
            };
            if !writes {
                continue;
            }
            for f in super::code::string_literals(st) {
                self.write_path(&super::script_opts::expanded(&f), c.cwd(), "gnuplot");
            }
        }
        // Text spelled from character codes (`sprintf("%c…", 60)` is `<`,
        // which makes a data file's name a command): obfuscation.
        if code.iter().any(|t| {
            let l = t.to_ascii_lowercase();
            (l.contains("sprintf") || l.contains("gprintf")) && l.contains("%c")
        }) {
            self.block("gnuplot spells text from character codes (a command hidden in a name)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_sql_is_told_from_the_rest() {
        assert!(only_reads_sql("SELECT region, sum(x) FROM read_csv_auto('data/o.csv')").is_some());
        assert!(only_reads_sql("SUMMARIZE SELECT * FROM read_parquet('d/*.parquet')").is_some());
        for q in [
            "COPY t TO '/tmp/x.csv'",
            "SELECT * FROM read_csv('https://h/x.csv')",
            "ATTACH 'x.db'; SELECT 1",
            "INSTALL httpfs",
            "SELECT 1; DROP TABLE t",
            "SELECT * INTO t2 FROM t",
            "SELECT getenv('AWS_SECRET_ACCESS_KEY')",
        ] {
            assert!(only_reads_sql(q).is_none(), "{q}");
        }
        assert_eq!(
            only_reads_sql("select * from file('logs/a.tsv', TSV)")
                .map(|f| f.into_iter().map(|w| w.text).collect::<Vec<_>>()),
            Some(vec!["logs/a.tsv".to_string()])
        );
    }
}
