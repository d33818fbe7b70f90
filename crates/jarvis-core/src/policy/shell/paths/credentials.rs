//! What counts as a credential: stores by where they are (`~/.ssh`,
//! `/etc/shadow`, browser profiles, shell histories), secret files by name
//! (`.env`, `id_rsa`, `*.pem`), and wildcards that may reach either.

use super::*;

/// Credential stores and secret files (normalised form).
pub(crate) const CREDENTIAL_DIRS: &[&str] = &[
    "~/.ssh",
    "~/.aws",
    "~/.azure",
    "~/.config/gcloud",
    "~/.kube",
    // Teleport's certificates and keys.
    "~/.tsh",
    "~/.wireguard",
    // Secrets mounted into a container or pod (service-account tokens).
    "/var/run/secrets",
    "/run/secrets",
    "~/.docker/config.json",
    "~/.npmrc",
    "~/.yarnrc",
    "~/.yarnrc.yml",
    "~/.pypirc",
    "~/.netrc",
    // atuin's key that decrypts the synced history, and the history.
    "~/.local/share/atuin",
    "~/.git-credentials",
    "~/.config/git/credentials",
    "~/.config/gh",
    // Copilot's GitHub sign-in; Subversion's cached passwords; Remmina's
    // saved connections; the Hetzner, Fly, Stripe, CircleCI and Sentry
    // CLIs' tokens.
    "~/.config/github-copilot",
    "~/.subversion/auth",
    "~/.config/remmina",
    "~/.local/share/remmina",
    "~/.config/hcloud",
    "~/.fly/config.yml",
    "~/.config/stripe",
    "~/.circleci/cli.yml",
    "~/.sentryclirc",
    "~/.config/hub",
    "~/.config/glab-cli",
    "~/.gnupg",
    "~/.password-store",
    "~/.local/share/keyrings",
    "~/.local/share/kwalletd",
    "~/.mozilla",
    "~/.thunderbird",
    "~/.config/google-chrome",
    "~/.config/chromium",
    "~/.config/BraveSoftware",
    "~/.config/microsoft-edge",
    "~/.config/vivaldi",
    "~/.config/opera",
    "~/snap/firefox",
    "~/Library/Keychains",
    "~/Library/Cookies",
    "~/Library/Application Support/Google/Chrome",
    "~/Library/Application Support/Firefox",
    "~/Library/Application Support/BraveSoftware",
    "~/AppData/Local/Google/Chrome/User Data",
    "~/AppData/Roaming/Mozilla",
    "~/AppData/Roaming/Microsoft/Credentials",
    "~/AppData/Local/Microsoft/Credentials",
    "~/.vault-token",
    // Shell and REPL histories: tokens and passwords typed on a command line.
    "~/.bash_history",
    "~/.zsh_history",
    "~/.sh_history",
    "~/.history",
    "~/.histfile",
    "~/.local/share/fish/fish_history",
    "~/.python_history",
    "~/.node_repl_history",
    "~/.mysql_history",
    "~/.psql_history",
    "~/.sqlite_history",
    "~/.rediscli_history",
    "~/.irb_history",
    "~/.terraform.d/credentials.tfrc.json",
    // Terraform's CLI settings hold `credentials "host" { token = … }`;
    // cloudflared's origin certificate and tunnel keys; Gitea's tea tokens.
    "~/.terraformrc",
    "~/.cloudflared",
    "~/.config/tea",
    // Talos's admin client key; coding assistants' and trackers' API keys.
    "~/.talos",
    "~/.wakatime.cfg",
    "~/.aider.conf.yml",
    "~/.continue",
    "~/.cargo/credentials",
    // The key every phone that allowed USB debugging trusts.
    "~/.android/adbkey",
    "~/.cargo/credentials.toml",
    "~/.config/rclone",
    "~/.s3cfg",
    "~/.boto",
    "~/.pgpass",
    "~/.my.cnf",
    "~/.config/op",
    "~/.config/Bitwarden",
    "~/.config/Bitwarden CLI",
    "~/.config/doctl",
    "~/.config/heroku",
    "~/.config/configstore",
    "~/.oci",
    "~/.wrangler",
    "~/.gem/credentials",
    "~/.m2/settings-security.xml",
    // Package sources' sign-ins: repository servers' passwords, private
    // indexes' tokens (in the URL), gem servers' keys.
    "~/.m2/settings.xml",
    "~/.nuget/NuGet/NuGet.Config",
    "~/.config/NuGet/NuGet.Config",
    "~/.bundle/config",
    "~/.config/helm/repositories.yaml",
    "~/.pip/pip.conf",
    "~/.config/pip/pip.conf",
    "~/.gradle/gradle.properties",
    "~/.config/filezilla",
    "~/.electrum",
    "~/.bitcoin/wallet.dat",
    // Mail, chat and sync clients that keep a password in their config.
    "~/.msmtprc",
    "~/.config/msmtp",
    "~/.fetchmailrc",
    "~/.mbsyncrc",
    "~/.config/isync",
    "~/.offlineimaprc",
    "~/.authinfo",
    "~/.authinfo.gpg",
    "~/.config/aerc/accounts.conf",
    "~/.purple/accounts.xml",
    "~/.weechat/sec.conf",
    "~/.config/weechat/sec.conf",
    "~/.znc",
    "~/.local/share/TelegramDesktop/tdata",
    "~/.config/Signal",
    // Game stores' sign-in: Steam's sentry files and cached login tokens,
    // the Epic/GOG launchers' tokens, Minecraft's accounts.
    "~/.steam/steam/config",
    "~/.local/share/Steam/config",
    "~/.steam/root/config",
    "~/.config/legendary/user.json",
    "~/.config/heroic/gog_store/auth.json",
    "~/.config/heroic/legendaryConfig/legendary/user.json",
    "~/.minecraft/launcher_accounts.json",
    "~/.minecraft/launcher_accounts_microsoft_store.json",
    // Keys of encryption, sync and tunnel tools.
    "~/.config/sops",
    "~/.config/age",
    "~/.config/syncthing",
    "~/.local/state/syncthing",
    "~/.ngrok2",
    "~/.config/ngrok",
    "~/.cloudflared",
    "~/.ipfs",
    "~/.config/solana",
    "~/.ethereum/keystore",
    "~/.kaggle",
    // Warehouse sign-ins: dbt's profiles, Snowflake's and Databricks'
    // command-line settings.
    "~/.dbt/profiles.yml",
    "~/.snowsql/config",
    "~/.snowflake/config.toml",
    "~/.snowflake/connections.toml",
    "~/.huggingface",
    "~/.databrickscfg",
    "~/.mc/config.json",
    "~/.config/rbw",
    "~/.config/gopass",
    "~/.pki",
    "~/.local/share/gopass",
    // Whoever reads these drives the display as the user.
    "~/.Xauthority",
    "~/.ICEauthority",
    // Cluster and container registries' sign-ins, and the key every node
    // of a Slurm cluster trusts.
    "~/.apptainer/remote.yaml",
    "~/.apptainer/docker-config.json",
    "~/.singularity/remote.yaml",
    "~/.singularity/docker-config.json",
    "/etc/munge",
    // ACME account keys (certificates' own keys are `privkey*.pem` and
    // `*.key` by name); a UPS's users.
    "/etc/letsencrypt/accounts",
    "/etc/nut/upsd.users",
    "/etc/nut/upsmon.conf",
    // App-store sessions (fastlane's spaceship cookies), Firebase's sign-in.
    "~/.fastlane",
    "/etc/wireguard",
    "/var/lib/tailscale",
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/etc/ssl/private",
    "/etc/ssh/ssh_host_rsa_key",
    "/etc/ssh/ssh_host_ecdsa_key",
    "/etc/ssh/ssh_host_ed25519_key",
    "/etc/NetworkManager/system-connections",
    "/etc/wpa_supplicant",
    "/etc/krb5.keytab",
    "/var/lib/docker",
    "/private/etc/master.passwd",
    "c:/windows/system32/config",
    "HKLM/SAM",
    "HKLM/SECURITY",
    "HKLM/SYSTEM",
];

/// A wildcard that matches a credential store or file whole (`~/.ss?`,
/// `~/.a*`); one that spells no letter of the name (`~/.*`, `~/*`) is
/// every entry's, judged as a listing of the folder.
pub fn glob_names_store(p: &str) -> bool {
    let whole = p.trim_end_matches('/');
    let name = whole.rsplit('/').next().unwrap_or(whole);
    // Letters the name spells besides its dot (`.?sh` spells `sh`).
    let spelled = name.chars().any(|c| c.is_ascii_alphanumeric());
    spelled
        && CREDENTIAL_DIRS
            .iter()
            .chain(CREDENTIAL_EXAMPLES)
            .any(|d| glob_match(whole, d))
}

/// Concrete files a wildcard may be aiming at.
pub(crate) const CREDENTIAL_EXAMPLES: &[&str] = &[
    "~/.ssh/id_rsa",
    "~/.ssh/id_ed25519",
    "~/.ssh/id_ecdsa",
    "~/.ssh/config",
    "~/.aws/credentials",
    "~/.gnupg/private-keys-v1.d",
    "~/.netrc",
    "~/.npmrc",
    "~/.kube/config",
    "~/.git-credentials",
    "~/.docker/config.json",
    "~/.config/gh/hosts.yml",
    "/etc/shadow",
    "/etc/sudoers",
];

/// File names that hold keys or secrets wherever they are.
pub const SECRET_BASENAMES: &[&str] = &[
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    "id_ecdsa_sk",
    "id_ed25519_sk",
    "private.pem",
    "server.key",
    "key.pem",
    "privkey.pem",
    "tls.key",
    "x.pem",
    "a.key",
    "x.p12",
    "x.pfx",
    "x.kdbx",
    "x.keystore",
    "x.jks",
    ".env",
    ".env.local",
    ".env.production",
    "credentials",
    "credentials.json",
    "credentials.toml",
    ".netrc",
    ".pgpass",
    "secrets.yml",
    "secrets.yaml",
    "secrets.json",
    "secrets.toml",
    "wallet.dat",
    // dbt's warehouse sign-ins.
    "profiles.yml",
    "key4.db",
    "logins.json",
    "Login Data",
    "Cookies",
    // A web server's password hashes.
    ".htpasswd",
];

pub(crate) fn env_file(base: &str) -> bool {
    if base == ".env" {
        return true;
    }
    let Some(rest) = base.strip_prefix(".env.") else {
        return false;
    };
    ![
        "example", "sample", "template", "dist", "defaults", "schema", "tmpl", "tpl",
    ]
    .iter()
    .any(|s| rest == *s || rest.ends_with(&format!(".{s}")) || rest.starts_with(&format!("{s}.")))
}

pub(crate) fn key_file(base: &str) -> bool {
    matches!(
        base,
        "id_rsa"
            | "id_dsa"
            | "id_ecdsa"
            | "id_ed25519"
            | "id_ecdsa_sk"
            | "id_ed25519_sk"
            // Rails' key to its encrypted credentials; private keys by name
            // (a project's dev `tls.key` handed to its cluster is its own).
            | "master.key"
            | "privkey.pem"
            | "private.pem"
            | "private.key"
            // Vagrant's per-machine login key (`.vagrant/machines/*/*/`).
            | "private_key"
    ) || base.starts_with("privkey") && base.ends_with(".pem")
}

/// `Some(what)` when the path names a credential store or secret file.
pub fn credential(raw: &str, cwd: Option<&str>) -> Option<String> {
    let p = normalize(raw, cwd);
    credential_normalized(&p, raw)
}

pub fn credential_normalized(p: &str, raw: &str) -> Option<String> {
    // `../…` climbs out of a folder this check cannot place: counted against
    // the path, it is a secret if what follows the climb, from any of its
    // folders on, would be one from home or from the root.
    if p.starts_with("../") {
        let mut tail = p;
        while let Some(t) = tail.strip_prefix("../") {
            tail = t;
        }
        let mut rest = Some(tail);
        while let Some(t) = rest.filter(|t| !t.is_empty() && !t.starts_with("..")) {
            if let Some(why) = credential_normalized(&format!("~/{t}"), raw)
                .or_else(|| credential_normalized(&format!("/{t}"), raw))
            {
                return Some(why);
            }
            rest = t.split_once('/').map(|(_, r)| r);
        }
    }
    let shown = ShowHome(raw);
    let base = p.rsplit('/').next().unwrap_or(p);
    // A public key is made to be given out (`ssh-copy-id`, a forge's
    // settings); its private half beside it stays a secret.
    if base.ends_with(".pub") && base.len() > 4 && !has_glob(p) {
        return None;
    }
    if env_file(base) {
        return Some(format!("{shown} holds secrets (.env)"));
    }
    // A home's credential stores by their own names, wherever they are
    // (a copy in the project is the same secret), and Rails' master keys
    // that decrypt its credentials.
    if matches!(
        base,
        ".git-credentials" | ".netrc" | "_netrc" | ".pgpass" | ".vault-token"
    ) || base == "master.key"
        || base.ends_with(".key") && p.contains("config/credentials/")
    {
        return Some(format!("{shown} holds stored credentials"));
    }
    // Terraform's state keeps every resource's attributes, passwords and
    // keys among them, in clear.
    if base.ends_with(".tfstate") || base.ends_with(".tfstate.backup") {
        return Some(format!(
            "{shown} is Terraform state (its resources' secrets in clear)"
        ));
    }
    // A web server's password hashes, cracked offline once read.
    if [".htpasswd", "htpasswd", ".htdigest", "htdigest"]
        .iter()
        .any(|n| {
            base.strip_prefix(n)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '~', '-', '_']))
        })
    {
        return Some(format!("{shown} holds a web server's password hashes"));
    }
    // Podman's and skopeo's registry sign-ins, in the session's runtime
    // folder (`$XDG_RUNTIME_DIR/containers/auth.json`).
    if p.starts_with("/run/") && p.ends_with("/containers/auth.json") {
        return Some(format!("{shown} holds container registry sign-ins"));
    }
    // Steam's sentry files (`ssfn…`) sign the machine in without a code.
    if base.starts_with("ssfn") && (p.contains("/.steam/") || p.contains("/Steam/")) {
        return Some(format!("{shown} is Steam's sign-in sentry file"));
    }
    // DVC's local settings hold its remotes' keys, wherever the project is.
    if p.ends_with(".dvc/config.local") {
        return Some(format!("{shown} holds DVC's remote credentials"));
    }
    if key_file(base) {
        return Some(format!("{shown} is a private key"));
    }
    // A service's TLS key outside home (`/opt/app/certs/server.key`,
    // `/etc/nginx/tls-key.pem`); package managers' signing keys are public.
    let ext = base.rsplit_once('.').map_or("", |(_, e)| e);
    if p.starts_with('/')
        && !p.starts_with("/usr/")
        && !p.starts_with("/etc/apt/")
        && (ext == "key" || ext == "pem" && base.contains("key") && !base.contains("pub"))
    {
        return Some(format!("{shown} is a private key"));
    }
    // Saved images of programs' memory: their keys and tokens with them.
    if under_dir(p, "/var/lib/systemd/coredump") || under_dir(p, "/var/crash") {
        return Some(format!("{shown} is a core dump (a program's memory)"));
    }
    if p.starts_with("/proc/") && (p.ends_with("/environ") || p.ends_with("/mem")) {
        return Some(format!("{shown} exposes a process's memory or environment"));
    }
    if let Some(d) = CREDENTIAL_DIRS.iter().find(|d| under_dir(p, d)) {
        return Some(format!("{shown} is in {d}"));
    }
    if keystroke_device(p) {
        return Some(format!(
            "{shown} carries keystrokes as they are typed (passwords among them)"
        ));
    }
    if browser_profile(p) {
        return Some(format!("{shown} is in a web browser's profile"));
    }
    if let Some(word) = named_secret_in_home(p) {
        return Some(format!("{shown} is a {word} file in your private settings"));
    }
    if app_session_store(p) {
        return Some(format!("{shown} holds an app's sign-in tokens"));
    }
    if let Some(d) = home_store_elsewhere(p) {
        return Some(format!(
            "{shown} is a copy of a home's {d} (a backup, a mounted disk, another root)"
        ));
    }
    if has_glob(p) {
        // The literal part before the first wildcard, and concrete targets it matches.
        let lit_end = p.find(['*', '?', '[']).unwrap_or(p.len());
        let lit = &p[..lit_end];
        let lit_dir = lit.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        if let Some(d) = CREDENTIAL_DIRS.iter().find(|d| under_dir_exact(lit_dir, d)) {
            return Some(format!("{shown} reaches into {d}"));
        }
        // A store itself, or a file in it, matched whole (`~/.ss?/`,
        // `~/.m2/settings.*`).
        let whole = p.trim_end_matches('/');
        if let Some(ex) = CREDENTIAL_EXAMPLES
            .iter()
            .chain(CREDENTIAL_DIRS)
            .find(|ex| glob_match(p, ex) || whole != p && glob_match(whole, ex))
        {
            return Some(format!("{shown} matches {ex}"));
        }
        // `.env*`, `.e?v`: a pattern spelling a `.env` file's or a private
        // key's name matches it wherever it is, as the name itself would.
        if let Some(name) = [
            ".env",
            ".env.local",
            ".env.production",
            "id_rsa",
            "id_ed25519",
        ]
        .iter()
        .find(|n| glob_match(base, n))
        .filter(|_| glob_aims_at_secret(base))
        {
            return Some(format!("{shown} matches {name}"));
        }
        // (A tool's cache under `~/.cache` holds no keys of its own.)
        if glob_could_match_secret(base)
            && (lit_dir.starts_with('~') || lit_dir.is_empty() && p.starts_with('~'))
            && !(lit_dir.starts_with("~/.cache/") && lit_dir.len() > "~/.cache/".len())
        {
            return Some(format!("{shown} may match key files"));
        }
    }
    None
}

/// Where desktop apps built on Chromium or Electron (chat clients, editors,
/// launchers) keep their sessions: any app's folder under the user's
/// config, by the stores' own names, and editors' state databases.
fn app_session_store(p: &str) -> bool {
    let Some(rest) = p
        .strip_prefix("~/.config/")
        .or_else(|| p.strip_prefix("~/.var/app/"))
        .or_else(|| p.strip_prefix("~/Library/Application Support/"))
        .or_else(|| p.strip_prefix("~/AppData/Roaming/"))
    else {
        return false;
    };
    rest.split('/').skip(1).any(|c| {
        matches!(
            c,
            "Local Storage"
                | "Session Storage"
                | "IndexedDB"
                | "Cookies"
                | "Login Data"
                | "Web Data"
                | "leveldb"
                | "state.vscdb"
                | "state.vscdb.backup"
                | "secrets.json"
        )
    })
}

/// Input devices: reading one is a key logger, writing `/dev/uinput` types
/// as the user.
pub fn keystroke_device(p: &str) -> bool {
    under_dir(p, "/dev/input") || p.starts_with("/dev/hidraw") || p == "/dev/uinput"
}

/// Where package managers and model hubs keep what they downloaded: names
/// there are other people's (`google-auth-library-credentials-1.2.jar`,
/// `special_tokens_map.json`), not the user's secrets.
const DOWNLOAD_CACHES: &[&str] = &[
    "~/.m2/repository",
    "~/.gradle/caches",
    "~/.gradle/wrapper",
    "~/.cargo/registry",
    "~/.cargo/git",
    "~/.rustup",
    "~/.cache/huggingface/hub",
    "~/.cache/pip",
    "~/.cache/go-build",
    "~/.cache/yarn",
    "~/.cache/pnpm",
    "~/.cache/bazel",
    "~/.cache/ms-playwright",
    "~/.local/lib",
    "~/.local/pipx",
    "~/.local/share/virtualenvs",
    "~/.local/share/pnpm",
    "~/.npm/_cacache",
    "~/.nvm",
    "~/.pyenv",
    "~/.rbenv",
    "~/.sdkman",
    "~/.vscode/extensions",
    "~/.vscode-server",
    "~/.ivy2/cache",
    "~/.conda/pkgs",
];

/// Inside a package manager's or model hub's download cache.
pub fn download_cache(p: &str) -> bool {
    DOWNLOAD_CACHES.iter().any(|d| under_dir(p, d))
}

/// Words of a name, split at punctuation and at camel case (`authToken`
/// is `auth`, `token`), lower-case.
fn name_words(part: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for ch in part.chars() {
        if !ch.is_ascii_alphanumeric() {
            prev_lower = false;
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if ch.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = ch.is_ascii_lowercase() || ch.is_ascii_digit();
        cur.push(ch.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A file of the user's whose name says what it holds: in the hidden part
/// of home (`~/.config/…`, `~/.someapp/…`) a `token`, `secrets.json`,
/// `keys.txt`, `auth.json`, `*.pem`; anywhere in home a `credentials.csv`,
/// `passwords.txt` or a password database. Any program's, not a list of
/// them; a project's own files keep their names' freedom (`src/token.rs`
/// is code, and relative names are the project's).
fn named_secret_in_home(p: &str) -> Option<&'static str> {
    let rest = p.strip_prefix("~/")?;
    if download_cache(p) {
        return None;
    }
    let hidden = rest.starts_with('.');
    const WORDS: &[(&str, &str)] = &[
        ("secret", "secret"),
        ("secrets", "secret"),
        ("token", "token"),
        ("tokens", "token"),
        ("password", "password"),
        ("passwords", "password"),
        ("passwd", "password"),
        ("credential", "credentials"),
        ("credentials", "credentials"),
        ("creds", "credentials"),
        ("cred", "credentials"),
        ("pass", "password"),
        ("pw", "password"),
        ("passphrase", "password"),
        ("mnemonic", "seed"),
        ("apikey", "key"),
        ("key", "key"),
        ("keys", "key"),
        ("privkey", "key"),
        ("private", "key"),
        ("pem", "key"),
        ("p12", "key"),
        ("pfx", "key"),
        ("keystore", "key"),
        ("wallet", "wallet"),
        ("auth", "sign-in"),
        ("oauth", "sign-in"),
        ("cookie", "sign-in"),
        ("cookies", "sign-in"),
    ];
    // Outside the hidden part, only names nobody gives anything else.
    const PLAIN_WORDS: &[&str] = &["secrets", "credentials", "passwords", "password", "passwd"];
    // Folders say it in fewer words (`~/.config/app/secrets/…`).
    const FOLDER_WORDS: &[&str] = &[
        "secret",
        "secrets",
        "credentials",
        "creds",
        "tokens",
        "private",
        "keystore",
        "keystores",
        "wallets",
    ];
    // Password databases, wherever they are.
    const VAULTS: &[&str] = &[
        "kdbx",
        "kdb",
        "keyx",
        "opvault",
        "agilekeychain",
        "psafe3",
        "1pif",
    ];
    const CODE: &[&str] = &[
        "lua", "vim", "py", "js", "ts", "rb", "el", "sh", "fish", "zsh", "bash", "md", "html",
        "css", "rs", "go", "c", "h", "java", "kt", "txt~",
    ];
    // A certificate travels in a `.pem` too.
    const CERT_WORDS: &[&str] = &[
        "ca",
        "cacert",
        "cert",
        "certs",
        "certificate",
        "chain",
        "fullchain",
        "bundle",
        "pub",
        "public",
        "rootca",
        "root",
        "crt",
        "trust",
    ];
    let (dirs, base) = rest.rsplit_once('/').unwrap_or(("", rest));
    let ext = base
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    if VAULTS.contains(&ext.as_str()) {
        return Some("password");
    }
    let code = CODE.contains(&ext.as_str());
    // `~/keys/…`, `~/secrets/…`: a visible folder of home's own, named for
    // what it keeps (deeper, `src/tokens/` is a design system's).
    const VISIBLE_FOLDERS: &[&str] = &[
        "keys",
        "secrets",
        "credentials",
        "creds",
        "tokens",
        "keystores",
        "wallets",
    ];
    if !hidden
        && dirs
            .split('/')
            .next()
            .is_some_and(|d| VISIBLE_FOLDERS.contains(&d.to_ascii_lowercase().as_str()))
    {
        return Some("secret");
    }
    if !hidden {
        let words = name_words(base);
        return (!code && words.iter().any(|w| PLAIN_WORDS.contains(&w.as_str())))
            .then_some("secret");
    }
    let in_folder = dirs.split('/').any(|d| {
        name_words(d)
            .iter()
            .any(|t| FOLDER_WORDS.contains(&t.as_str()))
    });
    if in_folder {
        return Some("secret");
    }
    let words = name_words(base);
    let certificate = words.iter().any(|w| CERT_WORDS.contains(&w.as_str()));
    words.iter().find_map(|t| {
        let (_, kind) = WORDS.iter().find(|(w, _)| w == t)?;
        // `keys.lua`, `keys.conf`: key maps; a `ca.pem`: a certificate.
        // `pass.lua`, `seed.py`: a plugin's code, named for what it does.
        let keymap = matches!(t.as_str(), "key" | "keys") && (code || ext == "conf")
            || matches!(t.as_str(), "pass" | "pw") && code;
        let cert = t == "pem" && certificate;
        (!keymap && !cert).then_some(*kind)
    })
}

/// A web browser's profile outside the places listed by name: snaps,
/// Flatpaks, caches (`~/snap/chromium/…/Login Data`).
fn browser_profile(p: &str) -> bool {
    let Some(rest) = p.strip_prefix("~/") else {
        return false;
    };
    // Browsers a test tool downloaded (`~/.cache/ms-playwright/chromium-…`)
    // are programs, not a profile.
    if download_cache(p) {
        return false;
    }
    // Windows: every Chromium-based browser keeps its profiles in a
    // `User Data` folder (Edge, Brave, Vivaldi…), the others under their
    // vendor's name.
    if rest
        .get(..8)
        .is_some_and(|h| h.eq_ignore_ascii_case("appdata/"))
    {
        return rest.split('/').any(|c| {
            let l = c.to_ascii_lowercase();
            l == "user data"
                || [
                    "mozilla",
                    "opera software",
                    "thunderbird",
                    "waterfox",
                    "librewolf",
                ]
                .contains(&l.as_str())
        });
    }
    if !(rest.starts_with('.') || rest.starts_with("snap/")) {
        return false;
    }
    rest.split('/').any(|c| {
        let l = c.to_ascii_lowercase();
        [
            "chromium",
            "chrome",
            "firefox",
            "mozilla",
            "brave",
            "vivaldi",
            "librewolf",
            "waterfox",
            "epiphany",
            "falkon",
            "qutebrowser",
            "microsoft-edge",
            "opera",
        ]
        .iter()
        .any(|b| l == *b || l.starts_with(&format!("{b}-")) || l.ends_with(&format!(".{b}")))
    })
}

/// A credential by where it is (`~/.ssh/…`, `/etc/shadow`), not only by its
/// name (a project's own `.env`).
pub fn credential_store(p: &str) -> bool {
    CREDENTIAL_DIRS.iter().any(|d| under_dir(p, d))
        || p.starts_with("/proc/")
        || app_session_store(p)
        || keystroke_device(p)
}

/// A file named as secrets are (`secrets.yaml`, `credentials.json`,
/// `wallet.dat`), wherever it is: a project's own, read locally, may be
/// fine; sent to another machine, it is its secrets that go.
pub fn secret_file_name(p: &str) -> bool {
    let base = p.trim_end_matches('/').rsplit('/').next().unwrap_or(p);
    let l = base.to_ascii_lowercase();
    let ext = l.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    SECRET_BASENAMES.contains(&base) && !base.starts_with("x.") && base != "a.key"
        // Signing keystores and the passwords a build keeps for them.
        || matches!(ext, "jks" | "keystore" | "p12" | "pfx" | "p8" | "kdbx")
        || l.starts_with("firebase-adminsdk") && ext == "json"
        || matches!(
            l.as_str(),
            "key.properties"
                | "keystore.properties"
                | "signing.properties"
                | "terraform.tfstate"
                | "terraform.tfstate.backup"
                | ".npmrc"
                | ".pypirc"
                | "secret.yaml"
                | "secret.yml"
                | "secret.json"
                | "acme.json"
        )
        // Cloud service accounts' keys (`play-console-sa.json`).
        || ext == "json"
            && (l.contains("service-account")
                || l.contains("service_account")
                || l.contains("serviceaccount")
                || l.ends_with("-sa.json")
                || l.ends_with("_sa.json"))
}

/// A file-name pattern (`id_*`, `*.pem`, `.env*`) that key or secret files match.
pub fn glob_could_match_secret(pattern: &str) -> bool {
    let p = pattern.trim_matches(['\'', '"']);
    if p == "*" || p == "*.*" || p == ".*" {
        return true;
    }
    SECRET_BASENAMES.iter().any(|s| glob_match(p, s))
        // A file of each kind, named `x.EXT`.
        || [
            "x.pem",
            "x.key",
            "x.p12",
            "x.pfx",
            "x.kdbx",
            "x.gpg",
            "x.asc",
            "x.ppk",
            "x.keystore",
            "x.jks",
        ]
        .iter()
        .any(|file| glob_match(p, file) || p.ends_with(&file[1..]))
}

/// A name pattern written to find secrets (`.env*`, `*.pem`, `id_*`): one
/// that matches a secret's name and spells some of it, not a wildcard that
/// matches every name.
pub fn glob_aims_at_secret(pattern: &str) -> bool {
    // Names of ordinary project files: a pattern matching one of them
    // (`*.json`, `*.yml`) is a kind of file, not a hunt for secrets.
    const ORDINARY: &[&str] = &[
        "package.json",
        "config.json",
        "settings.yaml",
        "data.yml",
        "app.toml",
        "config.ini",
        "app.conf",
        "index.ts",
        "main.py",
        "main.rs",
        "README.md",
        "notes.txt",
        "Makefile",
        "schema.sql",
        "app.log",
        "test.sh",
        "index.html",
        "image.png",
    ];
    let p = pattern.trim_matches(['\'', '"']);
    let spelled = p.chars().any(|c| !matches!(c, '*' | '?' | '.' | '[' | ']'));
    spelled && glob_could_match_secret(p) && !ORDINARY.iter().any(|n| glob_match(p, n))
}

/// A recursive walk from here reaches credential stores (`/`, `~`, `~/.config`…).
pub fn contains_credentials(p: &str) -> bool {
    if matches!(
        p,
        "/" | "~" | "/home" | "/Users" | "/root" | "c:" | "c:/" | "c:/users"
    ) {
        return true;
    }
    let prefix = format!("{}/", p.trim_end_matches('/'));
    CREDENTIAL_DIRS.iter().any(|d| d.starts_with(&prefix)) || p == "/dev" || keystroke_device(p)
}

/// A home's key store under another root: `/mnt/backup/home/u/.ssh`,
/// `/host-home/.aws/credentials`, a container's view of the user's home.
fn home_store_elsewhere(p: &str) -> Option<&'static str> {
    if !p.starts_with('/') {
        return None;
    }
    // The key stores themselves: names a project's own folders do not
    // take (a project has its `.npmrc`, `.history` or `.wrangler`).
    const STORES: &[&str] = &[
        "~/.ssh",
        "~/.aws",
        "~/.azure",
        "~/.gnupg",
        "~/.kube",
        "~/.password-store",
        "~/.mozilla",
        "~/.thunderbird",
        "~/.netrc",
        "~/.git-credentials",
        "~/.pgpass",
        "~/.vault-token",
        "~/.config/gh",
        "~/.config/gcloud",
        "~/.docker/config.json",
        "~/.local/share/keyrings",
        "~/.config/google-chrome",
        "~/.config/chromium",
        "~/.config/BraveSoftware",
        "~/.config/rclone",
        "~/.config/git/credentials",
        "~/.config/glab-cli",
        "~/.config/hub",
        "~/.config/op",
        "~/.pypirc",
        "~/.s3cfg",
        "~/.my.cnf",
        "~/.boto",
        "~/.authinfo",
        "~/.msmtprc",
        "~/.zsh_history",
        "~/.bash_history",
        "~/.gem/credentials",
        "~/.oci",
        "~/.local/share/kwalletd",
        "~/.local/share/TelegramDesktop",
    ];
    // (`/.ssh` found as `.ssh` after a `/`: no needle built per store.)
    let literal = STORES.iter().copied().find(|d| {
        let Some(tail) = d.strip_prefix("~/") else {
            return false;
        };
        p.match_indices(tail).any(|(at, _)| {
            let after = &p[at + tail.len()..];
            p[..at].ends_with('/') && (after.is_empty() || after.starts_with('/'))
        })
    });
    if literal.is_some() || !has_glob(p) {
        return literal;
    }
    // The same stores spelled by patterns below some folder
    // (`/h*/u*/.a*/c*`): a pattern with two literal characters or more
    // that matches a store's name stands for it (`.*` alone is any
    // dotfile, left to the other checks).
    let comps: Vec<&str> = p.split('/').filter(|c| !c.is_empty()).collect();
    let specific = |c: &str| c.chars().filter(|ch| !matches!(ch, '*' | '?')).count() >= 2;
    STORES.iter().copied().find(|d| {
        let store: Vec<&str> = d.trim_start_matches("~/").split('/').collect();
        (1..comps.len()).any(|k| {
            let here = &comps[k..];
            here.len() >= store.len()
                && here
                    .iter()
                    .zip(&store)
                    .all(|(c, s)| specific(c) && glob_match(c, s))
        })
    })
}
