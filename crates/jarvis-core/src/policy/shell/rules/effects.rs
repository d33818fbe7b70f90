//! The effects every rule shares: reading, writing, deleting and
//! re-permissioning a path, redirections, and environment variables that
//! change what a program runs or loads.

use super::*;

/// Variables whose value is a command some program runs.
pub(super) const COMMAND_VARS: &[&str] = &[
    "PAGER",
    "GIT_PAGER",
    "MANPAGER",
    "SYSTEMD_PAGER",
    "BAT_PAGER",
    "DELTA_PAGER",
    "PSQL_PAGER",
    "EDITOR",
    "VISUAL",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "SUDO_EDITOR",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_PROXY_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "PROMPT_COMMAND",
    "BROWSER",
    "LESSOPEN",
    "LESSCLOSE",
    "RSYNC_RSH",
    // Backup tools' transport and password commands.
    "BORG_RSH",
    "BORG_PASSCOMMAND",
    "RESTIC_PASSWORD_COMMAND",
    "RCLONE_PASSWORD_COMMAND",
    "CVS_RSH",
    "PS4",
    "PS1",
    "PS0",
    "FZF_DEFAULT_COMMAND",
    "DIFFPROG",
    // Build tools run these as the compiler, linker or archiver.
    "CC",
    "CXX",
    "CPP",
    "LD",
    "AR",
    "AS",
    "NM",
    "RANLIB",
    "STRIP",
    "OBJCOPY",
    "OBJDUMP",
    "FC",
    "F77",
    "HOSTCC",
    "HOSTCXX",
    "CC_FOR_BUILD",
    "CXX_FOR_BUILD",
    "PKG_CONFIG",
    "MAKE",
    "YACC",
    "LEX",
    "RUSTC",
    "RUSTDOC",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "CARGO_BUILD_RUSTC",
    "CARGO_BUILD_RUSTC_WRAPPER",
    "CMAKE_C_COMPILER_LAUNCHER",
    "CMAKE_CXX_COMPILER_LAUNCHER",
    "CCACHE_PREFIX",
];

/// Variables that make a program load code or configuration from elsewhere.
pub(super) const LOADER_VARS: &[&str] = &[
    "BASH_ENV",
    "ENV",
    "ZDOTDIR",
    "PYTHONSTARTUP",
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONUSERBASE",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "NODE_OPTIONS",
    "NODE_PATH",
    "LD_LIBRARY_PATH",
    "GCONV_PATH",
    "GIT_CONFIG",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_EXEC_PATH",
    "GIT_TEMPLATE_DIR",
    "GIT_DIR",
    "PATH",
    "CDPATH",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "CLASSPATH",
    "DOTNET_STARTUP_HOOKS",
    // configure sources these as shell.
    "CONFIG_SITE",
    "CONFIG_SHELL",
    "RIPGREP_CONFIG_PATH",
    "VIMINIT",
    "EXINIT",
    "MYVIMRC",
    "WGETRC",
    "CURL_HOME",
    "PIP_CONFIG_FILE",
    "NPM_CONFIG_USERCONFIG",
    "INPUTRC",
    "LESSKEY",
    "LESSKEYIN",
    // man runs groff's programs from this folder first.
    "GROFF_BIN_PATH",
    // More of tar's options, read before the line's own.
    "TAR_OPTIONS",
    "KUBECONFIG",
    "GNUPGHOME",
    "OPENSSL_CONF",
    "OPENSSL_MODULES",
    "OPENSSL_ENGINES",
];

/// Variables that inject a library into every program started.
pub(super) const INJECT_VARS: &[&str] = &[
    "LD_PRELOAD",
    "LD_AUDIT",
    "DYLD_INSERT_LIBRARIES",
    "DYLD_LIBRARY_PATH",
];

pub(super) const SECRET_VARS: &[&str] = &[
    "SECRET",
    "TOKEN",
    "PASSWORD",
    "PASSWD",
    "PASSPHRASE",
    "API_KEY",
    "APIKEY",
    "PRIVATE",
    "CREDENTIAL",
    "ACCESS_KEY",
    "SESSION_KEY",
    "AUTH",
];

/// A stored setting's name that says its value is a secret (git's
/// `sendemail.smtpPass`, GNOME's proxy `authentication-password`, an
/// `http.extraHeader`): narrower than `secret_var`, as settings' names
/// mention `auth` for switches (`use-authentication`).
pub(super) fn secret_setting(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    [
        "password",
        "passwd",
        "passphrase",
        "secret",
        "token",
        "apikey",
        "api-key",
        "api_key",
        "extraheader",
        "authorization",
    ]
    .iter()
    .any(|k| l.contains(k))
        || l.ends_with("pass")
        || l.ends_with("pwd")
}

pub(super) fn secret_var(name: &str) -> bool {
    // `author`, `AUTHORS_FILE`: a writer's name, not an authorisation.
    let up = name.to_ascii_uppercase();
    let up = if up.contains("AUTHORIZ") || up.contains("AUTHORIS") {
        up
    } else {
        up.replace("AUTHOR", "")
    };
    // Airflow's connections are URIs with their passwords in them.
    // Abbreviated names (`MYSQL_PWD`, `DB_PASS`, `STRIPE_SK`) and keys by
    // their role (`RAILS_MASTER_KEY`, `CI_JOB_JWT`).
    // Connection strings and URLs that carry a password or a key
    // (`DATABASE_URL`, `AZURE_STORAGE_CONNECTION_STRING`, a webhook's URL
    // is its own credential), personal access tokens, and a provider's
    // `…_KEY` that is not a public one.
    let abbreviated = ["_PWD", "_PASS", "_SK", "_PASSWD", "_PAT"]
        .iter()
        .any(|s| up.ends_with(s))
        || up.ends_with("_KEY") && !up.contains("PUBLIC") && !up.contains("PUBLISHABLE")
        || [
            "MASTER_KEY",
            "SIGNING_KEY",
            "ENCRYPTION_KEY",
            "JWT",
            "CONNECTION_STRING",
            "CONNSTR",
            "CONN_STR",
            "DATABASE_URL",
            "DB_URL",
            "MONGO_URI",
            "MONGODB_URI",
            "REDIS_URL",
            "WEBHOOK",
            "DSN",
        ]
        .iter()
        .any(|s| up.contains(s));
    (SECRET_VARS.iter().any(|s| up.contains(s)) || up.starts_with("AIRFLOW_CONN_") || abbreviated)
        && up != "SSH_AUTH_SOCK"
}

/// The `ref` of each `${!ref}` inside a word (not `${!prefix*}`, which
/// lists names only).
pub(super) fn indirect_names(s: &str) -> Vec<String> {
    s.match_indices("${!")
        .filter_map(|(i, _)| {
            let rest = &s[i + 3..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty() && rest[name.len()..].starts_with('}')).then_some(name)
        })
        .collect()
}

/// `$NAME` and `${NAME}` inside a word.
pub(super) fn dollar_names(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '$' {
            let mut j = i + 1;
            if j < b.len() && b[j] == '{' {
                j += 1;
            }
            let braced = j > i + 1;
            let start = j;
            while j < b.len() && (b[j].is_alphanumeric() || b[j] == '_') {
                j += 1;
            }
            // `${NAME:+word}` is the word when NAME is set, never its value
            // (the word is read on from here).
            let alternate = braced
                && (b.get(j) == Some(&'+') || b.get(j) == Some(&':') && b.get(j + 1) == Some(&'+'));
            if j > start && !alternate {
                out.push(b[start..j].iter().collect());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

impl Analyzer<'_> {
    /// The word as a normalised path, the real home shown as `~`.
    pub(super) fn norm(&self, w: &Word, cwd: Option<&str>) -> String {
        self.norm_text(&paths::word_path(&w.text, w.dynamic), cwd)
    }

    pub(super) fn norm_text(&self, raw: &str, cwd: Option<&str>) -> String {
        let mut key = String::with_capacity(raw.len() + 1 + cwd.map_or(0, str::len));
        key.push_str(raw);
        key.push('\0');
        key.push_str(cwd.unwrap_or("\0"));
        if let Some(p) = self.norms.borrow().get(&key) {
            return p.clone();
        }
        let p = self.norm_text_now(raw, cwd);
        self.norms.borrow_mut().insert(key, p.clone());
        p
    }

    fn norm_text_now(&self, raw: &str, cwd: Option<&str>) -> String {
        let raw = match &self.env.home {
            Some(h)
                if !h.is_empty()
                    && raw
                        .strip_prefix(h.as_str())
                        .is_some_and(|r| r.is_empty() || r.starts_with('/')) =>
            {
                format!("~{}", &raw[h.len()..])
            }
            _ => raw.to_string(),
        };
        let mut p = paths::normalize(&raw, cwd);
        // `../.bashrc` from the working directory is a place, not a mystery:
        // judge where it lands.
        if (p == ".." || p.starts_with("../"))
            && let Some(wd) = self.env.workdir.as_deref()
        {
            // From the working directory's real place (`~/work/../../..`
            // climbs past home to `/`), then spelled from home again.
            let home = self.env.home.as_deref().filter(|h| !h.is_empty());
            let wd_abs = match (wd.strip_prefix('~'), home) {
                (Some(rest), Some(h)) => format!("{h}{rest}"),
                _ => wd.to_string(),
            };
            let joined = lexical(&format!("{}/{p}", wd_abs.trim_end_matches('/')));
            p = paths::normalize(&joined, None);
            if let Some(h) = home
                && (p == h || p.starts_with(&format!("{h}/")))
            {
                p = format!("~{}", &p[h.len()..]);
            }
        }
        // Through a symlink this line made (`ln -s / ./root; rm -rf ./root/`).
        for (link, target) in self.links.iter().rev() {
            if p == *link {
                return target.clone();
            }
            if let Some(rest) = p.strip_prefix(&format!("{link}/")) {
                return paths::normalize(&format!("{}/{rest}", target.trim_end_matches('/')), None);
            }
        }
        p
    }

    /// The working directory itself (`.` from it, or its own path).
    pub(super) fn is_workdir(&self, p: &str) -> bool {
        let p = if p == "/" { p } else { p.trim_end_matches('/') };
        p == "."
            || self.env.workdir.as_deref().is_some_and(|wd| {
                let wd = self.norm_text(wd, None);
                p == wd.trim_end_matches('/')
            })
    }

    pub(super) fn inside(&self, p: &str) -> bool {
        paths::inside(p, self.env.workdir.as_deref())
    }

    pub(super) fn app_state(&self, p: &str) -> bool {
        paths::app_state(p, None, &self.env.app, self.env.protected_norm())
    }
}

/// `test` holds for the word, or for a word of a command whose output is in
/// it (`$(pgrep NAME)`).
pub(super) fn in_word_or_subs(w: &Word, script: &Script, test: impl Fn(&Word) -> bool) -> bool {
    test(w)
        || w.subs.iter().any(|&s| {
            script
                .commands
                .get(s)
                .is_some_and(|k| k.argv.iter().any(&test))
        })
}

/// An absolute path with `.` and `..` taken away (`..` at the root stays
/// at the root, as the kernel does).
fn lexical(abs: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for c in abs.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    format!("/{}", parts.join("/"))
}
