//! Interpreters (`python3`, `node`, `perl`, `ruby`, `pwsh`, …): inline code,
//! a script file, `python -m MODULE`, or an interactive session.

use super::*;

impl Analyzer<'_> {
    /// `python -c`, `node -e`, `perl -e`, a script file, or stdin.
    pub(super) fn interpreter(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        let flags = tables::interpreter(lb).unwrap_or(&[]);
        let args = &c.args;
        let pwsh = matches!(lb, "pwsh" | "powershell");
        if pwsh
            && args.iter().any(|x| {
                let l = lower(x);
                l.starts_with("-enc") || l == "-e" || l == "-ec" || l.starts_with("-encodedcommand")
            })
        {
            self.block("runs an encoded PowerShell payload (what it does cannot be read)");
            return;
        }
        let mut code: Option<Word> = None;
        let mut i = 0;
        let mut script_at = None;
        while i < args.len() {
            let a = args[i].as_str();
            let la = lower(a);
            let perl_bundle = lb == "perl"
                && short_flags(a).is_some_and(|b| b.len() <= 4 && b.ends_with(['e', 'E']));
            // `--batch-string=CODE`: the code glued to its option.
            if !pwsh
                && let Some((f, v)) = a.split_once('=')
                && f.starts_with('-')
                && flags.contains(&lower(f).as_str())
            {
                code = c.arg_word(i).map(|w| Word {
                    text: v.to_string(),
                    ..w.clone()
                });
                break;
            }
            if flags.contains(&la.as_str()) || perl_bundle {
                if pwsh {
                    // PowerShell takes the rest of the line as the command.
                    let rest: Vec<Word> = c.words.iter().skip(i + 2).cloned().collect();
                    let mut w = Word::lit(Word::join(&rest));
                    w.dynamic = rest.iter().any(|x| x.dynamic);
                    w.subs = rest.iter().flat_map(|x| x.subs.clone()).collect();
                    code = Some(w);
                } else {
                    code = c.arg_word(i + 1).cloned();
                }
                break;
            }
            if lb.starts_with("python") && a == "-m" {
                self.python_module(c, i);
                return;
            }
            if a.starts_with('-') && a.len() > 1 {
                // Options with a value: python -W/-X, node -r/--require, ruby -r -I, perl -M -I.
                let with_value = matches!(
                    a,
                    "-W" | "-X"
                        | "-r"
                        | "--require"
                        | "-I"
                        | "--import"
                        | "--loader"
                        | "-M"
                        | "--experimental-loader"
                        | "-File"
                        | "-file"
                        | "-f"
                );
                if matches!(a, "-File" | "-file" | "-f") && pwsh {
                    script_at = Some(i + 1);
                    break;
                }
                if with_value {
                    i += 1;
                }
                i += 1;
                continue;
            }
            if lb == "deno" && matches!(a, "run" | "eval" | "repl" | "test" | "task") {
                if a == "eval" {
                    code = c.arg_word(i + 1).cloned();
                    break;
                }
                i += 1;
                continue;
            }
            script_at = Some(i);
            break;
        }
        if let Some(code) = code.as_ref()
            && matches!(lb, "perl" | "ruby")
            && args.iter().any(|x| short_has(x, 'i'))
        {
            // In-place edits: the files after the code are written.
            let at = c
                .words
                .iter()
                .position(|w| std::ptr::eq(w, code) || w.text == code.text)
                .unwrap_or(c.words.len());
            let files: Vec<&Word> = c
                .words
                .iter()
                .skip(at + 1)
                .filter(|w| !w.text.starts_with('-'))
                .collect();
            for f in &files {
                self.write_path(f, c.cwd(), &format!("{} -i", c.base));
            }
            if super::code_fold::substitutions_only(&code.text) {
                let inserted = super::awk_sed::sed_inserts(&code.text);
                self.plant_edits(&files, &inserted, c.cwd(), c.depth);
            }
        }
        if let Some(code) = code {
            if let Some(why) = self.code_source(&code, c.script) {
                self.block(format!("{why} ({} runs code built at run time)", c.base));
            }
            let all = args.join(" ");
            // `perl -pe 's/a/b/g' f`: text edited, nothing run (the
            // replacement is text unless `/e` makes it code); the files
            // named are still judged.
            if lb.starts_with("perl") && super::code_fold::substitutions_only(&code.text) {
                let files: Vec<&str> = args
                    .iter()
                    .map(String::as_str)
                    .filter(|a| *a != code.text)
                    .collect();
                self.inline_code(lb, &files.join(" "), c.depth);
            } else {
                self.inline_code(lb, &format!("{} {all}", code.text), c.depth);
            }
            if pwsh {
                let code = super::dialects::as_bash(lb, &code.text);
                self.block_only(|a| a.script(&code, &[], c.depth + 1));
            }
            self.ask(format!("runs inline {} code", c.base));
            return;
        }
        // Preloaded modules count as code too (`ruby -ropen-uri`, `perl -MLWP`).
        let preload = lower(&args.join(" "));
        if code::mentions_network(&preload) && code::runs_code_in(lb, &preload) {
            self.block(format!(
                "download and execute ({} code fetches and runs code)",
                c.base
            ));
        }
        if let Some(si) = script_at
            && let Some(w) = c.arg_word(si).cloned()
            && w.text != "-"
        {
            self.sourced(&w, c);
            self.ask(format!("runs {} {}", c.base, shown(&w.text)));
            return;
        }
        self.interactive(c);
    }
}
