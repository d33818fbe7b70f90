//! Who may reach a repository on its forge: made public, a collaborator
//! or deploy key added, a webhook that sends every push somewhere, a key
//! added to the account. Each is access for someone else that outlasts
//! the line (persistence on the forge, or the history handed out).

use super::*;

/// API paths (after `repos/OWNER/REPO/` or at the root) whose writes grant
/// access or send events out.
const GRANTS: &[&str] = &[
    "/collaborators/",
    "/keys",
    "/hooks",
    "/invitations",
    "user/keys",
    "user/gpg_keys",
    "user/ssh_signing_keys",
    "/memberships/",
    "/members/",
    "/outside_collaborators/",
];

/// git's empty tree: a commit of it holds no file.
const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

impl Analyzer<'_> {
    /// `git push -f origin "$(git commit-tree 4b825dc… -m x)":main`: a
    /// branch replaced by a commit of nothing, its history gone from the
    /// remote.
    fn emptied_branch(&mut self, c: &Cmd<'_>) {
        if !c.args.iter().any(|a| a == "push") {
            return;
        }
        let forced = c.args.iter().any(|a| {
            matches!(a.as_str(), "-f" | "--force") || a.starts_with('+') || short_has(a, 'f')
        });
        // The empty tree by its name, or made here (`git hash-object -t
        // tree /dev/null`, `git mktree </dev/null`).
        let has = |k: &Command, w: &str| k.argv.iter().any(|a| a.text == w);
        let commits = c.script.commands.iter().any(|k| has(k, "commit-tree"));
        let empty_tree = c.script.commands.iter().any(|k| {
            has(k, EMPTY_TREE) || has(k, "hash-object") && has(k, "/dev/null") || has(k, "mktree")
        });
        let empty_commit = commits && empty_tree;
        if forced && empty_commit {
            self.block(
                "git push replaces a branch with an empty commit: the remote's history is gone (not undoable)",
            );
        }
    }

    pub(super) fn forge_access(&mut self, c: &Cmd<'_>) {
        if c.lb == "git" {
            self.emptied_branch(c);
            return;
        }
        if c.lb != "gh" {
            return;
        }
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        match args.as_slice() {
            // A repository deleted on the forge: its history, issues and
            // releases are gone (not the project's folder, not undoable).
            ["repo", "delete", ..] => {
                self.block("gh repo delete deletes a repository on the forge (not undoable)");
            }
            // The project published as a new public repository.
            ["repo", "create", rest @ ..]
                if rest.contains(&"--public")
                    && rest.iter().any(|a| a.starts_with("--source") || *a == "-s") =>
            {
                self.block(
                    "exfiltration (gh repo create --public publishes the project: its whole history, to everyone)",
                );
            }
            ["repo", "edit", rest @ ..] => {
                let public = rest
                    .windows(2)
                    .any(|w| w[0] == "--visibility" && w[1] == "public")
                    || rest.contains(&"--visibility=public");
                if public {
                    self.block(
                        "exfiltration (gh repo edit makes the repository public: its whole history, to everyone)",
                    );
                }
            }
            ["api", rest @ ..] => {
                // The method: `-X`/`--method`, else POST when fields are given.
                // (`-XPUT` glued, `--method=PUT`, `--meth PUT`.)
                let method = rest
                    .windows(2)
                    .find(|w| w[0] == "-X" || spells(w[0], "--method") && !w[0].contains('='))
                    .map(|w| w[1].to_ascii_uppercase())
                    .or_else(|| {
                        rest.iter()
                            .find_map(|a| {
                                long_value(a, "--method")
                                    .or_else(|| a.strip_prefix("-X").filter(|m| !m.is_empty()))
                            })
                            .map(str::to_ascii_uppercase)
                    });
                let fields = rest
                    .iter()
                    .any(|a| matches!(*a, "-f" | "-F" | "--field" | "--raw-field" | "--input"));
                let writes = match method.as_deref() {
                    Some("GET" | "HEAD") => false,
                    Some(_) => true,
                    None => fields,
                };
                let path = rest
                    .iter()
                    .find(|a| !a.starts_with('-') && (a.contains('/') || a.starts_with("user")))
                    .map(|p| p.trim_start_matches('/'));
                // (A GraphQL mutation that makes a repository public:
                // `updateRepository(input: {…, visibility: PUBLIC})`.)
                let public = rest
                    .iter()
                    .any(|a| matches!(*a, "private=false" | "visibility=public"));
                if rest.iter().any(|a| {
                    let l = lower(a).split_whitespace().collect::<String>();
                    l.contains("mutation") && l.contains("visibility:public")
                }) {
                    self.block(
                        "exfiltration (a GraphQL mutation makes a repository public: its whole history, to everyone)",
                    );
                }
                if let Some(p) = path
                    && writes
                    && (GRANTS.iter().any(|g| p.contains(g) || p.starts_with(g)) || public)
                {
                    self.block(format!(
                        "gh api {p}: grants someone else access to the repository or account, or sends its events out (persistence)"
                    ));
                }
            }
            _ => {}
        }
    }
}
