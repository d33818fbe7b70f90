//! Where the API key comes from. The OS keyring in the app, the environment
//! or memory in tests; never config.json, the database, logs or the model.

use std::collections::HashMap;
use std::sync::Mutex;

use thiserror::Error;

use crate::llm::Secret;

#[derive(Debug, Error)]
pub enum SecretError {
    #[error("secret store unavailable: {0}")]
    Unavailable(String),
}

pub const API_KEY: &str = "api_key";

pub trait SecretStore: Send + Sync {
    fn get(&self, name: &str) -> Result<Option<Secret>, SecretError>;
    fn set(&self, name: &str, value: &Secret) -> Result<(), SecretError>;
    fn delete(&self, name: &str) -> Result<(), SecretError>;
    /// A short label for `doctor`.
    fn describe(&self) -> String;
}

/// Reads `JARVIS_API_KEY`; read-only.
#[derive(Debug, Default)]
pub struct EnvSecretStore;

impl SecretStore for EnvSecretStore {
    fn get(&self, name: &str) -> Result<Option<Secret>, SecretError> {
        let var = format!("JARVIS_{}", name.to_ascii_uppercase());
        Ok(std::env::var(var)
            .ok()
            .filter(|v| !v.is_empty())
            .map(Secret::new))
    }
    fn set(&self, _: &str, _: &Secret) -> Result<(), SecretError> {
        Err(SecretError::Unavailable(
            "the environment is read-only".into(),
        ))
    }
    fn delete(&self, _: &str) -> Result<(), SecretError> {
        Err(SecretError::Unavailable(
            "the environment is read-only".into(),
        ))
    }
    fn describe(&self) -> String {
        "environment".into()
    }
}

#[derive(Debug, Default)]
pub struct MemorySecretStore {
    values: Mutex<HashMap<String, Secret>>,
}

impl SecretStore for MemorySecretStore {
    fn get(&self, name: &str) -> Result<Option<Secret>, SecretError> {
        Ok(self
            .values
            .lock()
            .map_err(|e| SecretError::Unavailable(e.to_string()))?
            .get(name)
            .cloned())
    }
    fn set(&self, name: &str, value: &Secret) -> Result<(), SecretError> {
        self.values
            .lock()
            .map_err(|e| SecretError::Unavailable(e.to_string()))?
            .insert(name.into(), value.clone());
        Ok(())
    }
    fn delete(&self, name: &str) -> Result<(), SecretError> {
        self.values
            .lock()
            .map_err(|e| SecretError::Unavailable(e.to_string()))?
            .remove(name);
        Ok(())
    }
    fn describe(&self) -> String {
        "memory".into()
    }
}

/// Tries each store in order; writes go to the first that accepts them.
pub struct ChainSecretStore(pub Vec<Box<dyn SecretStore>>);

impl SecretStore for ChainSecretStore {
    fn get(&self, name: &str) -> Result<Option<Secret>, SecretError> {
        let mut last = None;
        for s in &self.0 {
            match s.get(name) {
                Ok(Some(v)) => return Ok(Some(v)),
                Ok(None) => {}
                Err(e) => last = Some(e),
            }
        }
        match last {
            Some(e) if self.0.len() == 1 => Err(e),
            _ => Ok(None),
        }
    }
    fn set(&self, name: &str, value: &Secret) -> Result<(), SecretError> {
        let mut last = SecretError::Unavailable("no secret store".into());
        for s in &self.0 {
            match s.set(name, value) {
                Ok(()) => return Ok(()),
                Err(e) => last = e,
            }
        }
        Err(last)
    }
    fn delete(&self, name: &str) -> Result<(), SecretError> {
        for s in &self.0 {
            let _ = s.delete(name);
        }
        Ok(())
    }
    fn describe(&self) -> String {
        self.0
            .iter()
            .map(|s| s.describe())
            .collect::<Vec<_>>()
            .join(" → ")
    }
}

/// The OS keyring (Secret Service on Linux, Keychain, Credential Manager),
/// service `jarvis`.
#[cfg(feature = "keyring")]
pub struct KeyringSecretStore;

#[cfg(feature = "keyring")]
impl KeyringSecretStore {
    pub const SERVICE: &'static str = "jarvis";

    fn entry(name: &str) -> Result<keyring::Entry, SecretError> {
        keyring::Entry::new(Self::SERVICE, name)
            .map_err(|e| SecretError::Unavailable(e.to_string()))
    }

    /// Whether the keyring can be reached at all, and why not.
    pub fn status() -> Result<(), SecretError> {
        keyring::Entry::store_status()
            .as_ref()
            .map(|_| ())
            .map_err(|e| SecretError::Unavailable(e.to_string()))
    }
}

#[cfg(feature = "keyring")]
impl SecretStore for KeyringSecretStore {
    fn get(&self, name: &str) -> Result<Option<Secret>, SecretError> {
        match Self::entry(name)?.get_password() {
            Ok(p) => Ok(Some(Secret::new(p))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(SecretError::Unavailable(e.to_string())),
        }
    }
    fn set(&self, name: &str, value: &Secret) -> Result<(), SecretError> {
        Self::entry(name)?
            .set_password(value.expose())
            .map_err(|e| SecretError::Unavailable(e.to_string()))
    }
    fn delete(&self, name: &str) -> Result<(), SecretError> {
        match Self::entry(name)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(SecretError::Unavailable(e.to_string())),
        }
    }
    fn describe(&self) -> String {
        "OS keyring".into()
    }
}

/// The argument that makes a host binary a one-shot keyring helper.
#[cfg(feature = "keyring")]
pub const HELPER_ARG: &str = "--keyring-helper";

/// The OS keyring reached through a short-lived copy of the host's own
/// binary. Reading the Secret Service in-process leaves its D-Bus client
/// thread behind, waking about twice a second for the life of the app; in
/// a child it ends with the child. The value travels over a pipe only.
#[cfg(feature = "keyring")]
pub struct HelperKeyringStore {
    exe: std::path::PathBuf,
}

#[cfg(feature = "keyring")]
impl HelperKeyringStore {
    /// Helpers run from this very executable, which must call
    /// [`helper_main`] first thing in `main`.
    pub fn current() -> Result<Self, SecretError> {
        std::env::current_exe()
            .map(|exe| HelperKeyringStore { exe })
            .map_err(|e| SecretError::Unavailable(format!("own executable: {e}")))
    }

    fn call(
        &self,
        op: &str,
        name: &str,
        input: Option<&str>,
    ) -> Result<Option<String>, SecretError> {
        use std::io::Write;
        use std::process::{Command, Stdio};
        let mut child = Command::new(&self.exe)
            .args([HELPER_ARG, op, name])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| SecretError::Unavailable(format!("keyring helper: {e}")))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(input.unwrap_or("").as_bytes())
                .map_err(|e| SecretError::Unavailable(format!("keyring helper: {e}")))?;
        }
        let out = child
            .wait_with_output()
            .map_err(|e| SecretError::Unavailable(format!("keyring helper: {e}")))?;
        match out.status.code() {
            Some(0) => Ok(Some(String::from_utf8_lossy(&out.stdout).into_owned())),
            Some(HELPER_NONE) => Ok(None),
            _ => Err(SecretError::Unavailable(
                String::from_utf8_lossy(&out.stderr).trim().to_string(),
            )),
        }
    }
}

/// The helper's exit code for "no such entry".
#[cfg(feature = "keyring")]
const HELPER_NONE: i32 = 3;

#[cfg(feature = "keyring")]
impl SecretStore for HelperKeyringStore {
    fn get(&self, name: &str) -> Result<Option<Secret>, SecretError> {
        Ok(self.call("get", name, None)?.map(Secret::new))
    }
    fn set(&self, name: &str, value: &Secret) -> Result<(), SecretError> {
        self.call("set", name, Some(value.expose())).map(|_| ())
    }
    fn delete(&self, name: &str) -> Result<(), SecretError> {
        self.call("delete", name, None).map(|_| ())
    }
    fn describe(&self) -> String {
        "OS keyring".into()
    }
}

/// Runs the keyring helper when `args` (as `std::env::args()` gives them)
/// ask for it, and returns its exit code; `None` for any other start.
#[cfg(feature = "keyring")]
pub fn helper_main(args: &[String]) -> Option<i32> {
    use std::io::{Read, Write};
    let (op, name) = match args {
        [_, flag, op, name] if flag == HELPER_ARG => (op.as_str(), name.as_str()),
        [_, flag, ..] if flag == HELPER_ARG => {
            eprintln!("usage: {HELPER_ARG} get|set|delete NAME");
            return Some(2);
        }
        _ => return None,
    };
    let store = KeyringSecretStore;
    let done = match op {
        "get" => store.get(name).map(|v| match v {
            Some(v) => {
                let _ = std::io::stdout().write_all(v.expose().as_bytes());
                0
            }
            None => HELPER_NONE,
        }),
        "set" => {
            let mut value = String::new();
            match std::io::stdin().read_to_string(&mut value) {
                Ok(_) => store.set(name, &Secret::new(value)).map(|()| 0),
                Err(e) => Err(SecretError::Unavailable(e.to_string())),
            }
        }
        "delete" => store.delete(name).map(|()| 0),
        other => Err(SecretError::Unavailable(format!(
            "unknown operation {other}"
        ))),
    };
    Some(done.unwrap_or_else(|e| {
        eprintln!("{e}");
        1
    }))
}

/// What hosts use: `JARVIS_API_KEY` from the environment first, then the
/// OS keyring (where settings write), through a helper process when this
/// binary can start one.
#[cfg(feature = "keyring")]
pub fn host_store() -> ChainSecretStore {
    // `JARVIS_KEYRING=in-process` keeps the old path (diagnostics, the bench's baseline).
    let in_process = std::env::var("JARVIS_KEYRING").is_ok_and(|v| v == "in-process");
    let keyring: Box<dyn SecretStore> = match HelperKeyringStore::current() {
        Ok(h) if !in_process => Box::new(h),
        _ => Box::new(KeyringSecretStore),
    };
    ChainSecretStore(vec![Box::new(EnvSecretStore), keyring])
}
