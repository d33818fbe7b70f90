//! Tools used only to look: a syntax check (`node --check`, `ruby -c`,
//! `nix-instantiate --parse`), a formatter's check, a build system's
//! listing of targets and options, a debugger reading a program it does
//! not run, an editor in batch mode printing a file, a database's schema
//! described. Each is read-only exactly in the spelling matched here; any
//! other option or command makes it the program it is again.

use super::*;

/// gdb and lldb commands that read a program's file without running it.
fn static_debugger_command(cmd: &str) -> bool {
    let l = lower(cmd.trim());
    let verb = l.split_whitespace().next().unwrap_or("");
    matches!(
        verb,
        "info"
            | "i"
            | "disassemble"
            | "disas"
            | "ptype"
            | "whatis"
            | "sizeof"
            | "image"
            | "quit"
            | "q"
    ) && !l.contains(['|', '!'])
        && !l.contains("attach")
}

/// vim/ex commands that print or quit.
fn vim_prints(cmd: &str) -> bool {
    let t = cmd.trim().trim_start_matches(':');
    // `g/PATTERN/p`: each matching line printed (no `|` to chain more).
    if let Some(rest) = t.strip_prefix("g").or_else(|| t.strip_prefix("v")) {
        let rest = rest.strip_prefix('!').unwrap_or(rest);
        if let Some(delim) = rest.chars().next().filter(|d| "/#;".contains(*d))
            && !t.contains('|')
        {
            // The pattern ends at the first delimiter not escaped; all
            // that follows must be the print command alone.
            let body = &rest[1..];
            let mut escaped = false;
            let end = body.char_indices().find_map(|(i, ch)| {
                let hit = ch == delim && !escaped;
                escaped = ch == '\\' && !escaped;
                hit.then_some(i)
            });
            return end.is_some_and(|e| {
                matches!(
                    &body[e + 1..],
                    "p" | "print" | "nu" | "number" | "#" | "l" | "list"
                )
            });
        }
    }
    let body =
        t.trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '%' | ',' | '$' | '.'));
    matches!(
        body,
        "p" | "print"
            | "nu"
            | "number"
            | "#"
            | "l"
            | "list"
            | "q"
            | "q!"
            | "qa"
            | "qa!"
            | "quit"
            | "quitall"
            | "cq"
    )
}

/// PowerShell cmdlets that only read or shape what they read.
const PWSH_READERS: &[&str] = &[
    "get-content",
    "gc",
    "cat",
    "type",
    "get-childitem",
    "gci",
    "ls",
    "dir",
    "get-item",
    "gi",
    "test-path",
    "select-string",
    "sls",
    "measure-object",
    "select-object",
    "select",
    "sort-object",
    "sort",
    "format-table",
    "ft",
    "format-list",
    "fl",
    "get-location",
    "pwd",
    "resolve-path",
    "split-path",
    "join-path",
    "get-filehash",
    "out-string",
    "write-output",
    "echo",
];

/// A debugger in batch mode given one program and only commands that read
/// it: the program, to be checked against the read set.
fn debugger_reads(c: &Cmd<'_>, batch: &[&str], options: &[&str]) -> Option<Vec<Word>> {
    let (cmds, positional) = super::debuggers::debugger_line(&c.args);
    let batched = c.args.iter().any(|x| batch.contains(&x.as_str()));
    let only = c.args.iter().all(|x| {
        !x.starts_with('-') || batch.contains(&x.as_str()) || options.contains(&x.as_str())
    });
    let reads = batched
        && only
        && positional.len() == 1
        && !cmds.is_empty()
        && cmds.iter().all(|x| static_debugger_command(x));
    reads.then(|| {
        c.words
            .iter()
            .skip(1)
            .filter(|w| positional.contains(&w.text))
            .cloned()
            .collect()
    })
}

/// Reads of containers, clusters, IaC and cloud state that show what is
/// there, not secrets (`docker ps`, `kubectl get pods`, `terraform
/// validate`), in exactly these spellings.
fn infra_reads(lb: &str, a: &[&str]) -> bool {
    let flags_ok = |from: usize, ok: &[&str]| {
        a[from.min(a.len())..]
            .iter()
            .all(|x| !x.starts_with('-') || ok.iter().any(|o| x == o || eq_value(x, o).is_some()))
    };
    // Options that only say where the project is (`terraform -chdir=infra
    // plan`, `docker compose -f dev.yml config`): the same reads after them.
    if let Some((first, rest)) = a.split_first()
        && (matches!(lb, "terraform" | "tofu") && first.starts_with("-chdir=")
            || *first == "compose" && rest.first().is_some_and(|x| x.starts_with('-')))
    {
        let mut k = 0;
        if *first == "compose" {
            while let Some(x) = rest.get(k) {
                match *x {
                    "-f" | "--file" | "-p" | "--project-name" | "--project-directory" => k += 2,
                    x if ["--file=", "--project-name=", "--project-directory="]
                        .iter()
                        .any(|p| x.starts_with(p)) =>
                    {
                        k += 1
                    }
                    _ => break,
                }
            }
            if k == 0 || k >= rest.len() {
                return false;
            }
            let again: Vec<&str> = std::iter::once("compose")
                .chain(rest[k..].iter().copied())
                .collect();
            return infra_reads(lb, &again);
        }
        return infra_reads(lb, rest);
    }
    match (lb, a) {
        ("docker" | "podman" | "nerdctl", [sub, rest @ ..]) => match *sub {
            "logs" => flags_ok(
                1,
                &["--tail", "-n", "--since", "--until", "-t", "--timestamps"],
            ),
            "stats" => {
                rest.contains(&"--no-stream")
                    && flags_ok(1, &["--no-stream", "--format", "-a", "--all"])
            }
            "inspect" => {
                // A chosen field, not the whole config (its environment holds secrets).
                let format = a
                    .iter()
                    .position(|x| *x == "--format" || *x == "-f")
                    .and_then(|i| a.get(i + 1));
                format.is_some_and(|f| f.contains("{{") && inspect_fields_plain(f))
                    && flags_ok(1, &["--format", "-f", "--type"])
            }
            "image" | "network" | "volume" | "container" | "system" => {
                matches!(rest, ["ls" | "history" | "df", ..])
                    && flags_ok(
                        2,
                        &[
                            "--filter",
                            "-f",
                            "--format",
                            "--no-trunc",
                            "-q",
                            "--quiet",
                            "-a",
                            "--all",
                        ],
                    )
            }
            "compose" => {
                matches!(rest, ["version"] | ["version", "--short"])
                    || matches!(rest, ["config", ..] | ["ps", ..] | ["ls", ..])
                        && flags_ok(
                            2,
                            &[
                                "--services",
                                "--volumes",
                                "--images",
                                "-q",
                                "--quiet",
                                "-a",
                                "--all",
                                "--format",
                            ],
                        )
            }
            _ => false,
        },
        ("kubectl" | "oc", [first, ..]) if first.starts_with('-') => {
            // `kubectl -n staging get pods`: the namespace or context chosen
            // first, then the same reads.
            let mut i = 0;
            while let Some(x) = a.get(i) {
                match *x {
                    "-n" | "--namespace" | "--context" | "--cluster" => i += 2,
                    x if ["--namespace=", "--context=", "--cluster="]
                        .iter()
                        .any(|p| x.starts_with(p))
                        || x.starts_with("-n") && x.len() > 2 =>
                    {
                        i += 1
                    }
                    "-A" | "--all-namespaces" => i += 1,
                    _ => break,
                }
            }
            i > 0 && i < a.len() && !a[i].starts_with('-') && infra_reads(lb, &a[i..])
        }
        ("kubectl" | "oc", [sub, rest @ ..]) => {
            // A secret's name is not its value: `get secrets` lists names;
            // any output format or template might print the values.
            let secret = a.iter().any(|x| lower(x).contains("secret"))
                && (*sub != "get"
                    || a.iter().any(|x| {
                        x.starts_with("-o")
                            || x.starts_with("--output")
                            || x.starts_with("--template")
                    }));
            match *sub {
                // (`cluster-info dump --output-directory D` writes D.)
                "cluster-info" if rest.iter().any(|x| x.starts_with("--output-directory")) => false,
                "get" | "describe" | "logs" | "top" | "explain" | "api-resources"
                | "cluster-info" | "kustomize" => {
                    // (A kubeconfig's `users[].exec` and kustomize's exec
                    // plugins are programs run.)
                    !secret
                        && !rest.iter().any(|x| {
                            x.starts_with("--raw")
                                || x.starts_with("--kubeconfig")
                                || x.starts_with("--enable-exec")
                                || x.starts_with("--enable-alpha-plugins")
                                // kustomize's helm runs a program; a load
                                // restrictor lifted reads files anywhere.
                                || x.starts_with("--enable-helm")
                                || x.starts_with("--helm-command")
                                || x.starts_with("--load-restrictor")
                                || x.starts_with("--server")
                                || x.starts_with("-s")
                                || *x == "-f"
                                || *x == "--follow"
                                || *x == "-w"
                                || *x == "--watch"
                        })
                }
                "auth" => rest.first() == Some(&"can-i"),
                "config" => matches!(
                    rest,
                    ["current-context"] | ["get-contexts", ..] | ["get-clusters"]
                ),
                _ => false,
            }
        }
        ("helm", [sub, rest @ ..]) => {
            matches!(
                *sub,
                "list" | "ls" | "template" | "lint" | "show" | "search" | "history" | "status"
            ) && !rest.iter().any(|x| {
                // (`--dry-run=server`: the chart's `lookup` reads the live
                // cluster, its secrets too.)
                // A kubeconfig's `users[].exec` is a program run (as
                // kubectl's); `--output-dir` writes the rendered files.
                x.starts_with("--post-renderer")
                    || x.starts_with("--dry-run")
                    || x.starts_with("--kube-apiserver")
                    || x.starts_with("--kubeconfig")
                    || x.starts_with("--output-dir")
            })
        }
        ("kind", ["get", "clusters" | "nodes", ..])
        | ("minikube", ["status" | "profile" | "ip", ..]) => true,
        ("terraform" | "tofu", [sub, rest @ ..]) => match *sub {
            "validate" | "providers" | "version" | "graph" => true,
            "fmt" => {
                rest.iter().any(|x| *x == "-check" || *x == "--check")
                    && !rest.contains(&"-write=true")
            }
            // `-json` and `state show` print the state's values, secrets too.
            // (Go's flags take one or two dashes and `=true`.)
            "show" => !rest
                .iter()
                .any(|x| x.trim_start_matches('-').starts_with("json")),
            "state" => matches!(rest, ["list", ..]),
            _ => false,
        },
        // An inventory that is a script (`-i ./inv.sh`) is run; only
        // data files and inline host lists are read.
        // (A script as the inventory runs even to list hosts; with no
        // `-i`, ansible.cfg names the inventory, which may be one, and the
        // inventory is all this command reads.)
        ("ansible-inventory", _) => {
            a.contains(&"--graph")
                && !a.contains(&"--vars")
                && a.iter().any(|x| {
                    matches!(*x, "-i" | "--inventory" | "--inventory-file")
                        || x.starts_with("--inventory=")
                })
                && inventories_are_data(a)
        }
        ("ansible-playbook", _) => {
            a.iter().any(|x| {
                matches!(
                    *x,
                    "--syntax-check" | "--list-tasks" | "--list-hosts" | "--list-tags"
                )
            }) && inventories_are_data(a)
        }
        ("flatpak", ["list" | "info", ..]) | ("snap", ["list" | "info", ..]) => true,
        ("gcloud", ["config", "list", ..]) | ("doctl", ["version"]) | ("az", ["version"]) => true,
        ("aws", ["configure", "list", ..]) => true,
        // One setting that is no key (`region`, `output`).
        ("aws", ["configure", "get", name, ..]) => {
            let l = lower(name);
            !["key", "secret", "token", "password", "credential"]
                .iter()
                .any(|k| l.contains(k))
        }
        ("ssh-add", ["-l" | "-L"]) => true,
        ("ssh", ["-G", host]) => !host.starts_with('-'),
        ("act", ["-l" | "--list", ..]) => true,
        // The desktop's devices, listed or described (not their events).
        ("v4l2-ctl", [_, ..]) => a.iter().all(|x| {
            matches!(
                *x,
                "--list-devices" | "--list-formats-ext" | "--all" | "--info" | "--list-ctrls"
            ) || x.starts_with("--device=")
                || x.starts_with("/dev/video")
                || *x == "-d"
        }),
        ("xinput", [] | ["list" | "--list" | "list-props" | "--list-props", ..])
        | ("lpstat" | "lpq", _)
        | (
            "pactl",
            [
                "list" | "info" | "get-default-sink" | "get-default-source",
                ..,
            ],
        )
        | ("wpctl", ["status" | "inspect", ..]) => true,
        _ => false,
    }
}

impl Analyzer<'_> {
    /// Read-only uses of tools that otherwise build, run or change things;
    /// `None` when `c` is not one.
    pub(super) fn tool_inspects(&mut self, c: &Cmd<'_>) -> Option<bool> {
        // `2>&1` and `2>/dev/null` change where the report goes, not what it reads.
        let quiet = |r: &Redirect| !r.writes_file() && r.body.is_none() && !r.op.contains('<');
        if c.words[0].text.contains('/') || !c.src.redirects.iter().all(quiet) || self.env_changed {
            return None;
        }
        let a: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let operands = |from: usize| -> Vec<Word> {
            c.words
                .iter()
                .skip(1 + from)
                .filter(|w| !w.text.starts_with('-'))
                .cloned()
                .collect()
        };
        let files = match (c.lb.as_str(), a.as_slice()) {
            // Syntax checks: parsed, never run.
            ("node", ["--check" | "-c", _]) | ("ruby", ["-c" | "-wc", _]) => operands(0),
            // An APK described: its manifest, files, resources, sizes.
            ("apkanalyzer", [group, sub, rest @ ..])
                if matches!(*group, "manifest" | "apk" | "files" | "dex" | "resources")
                    && !matches!(*sub, "compare")
                    && rest.iter().all(|x| {
                        !x.starts_with('-') || matches!(*x, "--human-readable" | "-h")
                    }) =>
            {
                operands(2)
            }
            // A certificate file described (a URL would be a connection).
            ("step", ["certificate", "inspect", rest @ ..])
                if rest.iter().all(|x| {
                    matches!(
                        *x,
                        "--short" | "--bundle" | "--format" | "json" | "text" | "pem"
                    ) || !x.starts_with('-') && !x.contains("://")
                }) =>
            {
                operands(2)
                    .into_iter()
                    .filter(|w| !matches!(w.text.as_str(), "json" | "text" | "pem"))
                    .collect()
            }
            ("nix-instantiate", ["--parse", rest @ ..])
                if rest.iter().all(|x| !x.starts_with('-')) =>
            {
                operands(1)
            }
            // Formatters and linters that report, not rewrite.
            // (ruff: no cache written, no fix a setting could turn on.)
            // (Settings before them, `RUFF_OUTPUT_FILE=…`, may write.)
            ("rustfmt", [..]) if a.contains(&"--check") && c.assigns.is_empty() => {
                let mut files = Vec::new();
                let mut i = 0;
                while i < a.len() {
                    match a[i] {
                        "--check" | "-q" | "--quiet" | "-l" | "--files-with-diff" => {}
                        "--edition" => i += 1,
                        x if x.starts_with("--edition=") => {}
                        x if !x.starts_with('-') => files.extend(c.arg_word(i).cloned()),
                        _ => return None,
                    }
                    i += 1;
                }
                files
            }
            ("ruff", ["check", rest @ ..])
                if c.assigns.is_empty()
                    && rest.contains(&"--no-cache")
                    && rest.contains(&"--no-fix")
                    && rest.iter().all(|x| {
                        !x.starts_with('-')
                            || matches!(
                                *x,
                                "--no-cache"
                                    | "--no-fix"
                                    | "-q"
                                    | "--quiet"
                                    | "--statistics"
                                    | "--show-fixes"
                                    | "--diff"
                            )
                    }) =>
            {
                operands(1)
            }
            // A binary's build information (`-m`), or the toolchain's.
            ("go", ["version", rest @ ..])
                if c.assigns.is_empty()
                    && rest
                        .iter()
                        .all(|x| !x.starts_with('-') || matches!(*x, "-m" | "-v")) =>
            {
                operands(1)
            }
            ("deno", ["fmt", rest @ ..]) if rest.contains(&"--check") => {
                if rest
                    .iter()
                    .any(|x| x.starts_with('-') && !matches!(*x, "--check" | "--quiet" | "-q"))
                {
                    return None;
                }
                operands(1)
            }
            ("deno", ["lint", rest @ ..])
                if rest.iter().all(|x| !x.starts_with('-') || *x == "--quiet") =>
            {
                operands(1)
            }
            // Build systems listing what they know.
            // (ninja runs the first `-t` tool it is given.)
            ("ninja", _)
                if a.windows(2).find(|w| w[0] == "-t").is_some_and(|w| {
                    matches!(
                        w[1],
                        "targets" | "query" | "commands" | "deps" | "inputs" | "rules" | "graph"
                    )
                }) && a
                    .iter()
                    .all(|x| !x.starts_with('-') || matches!(*x, "-t" | "-C" | "-f")) =>
            {
                vec![]
            }
            ("cmake", _)
                if a.contains(&"-N")
                    && a.iter().all(|x| {
                        matches!(*x, "-N" | "-L" | "-LA" | "-LH" | "-LAH") || !x.starts_with('-')
                    }) =>
            {
                vec![]
            }
            ("meson", ["introspect", ..]) | ("ansible-doc", _) => vec![],
            ("npm", ["pkg", "get", ..]) => vec![],
            // dc doing arithmetic: `!` would run a command.
            // (`?` runs a line of input as dc code.)
            ("dc", ["-e" | "--expression", expr]) if !expr.contains(['!', '?']) => vec![],
            ("psql", _) => return self.psql_describes(c),
            ("gdb" | "gdb-multiarch", _) => debugger_reads(
                c,
                &["-batch", "--batch"],
                &["-ex", "--eval-command", "-q", "-nx", "--nx"],
            )?,
            ("lldb", _) => debugger_reads(c, &["-b", "--batch"], &["-o", "--one-line", "-x"])?,
            ("vim" | "nvim" | "ex" | "vi", _) => {
                let silent = a.contains(&"-es") || (a.contains(&"-e") && a.contains(&"-s"));
                let mut i = 0;
                let mut files = Vec::new();
                while i < a.len() {
                    match a[i] {
                        "-es" | "-e" | "-s" | "-n" | "-R" | "--clean" => {}
                        "-u" | "-i" if a.get(i + 1) == Some(&"NONE") => i += 1,
                        "-c" | "--cmd" if a.get(i + 1).is_some_and(|x| vim_prints(x)) => i += 1,
                        x if !x.starts_with('-') && !x.starts_with('+') => {
                            files.extend(c.arg_word(i).cloned());
                        }
                        _ => return None,
                    }
                    i += 1;
                }
                if !silent {
                    return None;
                }
                files
            }
            ("pwsh" | "powershell", _) => return self.pwsh_reads(c),
            // (`LEDGER_FILE=…`, `HOME=…` before them choose what they read.)
            ("ledger" | "hledger", _) if c.assigns.is_empty() => {
                match super::accounting::ledger_reads(c) {
                    Some(files) => files,
                    None => {
                        // Not a report: its journals are still read (a key
                        // named as one is a key read).
                        for f in super::accounting::journal_files(c) {
                            self.read_path(&f, c.cwd());
                        }
                        return None;
                    }
                }
            }
            // Container images, Android packages and their signatures
            // printed.
            ("apptainer" | "singularity", ["inspect", rest @ ..])
                if rest
                    .iter()
                    .all(|x| !x.starts_with('-') || x.starts_with("--") && !x.contains('=')) =>
            {
                operands(1)
            }
            ("aapt" | "aapt2", ["dump", ..]) => operands(2),
            ("apksigner", ["verify", rest @ ..])
                if rest.iter().all(|x| {
                    !x.starts_with('-')
                        || matches!(
                            *x,
                            "--print-certs" | "--verbose" | "-v" | "--print-certs-pem"
                        )
                }) =>
            {
                operands(1)
            }
            (
                "keytool",
                ["-printcert", "-jarfile" | "-file", _]
                | ["-printcert", "-rfc", "-jarfile" | "-file", _],
            ) => operands(0),
            // Saved captures read back (`-r`): filters, statistics and
            // fields chosen; no live interface, no `-w`, no Lua (`-X`), no
            // preferences (`-o`).
            ("tshark", _) if a.contains(&"-r") && c.assigns.is_empty() => {
                super::packet_reads::tshark_reads(c)?
            }
            ("capinfos", rest)
                if c.assigns.is_empty()
                    && rest
                        .iter()
                        .all(|x| x.len() == 2 && x.starts_with('-') || !x.starts_with('-')) =>
            {
                operands(0)
            }
            // A firmware image's header printed.
            ("esptool" | "esptool.py", ["image_info" | "image-info", rest @ ..])
                if rest
                    .iter()
                    .all(|x| !x.starts_with('-') || *x == "--version") =>
            {
                operands(1)
            }
            (lb, _) if infra_reads(lb, &a) => vec![],
            // Settings before them (`PYENV_HOOK_PATH=…`) change what they run.
            (lb, _) if c.assigns.is_empty() && super::toolchain_lists::lists(lb, &a) => vec![],
            (lb, _) if c.assigns.is_empty() && super::system_queries::queries(lb, &a) => vec![],
            (lb, _) if c.assigns.is_empty() && super::terminal_queries::queries(lb, &a) => {
                vec![]
            }
            ("hadolint" | "shellcheck" | "yamllint" | "actionlint", _)
                if a.iter().all(|x| {
                    !x.starts_with('-') || matches!(*x, "-f" | "--format" | "tty" | "json")
                }) =>
            {
                operands(0)
            }
            // `yamllint -d relaxed -f parsable F`: a preset or a format named.
            ("yamllint", _)
                if a.windows(2).all(|w| {
                    !matches!(w[0], "-d" | "--config-data") || matches!(w[1], "relaxed" | "default")
                }) && a.iter().all(|x| {
                    !x.starts_with('-')
                        || matches!(
                            *x,
                            "-d" | "--config-data"
                                | "-f"
                                | "--format"
                                | "-s"
                                | "--strict"
                                | "--no-warnings"
                        )
                }) =>
            {
                operands(0)
                    .into_iter()
                    .filter(|w| {
                        !matches!(
                            w.text.as_str(),
                            "relaxed"
                                | "default"
                                | "parsable"
                                | "standard"
                                | "colored"
                                | "github"
                                | "auto"
                        )
                    })
                    .collect()
            }
            // Notebooks read and shown, no cell run.
            ("h5ls", _)
                if a.iter()
                    .all(|x| !x.starts_with('-') || matches!(*x, "-r" | "-v" | "--recursive")) =>
            {
                operands(0)
            }
            ("nbdiff" | "nbshow", _) if a.iter().all(|x| !x.starts_with('-')) => operands(0),
            ("jupyter", ["nbconvert", rest @ ..])
                if rest.contains(&"--stdout")
                    && rest.iter().all(|x| {
                        !x.starts_with('-')
                            || matches!(*x, "--stdout" | "--to")
                            || x.starts_with("--to=")
                    }) =>
            {
                operands(1)
                    .into_iter()
                    .filter(|w| w.text.ends_with(".ipynb"))
                    .collect()
            }
            _ => super::media_tools::media_reads(c)
                .or_else(|| super::data_tools::data_reads(c))
                .or_else(|| {
                    c.assigns
                        .is_empty()
                        .then(|| super::virt_queries::vm_reads(c))
                        .flatten()
                })?,
        };
        let mut read_only = true;
        for w in &files {
            read_only &= self.read_path(w, c.cwd());
        }
        Some(read_only)
    }

    /// `psql … -c '\d users'`: backslash commands that describe the
    /// database (`\d`, `\dt`, `\l`, `\dn`…), nothing that writes, runs a
    /// shell (`\!`) or a file (`\i`), or sends output elsewhere (`\o`).
    fn psql_describes(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let a = &c.args;
        let mut described = false;
        let mut i = 0;
        while i < a.len() {
            // `-Atc SQL`: display flags bundled before `-c`.
            let bundled_c = short_flags(&a[i]).is_some_and(|f| {
                f.len() > 1
                    && f.ends_with('c')
                    && f[..f.len() - 1].chars().all(|ch| "AtqXw".contains(ch))
            });
            match a[i].as_str() {
                x if x == "-c" || x == "--command" || bundled_c => {
                    let cmd = a.get(i + 1)?.trim();
                    // (`\lo_export`, `\lo_import` move files: not a listing.)
                    let word = cmd.split_whitespace().next().unwrap_or("");
                    let meta = (word.starts_with("\\d")
                        || matches!(word, "\\l" | "\\l+" | "\\list" | "\\list+"))
                        && !cmd.contains(['|', ';', '!'])
                        && !cmd[1..].contains('\\');
                    if !meta {
                        return None;
                    }
                    described = true;
                    i += 1;
                }
                "-d" | "--dbname" | "-h" | "--host" | "-p" | "--port" | "-U" | "--username" => {
                    i += 1
                }
                "-X" | "-A" | "-t" | "-q" | "--no-psqlrc" | "-w" | "--no-password" => {}
                x if !x.starts_with('-') => {}
                _ => return None,
            }
            i += 1;
        }
        described.then_some(true)
    }

    /// `pwsh -c 'Get-Content ./README.md -TotalCount 20'`: a pipeline of
    /// reading cmdlets over files the read set allows.
    fn pwsh_reads(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let a = &c.args;
        let at = a
            .iter()
            .position(|x| matches!(lower(x).as_str(), "-c" | "-command"))?;
        if a[..at].iter().any(|x| {
            !matches!(
                lower(x).as_str(),
                "-noprofile" | "-nop" | "-noninteractive" | "-nologo"
            )
        }) || a.len() != at + 2
        {
            return None;
        }
        let code = &a[at + 1];
        if code.contains(['$', ';', '&', '{', '(', '`', '>', '<', '@']) {
            return None;
        }
        let mut read_only = true;
        for stage in code.split('|') {
            let words: Vec<&str> = stage.split_whitespace().collect();
            let cmdlet = lower(words.first()?);
            if !PWSH_READERS.contains(&cmdlet.as_str()) {
                return None;
            }
            let mut skip = false;
            for w in &words[1..] {
                if skip {
                    skip = false;
                    continue;
                }
                if w.starts_with('-') {
                    // A parameter's value follows unless it is a switch;
                    // a path parameter's value is a path read.
                    let l = lower(w);
                    let path_param = matches!(
                        l.as_str(),
                        "-path" | "-literalpath" | "-lp" | "-pspath" | "-filepath"
                    );
                    skip = !path_param
                        && !matches!(
                            l.as_str(),
                            "-recurse"
                                | "-force"
                                | "-raw"
                                | "-name"
                                | "-file"
                                | "-directory"
                                | "-simplematch"
                        );
                    continue;
                }
                let p = w.trim_matches(['\'', '"']);
                // A provider's drive (`env:`, `variable:`, `cert:`, the
                // registry's) is not a file: `gc env:GITHUB_TOKEN`.
                let drive = lower(p);
                if let Some((name, rest)) = drive.split_once(':')
                    && name.len() > 1
                    && name.chars().all(|ch| ch.is_ascii_alphanumeric())
                {
                    if name == "env"
                        && super::effects::secret_var(rest.trim_start_matches(['/', '\\']))
                    {
                        self.block(format!(
                            "prints the secret variable {} (PowerShell's env: drive)",
                            &p[4..]
                        ));
                    }
                    return None;
                }
                // PowerShell expands `~` itself, and reads `\` as `/`.
                let p = super::script_opts::expanded(&p.replace('\\', "/"));
                read_only &= self.read_path(&p, c.cwd());
            }
        }
        Some(read_only)
    }
}

/// A `docker inspect` template naming only fields that hold no secrets:
/// not the environment, and of the config only the image, labels and the
/// like (`.Config.Env` and the whole `.Config` hold tokens).
fn inspect_fields_plain(f: &str) -> bool {
    let l = lower(f);
    if l.contains("env") {
        return false;
    }
    // Each action names one field path (`.State.Status`, `json .Mounts`,
    // `range .NetworkSettings.Networks` … `end`): not the whole object
    // (`.`, `json .`) and no function that reaches any field (`index`).
    let plain_actions = l.split("{{").skip(1).all(|action| {
        let inner = action.split("}}").next().unwrap_or("");
        let words: Vec<&str> = inner.trim().trim_matches('-').split_whitespace().collect();
        let path = |p: &str| p.starts_with('.') && p.len() > 1;
        match words.as_slice() {
            ["end"] => true,
            [p] | ["json" | "range", p] => path(p),
            _ => false,
        }
    });
    // A swarm service's spec holds its containers' environment and
    // secrets' names below `.Spec.TaskTemplate.ContainerSpec`.
    if !plain_actions
        || l.split("{{").skip(1).any(|action| {
            let inner = action.split("}}").next().unwrap_or("");
            let path = inner.split_whitespace().last().unwrap_or("");
            path == ".spec"
                || path.starts_with(".spec.tasktemplate")
                || path.starts_with(".containerspec")
        })
    {
        return false;
    }
    l.match_indices(".config").all(|(i, m)| {
        let rest = &l[i + m.len()..];
        let field: String = rest
            .strip_prefix('.')
            .unwrap_or("")
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        matches!(
            field.as_str(),
            "image" | "labels" | "workingdir" | "user" | "hostname" | "exposedports" | "stopsignal"
        )
    })
}

/// Every inventory ansible is given is data (a file of hosts, an inline
/// list), not a script it would run to list them.
fn inventories_are_data(a: &[&str]) -> bool {
    a.iter().enumerate().all(|(k, x)| {
        let value = if matches!(*x, "-i" | "--inventory" | "--inventory-file") {
            a.get(k + 1).copied()
        } else {
            x.strip_prefix("--inventory=")
        };
        value.is_none_or(|v| {
            let l = lower(v);
            !l.contains('$')
                && (l.contains(',')
                    || [".ini", ".yml", ".yaml", ".json", ".toml", ".cfg"]
                        .iter()
                        .any(|e| l.ends_with(e)))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looking_is_told_from_doing() {
        assert!(static_debugger_command("info functions ^main$"));
        assert!(static_debugger_command("disassemble main"));
        assert!(static_debugger_command("image lookup -n main"));
        assert!(!static_debugger_command("run"));
        assert!(!static_debugger_command("call system(\"id\")"));
        assert!(!static_debugger_command("target remote :1234"));
        assert!(!static_debugger_command("target rem | id"));
        assert!(!static_debugger_command("list main"));
        assert!(vim_prints("%print"));
        assert!(vim_prints("qa!"));
        assert!(!vim_prints("!id"));
        assert!(!vim_prints("w /tmp/x"));
    }
}
