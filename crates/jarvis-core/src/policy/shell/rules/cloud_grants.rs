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
        || AZURE_CONTROL_ROLE_IDS.contains(&last)
}

/// Azure's built-in roles that control a subscription, by the ids `--role`
/// also takes: Owner, Contributor, User Access Administrator, Role Based
/// Access Control Administrator.
const AZURE_CONTROL_ROLE_IDS: &[&str] = &[
    "8e3af657-a8ff-443c-a75c-2fe8c4bcb635",
    "b24988ac-6180-42a0-ab88-20f7382dd24c",
    "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9",
    "f58310d9-a9f6-439a-9e8d-f62e7b41a168",
];

/// aws's service word, past its global options (`--profile P`, `--debug`).
fn aws_service<'a>(args: &[&'a str]) -> Option<&'a str> {
    const VALUED: &[&str] = &[
        "--profile",
        "--region",
        "--output",
        "--endpoint-url",
        "--query",
        "--ca-bundle",
        "--color",
        "--cli-read-timeout",
        "--cli-connect-timeout",
        "--cli-binary-format",
    ];
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if !a.starts_with('-') {
            return Some(a);
        }
        i += if VALUED.contains(a) { 2 } else { 1 };
    }
    None
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
                aws_service(&args) == Some("iam")
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
