//! Cloud accounts handed to someone: an owner's or administrator's role
//! bound to a principal (`gcloud … add-iam-policy-binding --role=roles/owner`,
//! `az role assignment create --role Owner`, `aws iam attach-user-policy …
//! AdministratorAccess`). Whoever that principal is keeps the account
//! after the conversation: escalation and persistence at once. Narrower
//! roles ask, showing the member and role.

use super::*;

/// A role that controls the whole account or project: owner, editor,
/// administrator, or the right to grant roles.
fn grants_control(role: &str) -> bool {
    let l = lower(role.trim_matches(['\'', '"']));
    let last = l.rsplit(['/', ':']).next().unwrap_or(&l);
    matches!(
        last,
        "owner" | "editor" | "contributor" | "administratoraccess" | "iamfullaccess"
    ) || last.contains("admin")
}

impl Analyzer<'_> {
    pub(super) fn cloud_grants(&mut self, c: &Cmd<'_>) {
        if !matches!(c.lb.as_str(), "gcloud" | "az" | "aws") {
            return;
        }
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let values = |flags: &[&str]| -> Vec<String> {
            super::script_opts::values(c, flags)
                .into_iter()
                .map(|w| w.text)
                .collect()
        };
        let (grant, roles) = match c.lb.as_str() {
            "gcloud" => (
                args.iter()
                    .any(|a| *a == "add-iam-policy-binding" || *a == "set-iam-policy"),
                values(&["--role"]),
            ),
            "az" => (
                args.windows(3)
                    .any(|w| w == ["role", "assignment", "create"]),
                values(&["--role"]),
            ),
            "aws" => (
                args.first() == Some(&"iam")
                    && args.iter().any(|a| {
                        matches!(
                            *a,
                            "attach-user-policy" | "attach-role-policy" | "attach-group-policy"
                        )
                    }),
                values(&["--policy-arn"]),
            ),
            _ => return,
        };
        if !grant {
            return;
        }
        if roles.iter().any(|r| grants_control(r)) {
            self.block(format!(
                "{} grants control of a cloud account or project (an owner's or administrator's role)",
                c.base
            ));
        }
        self.ask(format!("{} grants a role in a cloud account", c.base));
    }
}
