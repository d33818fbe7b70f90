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
    "pager",
    "print_cmd",
    "signature",
];

impl Analyzer<'_> {
    pub(super) fn mail_commands(&mut self, c: &Cmd<'_>) {
        if !matches!(c.lb.as_str(), "mutt" | "neomutt") {
            return;
        }
        // `-e CMDS` (or glued, `-eCMDS`), and a settings file this line
        // wrote (`-F rc`).
        let mut texts: Vec<Word> = super::script_opts::values(c, &["-e"]);
        for f in super::script_opts::values(c, &["-F"]) {
            if let Some(text) = self.written_text(&f, c.cwd()) {
                texts.push(Word { text, ..f });
            }
        }
        for cmds in texts {
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
                self.ask(format!("{} runs a program from its commands", c.base));
            }
        }
    }
}

/// mutt's words, split at blanks outside quotes, quotes removed.
fn mutt_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for ch in text.chars() {
        match (quote, ch) {
            (Some(q), ch) if ch == q => quote = None,
            (Some(_), ch) => cur.push(ch),
            (None, '"' | '\'') => quote = Some(ch),
            (None, ch) if ch.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            (None, ch) => cur.push(ch),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
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
    // `push`/`exec`/`macro` keys: `!cmd` is the shell escape, up to the
    // end of the line typed.
    for (i, _) in text.match_indices('!') {
        let rest = &text[i + 1..];
        let end = rest.find(['\n', '"', '\'']).unwrap_or(rest.len());
        let end = rest[..end].find("\\n").unwrap_or(end);
        let cmd = rest[..end].replace("\\ ", " ");
        if !cmd.trim().is_empty() {
            out.push((cmd.trim().to_string(), false));
        }
    }
    for cmd in text.split([';', '\n']) {
        let words = mutt_words(cmd);
        let Some((first, rest)) = words.split_first() else {
            continue;
        };
        match first.as_str() {
            // `source "cmd|"`: the command's output is read as settings.
            "source" => {
                for v in rest {
                    if let Some(code) = v.trim().strip_suffix('|') {
                        out.push((code.to_string(), true));
                    }
                }
            }
            // Every `name=value` of a `set`: a value naming a program, or
            // ending in `|` (a format or signature piped from a command).
            "set" | "my_hdr" => {
                for kv in rest {
                    let Some((name, value)) = kv.split_once('=') else {
                        continue;
                    };
                    let name = name.trim().trim_start_matches("my_");
                    if let Some(code) = value.trim().strip_suffix('|') {
                        out.push((code.to_string(), false));
                    } else if COMMAND_SETTINGS.contains(&name)
                        || name.ends_with("_command")
                        || name.ends_with("_cmd")
                    {
                        out.push((value.to_string(), false));
                    }
                }
            }
            "shell-escape" if !rest.is_empty() => out.push((rest.join(" "), false)),
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
