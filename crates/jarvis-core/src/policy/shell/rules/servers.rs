//! What reads the environment or serves files without looking like it:
//! jq's and yq's `env` (the whole environment, or one variable by name),
//! and the small file servers (`php -S -t DIR`, `busybox httpd -h DIR`,
//! `http-server DIR`, `ruby -run -e httpd DIR`, `openssl s_server -WWW`,
//! `miniserve DIR`, …) whose root is home.

use super::*;

/// How a jq/yq program reads the environment: all of it, and by name.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct EnvUse {
    pub whole: bool,
    pub names: Vec<String>,
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// `env`, `$ENV`, `env.NAME`, `$ENV.NAME`, `env["NAME"]`, `strenv(NAME)`,
/// `env(NAME)` in a program's text.
pub(super) fn jq_env(program: &str) -> EnvUse {
    let mut u = EnvUse::default();
    let b = program.as_bytes();
    let word_at = |i: usize, w: &str| {
        program[i..].starts_with(w)
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.'))
    };
    let mut i = 0;
    while i < program.len() {
        if !program.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let rest = &program[i..];
        let named = |after: &str| -> Option<String> {
            let after = after.trim_start_matches(['"', '\'']);
            let n = ident(after);
            (!n.is_empty()).then_some(n)
        };
        if word_at(i, "envsubst") {
            // yq's `envsubst` fills `${NAME}` in strings, the input's too.
            u.whole = true;
            u.names.extend(
                program
                    .split('$')
                    .skip(1)
                    .map(|t| ident(t.trim_start_matches('{')))
                    .filter(|n| !n.is_empty()),
            );
        } else if word_at(i, "strenv(") || word_at(i, "env(") {
            let open = rest.find('(').unwrap_or(0) + 1;
            u.names.extend(named(&rest[open..]));
        } else if word_at(i, "$ENV") || word_at(i, "env") {
            let len = if rest.starts_with("$ENV") { 4 } else { 3 };
            let after = &rest[len..];
            if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                // `envelope`, `environment`: another name.
            } else if let Some(f) = after.strip_prefix('.').or_else(|| after.strip_prefix('[')) {
                match named(f) {
                    Some(n) => u.names.push(n),
                    None => u.whole = true,
                }
            } else {
                u.whole = true;
            }
        }
        i += 1;
    }
    u
}

/// The program texts of a jq/yq line: the first operand (past yq's
/// `eval`) and `--expression`'s value; not the files it reads (a folder
/// named `env/`) nor `--arg NAME VALUE`'s strings.
fn jq_programs<'c>(c: &'c Cmd<'_>) -> Vec<&'c str> {
    let args = &c.args;
    let mut out = Vec::new();
    let mut from_file = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--arg" | "--argjson" | "--slurpfile" | "--rawfile" => i += 3,
            "-f" | "--from-file" => {
                from_file = true;
                i += 2;
            }
            "--expression" => {
                out.extend(args.get(i + 1).map(String::as_str));
                i += 2;
            }
            "--indent" | "-L" | "-o" | "--output-format" | "-p" | "--input-format" | "-I" => i += 2,
            "--args" | "--jsonargs" => break,
            _ if a.starts_with('-') => i += 1,
            "e" | "eval" | "ea" | "eval-all" if c.lb == "yq" && out.is_empty() && i == 0 => i += 1,
            _ => {
                if !from_file {
                    out.push(a);
                }
                break;
            }
        }
    }
    out
}

impl Analyzer<'_> {
    /// The environment read by a jq/yq program: a secret by name blocks, the
    /// whole of it asks (as `printenv` does). True when it reads none.
    pub(super) fn jq_reads_env(&mut self, c: &Cmd<'_>) -> bool {
        let mut clean = true;
        // yq's `load("F")`, `load_str`, `load_props`, `load_xml`: files
        // the program reads.
        for a in jq_programs(c) {
            let l = lower(a);
            if calls_load(&l) {
                clean = false;
                for f in super::code::string_literals(a) {
                    self.read_path(&Word::lit(f), c.cwd());
                }
            }
        }
        // `import "M" as $c;` (data, `M.json`) and `include "M";` (code,
        // `M.jq`), looked up in each `-L DIR` (default `~/.jq`): files read.
        for a in jq_programs(c) {
            if !(a.contains("import") || a.contains("include")) {
                continue;
            }
            let mut dirs: Vec<String> = super::script_opts::values(c, &["-L"])
                .into_iter()
                .map(|w| w.text)
                .collect();
            dirs.extend(
                c.args
                    .iter()
                    .filter(|x| x.len() > 2 && x.starts_with("-L"))
                    .map(|x| x[2..].to_string()),
            );
            if dirs.is_empty() {
                dirs.push("~/.jq".into());
            }
            for (at, kw) in a.match_indices("import").chain(a.match_indices("include")) {
                let Some(name) = super::code::string_literals(&a[at + kw.len()..])
                    .into_iter()
                    .next()
                else {
                    continue;
                };
                clean = false;
                for dir in &dirs {
                    for ext in ["", ".json", ".jq"] {
                        let f = if name.starts_with(['/', '~']) {
                            format!("{name}{ext}")
                        } else {
                            format!("{}/{name}{ext}", dir.trim_end_matches('/'))
                        };
                        self.read_path(&Word::lit(f), c.cwd());
                    }
                }
            }
        }
        for a in jq_programs(c) {
            // `import "m" as $m {search: "DIR"}`: modules and data read
            // from DIR, as `-L DIR`.
            if (a.contains("import") || a.contains("include")) && a.contains("search") {
                let lits = super::code::string_literals(a);
                let (dirs, modules): (Vec<&String>, Vec<&String>) = lits
                    .iter()
                    .partition(|l| l.contains('/') || l.starts_with('~') || l.starts_with('.'));
                for d in dirs {
                    let d = d.trim_end_matches('/');
                    self.read_path(&super::script_opts::expanded(d), c.cwd());
                    for m in &modules {
                        for ext in ["json", "jq"] {
                            let f = format!("{d}/{m}.{ext}");
                            self.read_path(&super::script_opts::expanded(&f), c.cwd());
                        }
                    }
                }
            }
            let u = jq_env(a);
            for n in &u.names {
                if super::effects::secret_var(n) {
                    self.block(format!(
                        "reveals the secret variable {n} (through {})",
                        c.base
                    ));
                }
            }
            // The whole environment filtered down to its secrets
            // (`$ENV | with_entries(select(.key | test("TOKEN")))`).
            let up = a.to_ascii_uppercase();
            if u.whole
                && [
                    "TOKEN",
                    "SECRET",
                    "PASSW",
                    "API_KEY",
                    "APIKEY",
                    "CREDENTIAL",
                    "PRIVATE",
                ]
                .iter()
                .any(|k| up.contains(k))
            {
                self.block(format!(
                    "reveals secret variables (through {}: the environment filtered by secrets' names)",
                    c.base
                ));
            }
            if u.whole {
                self.ask("prints the whole environment");
            }
            clean &= !u.whole && u.names.is_empty();
        }
        // A command line a program puts into a file (`yq -i '.tasks.x.cmds
        // += ["…"]' Taskfile.yml`): a task runner, CI or compose runs it
        // later; what blocks in it blocks now.
        // (`-s`, `--split-exp`: yq writes a file per document.)
        if matches!(c.lb.as_str(), "yq" | "jaq")
            && c.args.iter().any(|a| {
                a.starts_with("--split-exp")
                    || c.lb == "yq"
                        && short_flags(a).is_some_and(|f| !f.contains('=') && f.contains('s'))
            })
        {
            self.ask(format!("{} writes a file per document", c.base));
            clean = false;
        }
        if c.args.iter().any(|a| {
            a.starts_with("--inplace")
                || a == "--in-place"
                || short_flags(a).is_some_and(|f| f.contains('i'))
        }) {
            // The files it rewrites are writes.
            for f in super::positions::operands(c).into_iter().skip(1) {
                self.write_path(f, c.cwd(), &c.base);
            }
            clean = false;
            for a in &c.args {
                for s in super::code::string_literals(a) {
                    if s.contains(char::is_whitespace) {
                        self.block_only(|x| x.script(&s, &[], c.depth + 1));
                    }
                }
            }
        }
        clean
    }

    /// The root a small file server shares, when `c` is one.
    pub(super) fn file_server(&mut self, c: &Cmd<'_>) {
        let words: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let after = |flag: &str| {
            words
                .iter()
                .position(|w| *w == flag)
                .and_then(|i| c.arg_word(i + 1))
                .cloned()
        };
        let root = match c.lb.as_str() {
            "php" if words.contains(&"-S") => Some(after("-t").unwrap_or_else(|| Word::lit("."))),
            "httpd" | "ftpd" if words.contains(&"-h") || c.lb == "ftpd" => {
                Some(after("-h").unwrap_or_else(|| Word::lit(".")))
            }
            "http-server" | "serve" | "darkhttpd" | "live-server" | "file-server" => Some(
                c.operand_words()
                    .into_iter()
                    .find(|w| !w.text.chars().all(|ch| ch.is_ascii_digit()))
                    .unwrap_or_else(|| Word::lit(".")),
            ),
            // `openssl s_server -WWW`/`-HTTP` serves files from where it runs.
            "openssl"
                if words.first() == Some(&"s_server")
                    && words.iter().any(|w| matches!(*w, "-WWW" | "-HTTP")) =>
            {
                Some(Word::lit("."))
            }
            "webfsd" => Some(after("-r").unwrap_or_else(|| Word::lit("."))),
            "static-web-server" | "updog" => Some(
                after("-d")
                    .or_else(|| after("--root"))
                    .or_else(|| after("--directory"))
                    .unwrap_or_else(|| Word::lit(".")),
            ),
            "miniserve" | "simple-http-server" | "dufs" => Some(
                c.operand_words()
                    .into_iter()
                    .find(|w| !w.text.chars().all(|ch| ch.is_ascii_digit()))
                    .unwrap_or_else(|| Word::lit(".")),
            ),
            "twistd" if words.contains(&"web") => {
                Some(after("--path").unwrap_or_else(|| Word::lit(".")))
            }
            // `rclone serve http|webdav|ftp|sftp|… PATH`: a local path (a
            // remote's `name:path` serves that remote, not this machine).
            "rclone" if words.first() == Some(&"serve") => {
                let ops: Vec<Word> = c.operand_words().into_iter().skip(2).collect();
                let local = |w: &Word| !w.text.contains(':') || w.text.starts_with(['/', '~', '.']);
                match ops.iter().find(|w| local(w)) {
                    Some(w) => Some(w.clone()),
                    // A remote (`remote:bucket`) is not this machine's files.
                    None if !ops.is_empty() => None,
                    None => Some(Word::lit("/")),
                }
            }
            "caddy" if words.contains(&"file-server") => Some(
                after("--root")
                    .or_else(|| after("-r"))
                    .unwrap_or_else(|| Word::lit(".")),
            ),
            // The folder is the first operand after `httpd` (not `-p`'s port).
            "ruby" if words.iter().any(|w| w.contains("httpd")) && words.contains(&"-run") => {
                let at = c.words.iter().position(|w| w.text.ends_with("httpd"));
                let mut dir = None;
                let mut k = at.map_or(c.words.len(), |i| i + 1);
                while let Some(w) = c.words.get(k) {
                    match w.text.as_str() {
                        "-p" | "--port" | "-b" | "--bind-address" | "--max-clients"
                        | "--temp-dir" => k += 2,
                        t if t.starts_with('-') => k += 1,
                        _ => {
                            dir = Some(w.clone());
                            break;
                        }
                    }
                }
                Some(dir.unwrap_or_else(|| Word::lit(".")))
            }
            // `git daemon --base-path=DIR DIR…`: every repository below
            // is fetched (and with receive-pack, pushed) by anyone.
            "git" if words.first() == Some(&"daemon") => Some(
                words
                    .iter()
                    .find_map(|w| w.strip_prefix("--base-path="))
                    .map(Word::lit)
                    .or_else(|| c.operand_words().into_iter().find(|w| w.text != "daemon"))
                    // Neither a base nor folders named: every repository on
                    // the machine, by its absolute path.
                    .unwrap_or_else(|| Word::lit("/")),
            ),
            _ => None,
        };
        let Some(dir) = root else { return };
        let p = self.norm(&dir, c.cwd());
        // The project's root, `.git` and `.env` with it, bound explicitly
        // to every interface.
        let every = words.windows(2).any(|w| {
            matches!(w[0], "--bind" | "-b" | "--host" | "--address" | "-a")
                && matches!(w[1], "0.0.0.0" | "::" | "*")
        }) || words
            .iter()
            .any(|w| matches!(*w, "--bind=0.0.0.0" | "--host=0.0.0.0"));
        if every && !dir.dynamic && self.is_workdir(&p) {
            self.block(format!(
                "serves the project's root, its .git and secrets files with it, to the network ({})",
                shown(&dir.text)
            ));
        }
        // `git daemon --enable=receive-pack`: anyone on the network pushes.
        if c.lb == "git" && words.contains(&"--enable=receive-pack") {
            self.block(
                "git daemon lets anyone on the network push into the repositories it serves",
            );
        }
        if dir.dynamic
            || paths::contains_credentials(&p)
            || paths::catastrophic_normalized(&p) && !self.inside(&p)
        {
            self.block(format!(
                "serves {} to the network (your keys and files with it)",
                shown(&dir.text)
            ));
        }
        self.ask(format!("serves {} to other machines", shown(&dir.text)));
    }
}

/// yq's file readers, called (`load("F")`, `strload(…)`, `str_load`,
/// `xml_load`, `load_base64`): any name with `load` in it followed by `(`,
/// not a field named so (`.downloads[0]`, `.load`).
fn calls_load(l: &str) -> bool {
    let ident = |ch: char| ch.is_ascii_alphanumeric() || ch == '_';
    l.match_indices("load").any(|(at, _)| {
        let start = l[..at].trim_end_matches(ident).len();
        let field = l[..start].ends_with('.');
        let rest = l[at + 4..].trim_start_matches(ident);
        !field && rest.trim_start().starts_with('(')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jq_programs_reading_the_environment() {
        assert_eq!(
            jq_env("env"),
            EnvUse {
                whole: true,
                names: vec![]
            }
        );
        assert!(jq_env("$ENV | keys").whole);
        assert_eq!(
            jq_env("env.OPENAI_API_KEY // env.X").names,
            ["OPENAI_API_KEY", "X"]
        );
        assert_eq!(
            jq_env(".token = strenv(GITHUB_TOKEN)").names,
            ["GITHUB_TOKEN"]
        );
        assert_eq!(
            jq_env("$ENV[\"AWS_SECRET_ACCESS_KEY\"]").names,
            ["AWS_SECRET_ACCESS_KEY"]
        );
        assert_eq!(
            jq_env(".envelope.environment | .env_name"),
            EnvUse::default()
        );
        assert_eq!(jq_env(".packages[].name"), EnvUse::default());
    }
}
