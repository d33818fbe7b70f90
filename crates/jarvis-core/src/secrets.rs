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

/// What hosts use: `JARVIS_API_KEY` from the environment first, then the
/// OS keyring (where settings write).
#[cfg(feature = "keyring")]
pub fn host_store() -> ChainSecretStore {
    ChainSecretStore(vec![Box::new(EnvSecretStore), Box::new(KeyringSecretStore)])
}
