//! Vim's Ex commands given on its command line (`-c CMD`, `+CMD`): the
//! files they write, whatever the spelling (`:w FILE`, `redir > FILE`,
//! `call writefile(…, FILE)`).

use super::script_opts::expanded;
use super::*;

impl Analyzer<'_> {
    /// Vim and its kin: the Ex commands given on the command line (`-c`,
    /// `+CMD`), judged as what they run, open and write.
    pub(super) fn vim(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let depth = c.depth;
        self.editor_writes(c);
        let mut all: Vec<&str> = Vec::new();
        let remote = self.editor_remote(c);
        let given = c.args.iter().enumerate().filter_map(|(i, x)| {
            // `-sc CMD`: single-letter flags bundled, the last one `-c`.
            let bundled_c = letter_flags(x).is_some_and(|b| b.len() > 1 && b.ends_with('c'));
            if x == "-c" || x == "--cmd" || bundled_c {
                c.args.get(i + 1).map(String::as_str)
            } else {
                x.strip_prefix('+')
            }
        });
        for cmd in given.chain(remote.iter().map(String::as_str)) {
            self.inline_code("vim", cmd, depth);
            all.push(cmd);
            // `r FILE`, `e FILE`, `w FILE`, `so FILE`: what the editor opens.
            for f in cmd.split_whitespace().skip(1) {
                let p = self.norm_text(&paths::word_path(f, false), c.cwd());
                if let Some(why) = paths::credential_normalized(&p, f) {
                    self.block(format!("the editor opens a credential: {why}"));
                }
            }
            let t = cmd.trim_start_matches(':').trim();
            let t = t.strip_prefix("silent").map(str::trim).unwrap_or(t);
            let t = t.trim_start_matches("r ").trim_start_matches("w ").trim();
            // A range before a filter (`%!cmd`, `.,$!cmd`).
            let t = t.trim_start_matches(|ch: char| "%.$,'<>0123456789".contains(ch));
            // `:terminal cmd`, `:exe "!cmd"`: a shell line too.
            if let Some(rest) = ["terminal ", "ter ", "term "]
                .iter()
                .find_map(|p| t.strip_prefix(p))
            {
                self.script(rest, &[], depth + 1);
                self.ask("the editor runs a shell command");
            }
            if t.starts_with("exe") {
                for lit in super::code::string_literals(t) {
                    if let Some(sh) = lit.strip_prefix('!') {
                        self.script(sh, &[], depth + 1);
                    }
                }
            }
            if let Some(sh) = t
                .strip_prefix('!')
                .or_else(|| t.split_once(" !").map(|(_, s)| s))
            {
                self.script(sh, &[], depth + 1);
                self.ask("the editor runs a shell command");
            }
            if t.contains("system(") || t.starts_with("call ") {
                self.ask("the editor runs commands");
            }
        }
        // One session: a file edited by one `-c` is written by a later one.
        self.vim_ex_writes(&all.join("|"), c.cwd());
        self.ask("opens an editor");
        Some(false)
    }

    /// The files a list of Ex commands writes: `w FILE` in any spelling,
    /// `redir > FILE`, `writefile()`, and a file it edits then writes
    /// (`e ~/.bashrc | norm Gox | wq`). `exe "…"` strings are read too.
    pub(super) fn vim_ex_writes(&mut self, cmd: &str, cwd: Option<&str>) {
        let mut edited: Vec<String> = Vec::new();
        let mut writes_current = false;
        let mut parts: Vec<String> = cmd.split('|').map(str::to_string).collect();
        let mut k = 0;
        while k < parts.len() && k < 64 {
            let t = ex_command(&parts[k]).to_string();
            k += 1;
            let (verb, rest) = ex_verb(&t);
            if matches!(verb, "exe" | "exec" | "execute") {
                for inner in super::code::string_literals(rest) {
                    parts.extend(inner.split('|').map(str::to_string));
                }
                continue;
            }
            if matches!(
                verb,
                "e" | "edit"
                    | "sp"
                    | "split"
                    | "vs"
                    | "vsplit"
                    | "new"
                    | "vnew"
                    | "tabe"
                    | "tabedit"
                    | "tabnew"
                    | "badd"
                    | "file"
                    | "f"
            ) {
                if let Some(f) = rest.split_whitespace().find(|w| !w.starts_with("++")) {
                    edited.push(f.to_string());
                }
                continue;
            }
            match ex_write_target(verb, rest) {
                Some(Some(file)) => self.write_path(&expanded(&file), cwd, "the editor"),
                Some(None) => writes_current = true,
                None => {}
            }
        }
        if writes_current {
            for f in &edited {
                self.write_path(&expanded(f), cwd, "the editor");
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

/// One Ex command without its `:`, range (`%`, `1,$`, `'<,'>`) and
/// modifiers (`sil!`, `keepalt`, `noautocmd`, …).
fn ex_command(part: &str) -> &str {
    let mut t = part.trim().trim_start_matches(':').trim_start();
    loop {
        let before = t.len();
        t = t
            .trim_start_matches(|ch: char| ch.is_ascii_digit() || "%,$.;'<>+-".contains(ch))
            .trim_start();
        let (verb, rest) = ex_verb(t);
        let modifier = [
            "sil",
            "sile",
            "silen",
            "silent",
            "keepa",
            "keepalt",
            "keepj",
            "keepjumps",
            "keepp",
            "keeppatterns",
            "keepm",
            "keepmarks",
            "noa",
            "noautocmd",
            "lockm",
            "lockmarks",
            "vert",
            "vertical",
            "tab",
            "bel",
            "belowright",
            "abo",
            "aboveleft",
            "to",
            "topleft",
            "bo",
            "botright",
            "conf",
            "confirm",
            "uns",
            "unsilent",
            "hid",
            "hide",
            "lefta",
            "leftabove",
            "rightb",
            "rightbelow",
            "sandbox",
            "san",
            "sandbox",
        ]
        .contains(&verb);
        if modifier {
            t = rest.trim_start();
        }
        if t.len() == before {
            return t;
        }
    }
}

/// An Ex command's name (its leading letters, a `!` dropped) and the rest.
fn ex_verb(t: &str) -> (&str, &str) {
    let end = t
        .find(|ch: char| !ch.is_ascii_alphabetic())
        .unwrap_or(t.len());
    let rest = t[end..].strip_prefix('!').unwrap_or(&t[end..]);
    (&t[..end], rest)
}

/// A write command: `Some(Some(FILE))` when it names the file,
/// `Some(None)` when it writes the file being edited, `None` otherwise.
/// `w !cmd` pipes to a command, `redir @a` / `redir => v` stay inside.
fn ex_write_target(verb: &str, rest: &str) -> Option<Option<String>> {
    let writes = matches!(
        verb,
        "w" | "wr"
            | "wri"
            | "writ"
            | "write"
            | "wq"
            | "x"
            | "xi"
            | "xit"
            | "exi"
            | "exit"
            | "sav"
            | "save"
            | "savea"
            | "saveas"
            | "up"
            | "upd"
            | "updat"
            | "update"
            | "wa"
            | "wall"
            | "wn"
            | "wnext"
            | "wN"
            | "wNext"
            | "wp"
            | "wprevious"
            | "wqa"
            | "wqall"
            | "xa"
            | "xall"
            | "redi"
            | "redir"
    );
    if !writes {
        return None;
    }
    let rest = rest.trim_start().trim_start_matches('>').trim_start();
    if rest.starts_with(['!', '@', '=']) || rest == "END" || rest == "e" {
        return None;
    }
    Some(
        rest.split_whitespace()
            .find(|w| !w.starts_with("++"))
            .map(str::to_string),
    )
}
