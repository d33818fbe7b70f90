//! Command lines run on another machine by a tool other than ssh: `gcloud
//! compute ssh --command`, `kubectl exec POD -- …`, `aws ssm send-command`,
//! `aws ecs execute-command`, `az vm run-command`, ansible's ad-hoc `-m
//! shell -a`, `rsync --rsync-path`; each of a repeated option. What runs there is judged as ssh's remote command
//! is: it blocks when it destroys a system, steals, or runs code from the
//! network, wherever it runs.

use super::*;

impl Analyzer<'_> {
    pub(super) fn remote_runs(&mut self, c: &Cmd<'_>) {
        // (Every command passes here: the others leave at once.)
        if !matches!(
            c.lb.as_str(),
            "gcloud" | "kubectl" | "oc" | "aws" | "az" | "ansible" | "rsync"
        ) {
            return;
        }
        let ops = c.operands_lower();
        let has_op = |o: &str| ops.iter().any(|x| x == o);
        let after_dashes = || -> Option<Vec<Word>> {
            let at = c.words.iter().position(|w| w.text == "--")?;
            Some(c.words[at + 1..].to_vec()).filter(|w| !w.is_empty())
        };
        let values = |flags: &[&str]| super::script_opts::values(c, flags);
        let mut lines: Vec<(Word, &str)> = Vec::new();
        match c.lb.as_str() {
            "gcloud" if has_op("ssh") => {
                // Every `--command` (the last one given wins, any may be it).
                for w in values(&["--command"]) {
                    lines.push((w, "gcloud compute ssh"));
                }
                if let Some(words) = after_dashes() {
                    lines.push((joined(&words, false), "gcloud compute ssh"));
                }
                // `--ssh-flag='-o ProxyCommand=…'`: ssh's options, here.
                for f in values(&["--ssh-flag"]) {
                    let t = f.text.trim();
                    let opt = t.strip_prefix("-o").map(str::trim_start);
                    if let Some(opt) = opt.filter(|o| !o.is_empty()) {
                        self.ssh_option(opt, c);
                    }
                }
            }
            "kubectl" | "oc" if has_op("exec") || has_op("debug") => {
                if let Some(words) = after_dashes() {
                    lines.push((joined(&words, true), "a command in a cluster's container"));
                }
            }
            "aws" if has_op("send-command") => {
                for p in values(&["--parameters"]) {
                    for cmd in ssm_commands(&p.text) {
                        lines.push((
                            Word {
                                text: cmd,
                                ..p.clone()
                            },
                            "AWS Run Command",
                        ));
                    }
                }
            }
            // `aws ecs execute-command --command 'sh -c …'`.
            "aws" if has_op("execute-command") => {
                for w in values(&["--command"]) {
                    lines.push((w, "a command in an ECS task"));
                }
            }
            "az" if has_op("run-command") => {
                for (at, w) in c.words.iter().enumerate() {
                    if matches!(w.text.as_str(), "--scripts" | "--script") {
                        for v in c.words[at + 1..]
                            .iter()
                            .take_while(|v| !v.text.starts_with("--"))
                        {
                            lines.push((v.clone(), "Azure Run Command"));
                        }
                    } else if let Some(v) =
                        eq_value(&w.text, "--scripts").or_else(|| eq_value(&w.text, "--script"))
                    {
                        let v = Word {
                            text: v.to_string(),
                            ..w.clone()
                        };
                        lines.push((v, "Azure Run Command"));
                    }
                }
            }
            "ansible" => {
                // `-c local`, or the inventory this machine: run here.
                let here = values(&["-c", "--connection"])
                    .iter()
                    .any(|w| w.text == "local")
                    || ops
                        .first()
                        .is_some_and(|h| matches!(h.as_str(), "localhost" | "127.0.0.1"));
                let module = values(&["-m", "--module-name"]);
                let runs = module.iter().any(|m| {
                    matches!(
                        m.text.trim_start_matches("ansible.builtin."),
                        "shell" | "command" | "raw" | "script"
                    )
                });
                for a in values(&["-a", "--args"]).into_iter().filter(|_| runs) {
                    if here {
                        self.remote_script(&a, c, false);
                        self.ask("ansible's ad-hoc command runs a command");
                    } else {
                        lines.push((a, "ansible's ad-hoc command"));
                    }
                }
            }
            "rsync" => {
                for w in values(&["--rsync-path"]) {
                    lines.push((w, "rsync's --rsync-path"));
                }
            }
            _ => {}
        }
        for (line, how) in lines {
            self.remote_script(&line, c, true);
            self.ask(format!("{how} runs a command on another machine"));
        }
    }

    /// What runs on another machine (`remote`) or on this one by another
    /// name: judged for what destroys, steals or fetches code to run.
    pub(super) fn remote_script(&mut self, code: &Word, c: &Cmd<'_>, remote: bool) {
        let fed = self.fed_by(code, c.script);
        if let Some(why) = fed {
            self.block(format!(
                "{why} (a command built from it runs on another machine)"
            ));
        }
        let was = std::mem::replace(&mut self.remote, remote);
        self.block_only(|a| a.script(&code.text, &[], c.depth + 1));
        self.remote = was;
    }
}

/// Words run as they are (`quoted`: an argv, each word kept whole) or
/// joined by spaces for a shell to split again (as ssh does).
fn joined(words: &[Word], quoted: bool) -> Word {
    Word {
        text: if quoted {
            crate::policy::shell::quoted_line(words.iter().map(|w| &w.text))
        } else {
            Word::join(words)
        },
        dynamic: words.iter().any(|w| w.dynamic),
        subs: words.iter().flat_map(|w| w.subs.clone()).collect(),
        ..Default::default()
    }
}

/// The command lines of `--parameters 'commands=["…","…"]'`,
/// `'{"commands":["…"]}'` or `commands=a,b`.
fn ssm_commands(value: &str) -> Vec<String> {
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(value)
        && let Some(list) = v.get("commands").and_then(|x| x.as_array())
    {
        return list
            .iter()
            .filter_map(|x| x.as_str().map(String::from))
            .collect();
    }
    let Some(rest) = value.split_once("commands=").map(|(_, r)| r.trim()) else {
        return Vec::new();
    };
    if rest.starts_with('[')
        && let Some(end) = rest.rfind(']')
        && let Ok(list) = serde_json::from_str::<Vec<String>>(&rest[..=end])
    {
        return list;
    }
    // Unparsed: the whole text, judged as one line (no less than it holds).
    vec![rest.trim_matches(['[', ']']).to_string()]
}

#[cfg(test)]
mod tests {
    use super::ssm_commands;

    #[test]
    fn run_command_parameters_are_read_in_each_spelling() {
        assert_eq!(
            ssm_commands(r#"commands=["id","uptime"]"#),
            vec!["id", "uptime"]
        );
        assert_eq!(ssm_commands(r#"{"commands":["df -h"]}"#), vec!["df -h"]);
        assert_eq!(ssm_commands("commands=uptime"), vec!["uptime"]);
        assert!(ssm_commands("executionTimeout=3600").is_empty());
    }
}
