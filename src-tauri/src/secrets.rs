//! The keyring read off the UI thread. Unlocking the Secret Service may show
//! the desktop's own password prompt; the window must not wait behind it.
//! Until the first read finishes the key is unknown (no key is sent); then
//! the brain reloads with it.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use jarvis_core::llm::Secret;
use jarvis_core::secrets::{SecretError, SecretStore};

pub struct PrimedSecrets {
    inner: Box<dyn SecretStore>,
    known: RwLock<HashMap<String, Option<Secret>>>,
}

impl PrimedSecrets {
    pub fn new(inner: Box<dyn SecretStore>) -> Arc<Self> {
        Arc::new(PrimedSecrets {
            inner,
            known: RwLock::new(HashMap::new()),
        })
    }

    /// Reads `name` from the real store on a worker thread, then calls `done`.
    pub fn prime(self: &Arc<Self>, name: &'static str, done: impl FnOnce() + Send + 'static) {
        let me = self.clone();
        let spawned = std::thread::Builder::new()
            .name("keyring".into())
            .spawn(move || {
                match me.inner.get(name) {
                    // A key saved while this read waited (behind an unlock
                    // prompt, say) is newer than what the read returns.
                    Ok(v) => {
                        if let Ok(mut k) = me.known.write() {
                            k.entry(name.to_string()).or_insert(v);
                        }
                    }
                    Err(e) => tracing::warn!("keyring: {e}"),
                }
                done();
            });
        if let Err(e) = spawned {
            tracing::warn!("keyring reader not started: {e}");
        }
    }

    fn remember(&self, name: &str, v: Option<Secret>) {
        if let Ok(mut k) = self.known.write() {
            k.insert(name.to_string(), v);
        }
    }
}

impl SecretStore for PrimedSecrets {
    fn get(&self, name: &str) -> Result<Option<Secret>, SecretError> {
        Ok(self
            .known
            .read()
            .ok()
            .and_then(|k| k.get(name).cloned())
            .flatten())
    }
    fn set(&self, name: &str, value: &Secret) -> Result<(), SecretError> {
        self.inner.set(name, value)?;
        self.remember(name, Some(value.clone()));
        Ok(())
    }
    fn delete(&self, name: &str) -> Result<(), SecretError> {
        self.inner.delete(name)?;
        self.remember(name, None);
        Ok(())
    }
    fn describe(&self) -> String {
        self.inner.describe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jarvis_core::secrets::MemorySecretStore;
    use std::sync::Mutex;
    use std::sync::mpsc::{Receiver, channel};

    /// A keyring whose reads wait for the test (an unlock prompt).
    struct SlowStore {
        gate: Mutex<Receiver<()>>,
        value: &'static str,
    }
    impl SecretStore for SlowStore {
        fn get(&self, _: &str) -> Result<Option<Secret>, SecretError> {
            self.gate.lock().unwrap().recv().unwrap();
            Ok(Some(Secret::new(self.value)))
        }
        fn set(&self, _: &str, _: &Secret) -> Result<(), SecretError> {
            Ok(())
        }
        fn delete(&self, _: &str) -> Result<(), SecretError> {
            Ok(())
        }
        fn describe(&self) -> String {
            "slow".into()
        }
    }

    #[test]
    fn a_key_saved_while_the_first_read_waits_is_not_overwritten_by_it() {
        let (open, gate) = channel();
        let s = PrimedSecrets::new(Box::new(SlowStore {
            gate: Mutex::new(gate),
            value: "sk-old",
        }));
        let (tx, done) = channel();
        s.prime("api_key", move || tx.send(()).unwrap());
        s.set("api_key", &Secret::new("sk-new")).unwrap();
        open.send(()).unwrap();
        done.recv().unwrap();
        assert_eq!(s.get("api_key").unwrap().unwrap().expose(), "sk-new");
    }

    #[test]
    fn nothing_is_read_on_the_callers_thread_and_the_key_arrives_after_priming() {
        let mem = MemorySecretStore::default();
        mem.set("api_key", &Secret::new("sk-1")).unwrap();
        let s = PrimedSecrets::new(Box::new(mem));
        assert!(s.get("api_key").unwrap().is_none());
        let (tx, rx) = std::sync::mpsc::channel();
        s.prime("api_key", move || tx.send(()).unwrap());
        rx.recv().unwrap();
        assert_eq!(s.get("api_key").unwrap().unwrap().expose(), "sk-1");
        s.set("api_key", &Secret::new("sk-2")).unwrap();
        assert_eq!(s.get("api_key").unwrap().unwrap().expose(), "sk-2");
        s.delete("api_key").unwrap();
        assert!(s.get("api_key").unwrap().is_none());
    }
}
