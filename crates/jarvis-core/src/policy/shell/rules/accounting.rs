//! Plain-text accounting reports (`hledger bal`, `ledger reg`): read-only
//! when the command is a built-in report, every option is one that only
//! shapes the report, and no output file, pager or price download is
//! asked for. hledger runs `hledger-NAME` for any other command word, and
//! ledger has `python` and `server`, so only the listed reports count.

use super::*;

const HLEDGER_REPORTS: &[&str] = &[
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
    "diff",
    "help",
];

const LEDGER_REPORTS: &[&str] = &[
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
    "echo",
    "xact",
    "entry",
];

/// Options whose value is the next word; the files among them are read.
const VALUED: &[&str] = &[
    "-f",
    "--file",
    "--rules-file",
    "--price-db",
    "-b",
    "--begin",
    "-e",
    "--end",
    "-p",
    "--period",
    "--depth",
    "-O",
    "--output-format",
    "--value",
    "-X",
    "--exchange",
    "--alias",
    "--pivot",
    "--format",
    "-F",
    "--width",
    "-w",
    "--layout",
    "--sort",
    "-S",
    "--limit",
    "-l",
    "--display",
    "-d",
    "--columns",
    "--head",
    "--tail",
    "--color",
    "--today",
    "--now",
    "--drop",
    "--forecast",
    "--separator",
    "--date-format",
    "--account-width",
    "--payee-width",
];

/// Options that only choose what the report shows.
const BARE: &[&str] = &[
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
    "-t",
    "-%",
    "-n",
    "-c",
    "-L",
    "--unmarked",
    "--pending",
    "--cleared",
    "--uncleared",
    "--real",
    "--empty",
    "--cost",
    "--basis",
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
    "--pedantic",
    "--explicit",
    "--ignore-assertions",
    "--auto",
    "--infer-market-prices",
    "--infer-equity",
    "--date2",
    "--effective",
    "--actual",
    "--collapse",
    "--subtotal",
    "--current",
    "--count",
    "--dc",
    "--no-color",
    "--no-pager",
    "--wide",
    "--pretty",
    "--percent",
    "--summary-only",
    "--version",
    "--help",
    "-h",
    "--quiet",
    "-q",
    "--verbose",
];

/// The files a report reads, when `c` is a read-only report.
pub(super) fn ledger_reads(c: &Cmd<'_>) -> Option<Vec<Word>> {
    let reports = if c.lb == "hledger" {
        HLEDGER_REPORTS
    } else {
        LEDGER_REPORTS
    };
    let mut files = Vec::new();
    let mut report = None;
    let mut i = 1;
    while let Some(w) = c.words.get(i) {
        let t = w.text.as_str();
        let (flag, glued) = match t.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (t, None),
        };
        if VALUED.contains(&flag) {
            let value = match glued {
                Some(v) => Word {
                    text: v.to_string(),
                    ..w.clone()
                },
                None => {
                    i += 1;
                    c.words.get(i)?.clone()
                }
            };
            // `-f-` or `-f -`: the journal comes down the pipe.
            if matches!(flag, "-f" | "--file" | "--rules-file" | "--price-db") && value.text != "-"
            {
                files.push(value);
            }
        } else if let Some(v) = t
            .strip_prefix("-f")
            .filter(|v| !v.is_empty() && !t.starts_with("--"))
        {
            if v != "-" {
                files.push(Word {
                    text: v.to_string(),
                    ..w.clone()
                });
            }
        } else if t.starts_with('-') && t.len() > 1 {
            if !BARE.contains(&t) {
                return None;
            }
        } else if report.is_none() {
            report = Some(t);
        }
        i += 1;
    }
    // A bare `hledger` prints its commands; a query past the report is text.
    report.is_none_or(|r| reports.contains(&r)).then_some(files)
}
