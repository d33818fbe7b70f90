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
        let ops: Vec<String> = c
            .args
            .iter()
            .filter(|x| !x.starts_with('-'))
            .map(|x| lower(x))
            .collect();
        let op = |i: usize| ops.get(i).map(String::as_str).unwrap_or("");
        let has = |f: &str| {
            c.args
                .iter()
                .any(|x| x == f || x.starts_with(&format!("{f}=")))
        };
        let what = match c.lb.as_str() {
            // Everything the state manages, in one call.
            // Everything the state manages, in one call (`plan -destroy` only shows it).
            "terraform" | "tofu" | "terragrunt" | "pulumi" | "cdk" | "cdktf"
                if ops.iter().any(|o| o == "destroy") || has("-destroy") && op(0) == "apply" =>
            {
                Some("tears down every resource the infrastructure state manages")
            }
            "aws" if op(0) == "s3" && (op(1) == "rm" && has("--recursive") || op(1) == "rb") => {
                Some("deletes a whole S3 bucket or prefix")
            }
            "aws"
                if ops
                    .iter()
                    .any(|o| o == "delete-bucket" || o == "delete-stack") =>
            {
                Some("deletes a whole bucket or stack")
            }
            "gsutil"
                if ops.iter().any(|o| o == "rb")
                    || ops.iter().any(|o| o == "rm") && (has("-r") || has("-R") || has("-a")) =>
            {
                Some("deletes a whole Cloud Storage bucket or prefix")
            }
            "gcloud"
                if op(0) == "storage"
                    && ops.iter().any(|o| o == "rm")
                    && (has("-r") || has("--recursive")) =>
            {
                Some("deletes a whole Cloud Storage bucket or prefix")
            }
            "gcloud" if op(0) == "projects" && op(1) == "delete" => {
                Some("deletes a whole cloud project")
            }
            "az" if op(0) == "group" && op(1) == "delete" => {
                Some("deletes a whole Azure resource group")
            }
            "az" if op(0) == "storage" && ops.iter().any(|o| o == "delete-batch") => {
                Some("deletes a whole storage container's blobs")
            }
            "kubectl"
                if op(0) == "delete"
                    && (matches!(op(1), "ns" | "namespace" | "namespaces")
                        || has("--all")
                        || has("-A")
                        || has("--all-namespaces")) =>
            {
                Some("deletes a cluster namespace or every resource of a kind")
            }
            // Volumes are data; images come back with a pull.
            "docker" | "podman" | "nerdctl"
                if (op(0) == "volume" && op(1) == "prune")
                    || (op(0) == "system"
                        && op(1) == "prune"
                        && (has("--volumes") || has("--all") || bundled(&c.args, 'a'))) =>
            {
                Some(
                    "deletes every unused container and volume on the machine (other projects' data included)",
                )
            }
            _ => None,
        };
        if let Some(what) = what {
            self.block(format!(
                "{} {what}: not undoable, and not inside the working directory",
                c.base
            ));
        }
        if matches!(c.lb.as_str(), "docker" | "podman" | "nerdctl" | "buildah")
            && matches!(op(0), "build" | "buildx" | "bud" | "image")
        {
            self.build_context(c);
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
        ];
        let mut skip = false;
        for w in c.words.iter().skip(1) {
            if skip {
                skip = false;
                continue;
            }
            let t = w.text.as_str();
            if t.starts_with('-') {
                skip = VALUED.contains(&t);
                continue;
            }
            if matches!(t, "build" | "buildx" | "bud" | "image") {
                continue;
            }
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
}

/// A short flag alone or in a bundle (`-af` has `a`).
fn bundled(args: &[String], flag: char) -> bool {
    args.iter()
        .any(|x| x.starts_with('-') && !x.starts_with("--") && x[1..].contains(flag))
}
