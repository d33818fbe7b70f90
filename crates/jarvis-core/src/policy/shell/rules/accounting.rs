//! Plain-text accounting reports (`hledger bal`, `ledger reg`): read-only
//! when a built-in report is named, every option is one of that tool's
//! that only shape the report, and no output file, pager or price
//! download is asked for. hledger runs `hledger-NAME` for any other
//! command word; ledger has `python` and `server`, and with no command
//! reads commands from its input, so only a listed report counts.

use super::option_walk::{Options, Part, walk};
use super::*;

/// One tool's reports and options.
struct Tool {
    reports: &'static [&'static str],
    options: Options,
}

const HLEDGER: Tool = Tool {
    reports: &[
        "balance",
        "bal",
        "b",
        "register",
        "reg",
        "r",
        "print",
        "p",
        "accounts",
        "a",
        "stats",
        "check",
        "prices",
        "payees",
        "descriptions",
        "notes",
        "tags",
        "commodities",
        "files",
        "balancesheet",
        "bs",
        "incomestatement",
        "is",
        "cashflow",
        "cf",
        "balancesheetequity",
        "bse",
        "activity",
        "aregister",
        "areg",
        "roi",
        "codes",
    ],
    options: Options {
        valued: &[
            "-f",
            "--file",
            "--rules-file",
            "-b",
            "--begin",
            "-e",
            "--end",
            "-p",
            "--period",
            "--depth",
            "-O",
            "--output-format",
            "-X",
            "--exchange",
            "--alias",
            "--pivot",
            "--width",
            "-w",
            "--layout",
            "--today",
            "--drop",
            "--separator",
        ],
        bare: &[
            "-D",
            "-W",
            "-M",
            "-Q",
            "-Y",
            "--daily",
            "--weekly",
            "--monthly",
            "--quarterly",
            "--yearly",
            "-U",
            "-P",
            "-C",
            "-R",
            "-E",
            "-B",
            "-V",
            "-N",
            "-T",
            "-A",
            "-H",
            "-I",
            "-s",
            "-S",
            "-t",
            "-l",
            "-%",
            "--unmarked",
            "--pending",
            "--cleared",
            "--real",
            "--empty",
            "--cost",
            "--market",
            "--no-total",
            "--row-total",
            "--average",
            "--sort-amount",
            "--tree",
            "--flat",
            "--declared",
            "--used",
            "--transpose",
            "--historical",
            "--cumulative",
            "--change",
            "--invert",
            "--related",
            "--no-elide",
            "--budget",
            "--strict",
            "--ignore-assertions",
            "--auto",
            "--infer-market-prices",
            "--infer-equity",
            "--date2",
            "--pretty",
            "--percent",
            "--summary-only",
            "--version",
            "--help",
            "-h",
            "--quiet",
        ],
        glued_only: &["--color", "--value", "--forecast", "--format"],
        glued_short: &["-f"],
    },
};

const LEDGER: Tool = Tool {
    reports: &[
        "balance",
        "bal",
        "b",
        "register",
        "reg",
        "r",
        "print",
        "p",
        "accounts",
        "payees",
        "commodities",
        "stats",
        "equity",
        "prices",
        "pricedb",
        "cleared",
        "budget",
        "csv",
        "xml",
        "select",
        "tags",
        "xact",
        "entry",
    ],
    options: Options {
        valued: &[
            "-f",
            "--file",
            "--price-db",
            "-b",
            "--begin",
            "-e",
            "--end",
            "-p",
            "--period",
            "--depth",
            "-X",
            "--exchange",
            "--format",
            "-F",
            "--limit",
            "-l",
            "--display",
            "-d",
            "--columns",
            "--head",
            "--tail",
            "--sort",
            "-S",
            "--now",
        ],
        bare: &[
            "-D",
            "-W",
            "-M",
            "-Y",
            "--daily",
            "--weekly",
            "--monthly",
            "--quarterly",
            "--yearly",
            "-U",
            "-C",
            "-R",
            "-E",
            "-B",
            "-V",
            "-n",
            "-c",
            "-L",
            "-s",
            "-A",
            "-H",
            "-w",
            "--uncleared",
            "--cleared",
            "--real",
            "--empty",
            "--basis",
            "--market",
            "--no-total",
            "--average",
            "--flat",
            "--historical",
            "--invert",
            "--related",
            "-r",
            "--budget",
            "--strict",
            "--pedantic",
            "--explicit",
            "--effective",
            "--actual",
            "--collapse",
            "--subtotal",
            "--current",
            "--count",
            "--dc",
            "--no-color",
            "--wide",
            "--version",
            "--help",
            "-h",
        ],
        glued_only: &[],
        glued_short: &["-f"],
    },
};

/// The files a report reads, when `c` is a read-only report.
pub(super) fn ledger_reads(c: &Cmd<'_>) -> Option<Vec<Word>> {
    let tool = if c.lb == "hledger" { &HLEDGER } else { &LEDGER };
    let mut files = Vec::new();
    let mut report = None;
    for part in walk(c, 1, &tool.options)? {
        match part {
            Part::Value(flag, value) => {
                // A rules file's `source … | CMD` runs a command.
                if rules_file(&value.text) || flag == "--rules-file" {
                    return None;
                }
                if matches!(flag, "-f" | "--file" | "--rules-file" | "--price-db") {
                    files.extend(journal(value));
                }
            }
            Part::Operand(w) => {
                report.get_or_insert(w.text);
            }
        }
    }
    files.extend(fed_includes(c));
    // A report must be named: hledger runs add-ons for other words,
    // ledger reads commands from its input without one.
    report
        .is_some_and(|r| tool.reports.contains(&r.as_str()))
        .then_some(files)
}

/// A journal option's file: `-` is the input; hledger's `csv:`,
/// `journal:`, `timedot:` prefixes name the format before the path.
fn journal(w: Word) -> Option<Word> {
    if w.text == "-" {
        return None;
    }
    let text = match w.text.split_once(':') {
        Some((fmt, path)) if fmt.len() > 1 && fmt.chars().all(|ch| ch.is_ascii_lowercase()) => {
            path.to_string()
        }
        _ => w.text.clone(),
    };
    Some(Word { text, ..w })
}

/// hledger's CSV rules, read as a journal (`-f bank.rules`, `rules:F`):
/// their `source` line may run a command.
/// (A CSV is read through `FILE.rules` beside it, when there is one.)
fn rules_file(f: &str) -> bool {
    let l = f.to_ascii_lowercase();
    l.ends_with(".rules")
        || l.starts_with("rules:")
        || [".csv", ".tsv", ".ssv"].iter().any(|e| l.ends_with(e))
        || ["csv:", "tsv:", "ssv:"].iter().any(|p| l.starts_with(p))
}

/// The journals a command names (`-f F`, `-fF`, `--file=F`), formats taken
/// off.
pub(super) fn journal_files(c: &Cmd<'_>) -> Vec<Word> {
    let mut out = Vec::new();
    for (i, w) in c.words.iter().enumerate().skip(1) {
        let v = if matches!(w.text.as_str(), "-f" | "--file") {
            c.words.get(i + 1).cloned()
        } else {
            w.text
                .strip_prefix("--file=")
                .or_else(|| {
                    w.text
                        .strip_prefix("-f")
                        .filter(|v| !v.is_empty() && !w.text.starts_with("--"))
                })
                .map(|v| Word {
                    text: v.to_string(),
                    ..w.clone()
                })
        };
        out.extend(v.and_then(journal));
    }
    out
}

/// The files a journal fed on the input (`-f -` with a here-string)
/// includes: read with it, and quoted when they do not parse.
fn fed_includes(c: &Cmd<'_>) -> Vec<Word> {
    let mut out = Vec::new();
    for body in c.src.redirects.iter().filter_map(|r| r.body.as_ref()) {
        for line in body.text.lines() {
            let t = line.trim_start();
            if let Some(f) = t
                .strip_prefix("include ")
                .or_else(|| t.strip_prefix("!include "))
            {
                out.push(super::script_opts::expanded(f.trim()));
            }
        }
    }
    out
}

impl Analyzer<'_> {
    /// What a journal on the input includes is read, whatever else the
    /// line does.
    pub(super) fn journal_includes(&mut self, c: &Cmd<'_>) {
        if matches!(c.lb.as_str(), "hledger" | "ledger") {
            for f in fed_includes(c) {
                self.read_path(&f, c.cwd());
            }
        }
    }
}
