//! A search whose pattern is the shape of a credential (`ghp_…`, `AKIA…`,
//! `xoxb-…`, `-----BEGIN … PRIVATE KEY`): what it prints are the tokens
//! themselves. Over logs, the journal, home or another program's output it
//! harvests them (blocked); over the project's own files it is an audit
//! for leaks, judged as any search of the project is. Jarvis's own journal (its
//! requests, its tool calls, any key it printed) is its state.

use super::*;

/// Prefixes of credentials issued by well-known services, lower-cased, as
/// a pattern spells them once its brackets and escapes are read past
/// (`A[K]IA`, `gh[pousr]_` is GitHub's family, `xox[bp]-` Slack's).
const TOKEN_SHAPES: &[&str] = &[
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "ghpousr_",
    "github_pat_",
    "glpat-",
    "xoxb",
    "xoxp",
    "xoxa",
    "xoxs",
    "akia",
    "sk_live_",
    "rk_live_",
    "sk-ant-",
    "sk-proj-",
    "aiza",
    "ya29",
    "private key",
    // Sign-ins as requests and settings carry them.
    "authorization:",
    "authorization: bearer",
    "bearer ",
    "x-api-key",
    "api_key=",
    "apikey=",
    "access_token",
    "refresh_token",
    "client_secret",
    "aws_secret_access_key",
];

/// The pattern as the matcher reads it, for spotting a token's shape:
/// lower case, character classes opened, escapes dropped.
fn spelled(pattern: &str) -> String {
    pattern
        .chars()
        .filter(|ch| !matches!(ch, '[' | ']' | '\\' | '(' | ')' | '?' | '{' | '}'))
        .collect::<String>()
        .to_ascii_lowercase()
}

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
        if !(tables::TEXT_SEARCHERS.contains(&c.lb.as_str())
            || matches!(c.lb.as_str(), "git" | "sed" | "awk" | "gawk" | "mawk"))
            || c.lb == "git" && !c.args.iter().any(|a| a == "grep")
        {
            return;
        }
        let shaped = c.args.iter().any(|a| {
            let t = spelled(a);
            TOKEN_SHAPES.iter().any(|k| t.contains(k))
        });
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
        // What the project's own git prints (`git diff --cached | grep
        // ghp_`, a leak check before a commit) is the project.
        let piped_from_elsewhere = c
            .src
            .stdin_from
            .and_then(|i| c.script.commands.get(i))
            .is_some_and(|p| {
                p.argv
                    .first()
                    .is_none_or(|w| program_name(&w.text) != "git")
            });
        // `git -C /var/log grep --no-index`: another folder.
        let git_elsewhere = c.lb == "git"
            && c.args.windows(2).any(|w| {
                w[0] == "-C" && !self.inside(&self.norm(&Word::lit(w[1].clone()), c.cwd()))
            });
        let elsewhere = piped_from_elsewhere
            || git_elsewhere
            || c.lb != "git"
                && c.operand_words()
                    .iter()
                    .skip(usize::from(!given))
                    .any(|w| w.dynamic || !self.inside(&self.norm(w, c.cwd())));
        if elsewhere {
            self.block(format!(
                "harvests credentials ({} prints text matching a token's shape from outside the project)",
                c.base
            ));
        }
    }
}

impl Analyzer<'_> {
    pub(super) fn own_journal(&mut self, c: &Cmd<'_>) {
        if c.lb != "journalctl" {
            return;
        }
        // By name, or by a pattern that matches it (`-u 'jar*'`).
        let app = lower(&self.env.app);
        let names_self = |w: &Word| {
            let t = lower(w.text.trim_matches(['\'', '"']));
            self.mentions_self(w)
                || t.contains(['*', '?', '['])
                    && [app.clone(), format!("{app}.service")]
                        .iter()
                        .any(|n| paths::glob_match(&t, n))
        };
        if c.lb == "journalctl" && c.words.iter().skip(1).any(names_self) {
            self.block(
                "reads Jarvis's own logs (its requests, tool calls and anything it printed)",
            );
        }
    }
}
