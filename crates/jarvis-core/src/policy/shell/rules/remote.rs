//! Destruction beyond the working folder that no sandbox can undo: a whole
//! infrastructure torn down, a bucket emptied, every container volume on
//! the machine pruned, a cluster namespace deleted. The cloud's `rm -rf ~`
//! blocks; deleting one named resource (`kubectl delete pod web-0`,
//! `docker volume rm app_db`) asks, with the name shown.
//!
//! And the one way a container build reads outside the project: a build
//! context that is home or the root hands every file under it (keys
//! included) to the daemon, and from there to any image pushed.

use super::*;

impl Analyzer<'_> {
    pub(super) fn remote_destruction(&mut self, c: &Cmd<'_>) {
        // Operands in order; a global option's value (`--profile prod`,
        // `-n prod`) may sit among them, so verbs are found as neighbours,
        // not by position.
        let ops = c.operands_lower();
        let seq = |a: &str, b: &str| ops.windows(2).any(|w| w[0] == a && w[1] == b);
        let any = |a: &str| ops.iter().any(|o| o == a);
        let has = |f: &str| c.args.iter().any(|x| x == f || eq_value(x, f).is_some());
        let what = match c.lb.as_str() {
            // Everything the state manages in one call; `-target` names
            // what goes (and asks); `plan -destroy` only shows it.
            "terraform" | "tofu" | "terragrunt" | "pulumi" | "cdk" | "cdktf"
                if (any("destroy")
                    || c.lb == "pulumi" && any("down")
                    || any("apply") && (has("-destroy") || has("--destroy")))
                    && !has("-target")
                    && !has("--target") =>
            {
                Some("tears down every resource the infrastructure state manages")
            }
            "aws" if seq("s3", "rm") && has("--recursive") || seq("s3", "rb") => {
                Some("deletes a whole S3 bucket or prefix")
            }
            "aws" if any("delete-bucket") || any("delete-stack") => {
                Some("deletes a whole bucket or stack")
            }
            "gsutil" if any("rb") || any("rm") && (has("-r") || has("-R") || has("-a")) => {
                Some("deletes a whole Cloud Storage bucket or prefix")
            }
            "gcloud" if seq("storage", "rm") && (has("-r") || has("--recursive")) => {
                Some("deletes a whole Cloud Storage bucket or prefix")
            }
            "gcloud" if seq("projects", "delete") => Some("deletes a whole cloud project"),
            "huggingface-cli" | "hf" if seq("repo", "delete") => {
                Some("deletes a whole model, dataset or Space repository")
            }
            "az" if seq("group", "delete") => Some("deletes a whole Azure resource group"),
            "az" if any("storage") && any("delete-batch") => {
                Some("deletes a whole storage container's blobs")
            }
            "kubectl"
                if seq("delete", "ns")
                    || seq("delete", "namespace")
                    || seq("delete", "namespaces")
                    || any("delete") && (has("--all") || has("-A") || has("--all-namespaces")) =>
            {
                Some("deletes a cluster namespace or every resource of a kind")
            }
            // Volumes are data; images and stopped containers' layers come
            // back with a pull or a build.
            "docker" | "podman" | "nerdctl"
                if seq("volume", "prune") || seq("system", "prune") && has("--volumes") =>
            {
                Some("deletes every unused volume on the machine (other projects' data included)")
            }
            _ => None,
        };
        let what = what.or_else(|| {
            synced_from_nothing(c)
                .then_some("makes a remote copy match an empty folder: everything in it is deleted")
        });
        if let Some(what) = what {
            self.block(format!(
                "{} {what}: not undoable, and not inside the working directory",
                c.base
            ));
        }
        self.cluster_uploads(c);
        if matches!(c.lb.as_str(), "docker" | "podman" | "nerdctl" | "buildah")
            && ["build", "buildx", "bud"].iter().any(|b| any(b))
        {
            self.build_context(c);
            // `--secret id=aws,src=~/.aws/credentials`: the file handed to
            // whatever the Dockerfile runs.
            for w in super::script_opts::values(c, &["--secret"]) {
                let src = w.text.split(',').find_map(|kv| {
                    kv.strip_prefix("src=")
                        .or_else(|| kv.strip_prefix("source="))
                });
                if let Some(src) = src {
                    let p = self.norm_text(src, c.cwd());
                    if let Some(why) = paths::credential_normalized(&p, src)
                        && !self.inside(&p)
                    {
                        self.block(format!("hands a credential to the build ({why})"));
                    }
                }
            }
        }
    }

    /// A job's working folder uploaded to a cluster (`ray job submit
    /// --working-dir ~`, `runtime_env`'s `working_dir`): home handed over
    /// is every key in it.
    fn cluster_uploads(&mut self, c: &Cmd<'_>) {
        if c.lb != "ray" {
            return;
        }
        // The job server's address: `--address`, else `RAY_ADDRESS`.
        let address = super::script_opts::values(c, &["--address"])
            .pop()
            .map(|w| w.text)
            .or_else(|| {
                c.assigns
                    .iter()
                    .find(|(n, _)| n == "RAY_ADDRESS")
                    .map(|(_, w)| w.text.clone())
            });
        let far = address
            .as_deref()
            .and_then(|a| super::project_out::far_host(a.split_once("://").map_or(a, |(_, r)| r)));
        for w in super::script_opts::values(c, &["--working-dir", "--working_dir"]) {
            self.host_folder_shared(&w.text, c, "a Ray cluster");
            // The whole project to a cluster on another machine.
            if let Some(host) = &far
                && !w.dynamic
                && self.is_workdir(&self.norm(&w, c.cwd()))
            {
                self.block(format!(
                    "exfiltration (ray uploads the whole project to the job server at {host})"
                ));
            }
        }
        for w in super::script_opts::values(c, &["--runtime-env-json"]) {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(&w.text) else {
                self.ask("ray: a runtime environment that cannot be read");
                continue;
            };
            if let Some(dir) = v.get("working_dir").and_then(|d| d.as_str()) {
                self.host_folder_shared(dir, c, "a Ray cluster");
            }
        }
    }

    /// `docker build … ~`: the context (the operand that is not an option's
    /// value) sent to the daemon.
    fn build_context(&mut self, c: &Cmd<'_>) {
        const VALUED: &[&str] = &[
            "-t",
            "--tag",
            "-f",
            "--file",
            "--build-arg",
            "--target",
            "--platform",
            "--label",
            "--secret",
            "--ssh",
            "--cache-from",
            "--cache-to",
            "--network",
            "-o",
            "--output",
            "--progress",
            "--iidfile",
            "--build-context",
            // Global options before the subcommand.
            "--context",
            "-c",
            "-H",
            "--host",
            "--config",
            "--log-level",
            "-l",
        ];
        let mut skip = false;
        let mut named = false;
        for w in c.words.iter().skip(1) {
            let t = w.text.as_str();
            // `--build-context name=PATH`: another context, as much sent.
            let extra = if named {
                named = false;
                t.split_once('=').map(|(_, p)| p)
            } else {
                t.strip_prefix("--build-context=")
                    .and_then(|v| v.split_once('=').map(|(_, p)| p))
            };
            if let Some(p) = extra {
                self.sent_context(
                    &Word {
                        text: p.to_string(),
                        ..w.clone()
                    },
                    c,
                );
                continue;
            }
            if skip {
                skip = false;
                continue;
            }
            if t.starts_with('-') {
                named = t == "--build-context";
                skip = VALUED.contains(&t) && !named;
                continue;
            }
            if matches!(t, "build" | "buildx" | "bud" | "image") {
                continue;
            }
            self.sent_context(w, c);
        }
    }

    fn sent_context(&mut self, w: &Word, c: &Cmd<'_>) {
        let p = self.norm(w, c.cwd());
        if !w.dynamic
            && (paths::contains_credentials(&p)
                || paths::credential_normalized(&p, &w.text).is_some())
        {
            self.block(format!(
                "{} builds with {} as its context: every file under it (keys included) goes to the daemon and into the image",
                c.base,
                shown(&w.text)
            ));
        }
    }
}

/// A sync that deletes what its source lacks (`aws s3 sync --delete`,
/// `rclone sync`, `gsutil rsync -d`, `mc mirror --remove`), from a folder
/// this line has just made (`mkdir -p /tmp/e`, `$(mktemp -d)`): the
/// destination is emptied.
fn synced_from_nothing(c: &Cmd<'_>) -> bool {
    let has = |f: &str| c.args.iter().any(|x| x == f || eq_value(x, f).is_some());
    let ops = c.operand_words();
    let lops: Vec<String> = ops.iter().map(|w| lower(&w.text)).collect();
    let at = |verb: &str| lops.iter().position(|o| o == verb);
    let source = match c.lb.as_str() {
        "aws" if has("--delete") => at("sync"),
        "rclone" => at("sync"),
        "gsutil" if c.short('d') => at("rsync"),
        "gcloud" if has("--delete-unmatched-destination-objects") => at("rsync"),
        "mc" if has("--remove") => at("mirror"),
        "s3cmd" if has("--delete-removed") => at("sync"),
        "rsync" if c.args.iter().any(|a| a.starts_with("--delete")) => {
            // (rsync's destination here is another machine's: a local one
            // is judged as the delete it is elsewhere.)
            return ops.len() >= 2
                && ops[ops.len() - 1].text.contains(':')
                && made_here(c, &ops[ops.len() - 2]);
        }
        _ => None,
    };
    source
        .and_then(|i| ops.get(i + 1))
        .is_some_and(|src| made_here(c, src))
}

/// A folder made empty by this line: `mkdir` of it, or `mktemp -d`.
fn made_here(c: &Cmd<'_>, src: &Word) -> bool {
    let t = src.text.trim_end_matches('/');
    if t.contains("mktemp") {
        return true;
    }
    // (Past wrappers: `nice mkdir`, `env -i … mkdir`.)
    !t.is_empty()
        && c.script.commands.iter().any(|k| {
            let pa = peeled(&k.argv);
            pa.first().is_some_and(|w| base_name(&w.text) == "mkdir")
                && pa.iter().skip(1).any(|a| a.text.trim_end_matches('/') == t)
        })
}
