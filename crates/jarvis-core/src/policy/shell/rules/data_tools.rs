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
    // Output named on the line is a write.
    let writes = a.iter().any(|x| {
        matches!(*x, "-o" | "--output" | "-I" | "--in-place")
            || x.starts_with("--output=")
            || x.starts_with("-o=")
    });
    if writes {
        return None;
    }
    match (lb, a.as_slice()) {
        ("xsv" | "qsv", [sub, ..]) if XSV_READERS.contains(sub) => Some(files_after(c, 2)),
        ("xsv" | "qsv" | "mlr", ["help" | "--help" | "-h" | "--version" | "version", ..]) => {
            Some(vec![])
        }
        (lb, _) if CSVKIT_READERS.contains(&lb) => Some(files_after(c, 1)),
        // An in-memory database over the files named (`--db` or
        // `--insert` write one).
        ("csvsql", _) if !a.iter().any(|x| x.starts_with("--db") || *x == "--insert") => {
            let q = option_value(c, &["--query"])?;
            only_reads_sql(&q)?;
            Some(files_after(c, 1))
        }
        ("mlr", _) => miller_reads(c),
        ("duckdb", _) => {
            let sql = option_value(c, &["-c"])?;
            let mut files = only_reads_sql(&sql)?;
            // A database file is opened read-only or not at all.
            let db = c.words[1..]
                .iter()
                .filter(|w| !w.text.starts_with('-'))
                .find(|w| Some(&w.text) != Some(&sql));
            if let Some(db) = db {
                if !a.contains(&"-readonly") {
                    return None;
                }
                files.push(db.clone());
            }
            let valued_ok = a.iter().all(|x| {
                !x.starts_with('-')
                    || matches!(
                        *x,
                        "-c" | "-readonly"
                            | "-json"
                            | "-csv"
                            | "-markdown"
                            | "-box"
                            | "-line"
                            | "-list"
                            | "-table"
                            | "-noheader"
                            | "-header"
                    )
            });
            valued_ok.then_some(files)
        }
        ("clickhouse", ["local", ..]) | ("clickhouse-local", _) => {
            let sql = option_value(c, &["--query", "-q"])?;
            only_reads_sql(&sql)
        }
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

fn option_value(c: &Cmd<'_>, opts: &[&str]) -> Option<String> {
    super::script_opts::values(c, opts)
        .into_iter()
        .next()
        .map(|w| w.text)
}

/// SQL whose every statement only reads; the files it names in strings
/// (`read_parquet('data/*.parquet')`, `file('logs/a.tsv', TSV)`), to be
/// checked as reads. `None` for anything that writes, attaches, installs,
/// loads, sets or reaches a URL.
fn only_reads_sql(sql: &str) -> Option<Vec<Word>> {
    let l = sql.to_ascii_lowercase();
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
    const REACHES: &[&str] = &[
        "http",
        "s3://",
        "gcs://",
        "gs://",
        "azure",
        "url(",
        "remote(",
        "executable(",
        "hdfs",
        "mysql(",
        "postgresql(",
        "postgres_scan",
        "sqlite_scan(",
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
    Some(
        super::code::string_literals(sql)
            .into_iter()
            .filter(|s| s.contains('/') || has_data_extension(s))
            .map(|s| Word::lit(s.as_str()))
            .collect(),
    )
}

/// `mlr --icsv --opprint stats1 … file.csv`: verbs that compute and print
/// (`tee`, `split`, and DSL output redirects write; `system`/`exec` run).
fn miller_reads(c: &Cmd<'_>) -> Option<Vec<Word>> {
    let risky = c.args.iter().any(|x| {
        let l = x.to_ascii_lowercase();
        matches!(l.as_str(), "tee" | "split" | "case")
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
    });
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
/// the terminal or a window, from files read. Output to a file, a pipe,
/// a command (`system`, `!`, backticks, `'< cmd'`), or a script loaded is
/// not this.
fn gnuplot_draws(c: &Cmd<'_>) -> Option<Vec<Word>> {
    let mut code = None;
    for (i, w) in c.words.iter().enumerate().skip(1) {
        match w.text.as_str() {
            "-e" => code = c.words.get(i + 1).map(|v| v.text.clone()),
            "-p" | "--persist" | "-persist" => {}
            t if Some(t) == code.as_deref() => {}
            _ => return None,
        }
    }
    let code = code?;
    let l = code.to_ascii_lowercase();
    let unsafe_parts = [
        "system",
        "!",
        "`",
        "<",
        "|",
        "set output",
        "set out ",
        "set print",
        "save",
        "load",
        "call",
        "shell",
        "set table",
        "cd ",
        "import",
        "pipe",
    ];
    if unsafe_parts.iter().any(|k| l.contains(k)) {
        return None;
    }
    Some(
        super::code::string_literals(&code)
            .into_iter()
            .filter(|s| !s.is_empty() && !s.contains(' '))
            .map(|s| Word::lit(s.as_str()))
            .collect(),
    )
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
