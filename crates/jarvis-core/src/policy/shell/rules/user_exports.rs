//! Exports of what a service keeps secret: an app's user accounts (their
//! password hashes), a secrets scope's values, a scheduler's connections
//! (URIs with their passwords).

use super::*;

impl Analyzer<'_> {
    pub(super) fn user_exports(&mut self, c: &Cmd<'_>) {
        let a: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let what = match (c.lb.as_str(), a.as_slice()) {
            ("firebase", _) if a.contains(&"auth:export") => {
                Some("every user's account with their password hashes (firebase auth:export)")
            }
            ("databricks", ["secrets", "get-secret" | "get", ..]) => {
                Some("a secret scope's value (databricks secrets get-secret)")
            }
            ("airflow", ["connections", "export" | "get", ..]) => {
                Some("Airflow's connections, passwords in their URIs")
            }
            _ => None,
        };
        if let Some(what) = what
            && !super::handoffs::handed_on(c, None)
        {
            self.block(format!("reveals {what}"));
        }
        // `spark-submit --jars https://…`: code from an address loaded into
        // the job and run there at once.
        if c.lb == "spark-submit" || c.lb == "spark-shell" || c.lb == "pyspark" {
            for v in super::script_opts::values(c, &["--jars", "--py-files", "--archives"]) {
                if v.text
                    .split(',')
                    .any(|u| u.starts_with("http://") || u.starts_with("https://"))
                {
                    self.block(format!(
                        "download and execute ({} loads and runs code from an address: {})",
                        c.base,
                        shown(&v.text)
                    ));
                }
            }
        }
    }
}
