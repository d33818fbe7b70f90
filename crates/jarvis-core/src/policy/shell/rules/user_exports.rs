//! Exports of what a service keeps secret: an app's user accounts (their
//! password hashes), a secrets scope's values, a scheduler's connections
//! (URIs with their passwords).

use super::*;

impl Analyzer<'_> {
    pub(super) fn user_exports(&mut self, c: &Cmd<'_>) {
        // The tool's words past its global options (`--profile P`, `-p P`).
        let mut a: Vec<&str> = Vec::new();
        let mut k = 0;
        while let Some(x) = c.args.get(k) {
            if matches!(
                x.as_str(),
                "--profile" | "-p" | "--host" | "--target" | "-t" | "--output" | "-o"
            ) {
                k += 2;
                continue;
            }
            if !x.starts_with('-') {
                a.push(x.as_str());
            }
            k += 1;
        }
        let secret_name = |n: Option<&&str>| n.is_some_and(|n| super::effects::secret_var(n));
        let what = match (c.lb.as_str(), a.as_slice()) {
            ("firebase", _) if a.contains(&"auth:export") => {
                Some("every user's account with their password hashes (firebase auth:export)")
            }
            ("databricks", ["secrets", "get-secret" | "get", ..]) => {
                Some("a secret scope's value (databricks secrets get-secret)")
            }
            ("airflow", ["connections", "export" | "get" | "list", ..]) => {
                Some("Airflow's connections, passwords in their URIs")
            }
            ("airflow", ["variables", "export", ..]) => {
                Some("every Airflow variable, secrets among them")
            }
            ("airflow", ["variables", "get", name, ..]) if secret_name(Some(name)) => {
                Some("a secret Airflow variable")
            }
            _ => None,
        };
        if let Some(what) = what {
            self.secret_printed(c, what);
        }
        // `spark-submit --jars https://…`: code from an address loaded into
        // the job and run there at once (`--conf spark.jars=…` the same).
        if matches!(
            c.lb.as_str(),
            "spark-submit" | "spark-shell" | "pyspark" | "spark-sql"
        ) {
            let confs = super::script_opts::values(c, &["--conf", "-c"]);
            let jars = super::script_opts::values(c, &["--jars", "--py-files", "--archives"])
                .into_iter()
                .map(|v| v.text)
                .chain(confs.iter().filter_map(|v| {
                    let (k, val) = v.text.split_once('=')?;
                    matches!(
                        k.trim(),
                        "spark.jars" | "spark.submit.pyFiles" | "spark.archives"
                    )
                    .then(|| val.to_string())
                }));
            for v in jars {
                let remote = v.split(',').any(|u| {
                    let l = u.trim().to_ascii_lowercase();
                    ["http://", "https://", "ftp://"]
                        .iter()
                        .any(|s| l.starts_with(s))
                });
                if remote {
                    self.block(format!(
                        "download and execute ({} loads and runs code from an address: {})",
                        c.base,
                        shown(&v)
                    ));
                }
            }
        }
    }
}
