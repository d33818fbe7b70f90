//! Data-science tools that run code or open the machine: notebooks and
//! apps run from a location or a download (`papermill URL`, `streamlit run
//! URL`, `jupyter nbconvert --execute` of a fetched notebook), cluster
//! schedulers and workers (a Ray head on every interface, a worker joining
//! someone's cluster), service endpoints moved elsewhere (the stored token
//! goes with them), and settings an environment applies at activation.

use super::*;

/// A service's endpoint variable, the tools that read it, and the service's
/// own domains: pointed elsewhere, the tool signs in there with the token
/// it keeps (`~/.netrc`'s wandb entry, `~/.cache/huggingface/token`).
const ENDPOINTS: &[(&str, &[&str], &[&str])] = &[
    ("WANDB_BASE_URL", &["wandb"], &["wandb.ai", "wandb.io"]),
    (
        "HF_ENDPOINT",
        &["huggingface-cli", "hf"],
        &["huggingface.co", "hf.co"],
    ),
];

impl Analyzer<'_> {
    pub(super) fn ml_tools(&mut self, c: &Cmd<'_>) {
        self.endpoint_moved(c);
        self.runs_notebook(c);
        self.cluster(c);
        // `conda config --add channels URL`: every later install looks there.
        if matches!(c.lb.as_str(), "conda" | "mamba" | "micromamba")
            && c.args.first().is_some_and(|a| a == "config")
            && c.args
                .iter()
                .any(|a| matches!(a.as_str(), "--add" | "--prepend" | "--append" | "--set"))
            && c.args
                .iter()
                .any(|a| a == "channels" || a == "channel_alias" || a == "default_channels")
            && c.args.iter().any(|a| {
                super::project_out::far_host(a.split_once("://").map_or(a.as_str(), |(_, r)| r))
                    .is_some()
                    && a.contains("://")
            })
        {
            self.block(format!(
                "persistence ({} config names a channel every later install fetches code from)",
                c.base
            ));
        }
        // `conda env config vars set LD_PRELOAD=…`: set at every activation,
        // judged as the export it becomes.
        if matches!(c.lb.as_str(), "conda" | "mamba" | "micromamba")
            && c.args
                .starts_with(&["env".into(), "config".into(), "vars".into(), "set".into()])
        {
            let sets: Vec<String> = c.args[4..]
                .iter()
                .filter(|a| a.contains('='))
                .map(|a| match a.split_once('=') {
                    Some((k, v)) => format!("export {k}={}", crate::policy::shell::quote(v)),
                    None => String::new(),
                })
                .collect();
            if !sets.is_empty() {
                self.block_only(|a| a.script(&sets.join("; "), &[], c.depth + 1));
            }
        }
    }

    fn endpoint_moved(&mut self, c: &Cmd<'_>) {
        for (var, tools, own) in ENDPOINTS {
            let runs_tool = tools.contains(&c.lb.as_str())
                || c.lb.starts_with("python") && c.args.iter().any(|a| a.contains(tools[0]));
            if !runs_tool {
                continue;
            }
            let values = c
                .assigns
                .iter()
                .chain(c.script.commands.iter().flat_map(|k| k.assigns.iter()))
                .filter(|(n, _)| n == var)
                .map(|(_, v)| v.text.clone());
            for v in values {
                let Some(host) = super::project_out::far_host(&v).or_else(|| {
                    v.split_once("://")
                        .and_then(|(_, r)| super::project_out::far_host(r))
                }) else {
                    continue;
                };
                let theirs = own
                    .iter()
                    .any(|d| host == *d || host.ends_with(&format!(".{d}")));
                if !theirs {
                    self.block(format!(
                        "{} signs in with its stored token at {host} ({var} moves its service there)",
                        c.base
                    ));
                }
            }
        }
    }

    /// Notebooks and apps run by a tool: from a location, or a file this
    /// line downloaded, is download and execute.
    fn runs_notebook(&mut self, c: &Cmd<'_>) {
        let a: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let target: Option<Word> = match (c.lb.as_str(), a.as_slice()) {
            // Each notebook named is run (an `--output` name is not one
            // this line downloaded, so judging it too changes nothing).
            ("jupyter", ["nbconvert", ..]) if a.contains(&"--execute") => c
                .operand_words()
                .into_iter()
                .filter(|w| w.text.ends_with(".ipynb") || w.text.contains("://"))
                .find(|w| w.text.contains("://") || self.is_tainted(w, c.cwd())),
            ("jupyter", ["execute" | "run", ..]) => c.operand_words().get(1).cloned(),
            ("papermill" | "runipy" | "voila" | "jupytext", _) => {
                c.operand_words().first().cloned()
            }
            (
                "streamlit" | "marimo" | "panel" | "gradio" | "solara",
                ["run" | "serve" | "edit", ..],
            ) => c.operand_words().get(1).cloned(),
            ("mlflow", ["run", ..]) => c.operand_words().get(1).cloned(),
            _ => None,
        };
        let Some(t) = target else { return };
        let l = lower(&t.text);
        let located = ["http://", "https://", "git+", "git@", "s3://", "gs://"]
            .iter()
            .any(|p| l.starts_with(p));
        if located || self.is_tainted(&t, c.cwd()) {
            self.block(format!(
                "download and execute ({} runs {}, which comes from the network)",
                c.base,
                shown(&t.text)
            ));
        }
    }

    /// Schedulers whose clients submit code, listening past loopback, and
    /// workers that join a cluster elsewhere (it sends them code to run).
    fn cluster(&mut self, c: &Cmd<'_>) {
        let a = &c.args;
        let value = |flags: &[&str]| super::code_servers::flag_values(a, flags);
        let open = |vs: &[&str]| {
            vs.iter()
                .any(|v| super::code_servers::listens_past_loopback(v))
        };
        let what = match (c.lb.as_str(), a.first().map(String::as_str)) {
            ("ray", Some("start")) if a.iter().any(|x| x == "--head") => {
                open(&value(&["--dashboard-host", "--node-ip-address"]))
                    .then_some("the Ray head (its job API runs whatever it is sent)")
            }
            // A worker of a cluster elsewhere runs the tasks it is sent.
            ("ray", Some("start")) => value(&["--address"])
                .iter()
                .any(|v| super::project_out::far_host(v).is_some())
                .then_some("a Ray worker for a cluster on another machine"),
            ("dask", Some("scheduler")) | ("dask-scheduler", _) => {
                open(&value(&["--host"])).then_some("the Dask scheduler")
            }
            ("dask", Some("worker")) | ("dask-worker", _) => c
                .operand_words()
                .iter()
                .any(|w| {
                    super::project_out::far_host(w.text.trim_start_matches("tcp://")).is_some()
                })
                .then_some("a Dask worker for a cluster on another machine"),
            ("mlflow", Some("server" | "ui")) => open(&value(&["--host", "-h"]))
                .then_some("the MLflow server (anyone can write its artifacts and models)"),
            _ => None,
        };
        if let Some(what) = what {
            self.block(format!(
                "remote shell ({what}: whoever reaches it runs code as you)"
            ));
        }
    }
}
