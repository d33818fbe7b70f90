//! Web servers' configuration and pages written by the line (nginx,
//! Apache and `.htaccess`, HAProxy, lighttpd, OpenResty, PHP): logs piped
//! into a program, folders of keys served, the Docker socket published, a
//! page that runs what a request sends (a web shell).

use super::infra::powerful_socket;
use super::*;

/// Where a request's input arrives in a page's code.
const REQUEST_INPUT: &[&str] = &[
    "$_get",
    "$_post",
    "$_request",
    "$_cookie",
    "$_server[",
    "php://input",
    "getenv(\"http_",
    "getenv('http_",
    "request.args",
    "request.form",
    "request.values",
    "request.headers",
    "request.getparameter(",
    "req.query",
    "req.body",
    "req.params",
    "req.headers",
    "ngx.var.arg_",
    "ngx.req.get_uri_args",
    "params[:",
    "$query_string",
];

/// What runs a command or code, called with what follows on its line.
const EXEC_SINKS: &[&str] = &[
    "system(",
    // (A function `exec(`, not a method: `RegExp.exec(` matches text.)
    " exec(",
    "(exec(",
    ";exec(",
    "call_user_func(",
    "include(",
    "require(",
    "shell_exec(",
    "passthru(",
    "popen(",
    "proc_open(",
    "eval(",
    "eval \"",
    "array_map(\"system\"",
    "os.system(",
    "subprocess.",
    "io.popen(",
    "os.execute(",
    "execsync(",
    "child_process.exec(",
    "getruntime().exec(",
    "$f($_",
];

impl Analyzer<'_> {
    /// Judges `text`, written into `path`, as a web server's settings or
    /// page.
    pub(super) fn web_config(&mut self, path: &str, text: &str, depth: usize) {
        let l = lower(text);
        // A page that runs what the request sends: on one line, a call
        // that runs code or commands, and the request's input after it.
        // Variables given the request's input (`$c = $_GET["c"];`) carry
        // it into a later call.
        let carried: Vec<String> = l
            .split([';', '\n'])
            .filter_map(|st| {
                let (left, right) = st.split_once('=')?;
                REQUEST_INPUT.iter().any(|r| right.contains(r)).then(|| {
                    left.split_whitespace()
                        .last()
                        .unwrap_or("")
                        .trim()
                        .to_string()
                })
            })
            .filter(|v| v.len() > 1 || v.starts_with('$'))
            .collect();
        let fed = |arg: &str| {
            REQUEST_INPUT.iter().any(|r| arg.contains(r))
                || carried.iter().any(|v| {
                    arg.match_indices(v.as_str()).any(|(i, _)| {
                        let before = arg[..i].chars().next_back();
                        let after = arg[i + v.len()..].chars().next();
                        !before.is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_')
                            && !after.is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_')
                    })
                })
        };
        let shell_page = !super::planted_text::data_file(path)
            && l.split([';', '\n']).any(|line| {
                EXEC_SINKS.iter().any(|k| {
                    line.match_indices(k).any(|(at, _)| {
                        // The call's argument, up to its closing parenthesis.
                        let arg = &line[at + k.len()..];
                        let mut depth = 1usize;
                        let end = arg
                            .char_indices()
                            .find(|(_, ch)| {
                                match ch {
                                    '(' => depth += 1,
                                    ')' => depth -= 1,
                                    _ => {}
                                }
                                depth == 0
                            })
                            .map_or(arg.len(), |(i, _)| i);
                        fed(&arg[..end])
                    })
                })
            });
        if shell_page {
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
            "authrequestheaders",
            "header authorization",
            "header cookie",
            "$http_x_",
            "$request_body",
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
                && (l.contains("syslog:") && far("server=")
                    || l.contains("forwardauth") && far("address:")
                    || far("\nlog "))
        {
            self.block(format!(
                "exfiltration ({} sends every request's credentials to another machine)",
                shown(path)
            ));
            return;
        }
        // Uploads run as programs: a CGI or PHP handler given images or
        // text (on the handler's line, or for a `<FilesMatch>` of them).
        let images = |t: &str| {
            [
                ".jpg", ".jpeg", "jpe?g", ".png", "png", ".gif", ".txt", ".svg",
            ]
            .iter()
            .any(|e| t.contains(e))
        };
        let handler = |t: &str| {
            t.contains("cgi-script")
                || t.contains("x-httpd-php")
                || t.contains("application/x-httpd")
                || t.contains("php-script")
                || t.contains("php7-script")
                || t.contains("php8-script")
        };
        let files_match_images = l
            .split("<files")
            .skip(1)
            .any(|block| images(block.lines().next().unwrap_or("")) && handler(block));
        let uploads_run = files_match_images
            || l.lines().any(|t| {
                (t.contains("addhandler") || t.contains("addtype") || t.contains("sethandler"))
                    && handler(t)
                    && [".jpg", ".jpeg", ".png", ".gif", ".txt", ".svg", ".ico"]
                        .iter()
                        .any(|e| t.split_whitespace().any(|w| w == *e))
            });
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
            // (lighttpd's `accesslog.filename = "|…"`, `server.errorlog`.)
            let piped = [
                "customlog",
                "errorlog",
                "transferlog",
                "globallog",
                "accesslog.filename",
                "server.errorlog",
                "forensiclog",
                "jklogfile",
                "sslpassphrasedialog",
            ]
            .iter()
            .any(|k| lt.starts_with(k))
            .then(|| {
                t.split_once('|')
                    .map(|(_, r)| r.trim_end_matches(['"', '\'']))
                    .or_else(|| t.split_once("exec:").map(|(_, r)| r))
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
            if (lt.contains("server ")
                || lt.contains("unix@")
                || lt.contains("proxy_pass")
                || lt.contains("proxypass")
                || lt.contains("grpc_pass")
                || lt.contains("reverse_proxy"))
                && powerful_socket(t)
            {
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
    // (`alias PATH;`, Apache's `Alias /url PATH`: the last word either way.)
    for key in [
        "root ",
        "alias ",
        "scriptalias ",
        "documentroot ",
        "php_value auto_prepend_file ",
    ] {
        if let Some(rest) = lt.strip_prefix(key) {
            return value(rest);
        }
    }
    (lt.starts_with("server.document-root")
        || lt.starts_with("auto_prepend_file")
        || lt.starts_with("auto_append_file"))
    .then(|| {
        line.split_once('=')
            .map(|(_, v)| v.trim().trim_matches(['"', '\'']))
    })
    .flatten()
}
