//! Tools that run a program inside an environment they prepare: a
//! project's virtual environment (`poetry run`, `uv run`, `pdm run`), a
//! version manager's (`mise exec`, `asdf exec`, `volta run`), a package
//! set (`nix run`, `nix shell -c`, `devbox run`), a folder's settings
//! (`direnv exec`), a container (`toolbox run`, `distrobox enter --`).
//! What they run is judged as if run directly, with the line's rest; the
//! tool itself still asks (it may install or build first).

use super::wrappers::peeled;
use super::*;

/// Where the program a runner runs starts in `argv` (the runner's name at
/// 0), with the environment settings it passes (`volta run --env K=V`).
pub(super) fn runner_inner(argv: &[&str]) -> Option<(usize, Vec<String>)> {
    let b = program_name(argv.first()?);
    // `uv --quiet run`, `pnpm --filter web exec`: the tool's own options
    // before its subcommand.
    // (Tools with no subcommand take their own options there.)
    let mut s = 1;
    let subcommanded = !matches!(
        b.as_str(),
        "uvx" | "flatpak-spawn" | "nix-shell" | "distrobox-enter"
    );
    while let Some(a) = argv.get(s).filter(|a| subcommanded && a.starts_with('-')) {
        s += if GLOBAL_VALUED.contains(a) { 2 } else { 1 };
    }
    let argv: Vec<&str> = std::iter::once(argv[0])
        .chain(argv[s.min(argv.len())..].iter().copied())
        .collect();
    let shifted = s - 1;
    let (at, env) = runner_at(&b, &argv)?;
    Some((at + shifted, env))
}

/// Global options that take the next word, across these tools.
const GLOBAL_VALUED: &[&str] = &[
    "--directory",
    "--project",
    "--cache-dir",
    "--color",
    "--config-file",
    "--python-preference",
    "--filter",
    "-F",
    "-C",
    "--dir",
    "--cwd",
    "--env",
    "-e",
];

fn runner_at(b: &str, argv: &[&str]) -> Option<(usize, Vec<String>)> {
    let sub = argv.get(1).copied().unwrap_or("");
    // Options whose value is the next word, per runner.
    let (from, valued): (usize, &[&str]) = match (b, sub) {
        ("poetry" | "pipenv" | "rye" | "hatch", "run") => {
            (2, &["-C", "--directory", "--env", "-e"])
        }
        ("pdm", "run") => (2, &["-p", "--project", "--venv"]),
        ("pixi", "run" | "exec") => (2, &["-e", "--environment", "--manifest-path"]),
        ("uv", "run") => (2, UV_VALUED),
        ("uv", "tool") if argv.get(2) == Some(&"run") => (3, UV_VALUED),
        ("uvx", _) => (1, UV_VALUED),
        ("conda" | "mamba" | "micromamba", "run") => {
            (2, &["-n", "--name", "-p", "--prefix", "--cwd"])
        }
        ("mise" | "rtx", "exec" | "x") => (2, &["-C", "--cd", "-j", "--jobs"]),
        ("asdf", "exec" | "env") => (2, &[]),
        ("volta", "run") => (
            2,
            &[
                "--node",
                "--npm",
                "--pnpm",
                "--yarn",
                "--env",
                "--bundled-npm",
            ],
        ),
        ("direnv", "exec") => (3, &[]),
        ("devbox", "run") => (2, &["-c", "--config", "-e", "--env"]),
        ("bundle" | "bundler", "exec") => (2, &["--gemfile"]),
        ("pnpm" | "yarn", "exec") => (2, &[]),
        ("toolbox", "run") => (
            2,
            &["-c", "--container", "-d", "--distro", "-r", "--release"],
        ),
        ("flatpak-spawn", _) => (1, &["--directory", "--env"]),
        ("nix", "shell" | "develop") | ("nix-shell", _) => {
            // `nix shell nixpkgs#jq -c jq …`, `--command`.
            let at = argv.iter().position(|a| matches!(*a, "-c" | "--command"))?;
            return Some((at + 1, Vec::new()));
        }
        ("distrobox", "enter") | ("distrobox-enter", _) => {
            let at = argv.iter().position(|a| *a == "--")?;
            return Some((at + 1, Vec::new()));
        }
        _ => return None,
    };
    let mut env = Vec::new();
    let mut i = from;
    while let Some(a) = argv.get(i) {
        if *a == "--" {
            i += 1;
            break;
        }
        if !a.starts_with('-') {
            break;
        }
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (*a, None),
        };
        let value = if valued.contains(&flag) && inline.is_none() {
            i += 1;
            argv.get(i).copied()
        } else {
            inline
        };
        if flag == "--env"
            && let Some(v) = value
            && v.contains('=')
        {
            env.push(v.to_string());
        }
        i += 1;
    }
    // `mise exec node@20 -- node x.js`: tools named before `--`.
    if matches!(b, "mise" | "rtx")
        && let Some(at) = argv.iter().position(|a| *a == "--")
    {
        i = at + 1;
    }
    // `hatch run test:pytest`: an environment's name before the program.
    // `uv run -` reads its script from stdin: no program of its own.
    (i < argv.len() && argv[i] != "-").then_some((i, env))
}

const UV_VALUED: &[&str] = &[
    "--python-preference",
    "--index-strategy",
    "--exclude-newer",
    "--resolution",
    "--prerelease",
    "--link-mode",
    "--refresh-package",
    "--upgrade-package",
    "--reinstall-package",
    "--no-binary-package",
    "--no-build-package",
    "--keyring-provider",
    "--config-setting",
    "--default-index",
    "--find-links",
    "-f",
    "--cache-dir",
    "--color",
    "--python-platform",
    "--allow-insecure-host",
    "--only-group",
    "--no-group",
    "--no-extra",
    "--env",
    "--with",
    "-w",
    "--with-requirements",
    "--with-editable",
    "--from",
    "--python",
    "-p",
    "--project",
    "--directory",
    "--env-file",
    "--extra",
    "--group",
    "--package",
    "--index",
    "--index-url",
    "--extra-index-url",
    "-i",
];

/// `nix run INSTALLABLE -- ARGS`: the installable's program with its
/// arguments (`nixpkgs#ngrok` runs `ngrok`).
fn nix_run_line(argv: &[&str]) -> Option<Vec<String>> {
    let b = program_name(argv.first()?);
    if b != "nix" {
        return None;
    }
    // Global options first (`--extra-experimental-features 'nix-command flakes'`).
    let mut at = 1;
    while let Some(a) = argv.get(at).filter(|a| a.starts_with('-')) {
        at += if matches!(
            *a,
            "--extra-experimental-features" | "--experimental-features"
        ) {
            2
        } else if *a == "--option" {
            3
        } else {
            1
        };
    }
    if argv.get(at) != Some(&"run") {
        return None;
    }
    let installable = argv[at + 1..].iter().find(|a| !a.starts_with('-'))?;
    let attr = installable
        .rsplit_once('#')
        .map_or(*installable, |(_, a)| a);
    let program = attr.rsplit('.').next().unwrap_or(attr);
    let mut line = vec![program.to_string()];
    if let Some(at) = argv.iter().position(|a| *a == "--") {
        line.extend(argv[at + 1..].iter().map(|a| a.to_string()));
    }
    Some(line)
}

/// `flatpak run --command=sh APP -c …` and `snap run --shell SNAP -c …`:
/// the program the sandboxed app's environment runs instead of the app,
/// with the arguments after the app's name. (The app's own program is
/// not known here: that line asks as the runner does.)
fn app_run_line(argv: &[&str]) -> Option<Vec<String>> {
    let b = program_name(argv.first()?);
    // (`flatpak --user run`: its global options take no separate value.)
    let run = 1 + argv.iter().skip(1).position(|a| !a.starts_with('-'))?;
    if !matches!(b.as_str(), "flatpak" | "snap") || argv[run] != "run" {
        return None;
    }
    let mut program = None;
    let mut i = run + 1;
    while let Some(a) = argv.get(i).filter(|a| a.starts_with('-')) {
        match a.split_once('=') {
            Some(("--command", v)) => program = Some(v.to_string()),
            _ if *a == "--command" => {
                i += 1;
                program = argv.get(i).map(|v| v.to_string());
            }
            _ if *a == "--shell" && b == "snap" => program = Some("sh".to_string()),
            // Options whose value may be the next word (`--branch stable`).
            _ if matches!(
                *a,
                "--branch"
                    | "--arch"
                    | "--runtime"
                    | "--runtime-version"
                    | "--cwd"
                    | "--env"
                    | "--filesystem"
                    | "--socket"
                    | "--share"
                    | "--device"
                    | "--talk-name"
                    | "--own-name"
                    | "--system-talk-name"
                    | "--persist"
                    | "--app-path"
                    | "--usr-path"
                    | "--instance-id-fd"
                    | "--parent-pid"
            ) =>
            {
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    let mut line = vec![program?];
    line.extend(argv.get(i + 1..)?.iter().map(|a| a.to_string()));
    Some(line)
}

/// `deno run -A jsr:@std/http/file-server / --port 80`: a registry's
/// module with its arguments, judged as the program it is named for.
fn deno_run_line(argv: &[&str]) -> Option<Vec<String>> {
    if program_name(argv.first()?) != "deno" || argv.get(1) != Some(&"run") {
        return None;
    }
    // The module is the first `jsr:` or `npm:` word, whatever options
    // and values come before it.
    let i = argv
        .iter()
        .position(|a| a.starts_with("jsr:") || a.starts_with("npm:"))?;
    let spec = argv.get(i)?;
    let module = spec
        .strip_prefix("jsr:")
        .or_else(|| spec.strip_prefix("npm:"))?;
    let name = module.trim_end_matches('/').rsplit('/').next()?;
    // `@std/http@1.0.0/file-server`, `serve@14`: no version.
    let name = name.split('@').find(|p| !p.is_empty())?;
    let mut line = vec![name.to_string()];
    line.extend(argv[i + 1..].iter().map(|a| a.to_string()));
    Some(line)
}

/// The command line a runner runs, quoted for the shell, with the
/// settings it passes in front.
pub(super) fn runner_line(argv: &[Word]) -> Option<String> {
    let words: Vec<&str> = argv.iter().map(|w| w.text.as_str()).collect();
    let (env, line) = match runner_inner(&words) {
        Some((at, env)) => (env, words[at..].iter().map(|w| w.to_string()).collect()),
        None => (
            Vec::new(),
            nix_run_line(&words)
                .or_else(|| deno_run_line(&words))
                .or_else(|| app_run_line(&words))?,
        ),
    };
    let quoted: Vec<String> = env
        .iter()
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => format!("{k}={}", crate::policy::shell::quote(v)),
            None => crate::policy::shell::quote(kv),
        })
        .chain(line.iter().map(|w| crate::policy::shell::quote(w)))
        .collect();
    Some(quoted.join(" "))
}

impl Analyzer<'_> {
    /// A program run inside a prepared environment: what blocks when run
    /// directly blocks here (`poetry run python -c '<reverse shell>'`,
    /// `uvx --from jupyterlab jupyter-lab --ip=0.0.0.0`).
    pub(super) fn runs_in_environment(&mut self, c: &Cmd<'_>) {
        let words = peeled(&c.words);
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        let Some((at, env)) = runner_inner(&texts) else {
            // `nix run pkg#prog`, `deno run jsr:…`: a program named for the package.
            if let Some(line) = runner_line(words) {
                self.block_only(|a| a.script(&line, &[], c.depth + 1));
            }
            return;
        };
        if !env.is_empty() && words.iter().all(|w| !w.dynamic) {
            // `volta run --env K=V node …`: the settings travel with it.
            if let Some(line) = runner_line(words) {
                self.block_only(|a| a.script(&line, &[], c.depth + 1));
            }
            return;
        }
        // The program is the first word left after the runner's options;
        // an option this list does not know may have taken that word as its
        // value, and then the program is the next word that is not one.
        let lb = program_name(texts[0]);
        let mut starts = vec![at];
        let mut k = at;
        while starts.len() < 3 && k > 0 && k < texts.len() && texts[k - 1].starts_with('-') {
            let mut j = k + 1;
            while j < texts.len() && texts[j].starts_with('-') {
                let valued = UV_VALUED.contains(&texts[j]) || GLOBAL_VALUED.contains(&texts[j]);
                j += if valued { 2 } else { 1 };
            }
            if j >= texts.len() {
                break;
            }
            starts.push(j);
            k = j;
        }
        for i in starts {
            let mut inner: Vec<Word> = words[i..].to_vec();
            // `uv run -m http.server`: python's module runner.
            if i == at && i > 0 && matches!(texts[i - 1], "-m" | "--module") {
                inner.splice(0..0, [Word::lit("python3"), Word::lit("-m")]);
            }
            // `hatch run test:pytest`: an environment's name before the program.
            if lb == "hatch"
                && let Some(first) = inner.first_mut()
                && let Some((_, prog)) = first.text.split_once(':')
                && !first.text.contains('/')
            {
                first.text = prog.to_string();
            }
            self.block_only(|a| a.run_words(inner, c.src, c.script, c.depth + 1));
            if self.verdict == Verdict::Block {
                return;
            }
        }
    }
}

/// A shell command line a runner runs once its environment is ready:
/// `nix-shell -p jq --run 'CMD'`, `npm exec -c 'CMD'`, `npx -c 'CMD'`,
/// `mise exec -c 'CMD'`.
pub(super) fn runner_shell_code(argv: &[Word]) -> Option<&Word> {
    let first = argv.first()?;
    let sub = argv.get(1).map(|w| w.text.as_str());
    let flags: &[&str] = match (program_name(&first.text).as_str(), sub) {
        ("nix-shell", _) => &["--run", "--command"],
        ("npm" | "pnpm", Some("exec" | "x")) | ("npx", _) => &["-c", "--call"],
        ("mise" | "rtx", Some("exec" | "x")) => &["-c", "--command"],
        _ => return None,
    };
    let at = argv.iter().position(|w| flags.contains(&w.text.as_str()))?;
    argv.get(at + 1)
}

/// `uv run -`, `bun run -`, `deno run -A -`: a script read from stdin,
/// past the tool's options and their values.
pub(super) fn runs_stdin_script(argv: &[&str]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    let b = program_name(first);
    if !matches!(b.as_str(), "uv" | "bun" | "deno") {
        return false;
    }
    let mut i = 1;
    while let Some(a) = argv.get(i).filter(|a| a.starts_with('-')) {
        i += if GLOBAL_VALUED.contains(a) { 2 } else { 1 };
    }
    if argv.get(i) != Some(&"run") {
        return false;
    }
    i += 1;
    while let Some(a) = argv.get(i) {
        let stdin = matches!(*a, "-" | "/dev/stdin" | "/proc/self/fd/0" | "/dev/fd/0");
        if stdin {
            return true;
        }
        if !a.starts_with('-') {
            return false;
        }
        let valued = UV_VALUED.contains(a)
            || matches!(
                *a,
                "-c" | "--config"
                    | "--import-map"
                    | "--location"
                    | "--cert"
                    | "--env-file"
                    | "--lock"
            );
        i += if valued && !a.contains('=') { 2 } else { 1 };
    }
    false
}

/// The program a command runs, past wrappers and environment runners
/// (`uv run env` is `env`).
pub(super) fn deep_peeled(argv: &[Word]) -> &[Word] {
    let pa = peeled(argv);
    let texts: Vec<&str> = pa.iter().map(|w| w.text.as_str()).collect();
    match runner_inner(&texts) {
        Some((at, _)) if at < pa.len() => peeled(&pa[at..]),
        _ => pa,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Option<String> {
        let words: Vec<Word> = s.split_whitespace().map(Word::lit).collect();
        runner_line(&words).map(|l| l.replace('\'', ""))
    }

    #[test]
    fn runners_hand_over_to_their_program() {
        assert_eq!(
            line("poetry run python -c x").as_deref(),
            Some("python -c x")
        );
        assert_eq!(
            line("uv run --with httpx python app.py").as_deref(),
            Some("python app.py")
        );
        assert_eq!(
            line("uvx --from jupyterlab jupyter-lab --ip=0.0.0.0").as_deref(),
            Some("jupyter-lab --ip=0.0.0.0")
        );
        assert_eq!(
            line("mise exec node@20 -- node x.js").as_deref(),
            Some("node x.js")
        );
        assert_eq!(
            line("nix run nixpkgs#ngrok -- http 7420").as_deref(),
            Some("ngrok http 7420")
        );
        assert_eq!(
            line("nix shell nixpkgs#jq -c jq .").as_deref(),
            Some("jq .")
        );
        assert_eq!(
            line("volta run --env K=V node app.js").as_deref(),
            Some("K=V node app.js")
        );
        assert_eq!(
            line("direnv exec . make test").as_deref(),
            Some("make test")
        );
        assert_eq!(
            line("deno run --allow-net jsr:@std/http/file-server / --port 80").as_deref(),
            Some("file-server / --port 80")
        );
        assert_eq!(
            line("nix --extra-experimental-features flakes run nixpkgs#hello").as_deref(),
            Some("hello")
        );
        // Not a runner: the project's own commands.
        assert_eq!(line("poetry install"), None);
        assert_eq!(line("uv pip list"), None);
    }
}
