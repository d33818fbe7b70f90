//! Cluster and container job tools. What a job runs, it runs on a compute
//! node outside this sandbox and unasked once submitted: `sbatch --wrap`
//! strings, job scripts fed on the input or written by this line, Slurm's
//! own cron, MPI ranks exporting the environment to other hosts, and
//! Apptainer's host bind mounts and definition files.

use super::*;

/// Slurm's options whose value is the next word (long ones may take it
/// glued with `=` as well), for sbatch, srun and salloc.
pub(super) const SLURM_VALUED: &[&str] = &[
    "--mpi",
    "--partition",
    "--time",
    "--nodes",
    "--ntasks",
    "--job-name",
    "--account",
    "--qos",
    "--output",
    "--error",
    "--input",
    "--chdir",
    "--gres",
    "--cpus-per-task",
    "--nodelist",
    "--exclude",
    "--constraint",
    "--mem",
    "--mem-per-cpu",
    "--export",
    "--ntasks-per-node",
    "--gpus",
    "--reservation",
    "--dependency",
    "--array",
    "--mail-user",
    "--mail-type",
    "-A",
    "-c",
    "-d",
    "-D",
    "-e",
    "-i",
    "-J",
    "-L",
    "-M",
    "-n",
    "-N",
    "-o",
    "-p",
    "-q",
    "-t",
    "-w",
    "-x",
    "-G",
    "-C",
    "-b",
];

impl Analyzer<'_> {
    pub(super) fn cluster_jobs(&mut self, c: &Cmd<'_>) {
        let depth = c.depth + 1;
        match c.lb.as_str() {
            "sbatch" => {
                for code in super::script_opts::values(c, &["--wrap"]) {
                    self.shell_code(&code, &[], c.script, c.depth);
                }
                // The job script: on the input (`sbatch <<EOF`), or a file
                // this line wrote.
                let fed = c
                    .src
                    .redirects
                    .iter()
                    .find_map(|r| r.body.as_ref().map(|b| b.text.clone()))
                    .or_else(|| {
                        let p = c.script.commands.get(c.src.stdin_from?)?;
                        crate::policy::shell::eval::printed(&Command {
                            argv: peeled(&p.argv).to_vec(),
                            ..p.clone()
                        })
                    });
                let file = script_operand(c).and_then(|w| self.written_text(&w, c.cwd()));
                for text in fed.into_iter().chain(file) {
                    self.script(&text, &[], depth);
                }
                self.ask("sbatch submits a job that runs on the cluster unasked");
            }
            // Slurm's cron: its lines run on a schedule, on the cluster.
            // (`-u USER -l` lists another user's.)
            "scrontab"
                if !c.args.iter().enumerate().all(|(i, a)| {
                    a == "-l" || a.starts_with("-u") || i > 0 && c.args[i - 1] == "-u"
                }) =>
            {
                self.block("persistence (scrontab installs jobs that run on a schedule)");
            }
            "scontrol"
                if c.args.first().is_some_and(|a| a == "token")
                    && !super::handoffs::handed_on(c, None) =>
            {
                self.block("reveals a Slurm token (a sign-in to the cluster as the user)");
            }
            "sacct" if c.args.iter().any(|a| a.starts_with("--env")) => {
                self.block(
                    "reveals jobs' saved environments (sacct --env-vars: their tokens and keys)",
                );
            }
            "nextflow"
                if c.args.first().is_some_and(|a| a == "secrets")
                    && c.args.get(1).is_some_and(|a| a == "get") =>
            {
                self.block("reveals a secret from Nextflow's secrets store");
            }
            "apptainer" | "singularity" => self.apptainer(c, depth),
            _ => {}
        }
    }

    /// `mpirun --host far -x TOKEN …`: ranks on another machine get the
    /// variable's value; `--mca plm_rsh_agent CMD`: the command that starts
    /// each remote daemon.
    pub(super) fn mpi_launch(&mut self, words: &[Word], script: &Script, depth: usize) {
        let after = |flags: &[&str]| -> Vec<&Word> {
            words
                .windows(2)
                .filter(|w| flags.contains(&w[0].text.as_str()))
                .map(|w| &w[1])
                .collect()
        };
        for w in words.windows(3) {
            if matches!(w[0].text.as_str(), "--mca" | "-mca" | "--gmca")
                && w[1].text.ends_with("_agent")
            {
                self.shell_code(&w[2], &[], script, depth);
            }
        }
        // MPICH/Hydra's launchers: a program run to start each process.
        for v in after(&[
            "-bootstrap-exec",
            "--bootstrap-exec",
            "-launcher-exec",
            "--launcher-exec",
        ]) {
            self.shell_code(v, &[], script, depth);
        }
        // The same options with their value glued on (`--mca plm_rsh_agent=…`
        // takes its name and value as one word too).
        for w in words {
            let glued = [
                "-bootstrap-exec=",
                "--bootstrap-exec=",
                "-launcher-exec=",
                "--launcher-exec=",
            ]
            .iter()
            .find_map(|p| w.text.strip_prefix(p))
            .or_else(|| w.text.split_once("_agent=").map(|(_, v)| v));
            if let Some(v) = glued {
                let code = Word {
                    text: v.to_string(),
                    ..w.clone()
                };
                self.shell_code(&code, &[], script, depth);
            }
        }
        let secret = after(&["-x", "-genvlist", "-envlist"])
            .into_iter()
            .flat_map(|v| v.text.split(','))
            .map(|v| v.split('=').next().unwrap_or(""))
            .find(|n| super::effects::secret_var(n));
        let glued: Vec<&str> = words
            .iter()
            .filter_map(|w| {
                ["--host=", "-host=", "-H=", "-hosts=", "--hosts="]
                    .iter()
                    .find_map(|p| w.text.strip_prefix(p))
            })
            .collect();
        // `-genv NAME VALUE` (Hydra passes the environment on by default:
        // only a secret named is counted).
        let genv = after(&["-genv", "-env"])
            .into_iter()
            .map(|v| v.text.as_str())
            .find(|n| super::effects::secret_var(n));
        let far = after(&["-H", "--host", "-host", "-hosts"])
            .into_iter()
            .map(|h| h.text.as_str())
            .chain(glued)
            .flat_map(|h| h.split(','))
            .find_map(|h| super::project_out::far_host(h.split(':').next().unwrap_or(h)));
        let secret = secret.or(genv);
        if let (Some(n), Some(h)) = (secret, far) {
            self.block(format!(
                "exfiltration (mpirun exports the secret variable {n} to ranks on {h})"
            ));
        }
    }

    /// Host folders bound into a container (`-B /etc:/mnt/etc`), and a
    /// definition file's sections this line wrote.
    fn apptainer(&mut self, c: &Cmd<'_>, depth: usize) {
        for spec in super::script_opts::values(c, &["-B", "--bind", "--mount"]) {
            for one in spec.text.split(',') {
                let src = one
                    .strip_prefix("src=")
                    .or_else(|| one.strip_prefix("source="))
                    .unwrap_or(one);
                let src = src.split(':').next().unwrap_or(src);
                if src.is_empty() || src.starts_with("type=") || src.starts_with("dst=") {
                    continue;
                }
                let w = Word {
                    text: src.to_string(),
                    ..spec.clone()
                };
                let p = self.norm(&w, c.cwd());
                if paths::credential_normalized(&p, src).is_some()
                    || self.app_state(&p)
                    || !self.inside(&p)
                        && !paths::scratch(&p)
                        && (paths::catastrophic_normalized(&p) || paths::system_normalized(&p))
                {
                    self.block(format!(
                        "binds {} into a container, whose commands read and change it there",
                        shown(src)
                    ));
                }
            }
        }
        let verb = c
            .args
            .iter()
            .find(|a| !a.starts_with('-'))
            .map(String::as_str);
        if verb == Some("build")
            && let Some(def) = c
                .words
                .iter()
                .skip(2)
                .rev()
                .find(|w| !w.text.starts_with('-'))
            && let Some(text) = self.written_text(def, c.cwd())
        {
            // `%setup` runs on the host; `%post` and the rest in the image.
            for (name, body) in def_sections(&text) {
                if name == "setup" {
                    self.script(&body, &[], depth);
                } else if matches!(name.as_str(), "post" | "runscript" | "startscript" | "test") {
                    self.block_only(|a| a.script(&body, &[], depth));
                }
            }
        }
    }
}

/// sbatch's script: its first operand past the options.
fn script_operand(c: &Cmd<'_>) -> Option<Word> {
    let mut i = 1;
    while let Some(w) = c.words.get(i) {
        let t = w.text.as_str();
        if SLURM_VALUED.contains(&t) {
            i += 2;
            continue;
        }
        if !t.starts_with('-') {
            return Some(w.clone());
        }
        i += 1;
    }
    None
}

/// The `%name` sections of an Apptainer definition file.
fn def_sections(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix('%') {
            let name = name
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            out.push((name, String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}
