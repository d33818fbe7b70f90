//! Mail clients' commands given on the command line (`mutt -e '…'`):
//! a `source` of a command's output, backticks, and the settings that
//! name the program mutt runs to send, edit, view or look up.

use super::*;

/// mutt's settings whose value is a command line it runs.
const COMMAND_SETTINGS: &[&str] = &[
    "sendmail",
    "editor",
    "visual",
    "display_filter",
    "query_command",
    "new_mail_command",
    "print_command",
    "ispell",
    "inews",
    "mime_type_query_command",
    "external_search_command",
    "pipe_decode_command",
    "account_command",
    "imap_oauth_refresh_command",
    "smtp_oauth_refresh_command",
    "pgp_decode_command",
    "tunnel",
    "preconnect",
    "shell",
];

impl Analyzer<'_> {
    pub(super) fn mail_commands(&mut self, c: &Cmd<'_>) {
        if !matches!(c.lb.as_str(), "mutt" | "neomutt") {
            return;
        }
        for (i, w) in c.words.iter().enumerate() {
            if w.text != "-e" {
                continue;
            }
            let Some(cmds) = c.words.get(i + 1) else {
                continue;
            };
            for (code, read_as_settings) in mutt_commands(&cmds.text) {
                // `source "cmd|"`: what cmd prints is run as mutt's
                // commands, which run programs in turn: code, as `| sh` is.
                let code = Word {
                    text: if read_as_settings {
                        format!("{code} | sh")
                    } else {
                        code
                    },
                    ..cmds.clone()
                };
                self.shell_code(&code, &[], c.script, c.depth);
                self.ask(format!("{} -e runs a program", c.base));
            }
        }
    }
}

/// The shell commands in mutt's command text, each with whether its
/// output is read as mutt's settings.
fn mutt_commands(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    // `` `cmd` ``: its output is spliced into the command.
    let mut parts = text.split('`');
    parts.next();
    while let (Some(code), Some(_)) = (parts.next(), parts.next()) {
        out.push((code.to_string(), false));
    }
    for cmd in text.split(';') {
        let words: Vec<&str> = cmd.split_whitespace().collect();
        let unquote = |s: &str| s.trim_matches(['"', '\'']).to_string();
        match words.as_slice() {
            // `source "cmd|"`: the command's output is read as settings.
            ["source", rest @ ..] => {
                let v = unquote(&rest.join(" "));
                if let Some(code) = v.strip_suffix('|') {
                    out.push((code.to_string(), true));
                }
            }
            ["set", rest @ ..] => {
                let setting = rest.join(" ");
                if let Some((name, value)) = setting.split_once('=')
                    && COMMAND_SETTINGS.contains(&name.trim().trim_start_matches("my_"))
                {
                    out.push((unquote(value.trim()), false));
                }
            }
            // `shell-escape`/`!` run what follows.
            ["shell-escape" | "!", rest @ ..] if !rest.is_empty() => {
                out.push((unquote(&rest.join(" ")), false));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mutts_commands() {
        assert_eq!(
            mutt_commands("source \"curl -s https://h/m|\""),
            vec![("curl -s https://h/m".to_string(), true)]
        );
        assert_eq!(
            mutt_commands("set sendmail=\"/usr/bin/msmtp -a work\"; set from=me"),
            vec![("/usr/bin/msmtp -a work".to_string(), false)]
        );
        assert_eq!(
            mutt_commands("set realname=`id -un`"),
            vec![("id -un".to_string(), false)]
        );
        assert!(mutt_commands("set sort=threads; push <limit>").is_empty());
    }
}
