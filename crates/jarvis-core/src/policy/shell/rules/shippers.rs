//! Log and metric shippers (Vector, Fluentd and Fluent Bit, the
//! OpenTelemetry collector, Promtail and Alloy, Logstash, Telegraf, the
//! Beats, collectd): the configuration they start with is a program. Its
//! exec sources run commands on a schedule, its file sources read what
//! they name, and a configuration fetched from an address is code nobody
//! saw.

use super::*;

const SHIPPERS: &[&str] = &[
    "vector",
    "fluentd",
    "fluent-bit",
    "td-agent",
    "td-agent-bit",
    "otelcol",
    "otelcol-contrib",
    "otelcol-k8s",
    "promtail",
    "alloy",
    "grafana-agent",
    "logstash",
    "telegraf",
    "filebeat",
    "metricbeat",
    "packetbeat",
    "auditbeat",
    "heartbeat",
    "journalbeat",
    "collectd",
];

/// Options that name the configuration (`-c F`, `--config=F`,
/// `-config.file=F`, `--config-toml F`); logstash's `-e` is the text.
const CONFIG_FLAGS: &[&str] = &[
    "-c",
    "--config",
    "-config",
    "--config-toml",
    "--config-yaml",
    "--config-json",
    "--config-dir",
    "-f",
    "--path.config",
    "--config.file",
    "-config.file",
    "--config-file",
    "-C",
];

/// Keys whose value an exec source or output runs.
const COMMAND_KEYS: &[&str] = &["command", "commands", "cmd", "exec"];

impl Analyzer<'_> {
    pub(super) fn shippers(&mut self, c: &Cmd<'_>) {
        // `grafana-cli --pluginUrl URL plugins install`: a plugin whose
        // backend is a program Grafana runs.
        if c.lb == "grafana-cli" || c.lb == "grafana" && c.args.first().is_some_and(|a| a == "cli")
        {
            for (i, a) in c.args.iter().enumerate() {
                let url = a
                    .strip_prefix("--pluginUrl=")
                    .map(str::to_string)
                    .or_else(|| {
                        (a == "--pluginUrl")
                            .then(|| c.args.get(i + 1).cloned())
                            .flatten()
                    });
                if url.is_some_and(|u| u.starts_with("http://") || u.starts_with("https://")) {
                    self.block("download and execute (a Grafana plugin from an address: its backend is a program Grafana runs)");
                }
            }
        }
        if !SHIPPERS.contains(&c.lb.as_str()) && !c.lb.starts_with("grafana") {
            return;
        }
        let asks_what = !c.args.is_empty()
            && c.args.iter().all(|a| {
                matches!(
                    a.as_str(),
                    "--help" | "-h" | "--version" | "-V" | "-v" | "version"
                )
            });
        if !SHIPPERS.contains(&c.lb.as_str()) || asks_what {
            return;
        }
        let mut texts: Vec<String> = Vec::new();
        for (i, a) in c.args.iter().enumerate() {
            let (flag, value) = match a.split_once('=') {
                Some((f, v)) if f.starts_with('-') => (f, Some(v.to_string())),
                _ => (a.as_str(), c.args.get(i + 1).cloned()),
            };
            let Some(value) = value else { continue };
            // logstash's `-e` is a whole configuration; Beats' `-E` and the
            // OpenTelemetry collector's `--set` are settings of one.
            if flag == "-e" && c.lb == "logstash"
                || flag == "-E" && c.lb.ends_with("beat")
                || flag == "--set" && c.lb.starts_with("otelcol")
            {
                texts.push(value);
                continue;
            }
            if !CONFIG_FLAGS.contains(&flag) {
                continue;
            }
            // `-c <(printf '…')`: the configuration is what it prints.
            if let Some(w) = c.arg_word(i + 1).filter(|w| w.procsub && !a.contains('=')) {
                let subs: Vec<&Command> = w
                    .subs
                    .iter()
                    .filter_map(|&k| c.script.commands.get(k))
                    .collect();
                if subs.iter().any(|k| self.producer(k) != Producer::Other) {
                    self.block(format!("download and execute ({} runs a configuration fetched or decoded at run time)", c.base));
                }
                texts.extend(subs.into_iter().filter_map(super::super::eval::printed));
                continue;
            }
            let lv = lower(&value);
            if lv.starts_with("http://") || lv.starts_with("https://") {
                self.block(format!(
                    "download and execute ({} runs a configuration fetched from {}: its exec inputs run commands)",
                    c.base,
                    shown(&value)
                ));
            } else if let Some(inline) = value.strip_prefix("yaml:") {
                texts.push(inline.to_string());
            } else if matches!(value.as_str(), "-" | "/dev/stdin" | "/proc/self/fd/0") {
                texts.extend(
                    c.src
                        .redirects
                        .iter()
                        .filter_map(|r| r.body.as_ref().map(|b| b.text.clone())),
                );
            } else if let Some(text) = self.written_text(&Word::lit(value), c.cwd()) {
                texts.push(text);
            }
        }
        for text in &texts {
            self.shipper_config(text, c);
        }
        self.ask(format!(
            "{} ships logs or metrics as its configuration says",
            c.base
        ));
    }

    /// What a shipper's configuration runs and reads.
    fn shipper_config(&mut self, text: &str, c: &Cmd<'_>) {
        for line in text.lines() {
            for cmd in command_values(line) {
                self.block_only(|a| a.script(&cmd, &[], c.depth + 1));
                self.ask(format!("{} runs commands its configuration names", c.base));
            }
            // logstash's ruby filter: `code => "…"`, `init => "…"`.
            for code in ruby_values(line) {
                self.inline_code("ruby", &code, c.depth);
                self.ask(format!("{} runs Ruby code its configuration holds", c.base));
            }
        }
        let pieces = text.split(|ch: char| ch.is_whitespace() || "\"'[],=>{}".contains(ch));
        for piece in pieces.filter(|p| p.starts_with(['/', '~']) || p.starts_with(HOME)) {
            let p = self.norm_text(piece, c.cwd());
            if let Some(why) = paths::credential_normalized(&p, piece) {
                self.block(format!(
                    "{} is configured to read a credential: {why}",
                    c.base
                ));
            } else if self.app_state(&p) {
                self.block(format!(
                    "{} is configured to read Jarvis's own state ({piece})",
                    c.base
                ));
            }
        }
    }
}

/// The commands a configuration line runs: `command = ["sh", "-c", "…"]`,
/// `command => "…"` (anywhere in the line: logstash's `-e` is one line),
/// `command: …`, Fluentd's `command …`, Fluent Bit's `Command …`; an
/// array's strings joined as a shell would quote them.
fn command_values(line: &str) -> Vec<String> {
    let l = line.to_ascii_lowercase();
    let mut out = Vec::new();
    for key in COMMAND_KEYS {
        for (at, _) in l.match_indices(key) {
            // A key of its own (`command =`, `"command":`), not part of a
            // name (`inputs.exec`, `[[outputs.exec]]`).
            let before = l[..at].chars().next_back();
            if before.is_some_and(|ch| ch.is_ascii_alphanumeric() || "_.[-".contains(ch)) {
                continue;
            }
            let after = &line[at + key.len()..];
            if after.starts_with(|ch: char| ch.is_ascii_alphanumeric() || "_.]-".contains(ch)) {
                continue;
            }
            let unquoted = after.trim_start_matches(['"', '\'']);
            let rest = unquoted.trim_start();
            // (A key is followed by `=`, `=>`, `:` or a blank: `"exec",`
            // is a value.)
            if !(rest.starts_with(['=', ':']) || unquoted.starts_with(char::is_whitespace)) {
                continue;
            }
            let rest = rest
                .strip_prefix("=>")
                .or_else(|| rest.strip_prefix('='))
                .or_else(|| rest.strip_prefix(':'))
                .unwrap_or(rest)
                .trim();
            if let Some(cmd) = command_text(rest) {
                out.push(cmd);
            }
        }
    }
    out
}

/// The Ruby a logstash line holds: `code => "…"`, `init => '…'`.
fn ruby_values(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["code", "init"] {
        for (at, _) in line.match_indices(key) {
            if line[..at]
                .chars()
                .next_back()
                .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_')
            {
                continue;
            }
            let rest = line[at + key.len()..].trim_start();
            if let Some(v) = rest.strip_prefix("=>").map(str::trim_start)
                && let Some(code) = command_text(v)
            {
                out.push(code);
            }
        }
    }
    out
}

/// A value as written: a quoted string, an array of strings, or the rest
/// of the line.
fn command_text(rest: &str) -> Option<String> {
    if rest.is_empty() || rest.starts_with(['{', '#']) {
        return None;
    }
    if let Some(list) = rest.strip_prefix('[') {
        let list = list.split(']').next().unwrap_or(list);
        let words: Vec<String> = list
            .split(',')
            .map(|w| w.trim().trim_matches(['"', '\'']).to_string())
            .filter(|w| !w.is_empty())
            .collect();
        return Some(crate::policy::shell::quoted_line(words));
    }
    for q in ['"', '\''] {
        if let Some(r) = rest.strip_prefix(q) {
            return Some(r.split(q).next().unwrap_or(r).to_string());
        }
    }
    Some(rest.to_string())
}
