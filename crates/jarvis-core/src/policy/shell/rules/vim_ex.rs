//! Vim's Ex commands given on its command line (`-c CMD`, `+CMD`): the
//! files they write, whatever the spelling (`:w FILE`, `redir > FILE`,
//! `call writefile(…, FILE)`).

use super::script_opts::expanded;
use super::*;

impl Analyzer<'_> {
    pub(super) fn vim_ex_writes(&mut self, cmd: &str, cwd: Option<&str>) {
        for part in cmd.split('|') {
            let t = part.trim().trim_start_matches(':').trim();
            let t = t
                .strip_prefix("silent!")
                .or_else(|| t.strip_prefix("silent"))
                .unwrap_or(t)
                .trim();
            if let Some(file) = ex_write_target(t) {
                self.write_path(&expanded(file), cwd, "the editor");
            }
        }
        // `writefile(LIST, FILE [, FLAGS])`: FILE is the first string after
        // the list; `expand("~/x")` spells it too.
        for (at, _) in cmd.match_indices("writefile(") {
            let args = &cmd[at + "writefile(".len()..];
            let after_list = match args.trim_start().starts_with('[') {
                true => args.find(']').map_or("", |e| &args[e + 1..]),
                false => args.find(',').map_or("", |e| &args[e + 1..]),
            };
            if let Some(file) = super::code::string_literals(after_list).into_iter().next() {
                self.write_path(&expanded(&file), cwd, "the editor");
            } else {
                self.ask("the editor writes a file it names at run time");
            }
        }
    }
}

/// The file an Ex write command names: `w FILE`, `w! FILE`, `w >> FILE`,
/// `wq FILE`, `x FILE`, `sav FILE`, `redir > FILE`, `redir! >> FILE`.
fn ex_write_target(t: &str) -> Option<&str> {
    let (verb, rest) = t.split_once(char::is_whitespace)?;
    let verb = verb.trim_end_matches('!');
    let writes = matches!(
        verb,
        "w" | "write" | "wq" | "x" | "xit" | "exit" | "sav" | "saveas" | "up" | "update" | "wa"
    ) || verb == "redir"
        || verb == "redi";
    if !writes {
        return None;
    }
    let rest = rest.trim().trim_start_matches('>').trim();
    // `w !cmd` pipes the buffer to a command (judged as one elsewhere);
    // `redir @a`, `redir => var` go to a register or a variable.
    if rest.starts_with(['!', '@', '=']) || rest.is_empty() || rest == "END" {
        return None;
    }
    rest.split_whitespace().next()
}
