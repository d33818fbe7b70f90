//! The environment a confined process gets: an allow-list, not Jarvis's own
//! environment with some names taken out. Sockets to the session bus and the
//! agents are out of reach anyway; their addresses, tokens and keys are not
//! handed over either.

use std::collections::BTreeMap;
use std::path::Path;

/// Names passed through unchanged when Jarvis has them.
const KEEP: &[&str] = &[
    "PATH",
    "LANG",
    "LANGUAGE",
    "TERM",
    "COLORTERM",
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "FORCE_COLOR",
    "TZ",
    "USER",
    "LOGNAME",
    "SHELL",
    "COLUMNS",
    "LINES",
    "EDITOR",
    "VISUAL",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "RUSTFLAGS",
    "PYENV_ROOT",
    "PYENV_VERSION",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV",
    "NVM_DIR",
    "NVM_BIN",
    "NODE_ENV",
    "GOPATH",
    "GOROOT",
    "GOBIN",
    "GOFLAGS",
    "GOMODCACHE",
    "JAVA_HOME",
    "PKG_CONFIG_PATH",
    "CC",
    "CXX",
    "CFLAGS",
    "CXXFLAGS",
    "LDFLAGS",
    "MAKEFLAGS",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "DEBIAN_FRONTEND",
    "CI",
];

/// The child's environment: Jarvis's kept variables, `LC_*`, the toolchain
/// variables found for it, the names the user chose to pass through, and
/// its own `HOME` and `TMPDIR`.
pub fn child_env(
    from: impl IntoIterator<Item = (String, String)>,
    home: &Path,
    tmp: &Path,
    toolchain: &[(String, String)],
    passthrough: &[String],
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (k, v) in from {
        if KEEP.contains(&k.as_str()) || k.starts_with("LC_") || passthrough.contains(&k) {
            out.insert(k, v);
        }
    }
    for (k, v) in toolchain {
        out.entry(k.clone()).or_insert_with(|| v.clone());
    }
    out.insert("HOME".into(), home.display().to_string());
    out.insert("TMPDIR".into(), tmp.display().to_string());
    out.insert(crate::tools::AGENT_EXEC_ENV.into(), "1".into());
    out
}

/// `user.name` and `user.email` from the user's git configuration, as the
/// variables git reads: the child's home is its own, so commits still carry
/// the user's name. Nothing else of the file is passed on.
pub fn git_identity(home: &Path) -> Vec<(String, String)> {
    let mut name = None;
    let mut email = None;
    for f in [home.join(".gitconfig"), home.join(".config/git/config")] {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let mut in_user = false;
        for line in text.lines() {
            let l = line.trim();
            if l.starts_with('[') {
                in_user = l
                    .trim_matches(['[', ']'])
                    .trim()
                    .eq_ignore_ascii_case("user");
                continue;
            }
            if !in_user {
                continue;
            }
            if let Some((k, v)) = l.split_once('=') {
                let v = v.trim().trim_matches('"').to_string();
                match k.trim().to_ascii_lowercase().as_str() {
                    "name" => name = name.or(Some(v)),
                    "email" => email = email.or(Some(v)),
                    _ => {}
                }
            }
        }
    }
    let mut out = Vec::new();
    if let Some(n) = name {
        out.push(("GIT_AUTHOR_NAME".into(), n.clone()));
        out.push(("GIT_COMMITTER_NAME".into(), n));
    }
    if let Some(e) = email {
        out.push(("GIT_AUTHOR_EMAIL".into(), e.clone()));
        out.push(("GIT_COMMITTER_EMAIL".into(), e));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_is_kept_reaches_the_child() {
        let from = [
            ("PATH", "/usr/bin"),
            ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus"),
            ("SSH_AUTH_SOCK", "/tmp/ssh-x/agent.1"),
            ("XDG_RUNTIME_DIR", "/run/user/1000"),
            ("OPENAI_API_KEY", "sk-secret"),
            ("LC_ALL", "C"),
            ("MY_VAR", "x"),
            ("HOME", "/home/u"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let env = child_env(
            from,
            Path::new("/tmp/j/home"),
            Path::new("/tmp/j"),
            &[("CARGO_HOME".into(), "/home/u/.cargo".into())],
            &["MY_VAR".into()],
        );
        let keys: Vec<&str> = env.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "CARGO_HOME",
                "HOME",
                "JARVIS_AGENT_EXEC",
                "LC_ALL",
                "MY_VAR",
                "PATH",
                "TMPDIR"
            ]
        );
        assert_eq!(env["HOME"], "/tmp/j/home");
    }

    #[test]
    fn git_identity_takes_only_the_user_section() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".gitconfig"),
            "[http]\n\textraheader = Authorization: Bearer s3cr3t\n[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n",
        )
        .unwrap();
        let id = git_identity(dir.path());
        assert!(id.contains(&("GIT_AUTHOR_NAME".into(), "Ada Lovelace".into())));
        assert!(id.contains(&("GIT_COMMITTER_EMAIL".into(), "ada@example.com".into())));
        assert!(!format!("{id:?}").contains("s3cr3t"));
    }
}
