//! A secret file named into what the line then publishes: `.env` added
//! to package.json's `files` before `npm publish`, a Dockerfile written
//! to `COPY .env` before `docker push`. The publish sends the file to
//! everyone who can fetch the package or the image.

use super::*;

/// (program, subcommand) pairs that send a package, an image or release
/// files to a registry.
const PUBLISHERS: &[(&str, &str)] = &[
    ("npm", "publish"),
    ("pnpm", "publish"),
    ("yarn", "publish"),
    ("bun", "publish"),
    ("twine", "upload"),
    ("cargo", "publish"),
    ("gem", "push"),
    ("docker", "push"),
    ("podman", "push"),
    ("buildah", "push"),
    ("gh", "release"),
    ("poetry", "publish"),
    ("flit", "publish"),
    ("hatch", "publish"),
    ("uv", "publish"),
    ("helm", "push"),
    ("vsce", "publish"),
    ("ovsx", "publish"),
    ("dotnet", "nuget"),
    ("mvn", "deploy"),
    ("gradle", "publish"),
    ("gradlew", "publish"),
];

/// Files that say what a package or an image holds.
fn manifest(path: &str) -> bool {
    let name = program_name(path);
    name.starts_with("dockerfile")
        || name.starts_with("containerfile")
        || name.ends_with(".dockerfile")
        || name.ends_with(".gemspec")
        || matches!(
            name.as_str(),
            "package.json"
                | "manifest.in"
                | "pyproject.toml"
                | "setup.py"
                | "setup.cfg"
                | "cargo.toml"
        )
}

/// The program a command runs and its first argument that is no option,
/// past `python -m` and `npx`.
fn program_and_verb(argv: &[Word]) -> Option<(String, String)> {
    let mut words: Vec<&str> = argv.iter().map(|w| w.text.as_str()).collect();
    let first = program_name(words.first()?);
    if first.starts_with("python") && words.get(1) == Some(&"-m") {
        words.drain(..2);
    } else if matches!(first.as_str(), "npx" | "bunx" | "pnpx") {
        words.remove(0);
    }
    let b = program_name(words.first()?);
    let verb = words
        .iter()
        .skip(1)
        .find(|w| !w.starts_with('-'))
        .unwrap_or(&"");
    Some((b, verb.to_string()))
}

impl Analyzer<'_> {
    pub(super) fn secret_published(&mut self, script: &Script) {
        // Leave at once when nothing on the line could publish.
        let hint = |t: &str| {
            matches!(
                t,
                "publish" | "upload" | "push" | "deploy" | "release" | "nuget" | "--push"
            )
        };
        if !script
            .commands
            .iter()
            .any(|k| k.argv.iter().any(|w| hint(&w.text)))
        {
            return;
        }
        let publishes = script.commands.iter().any(|c| {
            let argv = peeled(&c.argv);
            let Some((b, verb)) = program_and_verb(argv) else {
                return false;
            };
            // `docker build --push`, `docker buildx build --push`.
            let pushes = matches!(b.as_str(), "docker" | "podman" | "buildah")
                && argv.iter().any(|w| w.text == "--push");
            pushes || PUBLISHERS.iter().any(|(p, sub)| *p == b && *sub == verb)
        });
        if !publishes {
            return;
        }
        // Files a build is told are its Dockerfile (`docker build -f F`).
        let build_files: Vec<String> = script
            .commands
            .iter()
            .flat_map(|k| k.argv.windows(2))
            .filter(|w| matches!(w[0].text.as_str(), "-f" | "--file"))
            .map(|w| w[1].text.clone())
            .collect();
        for c in &script.commands {
            let argv = peeled(&c.argv);
            // What the command writes: a redirect's file, tee's, `sed -i`'s.
            let mut targets: Vec<String> = c
                .redirects
                .iter()
                .filter(|r| r.writes_file())
                .map(|r| r.target.text.clone())
                .collect();
            let b = argv
                .first()
                .map(|w| program_name(&w.text))
                .unwrap_or_default();
            if b == "tee" || b == "sed" && argv.iter().any(|w| w.text.starts_with("-i")) {
                targets.extend(
                    argv.iter()
                        .skip(1)
                        .filter(|w| !w.text.starts_with('-'))
                        .map(|w| w.text.clone()),
                );
            }
            // An ignore file keeps a secret out (`echo .env >> .npmignore`).
            targets.retain(|t| !base_name(t).ends_with("ignore"));
            if targets.is_empty() {
                continue;
            }
            // A manifest written, or edited into a file that replaces it
            // (`jq '.files += [".env"]' package.json > p.tmp`).
            let about_manifest = targets
                .iter()
                .any(|t| manifest(t) || build_files.contains(t))
                || argv.iter().skip(1).any(|w| manifest(&w.text));
            if !about_manifest {
                continue;
            }
            // Its words, what it is fed, and for `tee` what the pipe carries.
            let piped: &[Word] = match c.stdin_from.and_then(|i| script.commands.get(i)) {
                Some(up) if b == "tee" => &up.argv,
                _ => &[],
            };
            let texts = argv
                .iter()
                .skip(1)
                .chain(piped.iter())
                .chain(c.redirects.iter().filter_map(|r| r.body.as_ref()));
            let named = texts.into_iter().find_map(|w| {
                let l = lower(&w.text);
                // (`exclude .env`, `!.env`: kept out.)
                if l.contains("exclude") || l.contains("prune") {
                    return None;
                }
                w.text
                    .split(|ch: char| ch.is_whitespace() || "\"'[](),;=`".contains(ch))
                    .filter(|t| !t.is_empty() && !t.starts_with(['-', '!']))
                    .find_map(|t| paths::credential(t, c.cwd.as_deref()))
            });
            if let Some(why) = named {
                self.block(format!(
                    "exfiltration (a secret file is written into what this line publishes: {why})"
                ));
                return;
            }
        }
    }
}
