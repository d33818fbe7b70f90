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

impl Analyzer<'_> {
    pub(super) fn secret_published(&mut self, script: &Script) {
        let publishes = script.commands.iter().any(|c| {
            let argv = peeled(&c.argv);
            let Some(first) = argv.first() else {
                return false;
            };
            let b = lower(&base_name(&first.text));
            PUBLISHERS
                .iter()
                .any(|(p, sub)| *p == b && argv[1..].iter().any(|w| w.text == *sub))
        });
        if !publishes {
            return;
        }
        for c in &script.commands {
            // Written into a file of the line's (an ignore file keeps a
            // secret out: `echo .env >> .npmignore`).
            let writes = c
                .redirects
                .iter()
                .any(|r| r.writes_file() && !base_name(&r.target.text).ends_with("ignore"));
            if !writes {
                continue;
            }
            let named = c.argv.iter().skip(1).find_map(|w| {
                w.text
                    .split(|ch: char| ch.is_whitespace() || "\"'[](),;=`".contains(ch))
                    .filter(|t| !t.is_empty() && !t.starts_with('-'))
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
