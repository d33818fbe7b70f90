//! Settings that make a tool run a command at every later use (`gh alias
//! set --shell co 'CMD'`), apt's `-o` hooks that run one around an update
//! or an install, and direnv's `source_url`, which fetches a script and
//! sources it into the shell.

use super::*;

/// apt's settings whose value is a command line it runs around an update
/// or an install (`-o APT::Update::Pre-Invoke::="…"`), or a program it
/// runs in dpkg's place.
fn apt_runs(key: &str) -> bool {
    let k = key.trim_end_matches(':').to_ascii_lowercase();
    k.ends_with("pre-invoke")
        || k.ends_with("post-invoke")
        || k.ends_with("post-invoke-success")
        || k.ends_with("pre-install-pkgs")
        || k.starts_with("dir::bin::")
        || k.ends_with("::options")
}

impl Analyzer<'_> {
    pub(super) fn tool_settings(&mut self, c: &Cmd<'_>) {
        if matches!(
            c.lb.as_str(),
            "apt" | "apt-get" | "aptitude" | "apt-cache" | "apt-mark"
        ) {
            for v in super::script_opts::values(c, &["-o", "--option"]) {
                let Some((key, value)) = v.text.split_once('=') else {
                    continue;
                };
                if apt_runs(key) {
                    let code = Word {
                        text: value.to_string(),
                        ..v.clone()
                    };
                    self.shell_code(&code, &[], c.script, c.depth);
                    self.ask(format!("{} runs {} around its work", c.base, shown(value)));
                }
            }
        }
        // `source_url URL HASH` (direnv's library, in an `.envrc`): the
        // script fetched runs in the shell, as `curl … | source` would.
        if c.lb == "source_url" {
            self.block("download and execute (source_url fetches a script and sources it)");
        }
        // `gh alias set --shell co 'CMD'`, or an expansion starting `!`:
        // shell code gh runs at every `gh co`.
        if matches!(c.lb.as_str(), "gh" | "glab")
            && c.args.first().is_some_and(|a| a == "alias")
            && c.args.get(1).is_some_and(|a| a == "set")
        {
            let shell = c.args.iter().any(|a| a == "--shell" || a == "-s");
            let operands: Vec<&Word> = c.words[3..]
                .iter()
                .filter(|w| !w.text.starts_with('-'))
                .collect();
            if let Some(expansion) = operands.get(1) {
                let code = expansion.text.strip_prefix('!');
                if shell || code.is_some() {
                    let code = code.unwrap_or(&expansion.text).to_string();
                    self.script(&code, &[], c.depth + 1);
                    self.ask(format!(
                        "{} runs {} at every later use of the alias",
                        c.base,
                        shown(&code)
                    ));
                }
            }
        }
    }
}
