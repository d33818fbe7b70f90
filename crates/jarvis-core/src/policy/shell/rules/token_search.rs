//! A search whose pattern is the shape of a credential (`ghp_…`, `AKIA…`,
//! `xoxb-…`, `-----BEGIN … PRIVATE KEY`): what it prints are the tokens
//! themselves. Over logs, the journal, home or another program's output it
//! harvests them (blocked); over the project's own files it is an audit
//! for leaks, judged as any search of the project is. Jarvis's own journal (its
//! requests, its tool calls, any key it printed) is its state.

use super::*;

/// Prefixes of credentials issued by well-known services, as a search
/// spells them (a character class for GitHub's family: `gh[pousr]_`).
const TOKEN_SHAPES: &[&str] = &[
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "gh[",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xoxs-",
    "xox[",
    "AKIA",
    "ASIA",
    "sk_live_",
    "rk_live_",
    "sk-ant-",
    "sk-proj-",
    "AIza",
    "ya29\\.",
    "PRIVATE KEY",
];

/// Options that make a search print names, counts or nothing, not lines.
const NAMES_ONLY: &[&str] = &[
    "-l",
    "-L",
    "-c",
    "-q",
    "--files-with-matches",
    "--files-without-match",
    "--count",
    "--quiet",
    "--silent",
];

impl Analyzer<'_> {
    pub(super) fn token_search(&mut self, c: &Cmd<'_>) {
        if !matches!(
            c.lb.as_str(),
            "grep" | "egrep" | "fgrep" | "zgrep" | "rg" | "ag" | "ack" | "ugrep" | "git"
        ) || c.lb == "git" && !c.args.iter().any(|a| a == "grep")
        {
            return;
        }
        let shaped = c
            .args
            .iter()
            .any(|a| TOKEN_SHAPES.iter().any(|t| a.contains(t)));
        if !shaped {
            return;
        }
        // Names and counts print no token.
        if c.args.iter().any(|a| {
            NAMES_ONLY.contains(&a.as_str())
                || short_flags(a).is_some_and(|f| f.contains(['l', 'L', 'c', 'q']))
        }) {
            return;
        }
        // Where it searches: the project's files, or anything else (a
        // pipe, the journal, home, logs). The first operand is the pattern
        // unless an option gave it.
        let given = c
            .args
            .iter()
            .any(|a| matches!(a.as_str(), "-e" | "--regexp" | "-f" | "--file"));
        let elsewhere = c.src.stdin_from.is_some()
            || c.operand_words()
                .iter()
                .skip(usize::from(!given))
                .any(|w| w.dynamic || !self.inside(&self.norm(w, c.cwd())));
        if elsewhere && c.lb != "git" {
            self.block(format!(
                "harvests credentials ({} prints text matching a token's shape from outside the project)",
                c.base
            ));
        }
    }
}

impl Analyzer<'_> {
    pub(super) fn own_journal(&mut self, c: &Cmd<'_>) {
        if c.lb == "journalctl" && c.words.iter().skip(1).any(|w| self.mentions_self(w)) {
            self.block(
                "reads Jarvis's own logs (its requests, tool calls and anything it printed)",
            );
        }
    }
}
