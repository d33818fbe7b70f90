//! Git's settings: `-c K=V`, `--config-env`, `GIT_CONFIG_*` and `git
//! config`, judged by what git would run or where it would send data.

use super::*;

impl Analyzer<'_> {
    /// `key=value` given to `git -c` or `git config`: true when harmless.
    pub(super) fn git_setting(&mut self, kv: &str, c: &Cmd<'_>, global: bool) -> bool {
        self.git_setting_in(kv, c.script, c.depth, global)
    }

    /// `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>` pairs in the
    /// environment are `git -c key=value`, for every git the line starts.
    pub(super) fn git_env_settings(
        &mut self,
        assigns: &[(String, Word)],
        script: &Script,
        depth: usize,
    ) {
        for (name, value) in assigns {
            // `GIT_CONFIG_PARAMETERS="'k=v' 'k2=v2'"`: git's own spelling of `-c`.
            if name.eq_ignore_ascii_case("GIT_CONFIG_PARAMETERS") {
                if value.dynamic {
                    self.ask("git configuration from the environment that cannot be read");
                    continue;
                }
                let quoted = super::code::string_literals(&value.text);
                let pairs = if quoted.is_empty() {
                    vec![value.text.clone()]
                } else {
                    quoted
                };
                for kv in pairs {
                    self.git_setting_in(&kv, script, depth, false);
                }
            }
        }
        for (name, key) in assigns {
            let Some(n) = name
                .to_ascii_uppercase()
                .strip_prefix("GIT_CONFIG_KEY_")
                .map(str::to_string)
            else {
                continue;
            };
            let value = assigns
                .iter()
                .find(|(v, _)| v.to_ascii_uppercase() == format!("GIT_CONFIG_VALUE_{n}"));
            match value {
                Some((_, v)) if !key.dynamic && !v.dynamic => {
                    self.git_setting_in(&format!("{}={}", key.text, v.text), script, depth, false);
                }
                _ => self.ask("git configuration from the environment that cannot be read"),
            }
        }
    }

    pub(super) fn git_setting_in(
        &mut self,
        kv: &str,
        script: &Script,
        depth: usize,
        global: bool,
    ) -> bool {
        let Some((k, v)) = kv.split_once('=') else {
            return !RUNS.iter().any(|r| lower(kv).starts_with(r));
        };
        let k = lower(k);
        // Settings in the user's own config that send every later fetch
        // and push, in every repository, somewhere else or past TLS.
        let redirected_to = k.strip_prefix("url.").and_then(|r| {
            r.strip_suffix(".insteadof")
                .or_else(|| r.strip_suffix(".pushinsteadof"))
        });
        // `url.git@github.com:.insteadOf https://github.com/` only changes
        // the protocol; another host is another place.
        // A remote's push address alone moved: fetches still show the old
        // place while every push goes to the new one.
        let far = |u: &str| {
            let u = u.trim_matches(['\'', '"']);
            let rest = u.split_once("://").map_or(u, |(_, r)| r);
            (u.contains("://") || u.contains('@')) && super::project_out::far_host(rest).is_some()
        };
        if k.starts_with("remote.") && k.ends_with(".pushurl") && far(v) {
            self.block(format!(
                "exfiltration (git setting {k} sends every later push to {} while fetches still show the remote)",
                shown(v)
            ));
        }
        if redirected_to.is_some_and(|to| url_host(to) != url_host(&lower(v))) {
            let scope = if global {
                "every later fetch or push, in every repository"
            } else {
                "this repository's fetches or pushes"
            };
            self.block(format!(
                "exfiltration (git setting {k} sends {scope} to another host than the remote names)"
            ));
        }
        // LFS objects pushed to another place than the remote.
        if (k == "lfs.url"
            || k == "lfs.pushurl"
            || k.ends_with(".lfsurl")
            || k.ends_with(".lfspushurl"))
            && far(v)
        {
            self.block(format!(
                "exfiltration (git setting {k} sends the large files of every later push to {})",
                shown(v)
            ));
        }
        // The work tree moved out of the project: `git add` then takes home.
        if k == "core.worktree" {
            let p = self.norm_text(&paths::word_path(v.trim_matches(['\'', '"']), false), None);
            if !self.inside(&p) {
                self.block(format!(
                    "git setting core.worktree makes {} the repository's files (its keys committed and pushed)",
                    shown(v)
                ));
            }
        }
        // A transport git turned off for safety, back on everywhere.
        if global
            && k.starts_with("protocol.")
            && k.ends_with(".allow")
            && lower(v).trim_matches(['\'', '"']) == "always"
        {
            self.block(format!(
                "disables security (git config {k} always, in every repository)"
            ));
        }
        // Git refuses a repository another user owns, whose config and
        // hooks would run as this user; `*` switches that off everywhere.
        if global && k == "safe.directory" && v.trim_matches(['\'', '"']) == "*" {
            self.block(
                "disables security (safe.directory '*' makes git run any repository's config and hooks, whoever owns it)",
            );
        }
        if global && (k.ends_with(".sslcainfo") || k.ends_with(".sslcapath")) {
            self.block(format!(
                "disables security (git config {k} makes git trust other certificates in every repository)"
            ));
        }
        // `merge.X.driver`, `credential.URL.helper`, `submodule.X.update`
        // with `!cmd`: commands git runs later too.
        if !(RUNS.iter().any(|r| k.starts_with(r))
            || k.ends_with("command")
            || k.ends_with(".path")
                && ["man.", "browser.", "mergetool.", "difftool."]
                    .iter()
                    .any(|p| k.starts_with(p))
            || k == "imap.tunnel"
            || k == "interactive.difffilter"
            || k.ends_with(".textconv")
            || k.ends_with(".command")
            || k.ends_with(".cmd")
            || k.ends_with(".clean")
            || k.ends_with(".smudge")
            || k.ends_with(".process")
            || k.ends_with(".driver")
            || k.ends_with(".helper")
            || k.ends_with(".update") && v.trim_matches(['\'', '"']).starts_with('!'))
        {
            return true;
        }
        if k == "protocol.ext.allow" && lower(v) == "always"
            || k == "protocol.allow" && lower(v) == "always"
        {
            // (A later fetch of an `ext::` URL, a submodule's, runs it.)
            self.block("git allows the ext:: transport, whose URLs are commands it runs");
            return false;
        }
        if k.starts_with("remote.")
            && !(k.ends_with(".uploadpack") || k.ends_with(".receivepack") || k.ends_with(".proxy"))
        {
            return true;
        }
        let code = v.trim_start_matches('!');
        // `alias.boom '!git boom | git boom &'`: each call starts two more.
        if let Some(name) = k.strip_prefix("alias.")
            && v.trim_start_matches(['\'', '"']).starts_with('!')
            && code.contains(&format!("git {name}"))
        {
            self.block(format!("fork bomb (git alias {name} calls itself)"));
        }
        if k.starts_with("alias.") && !v.starts_with('!') {
            // An alias of another git subcommand runs nothing new.
            return true;
        }
        let first = base_name(code.split_whitespace().next().unwrap_or(""));
        let plain_tool = matches!(
            first.as_str(),
            "vim"
                | "vi"
                | "nvim"
                | "nano"
                | "emacs"
                | "code"
                | "subl"
                | "micro"
                | "hx"
                | "less"
                | "more"
                | "cat"
                | "delta"
                | "diff-so-fancy"
                | "bat"
                | "meld"
                | "kdiff3"
                | "vimdiff"
                | "opendiff"
                | "store"
                | "cache"
                | "osxkeychain"
                | "manager"
                | "manager-core"
                | "libsecret"
        ) && !code.contains([';', '|', '&', '$', '`', '>', '<', '(']);
        // The forges' own CLIs as the credential helper (`gh auth
        // setup-git` writes this).
        let forge_helper = k.starts_with("credential.")
            && matches!(
                code.split_whitespace().next().unwrap_or(""),
                "gh" | "glab" | "/usr/bin/gh" | "/usr/bin/glab" | "/usr/local/bin/gh"
            )
            && code.split_whitespace().skip(1).collect::<Vec<_>>() == ["auth", "git-credential"];
        // git's documented default-key command: the agent's first key.
        let agent_keys =
            k == "gpg.ssh.defaultkeycommand" && code.trim_matches(['\'', '"', ' ']) == "ssh-add -L";
        let plain_tool = plain_tool || agent_keys;
        // An empty helper clears the list before the next `--add`.
        let cleared =
            k.starts_with("credential.") && code.trim_matches(['\'', '"', ' ']).is_empty();
        let hooks_off = k == "core.hookspath" && v.trim_matches(['\'', '"']) == "/dev/null";
        let plain_tool = plain_tool || forge_helper || cleared || hooks_off;
        // Hooks kept in the project (`.githooks`, husky) are the project's
        // code, like its build; anywhere else they outlive the project.
        // `/dev/null` holds no hooks: it turns them off.
        let hooks_elsewhere = k == "core.hookspath"
            && v.trim_matches(['\'', '"']) != "/dev/null"
            && (global || !self.inside(&self.norm_text(&paths::word_path(v, false), None)));
        if hooks_elsewhere
            || k == "core.fsmonitor" && global
            || k.starts_with("include")
            || (global && !plain_tool)
        {
            self.block(format!(
                "persistence (git config {k} makes git run code later, in every repository)"
            ));
        }
        // `store --file F`: every later password kept in clear in F; in the
        // project (committed, uploaded) or a shared folder it is a leak.
        if k.starts_with("credential.") && k.ends_with("helper") {
            let words: Vec<&str> = code.split_whitespace().collect();
            if words.first() == Some(&"store")
                && let Some(f) = words
                    .iter()
                    .position(|w| *w == "--file")
                    .and_then(|i| words.get(i + 1).copied())
                    .or_else(|| words.iter().find_map(|w| w.strip_prefix("--file=")))
            {
                let p = self.norm_text(&paths::word_path(f, false), None);
                if self.inside(&p) || paths::scratch(&p) {
                    self.block(format!(
                        "exfiltration (git config {k} keeps every later password in clear in {})",
                        shown(f)
                    ));
                }
            }
        }
        // A filter is handed each file's content on its input: one that
        // sends its input away uploads every file git adds or checks out.
        if (k.ends_with(".clean") || k.ends_with(".smudge") || k.ends_with(".process"))
            && parse::parse(code, &[]).commands.iter().any(|x| {
                x.stdin_from.is_none() && super::project_out::stdin_sent_to(&x.argv).is_some()
            })
        {
            self.block(format!(
                "exfiltration (git filter {k} sends the content of every file it is given to another machine)"
            ));
        }
        // A credential helper is handed the user name and password on its
        // input: one that talks to the network sends them away (the forges'
        // own CLIs, `gh auth git-credential`, are the helpers they ship).
        if k.starts_with("credential.")
            && k.ends_with("helper")
            && parse::parse(code, &[]).commands.iter().any(|x| {
                x.argv.first().is_some_and(|p| {
                    let b = base_name(&p.text);
                    tables::FETCHERS.contains(&b.as_str()) && !matches!(b.as_str(), "gh" | "glab")
                })
            })
        {
            self.block(format!(
                "exfiltration (git config {k} hands the credentials git asks for to a program that talks to the network)"
            ));
        }
        let w = Word::lit(code);
        let verdict = self.judged(|a| a.shell_code(&w, &[], script, depth));
        if verdict != Verdict::Allow || k.starts_with("alias.") {
            self.ask(format!("git -c {k} runs a program"));
            return false;
        }
        true
    }
}

impl Analyzer<'_> {
    /// `git clone --config core.hooksPath=.githooks URL`: a relative path
    /// is the new clone's own, so the downloaded repository's hooks (or
    /// file-system monitor) run during the clone and every later command.
    pub(super) fn clone_runs_its_code(&mut self, before: &[String], rest: &[String]) {
        let mut settings: Vec<&str> = Vec::new();
        for list in [before, rest] {
            for (i, x) in list.iter().enumerate() {
                // git takes a unique prefix of a long option (`--conf`) and
                // clone's `-c` glued to its value.
                let long = x.split('=').next().unwrap_or(x);
                let config = long.len() >= 4 && "--config".starts_with(long);
                if x == "-c" || config && !x.contains('=') {
                    settings.extend(list.get(i + 1).map(String::as_str));
                } else if config {
                    settings.extend(x.split_once('=').map(|(_, kv)| kv));
                } else if let Some(kv) = x.strip_prefix("-c").filter(|kv| kv.contains('=')) {
                    settings.push(kv);
                }
            }
        }
        for kv in settings {
            let Some((k, v)) = kv.split_once('=') else {
                continue;
            };
            let v = v.trim_matches(['\'', '"']);
            let runs = matches!(lower(k).as_str(), "core.hookspath" | "core.fsmonitor");
            let relative = !v.starts_with(['/', '~', '$'])
                && !matches!(lower(v).as_str(), "" | "true" | "false" | "0" | "1");
            if runs && relative {
                self.block(format!(
                    "download and execute (git clone with {k}={v} runs the downloaded repository's own code)"
                ));
            }
        }
    }
}

impl Analyzer<'_> {
    /// Certificates unchecked and a proxy on another machine: that proxy
    /// reads the sign-in git sends (`-c http.sslVerify=false -c
    /// http.proxy=http://203.0.113.7:8080 push`).
    pub(super) fn proxied_past_tls(&mut self, c: &Cmd<'_>) {
        let mut settings: Vec<(String, String)> = Vec::new();
        for (i, x) in c.args.iter().enumerate() {
            let kv = match x.as_str() {
                "-c" | "--config" => c.args.get(i + 1).map(String::as_str),
                _ => x.strip_prefix("--config="),
            };
            if let Some((k, v)) = kv.and_then(|kv| kv.split_once('=')) {
                settings.push((lower(k), lower(v.trim_matches(['\'', '"']))));
            }
        }
        for (n, v) in c.assigns.iter() {
            settings.push((format!("env.{}", lower(n)), lower(&v.text)));
        }
        // Verification off (an empty value is false), or another CA trusted.
        let tls_off = settings.iter().any(|(k, v)| {
            k.starts_with("http.")
                && k.ends_with(".sslverify")
                && matches!(v.as_str(), "false" | "0" | "no" | "off" | "")
                || k.starts_with("http.")
                    && (k.ends_with(".sslcainfo") || k.ends_with(".sslcapath"))
                || matches!(
                    k.as_str(),
                    "env.git_ssl_no_verify" | "env.git_ssl_cainfo" | "env.git_ssl_capath"
                ) && !v.is_empty()
        });
        let far_proxy = settings.iter().any(|(k, v)| {
            let proxy = k.starts_with("http") && k.ends_with(".proxy")
                || matches!(
                    k.as_str(),
                    "env.https_proxy" | "env.http_proxy" | "env.all_proxy"
                );
            let rest = v.split_once("://").map_or(v.as_str(), |(_, r)| r);
            proxy && super::project_out::far_host(rest).is_some()
        });
        if tls_off && far_proxy {
            self.block(
                "exfiltration (git sends its sign-in through a proxy on another machine, with certificates unchecked)",
            );
        }
    }
}

/// `--config-env=KEY=VAR`: the setting's value is the variable's, known when
/// the same command assigns it; otherwise it stays `$VAR`, a value nobody
/// can read before the command runs.
pub(super) fn config_from_env(kv: &str, c: &Cmd<'_>) -> String {
    let Some((key, var)) = kv.split_once('=') else {
        return kv.to_string();
    };
    match c.assigns.iter().rev().find(|(n, _)| n == var) {
        Some((_, w)) if !w.dynamic => format!("{key}={}", w.text),
        _ => format!("{key}=${{{var}}}"),
    }
}

/// Keys whose value git runs as a command (or that point at code).
const RUNS: &[&str] = &[
    "core.pager",
    "core.editor",
    "core.sshcommand",
    "core.fsmonitor",
    "core.hookspath",
    "core.gitproxy",
    "core.askpass",
    "diff.external",
    "diff.tool",
    "merge.tool",
    "sequence.editor",
    "gpg.program",
    "gpg.ssh.program",
    "gpg.x509.program",
    "credential.helper",
    "pager.",
    "alias.",
    "filter.",
    "uploadpack.packobjectshook",
    "receive.procreceiverefs",
    "protocol.ext.allow",
    "include.path",
    "includeif.",
    "http.proxy",
    "sendemail.",
    "web.browser",
    "instaweb.",
    "init.templatedir",
    "remote.",
];

/// The host of a git remote: `https://host/…`, `ssh://user@host:22/…`,
/// `user@host:path`; `None` when there is none (a local path).
fn url_host(url: &str) -> Option<String> {
    let url = url.trim_matches(['"', '\'']);
    let rest = match url.split_once("://") {
        Some((_, r)) => r.split('/').next().unwrap_or(""),
        None => url.split_once(':').map(|(h, _)| h)?,
    };
    let host = rest.rsplit('@').next().unwrap_or(rest);
    let host = host.split(':').next().unwrap_or(host);
    (!host.is_empty() && !host.contains('/')).then(|| host.to_string())
}
