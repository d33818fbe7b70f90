//! Read-only questions to the newer toolchains and environment managers:
//! what is installed, which version is active, what a task file defines.
//! Each is an exact subcommand with listing options only; anything that
//! resolves, installs, syncs or runs a hook is left out.

/// `lb` with `a` (its arguments) only reports.
pub(super) fn lists(lb: &str, a: &[&str]) -> bool {
    match (lb, a) {
        // What a virtual environment holds, from its files (`uv tree`
        // resolves unless told to use the lock file as it is).
        // (`--python X` runs X to ask it what it holds.)
        ("uv", ["pip", "list" | "freeze" | "show", ..]) => a[2..].iter().all(|x| {
            !x.starts_with("--index")
                && !x.starts_with("--extra-index")
                && *x != "--outdated"
                && !matches!(*x, "--python" | "-p")
                && !x.starts_with("--python=")
        }),
        ("uv", ["tree", rest @ ..]) => {
            rest.contains(&"--frozen") || rest.contains(&"--locked") && rest.contains(&"--offline")
        }
        ("uv", ["python", "list", rest @ ..]) => rest
            .iter()
            .all(|x| matches!(*x, "--only-installed" | "--all-versions")),
        (
            "uv" | "pipx" | "poetry" | "pdm" | "bun" | "deno" | "volta" | "mise" | "asdf"
            | "devbox" | "direnv" | "pyenv" | "rye" | "pixi" | "glab" | "zig" | "nix",
            ["--version" | "-V" | "version"],
        ) => true,
        ("zig", ["env"]) => true,
        // Zephyr's west: the workspace's projects from its manifest. A
        // format string reaching into Python objects (`{p.__init__…}`,
        // `[key]`) prints what they hold, not only the listing.
        ("west", ["--version" | "topdir"]) => true,
        ("west", ["list", rest @ ..]) => {
            let mut i = 0;
            let mut ok = true;
            while let Some(x) = rest.get(i) {
                let format = match *x {
                    "-f" | "--format" => {
                        i += 1;
                        rest.get(i).copied()
                    }
                    _ => x.strip_prefix("--format="),
                };
                match format {
                    Some(f) => ok &= !f.contains("__") && !f.contains('['),
                    None => ok &= !x.starts_with('-') || matches!(*x, "-a" | "--all"),
                }
                i += 1;
            }
            ok
        }
        ("adb", ["version" | "--version"]) => true,
        // A Redis server's counters and liveness (no password on the line,
        // no other command).
        ("redis-cli", rest) => {
            let mut i = 0;
            let mut ok = false;
            while let Some(x) = rest.get(i) {
                match *x {
                    "-h" | "-p" | "-n" => i += 2,
                    "INFO" | "info" | "PING" | "ping" | "DBSIZE" | "dbsize" => {
                        ok = rest[i + 1..]
                            .iter()
                            .all(|s| s.chars().all(|ch| ch.is_ascii_alphabetic()));
                        break;
                    }
                    _ => break,
                }
            }
            ok
        }
        // A data pipeline's state, from its `.dvc` files and cache (the
        // remote is compared only with `-c`/`-r`, which are not here).
        ("dvc", ["status", rest @ ..]) => rest.iter().all(|x| {
            !x.starts_with('-')
                || matches!(
                    *x,
                    "-q" | "--quiet"
                        | "-v"
                        | "--verbose"
                        | "--json"
                        | "--granular"
                        | "-R"
                        | "--recursive"
                        | "--with-deps"
                )
        }),
        ("dvc", ["metrics" | "params", "show" | "diff", rest @ ..]) => rest.iter().all(|x| {
            !x.starts_with('-')
                || matches!(
                    *x,
                    "--json"
                        | "--md"
                        | "--all"
                        | "-R"
                        | "--recursive"
                        | "--precision"
                        | "-q"
                        | "-v"
                )
        }),
        ("dvc", ["dag" | "version" | "--version" | "doctor"]) => true,
        // The desktop's settings and extensions, read (writes are `set`,
        // `write`, `load`, `install`, `enable`: not here).
        (
            "gnome-extensions",
            [
                "list" | "info" | "show" | "version" | "--version",
                rest @ ..,
            ],
        ) => rest.iter().all(|x| {
            !x.starts_with('-')
                || matches!(
                    *x,
                    "--enabled"
                        | "--disabled"
                        | "--user"
                        | "--system"
                        | "--details"
                        | "-d"
                        | "--prefs"
                        | "--updates"
                        | "--active"
                        | "--inactive"
                )
        }),
        // (The proxy's password is stored there in clear: not the whole
        // tree, nor that folder, nor a key named for a secret.)
        ("dconf", ["list" | "help", ..]) => true,
        ("dconf", ["read" | "dump", rest @ ..]) => {
            rest.iter().all(|k| {
                // (A dump of a folder above the proxy's settings prints
                // its password too: `/`, `/system/`.)
                k.starts_with('-')
                    || k.len() > 1
                        && !k.starts_with("/system/proxy")
                        && !"/system/proxy/".starts_with(*k)
                        && !super::effects::secret_setting(k)
            }) && rest.iter().any(|k| !k.starts_with('-'))
        }
        ("xdg-settings", ["get" | "check" | "--version" | "--help", ..]) => true,
        // `--file NAME` is a file under `~/.config`; a path could name any
        // INI file (a credentials file's key): not here.
        ("kreadconfig5" | "kreadconfig6", rest) => {
            let mut ok = true;
            let mut i = 0;
            while let Some(x) = rest.get(i) {
                let (flag, value) = match x.split_once('=') {
                    Some((f, v)) => (f, Some(v)),
                    None => (*x, None),
                };
                if !matches!(
                    flag,
                    "--file" | "--group" | "--key" | "--default" | "--type"
                ) {
                    ok = false;
                    break;
                }
                let value = match value {
                    Some(v) => Some(v),
                    None => {
                        i += 1;
                        rest.get(i).copied()
                    }
                };
                if flag == "--file"
                    && value.is_none_or(|v| v.contains(['/', '~']) || v.starts_with('.'))
                {
                    ok = false;
                    break;
                }
                i += 1;
            }
            ok
        }
        // Web servers' versions and build options (`php -i` prints the
        // environment, secrets with it: not here).
        ("nginx" | "openresty" | "apache2" | "httpd" | "apachectl" | "lighttpd", ["-v" | "-V"]) => {
            true
        }
        ("haproxy", ["-v" | "-vv" | "-version"]) | ("traefik", ["version" | "--version"]) => true,
        ("php" | "php-fpm", ["-v" | "--version" | "-m"]) | ("envoy", ["--version"]) => true,
        ("dotnet", ["--list-sdks" | "--list-runtimes" | "--info"]) => true,
        // The main module's path, from go.mod (`all` or a pattern would
        // load the module graph, fetching what is missing).
        ("go", ["list", "-m", rest @ ..]) => rest.iter().all(|x| matches!(*x, "-json")),
        ("pipx", ["list", rest @ ..]) => rest
            .iter()
            .all(|x| matches!(*x, "--short" | "--include-injected" | "--json")),
        ("poetry", ["show", rest @ ..]) => {
            rest.iter().all(|x| {
                matches!(
                    *x,
                    "--tree" | "--only" | "main" | "dev" | "--no-dev" | "--top-level" | "--why"
                ) || !x.starts_with('-')
            }) && !rest
                .iter()
                .any(|x| matches!(*x, "--outdated" | "-o" | "--latest" | "-l"))
        }
        ("poetry", ["env", "info" | "list", ..]) => true,
        ("pdm", ["list", rest @ ..]) => rest
            .iter()
            .all(|x| matches!(*x, "--tree" | "--graph" | "--json")),
        ("bun", ["pm", "ls", rest @ ..]) => rest.iter().all(|x| matches!(*x, "--all")),
        ("volta", ["list", ..] | ["which", _]) => true,
        ("asdf", ["current", ..] | ["list", ..] | ["where", _, ..]) => true,
        ("pyenv", ["versions" | "version" | "which", ..]) => true,
        ("direnv", ["status"]) => true,
        ("distrobox", ["list" | "ls", ..]) | ("toolbox", ["list", ..]) => true,
        ("kubectl", ["krew", "list"]) | ("kubectl", ["plugin", "list", ..]) => true,
        ("helm", ["plugin", "list" | "ls"]) => true,
        ("gh", ["extension" | "ext", "list" | "ls"]) | ("gh", ["alias", "list" | "ls"]) => true,
        // `just --list`, `--show RECIPE`: the justfile read, no recipe run.
        ("just", ["--list" | "-l" | "--summary"]) | ("just", ["--show" | "-s", _]) => true,
        ("go", ["doc", rest @ ..]) => rest
            .iter()
            .all(|x| !x.starts_with('-') || matches!(*x, "-all" | "-short" | "-src" | "-u")),
        // GPUs and their processes, queried; settings (`-pm`, `-pl`,
        // `-r`, `-c`, `-ac`, `--gpu-reset`) change them.
        ("nvidia-smi", ["dmon" | "pmon" | "topo" | "nvlink", ..]) => !a
            .iter()
            .any(|x| matches!(*x, "-f" | "--filename") || x.starts_with("--filename=")),
        ("nvidia-smi", _) => a.iter().all(|x| {
            // (`--power-limit=250` is the setting spelled with its value.)
            let x = &x.split_once('=').map_or(*x, |(name, _)| name);
            !matches!(
                *x,
                "-pm"
                    | "--persistence-mode"
                    | "-pl"
                    | "--power-limit"
                    | "-r"
                    | "--gpu-reset"
                    | "-c"
                    | "--compute-mode"
                    | "-ac"
                    | "--applications-clocks"
                    | "-rac"
                    | "-lgc"
                    | "-rgc"
                    | "-e"
                    | "--ecc-config"
                    | "-f"
                    | "--filename"
                    | "mig"
                    | "-mig"
                    | "--multi-instance-gpu"
                    | "--lock-gpu-clocks"
                    | "--reset-gpu-clocks"
                    | "-lmc"
                    | "--lock-memory-clocks"
                    | "-rmc"
                    | "--reset-memory-clocks"
                    | "--reset-applications-clocks"
                    | "-acp"
                    | "--applications-clocks-permission"
                    | "-cc"
                    | "--cuda-clocks"
                    | "-am"
                    | "--accounting-mode"
                    | "-caa"
                    | "--clear-accounted-apps"
                    | "--auto-boost-default"
                    | "--auto-boost-permission"
                    | "-p"
                    | "--reset-ecc-errors"
                    | "-dm"
                    | "--driver-model"
                    | "-fdm"
                    | "--force-driver-model"
                    | "--gom"
            )
        }),
        ("conda" | "mamba", ["env", "list"] | ["info", ..] | ["list", ..] | ["--version"]) => {
            a.iter().all(|x| !matches!(*x, "--json-output" | "--clone"))
        }
        (
            "jupyter",
            [
                "kernelspec" | "labextension" | "serverextension",
                "list",
                rest @ ..,
            ],
        ) => rest.iter().all(|x| *x == "--json"),
        ("jupyter", ["--version" | "--paths"]) => true,
        // Settings shown, named keys or all of them.
        // Named keys only: the whole configuration (and its sources) holds
        // proxy passwords and channel tokens.
        ("conda" | "mamba", ["config", "--show", rest @ ..]) => {
            rest.iter().any(|x| !x.starts_with('-'))
                && rest.iter().all(|x| {
                    *x == "--json"
                        || !x.starts_with('-')
                            && !x.contains("proxy")
                            && !x.contains("token")
                            && !x.ends_with("channels")
                            && *x != "channel_alias"
                })
        }
        // Help pages and versions of tools whose `help`/`-h` only prints.
        (
            "restic" | "borg" | "rclone" | "kopia" | "ffmpeg" | "ffprobe" | "gs" | "pandoc"
            | "magick" | "yt-dlp" | "dvc" | "mlflow" | "tensorboard" | "wandb" | "ray"
            | "kpsewhich" | "luac",
            [first, rest @ ..],
        ) if matches!(
            *first,
            "help" | "-h" | "--help" | "version" | "--version" | "-version" | "-v" | "-V"
        ) && rest.iter().all(|x| !x.starts_with('-'))
            && (rest.is_empty() || matches!(*first, "help" | "-h" | "--help")) =>
        {
            !(matches!(lb, "luac" | "ffmpeg" | "ffprobe") && *first == "-v")
        }
        // What a media toolkit was built with.
        ("ffmpeg" | "ffprobe", _) if !a.is_empty() => a.iter().all(|x| {
            matches!(
                *x,
                "-hide_banner"
                    | "-encoders"
                    | "-decoders"
                    | "-codecs"
                    | "-formats"
                    | "-muxers"
                    | "-demuxers"
                    | "-filters"
                    | "-pix_fmts"
                    | "-sample_fmts"
                    | "-layouts"
                    | "-protocols"
                    | "-bsfs"
                    | "-hwaccels"
                    | "-devices"
                    | "-buildconf"
                    | "-version"
                    | "-L"
                    | "-colors"
            )
        }),
        ("magick" | "convert" | "identify" | "mogrify" | "gm", ["-list" | "-version", ..]) => {
            a.len() <= 2 && a.iter().skip(1).all(|x| !x.starts_with('-'))
        }
        ("gm", ["version"]) => true,
        // A compiler asked what it is; it compiles nothing.
        (
            "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++",
            [
                "-dumpversion" | "-dumpfullversion" | "-dumpmachine" | "-print-multiarch"
                | "-print-search-dirs" | "--version",
            ],
        ) => true,
        // make's built-in rules and variables printed, with no makefile
        // read (`-f /dev/null`) and nothing run (`-n`).
        ("make" | "gmake", rest) if rest.windows(2).any(|w| w == ["-f", "/dev/null"]) => {
            rest.iter().all(|x| {
                matches!(
                    *x,
                    "-f" | "/dev/null"
                        | "-p"
                        | "-n"
                        | "-pn"
                        | "-np"
                        | "-q"
                        | "-r"
                        | "-R"
                        | "--print-data-base"
                        | "--dry-run"
                        | "--question"
                )
            }) && rest
                .iter()
                .any(|x| x.contains('n') || *x == "--dry-run" || *x == "-q")
        }
        // CMake's manual pages.
        // (`--help-command NAME [FILE]`, `--help-full [FILE]`: a second
        // word, or any word after a list, is a file written.)
        ("cmake", [first, rest @ ..]) if first.starts_with("--help") => {
            let takes_name = matches!(
                *first,
                "--help-command"
                    | "--help-variable"
                    | "--help-module"
                    | "--help-property"
                    | "--help-policy"
                    | "--help-manual"
            );
            rest.len() <= usize::from(takes_name) && rest.iter().all(|x| !x.starts_with('-'))
        }
        ("pandoc", _) if !a.is_empty() => a.iter().all(|x| {
            matches!(
                *x,
                "--version"
                    | "--list-input-formats"
                    | "--list-output-formats"
                    | "--list-extensions"
                    | "--list-highlight-languages"
                    | "--list-highlight-styles"
            ) || x.starts_with("--list-extensions=")
        }),
        // The graphics stack described.
        ("vulkaninfo", ["--summary"]) | ("vainfo" | "vdpauinfo", []) => true,
        ("clinfo", rest) => rest.iter().all(|x| matches!(*x, "-l" | "--list" | "-a")),
        ("glxinfo" | "eglinfo", rest) => rest
            .iter()
            .all(|x| matches!(*x, "-B" | "-l" | "-t" | "-s" | "-i")),
        // Where TeX finds a file or what a setting is.
        // (kpathsea reads the environment first: a variable's value may
        // be a secret's.)
        ("kpsewhich", rest)
            if rest.iter().any(|x| {
                (x.contains("-var-value=")
                    || x.contains("-expand-var=")
                    || x.contains("-var-brace-value=")
                    || x.contains("-expand-braces=")
                    || x.contains("-expand-path="))
                    && x.split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                        .any(|n| n.len() > 3 && super::effects::secret_var(n))
            }) =>
        {
            false
        }
        ("kpsewhich", rest) if !rest.is_empty() => rest.iter().all(|x| {
            !x.starts_with('-')
                || [
                    "-var-value=",
                    "-expand-var=",
                    "-expand-braces=",
                    "-show-path=",
                    "-format=",
                    "-progname=",
                    "-engine=",
                    "--var-value=",
                    "--show-path=",
                    "--format=",
                ]
                .iter()
                .any(|p| x.starts_with(p))
                || *x == "-all"
        }),
        ("huggingface-cli", ["scan-cache" | "env" | "whoami", ..]) => true,
        // Names the files that need formatting; rewrites nothing.
        ("zig", ["fmt", rest @ ..]) => {
            rest.contains(&"--check") && rest.iter().all(|x| !x.starts_with('-') || *x == "--check")
        }
        _ => false,
    }
}
