//! Public drops: services that exist to receive whatever anyone sends and
//! show it to whoever holds the link — request catchers, anonymous file
//! and paste hosts, chat bots' upload endpoints. Nobody the user answers
//! for is on the other side, so what reaches them has left for good.
//! Downloads from them stay with the network rules (a paste piped into a
//! shell is fetch-and-run there).

use super::*;

/// Request catchers and out-of-band callback hosts: a request to one is
/// the beacon itself, whatever it carries.
const CATCHERS: &[&str] = &[
    "webhook.site",
    "requestbin.com",
    "requestbin.net",
    "pipedream.net",
    "requestcatcher.com",
    "beeceptor.com",
    "hookbin.com",
    "postb.in",
    "ptsv2.com",
    "ptsv3.com",
    "requestinspector.com",
    "webhookinbox.com",
    "interact.sh",
    "oast.fun",
    "oast.live",
    "oast.me",
    "oast.online",
    "oast.pro",
    "oast.site",
    "oastify.com",
    "burpcollaborator.net",
    "canarytokens.com",
    "dnslog.cn",
    "ceye.io",
];

/// Anonymous file and paste hosts: an upload is public to anyone with the
/// link (and to the host).
const FILE_DROPS: &[&str] = &[
    "0x0.st",
    "transfer.sh",
    "file.io",
    "paste.rs",
    "termbin.com",
    "ix.io",
    "sprunge.us",
    "clbin.com",
    "bashupload.com",
    "temp.sh",
    "tmpfiles.org",
    "catbox.moe",
    "gofile.io",
    "oshi.at",
    "keep.sh",
    "filebin.net",
    "pastebin.com",
    "dpaste.com",
    "dpaste.org",
    "hastebin.com",
    "paste.ee",
    "x0.at",
    "envs.sh",
    "uguu.se",
    "pixeldrain.com",
    "anonfiles.com",
    "ghostbin.com",
    "bpa.st",
    "paste.c-net.org",
];

/// Chat services' bot and webhook endpoints (host, path start): a file
/// posted there lands wherever the token's holder reads it.
const CHAT_UPLOADS: &[(&str, &str)] = &[
    ("api.telegram.org", "/bot"),
    ("discord.com", "/api/webhooks"),
    ("discordapp.com", "/api/webhooks"),
    ("hooks.slack.com", "/"),
];

/// Network programs whose host is a bare word (`nc termbin.com 9999`,
/// `socat - TCP:host:port`, `dig x.oastify.com`).
const BARE_HOSTS: &[&str] = &[
    "nc", "ncat", "netcat", "socat", "telnet", "dig", "nslookup", "host", "drill", "kdig", "ping",
    "openssl",
];

/// HTTP clients whose operands are URLs (a narrower list than
/// `tables::FETCHERS`, which also holds nc, ssh, rsync and cloud tools).
const HTTP_CLIENTS: &[&str] = &[
    "curl", "wget", "wget2", "http", "https", "xh", "xhs", "curlie", "httpie",
];

fn in_domain(host: &str, list: &'static [&'static str]) -> Option<&'static str> {
    let host = host.trim_end_matches('.');
    list.iter()
        .copied()
        .find(|d| host == *d || host.strip_suffix(d).is_some_and(|h| h.ends_with('.')))
}

/// The hosts a word names through URLs in it, each with the path after it
/// (lower case): `url=https://h/p`, JSON, `-d "…https://h…"`.
fn url_hosts(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if !text.contains("://") {
        return out;
    }
    let l = text.to_ascii_lowercase();
    let mut rest = l.as_str();
    while let Some(at) = rest.find("://") {
        let after = &rest[at + 3..];
        let end = after
            .find(|ch: char| "/?#\"' ,)]}\\`;|<>".contains(ch))
            .unwrap_or(after.len());
        let authority = &after[..end];
        let host = super::project_out::address_host(authority);
        let tail = &after[end..];
        let path_end = tail
            .find(|ch: char| ch.is_whitespace() || "\"'?#".contains(ch))
            .unwrap_or(tail.len());
        out.push((host, tail[..path_end].to_string()));
        rest = tail;
    }
    out
}

impl Analyzer<'_> {
    /// Data sent to a public drop, or any request to a request catcher.
    pub(super) fn public_drop(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        // A drop's name in a search pattern is looked for, not reached.
        if tables::TEXT_SEARCHERS.contains(&lb)
            || lb == "git" && matches!(c.args.first().map(String::as_str), Some("grep" | "log"))
        {
            return;
        }
        // A bucket written without signing takes anyone's writes: it is
        // not the user's, and whoever owns it reads what lands there.
        if lb == "aws" && c.has("--no-sign-request") {
            let ops = c.operands_lower();
            let copies = ops
                .windows(2)
                .any(|w| w[0] == "s3" && matches!(w[1].as_str(), "cp" | "sync" | "mv"))
                && ops.last().is_some_and(|d| d.starts_with("s3://"));
            let puts = ops.iter().any(|o| {
                matches!(
                    o.as_str(),
                    "put-object" | "upload-part" | "create-multipart-upload"
                )
            });
            if copies || puts {
                self.block(
                    "exfiltration (uploads to a bucket that takes anyone's writes, --no-sign-request: not the user's)",
                );
                return;
            }
        }
        let mut hosts: Vec<(String, String)> = c.words[1..]
            .iter()
            .flat_map(|w| url_hosts(&w.text))
            .collect();
        // curl and wget take `host/path` with no scheme as http.
        if HTTP_CLIENTS.contains(&lb) {
            for w in c.words[1..].iter().filter(|w| {
                !w.text.starts_with(['-', '.', '/', '~', '@']) && !w.text.contains("://")
            }) {
                let host = super::project_out::address_host(&w.text);
                if host.contains('.') {
                    let path = w.text.find('/').map_or("", |i| &w.text[i..]);
                    hosts.push((host, path.to_ascii_lowercase()));
                }
            }
        }
        if BARE_HOSTS.contains(&lb) {
            for w in &c.words[1..] {
                for piece in w.text.split([':', ',', '@']) {
                    if piece.contains('.') && !piece.contains('/') {
                        hosts.push((piece.to_ascii_lowercase(), String::new()));
                    }
                }
            }
        }
        if hosts.is_empty() {
            return;
        }
        if let Some(d) = hosts.iter().find_map(|(h, _)| in_domain(h, CATCHERS)) {
            self.block(format!(
                "exfiltration (a request to {d}, a request catcher: whatever reaches it is shown to whoever holds the link)"
            ));
            return;
        }
        let Some(sent) = sends_data(c) else { return };
        if let Some(d) = hosts.iter().find_map(|(h, _)| in_domain(h, FILE_DROPS)) {
            self.block(format!(
                "exfiltration (uploads to {d}, an anonymous file drop: anyone with the link reads it)"
            ));
        } else if sent == Sent::File
            && hosts.iter().any(|(h, p)| {
                CHAT_UPLOADS
                    .iter()
                    .any(|(ch, at)| h.trim_end_matches('.') == *ch && p.starts_with(at))
            })
        {
            self.block(
                "exfiltration (uploads a file to a chat bot or webhook: it is posted where the token's holder reads it)",
            );
        }
    }
}

#[derive(PartialEq)]
enum Sent {
    /// A message or form fields written on the line.
    Text,
    /// A file's content or the command's input.
    File,
}

/// What a command sends with its request, if anything: a body, a form, an
/// upload, its standard input.
fn sends_data(c: &Cmd<'_>) -> Option<Sent> {
    let lb = c.lb.as_str();
    let fed = c.src.stdin_from.is_some()
        || c.src
            .redirects
            .iter()
            .any(|r| matches!(r.op.as_str(), "<" | "<<" | "<<-" | "<<<"));
    if HTTP_CLIENTS.contains(&lb) {
        let mut sent = None;
        for (i, a) in c.args.iter().enumerate() {
            let prev = i
                .checked_sub(1)
                .and_then(|p| c.args.get(p))
                .map(String::as_str);
            let file = a.starts_with('@') || a.contains("=@") || a.contains("=<");
            let uploads = matches!(
                prev,
                Some("-T" | "--upload-file" | "--post-file" | "--body-file")
            ) || ["--upload-file=", "--post-file=", "--body-file="]
                .iter()
                .any(|p| a.starts_with(p));
            if file || uploads {
                return Some(Sent::File);
            }
            // httpie's items (`field=value`, `field:=json`) are a body too.
            let item = !matches!(lb, "curl" | "wget")
                && a.contains('=')
                && !a.starts_with('-')
                && !a.contains("://");
            let method = matches!(prev, Some("-X" | "--request" | "--method"))
                && !matches!(a.to_ascii_uppercase().as_str(), "GET" | "HEAD");
            let body = matches!(
                a.as_str(),
                "-d" | "-F" | "--form" | "--json" | "--post-data" | "--body-data"
            ) || ["--data", "--form", "--json", "--post-data="]
                .iter()
                .any(|p| a.starts_with(p))
                || method
                || item;
            if body {
                sent = Some(Sent::Text);
            }
        }
        // (curl and wget read their input only when told to, `@-`, `-T -`;
        // httpie sends what is piped in.)
        let reads_input = fed && !matches!(lb, "curl" | "wget" | "wget2");
        return sent.or(reads_input.then_some(Sent::File));
    }
    if matches!(
        lb,
        "nc" | "ncat" | "netcat" | "socat" | "telnet" | "openssl"
    ) {
        return fed.then_some(Sent::File);
    }
    // Code and cmdlets that post (`requests.post(…)`, `Invoke-RestMethod
    // -InFile`, `fetch(…, {method: 'PUT'})`).
    let line = lower(&c.args.join(" "));
    [
        "post", "put(", "put'", "upload", "-infile", "files=", "data=", "-body",
    ]
    .iter()
    .any(|k| line.contains(k))
    .then_some(Sent::File)
}
