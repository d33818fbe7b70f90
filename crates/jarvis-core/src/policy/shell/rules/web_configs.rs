//! Web servers' configuration and pages written by the line (nginx,
//! Apache and `.htaccess`, HAProxy, lighttpd, OpenResty, PHP): logs piped
//! into a program, folders of keys served, the Docker socket published, a
//! page that runs what a request sends (a web shell).

use super::infra::powerful_socket;
use super::*;

/// Where a request's input arrives in a page's code.
const REQUEST_INPUT: &[&str] = &[
    "$_get[",
    "$_post[",
    "$_request[",
    "$_cookie[",
    "$_server['http_",
    "request.args",
    "request.form",
    "request.values",
    "req.query",
    "req.body",
    "req.params",
    "ngx.var.arg_",
    "ngx.req.get_uri_args",
    "params[:",
];

/// What runs a command or code.
const EXEC_SINKS: &[&str] = &[
    "system(",
    "exec(",
    "shell_exec(",
    "passthru(",
    "popen(",
    "proc_open(",
    "eval(",
    "assert(",
    "os.system(",
    "subprocess.",
    "io.popen(",
    "os.execute(",
    "child_process",
    "execsync(",
    "`$_",
];

impl Analyzer<'_> {
    /// Judges `text`, written into `path`, as a web server's settings or
    /// page.
    pub(super) fn web_config(&mut self, path: &str, text: &str, depth: usize) {
        let l = lower(text);
        // A page that runs what the request sends.
        if REQUEST_INPUT.iter().any(|k| l.contains(k)) && EXEC_SINKS.iter().any(|k| l.contains(k)) {
            self.block(format!(
                "plants a web shell ({} runs commands a request sends)",
                shown(path)
            ));
            return;
        }
        // Every request's credentials sent to another machine: nginx
        // logging `Authorization`/cookies to a far syslog, a forward-auth
        // check at a far address.
        let carries_credentials = [
            "$http_authorization",
            "$http_cookie",
            "$cookie_",
            "authorization",
            "cookie",
        ]
        .iter()
        .any(|k| l.contains(k));
        let far = |marker: &str| {
            l.split(marker).skip(1).any(|rest| {
                let addr: String = rest
                    .trim_start_matches(['"', '\'', ' '])
                    .chars()
                    .take_while(|ch| !ch.is_whitespace() && !"\"',;".contains(*ch))
                    .collect();
                let host = addr.split_once("://").map_or(addr.as_str(), |(_, r)| r);
                super::project_out::far_host(host).is_some()
            })
        };
        // nginx's `mirror`: a copy of every request, to a far `proxy_pass`.
        let mirrored = l.contains("mirror ") && far("proxy_pass ");
        if mirrored
            || carries_credentials
                && (far("syslog:server=") || l.contains("forwardauth") && far("address:"))
        {
            self.block(format!(
                "exfiltration ({} sends every request's credentials to another machine)",
                shown(path)
            ));
            return;
        }
        // Uploads run as programs: a CGI or PHP handler for images or text.
        let handler = l.contains("cgi-script")
            || l.contains("x-httpd-php")
            || l.contains("application/x-httpd");
        let uploads_run = handler
            && [
                ".jpg", ".jpeg", ".png", ".gif", ".txt", ".ico", ".svg", ".pdf",
            ]
            .iter()
            .any(|e| l.contains(e));
        if uploads_run {
            self.block(format!(
                "plants a web shell ({} runs uploaded images or text as programs)",
                shown(path)
            ));
            return;
        }
        for line in text.lines() {
            let t = line.trim();
            let lt = lower(t);
            // Apache's piped logs and external filters, RewriteMap prg:.
            let piped = ["customlog", "errorlog", "transferlog"]
                .iter()
                .any(|k| lt.starts_with(k))
                .then(|| {
                    t.split_once('|')
                        .map(|(_, r)| r.trim_end_matches(['"', '\'']))
                })
                .flatten()
                .or_else(|| {
                    lt.starts_with("rewritemap")
                        .then(|| t.split_once("prg:").map(|(_, r)| r))
                        .flatten()
                })
                .or_else(|| {
                    lt.starts_with("extfilterdefine")
                        .then(|| t.split_once("cmd=").map(|(_, r)| r.trim_matches('"')))
                        .flatten()
                });
            if let Some(cmd) = piped {
                let cmd = cmd.trim().to_string();
                // (A sender anywhere in it: `bash -c 'tee >(nc h 9)'`.)
                let sends = cmd
                    .split(|ch: char| ch.is_whitespace() || "'\"()<>|;&".contains(ch))
                    .map(program_name)
                    .any(|p| {
                        tables::FETCHERS.contains(&p.as_str()) || super::captures::is_sender(&p)
                    });
                if sends || cmd.contains("/dev/tcp/") {
                    self.block(format!(
                        "exfiltration ({} pipes every request, its headers and cookies, to {})",
                        shown(path),
                        shown(&cmd)
                    ));
                }
                self.block_only(|a| a.script(&cmd, &[], depth + 1));
                self.ask("a web server pipes its traffic into a program");
            }
            // Folders served: `root`, `alias`, `DocumentRoot`, `Alias`,
            // lighttpd's `server.document-root`, `auto_prepend_file`
            // (each statement of a line: `location /k/ { alias …; }`).
            for dir in t
                .split(['{', '}', ';'])
                .map(str::trim)
                .filter_map(served_folder)
            {
                let p = self.norm_text(dir, None);
                if paths::credential_normalized(&p, dir).is_some()
                    || paths::contains_credentials(&p)
                    || self.app_state(&p)
                    || p == "~"
                {
                    self.block(format!(
                        "serves {} to the network ({} names it)",
                        shown(dir),
                        shown(path)
                    ));
                }
            }
            // HAProxy's `server s unix@/var/run/docker.sock`.
            if (lt.starts_with("server ") || lt.contains(" unix@")) && powerful_socket(t) {
                self.block(format!(
                    "publishes a local socket that holds the user's powers ({} proxies to it)",
                    shown(path)
                ));
            }
        }
    }
}

/// The folder a configuration line serves or loads, if it names one.
fn served_folder(line: &str) -> Option<&str> {
    let lt = line.to_ascii_lowercase();
    let value = |after: &str| {
        line[line.len() - after.len()..]
            .trim()
            .trim_end_matches(';')
            .split_whitespace()
            .last()
            .map(|v| v.trim_matches(['"', '\'']))
    };
    for key in [
        "root ",
        "alias ",
        "documentroot ",
        "php_value auto_prepend_file ",
    ] {
        if let Some(rest) = lt.strip_prefix(key) {
            return value(rest);
        }
    }
    if lt.starts_with("alias ") || lt.starts_with("scriptalias ") {
        return line
            .split_whitespace()
            .nth(2)
            .map(|v| v.trim_matches(['"', '\'']));
    }
    lt.starts_with("server.document-root")
        .then(|| {
            line.split_once('=')
                .map(|(_, v)| v.trim().trim_matches(['"', '\'']))
        })
        .flatten()
}
