//! Frameworks' consoles and runners: `rails runner CODE`, `rails console`
//! fed a heredoc, `php artisan tinker --execute=CODE`, `mix run -e CODE`,
//! `iex -e CODE`, `sbt console`, `groovysh`, `python manage.py shell`,
//! `jbang URL`. What they are handed is code of their language, run with
//! the application's configuration and secrets in reach: it is judged as
//! that language's one-liner would be.

use super::*;

/// Programs that print the file they are handed as an editor.
const PRINTERS: &[&str] = &[
    "cat", "tac", "head", "tail", "less", "more", "bat", "tee", "od", "xxd", "strings",
];

/// The subcommand of a framework's command line: the first word after the
/// program (and after the script for `php artisan`, `python manage.py`)
/// that is not an option.
fn subcommand<'a>(words: &[&'a str], from: usize) -> Option<(usize, &'a str)> {
    words
        .iter()
        .enumerate()
        .skip(from)
        .find(|(_, w)| !w.starts_with('-'))
        .map(|(i, w)| (i, *w))
}

/// Where a PHP or Python line's framework script sits (`php artisan …`,
/// `python3 manage.py …`), and its name.
fn framework_script<'a>(words: &[&'a str]) -> Option<(usize, &'a str)> {
    let (i, w) = subcommand(words, 1)?;
    let name = base_name(w);
    matches!(name.as_str(), "artisan" | "manage.py").then_some((i, w))
}

/// The language a framework's console reads from its input, when the line
/// starts one with no code of its own.
pub(super) fn console_language(words: &[&str]) -> Option<&'static str> {
    let b = program_name(words.first()?);
    let rest = &words[1..];
    let given = |flags: &[&str]| {
        rest.iter()
            .any(|x| flags.iter().any(|f| x == f || eq_value(x, f).is_some()))
    };
    match b.as_str() {
        "rails" => match subcommand(words, 1)?.1 {
            "console" | "c" => Some("ruby"),
            _ => None,
        },
        "iex" if !given(&["-e", "--eval"]) => Some("elixir"),
        "groovysh" => Some("groovy"),
        "sbt"
            if rest.iter().any(|x| {
                matches!(
                    x.trim_matches(['"', '\'']),
                    "console" | "consoleQuick" | "consoleProject"
                )
            }) =>
        {
            Some("scala")
        }
        "flask" if subcommand(words, 1)?.1 == "shell" => Some("python3"),
        "django-admin" if subcommand(words, 1)?.1 == "shell" && !given(&["-c", "--command"]) => {
            Some("python3")
        }
        _ if b.starts_with("php") || b.starts_with("python") => {
            let (at, script) = framework_script(words)?;
            let sub = subcommand(words, at + 1)?.1;
            match (base_name(script).as_str(), sub) {
                ("artisan", "tinker") if !given(&["--execute"]) => Some("php"),
                ("manage.py", "shell" | "shell_plus") if !given(&["-c", "--command"]) => {
                    Some("python3")
                }
                _ => None,
            }
        }
        _ => None,
    }
}

impl Analyzer<'_> {
    /// Code handed to a framework's runner on the command line.
    pub(super) fn console_code(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        // Every command passes here: the word list is built only for ours.
        if !(matches!(
            lb,
            "rails"
                | "mix"
                | "iex"
                | "jbang"
                | "django-admin"
                | "manage.py"
                | "subl"
                | "kak"
                | "fastlane"
        ) || lb.starts_with("python")
            || lb.starts_with("php"))
        {
            return;
        }
        let words: Vec<&str> = c.words.iter().map(|w| w.text.as_str()).collect();
        let valued = |flags: &[&str]| -> Option<String> {
            let i = c.args.iter().position(|x| {
                flags.contains(&x.as_str()) || flags.iter().any(|f| eq_value(x, f).is_some())
            })?;
            match c.args[i].split_once('=') {
                Some((_, v)) if c.args[i].starts_with("--") => Some(v.to_string()),
                _ => c.args.get(i + 1).cloned(),
            }
        };
        match lb {
            // Sublime's `exec` command runs its `shell_cmd` (or `cmd`).
            "subl" => {
                for v in super::script_opts::values(c, &["--command"]) {
                    if v.text.trim_start().starts_with("exec") {
                        for s in super::code::string_literals(&v.text) {
                            if !matches!(s.as_str(), "shell_cmd" | "cmd" | "working_dir") {
                                self.script(&s, &[], c.depth + 1);
                            }
                        }
                        self.ask("subl runs a command");
                    }
                }
            }
            // `fastlane run sh command:"…"`: the action runs its command.
            "fastlane" if words.get(1..3) == Some(&["run", "sh"]) => {
                for w in &words[3..] {
                    if let Some(cmd) = w.strip_prefix("command:") {
                        self.script(cmd.trim_matches(['"', '\'']), &[], c.depth + 1);
                    }
                }
                self.ask("fastlane runs a shell command");
            }
            // Kakoune's `%sh{…}` runs its text in a shell.
            "kak" => {
                for v in super::script_opts::values(c, &["-e"]) {
                    let mut rest = v.text.as_str();
                    while let Some(at) = rest.find("%sh{") {
                        let body = &rest[at + 4..];
                        let end = body.rfind('}').unwrap_or(body.len());
                        self.script(&body[..end], &[], c.depth + 1);
                        self.ask("kak runs a shell command");
                        rest = &body[end..];
                    }
                }
            }
            "rails" => {
                match subcommand(&words, 1) {
                    // `rails runner CODE` (or a file of it), `rails r CODE`.
                    Some((at, "runner" | "r")) => {
                        // (Past `-e ENV`, `--environment ENV`.)
                        let mut k = at + 1;
                        while let Some(w) = words.get(k).filter(|w| w.starts_with('-')) {
                            k += if matches!(*w, "-e" | "--environment") {
                                2
                            } else {
                                1
                            };
                        }
                        let Some(code) = words.get(k).copied() else {
                            return;
                        };
                        if code.ends_with(".rb") {
                            if let Some(w) = c.words.iter().find(|w| w.text == code).cloned() {
                                self.sourced(&w, c);
                            }
                        } else {
                            self.inline_code("ruby", code, c.depth);
                        }
                    }
                    // The application's decrypted credentials, printed (or
                    // handed to an "editor" that prints them: `EDITOR=cat`).
                    Some((_, "credentials:show" | "encrypted:show")) => {
                        self.block("prints the application's decrypted credentials (rails)");
                    }
                    Some((_, "credentials:edit" | "encrypted:edit"))
                        if c.assigns.iter().any(|(n, v)| {
                            matches!(n.as_str(), "EDITOR" | "VISUAL")
                                && PRINTERS.contains(
                                    &program_name(v.text.split_whitespace().next().unwrap_or(""))
                                        .as_str(),
                                )
                        }) =>
                    {
                        self.block("prints the application's decrypted credentials (an editor that prints)");
                    }
                    _ => {}
                }
            }
            "mix" if subcommand(&words, 1).is_some_and(|(_, s)| s == "run") => {
                if let Some(code) = valued(&["-e", "--eval"]) {
                    self.inline_code("elixir", &code, c.depth);
                }
            }
            "iex" => {
                if let Some(code) = valued(&["-e", "--eval"]) {
                    self.inline_code("elixir", &code, c.depth);
                }
            }
            // `jbang URL`: a Java source fetched and run, as `deno run URL`.
            "jbang" => {
                let target = words[1..]
                    .iter()
                    .filter(|w| !w.starts_with('-'))
                    .find(|w| !matches!(**w, "run" | "edit" | "build"));
                if let Some(t) = target
                    && let Some(w) = c.words.iter().find(|w| w.text == *t).cloned()
                {
                    self.sourced(&w, c);
                }
            }
            // Django's commands: by django-admin, `./manage.py`, or
            // `python manage.py`.
            _ if lb == "django-admin"
                || lb == "manage.py"
                || lb.starts_with("python")
                    && framework_script(&words)
                        .is_some_and(|(_, s)| base_name(s) == "manage.py") =>
            {
                let at = match framework_script(&words) {
                    Some((at, _)) if lb.starts_with("python") => at,
                    _ => 0,
                };
                match subcommand(&words, at + 1).map(|(_, sub)| sub) {
                    // The settings printed whole, SECRET_KEY among them.
                    Some("diffsettings" | "print_settings") => {
                        self.block("prints the application's settings, its secrets among them");
                    }
                    // `shell -c CODE`: Python run in the project's settings.
                    Some("shell" | "shell_plus") => {
                        if let Some(code) = valued(&["-c", "--command"]) {
                            self.inline_code("python3", &code, c.depth);
                        }
                    }
                    _ => {}
                }
            }
            _ if lb.starts_with("php") => {
                if let Some((at, script)) = framework_script(&words)
                    && base_name(script) == "artisan"
                    && subcommand(&words, at + 1).is_some_and(|(_, s)| s == "tinker")
                    && let Some(code) = valued(&["--execute"])
                {
                    self.inline_code("php", &code, c.depth);
                }
            }
            _ => {}
        }
    }
}
