//! `config.json`'s settings, as the brain keeps them and the HUD edits them.
//! Pure data: reading and writing the file is `jarvis-core`'s `ConfigStore`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A setting that cannot be read or set by its dotted key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error("unknown config key {0:?} (see `jarvis config list`)")]
    UnknownKey(String),
    #[error("invalid value for {key}: {message}")]
    InvalidValue { key: String, message: String },
    #[error("{0} is a secret: it lives in the OS keyring, not in config.json")]
    SecretKey(String),
}

/// Characters the skills catalog may take in the system prompt, unless set.
pub const DEFAULT_SKILL_PROMPT_BUDGET: usize = 15_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct LlmConfig {
    /// `endpoint`: an OpenAI-compatible server at `base_url`; `embedded`:
    /// Jarvis's own engine (the `jarvis-llm` worker) with `local_model`.
    pub provider: Provider,
    /// The GGUF the embedded engine loads.
    pub local_model: String,
    /// The embedded engine's context, in tokens.
    pub local_ctx: u32,
    /// Minutes without a request before the embedded engine stops (0: never).
    pub local_idle_min: u32,
    pub base_url: String,
    pub model: String,
    pub temperature: Option<f64>,
    pub max_rounds: u32,
    /// Tokens the server gives a request (prompt + answer).
    pub context_window: u64,
    pub max_retries: u32,
    pub connect_timeout_sec: f64,
    pub idle_timeout_sec: f64,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            provider: Provider::Endpoint,
            local_model: String::new(),
            local_ctx: 4096,
            local_idle_min: 15,
            base_url: "http://127.0.0.1:11434/v1".into(),
            model: "llama3.2".into(),
            temperature: None,
            max_rounds: 10,
            context_window: 8192,
            max_retries: 3,
            connect_timeout_sec: 10.0,
            idle_timeout_sec: 120.0,
        }
    }
}

impl LlmConfig {
    /// The tokens a request may use: the embedded engine's own context
    /// when it is the provider and smaller than `context_window`.
    pub fn window(&self) -> u64 {
        match self.provider {
            Provider::Embedded => self.engine_window(),
            Provider::Endpoint => self.context_window,
        }
    }

    /// The tokens a request to the embedded engine may use.
    pub fn engine_window(&self) -> u64 {
        self.context_window.min(u64::from(self.local_ctx))
    }
}

/// Where answers come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    #[default]
    Endpoint,
    Embedded,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct Persona {
    pub name: String,
    pub style: String,
}

impl Default for Persona {
    fn default() -> Self {
        Persona {
            name: "Jarvis".into(),
            style: "Concise, warm and precise. Say plainly what you did and what you could not do."
                .into(),
        }
    }
}

/// The four toggles, all off by default. Off: those tools are not offered
/// and any call is refused. On: reads inside the working directory run;
/// writes, commands and data-carrying requests ask each time (unless the
/// user chose "don't ask" for that kind in [`Approvals`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct ToolToggles {
    /// Local file access: list and read.
    pub read: bool,
    pub write: bool,
    pub exec: bool,
    /// `http_request`.
    pub network: bool,
}

/// Kinds of call that run without asking (`"write"`, `"exec"`, `"network"`);
/// empty by default. The blacklist, the sandbox and the toggles still hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct Approvals {
    pub auto: Vec<String>,
}

/// The kinds `approvals.auto` may name.
pub const AUTO_KINDS: &[&str] = &["write", "exec", "network"];

/// The current config.json layout; files without a version are older.
pub const CONFIG_VERSION: u32 = 2;

fn legacy_version() -> u32 {
    1
}

/// One MCP server Jarvis uses as a tool provider (stdio).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct McpServerConfig {
    /// A streamable-HTTP server's endpoint; when set, `command` is not used.
    pub url: Option<String>,
    pub command: String,
    pub args: Vec<String>,
    pub env: std::collections::BTreeMap<String, String>,
    pub cwd: Option<String>,
    /// Its tools run without asking.
    pub trusted: bool,
    /// The server may use the network (a stdio server runs confined).
    pub network: bool,
    pub startup_timeout_sec: u64,
    pub call_timeout_sec: u64,
}

impl Default for McpServerConfig {
    fn default() -> Self {
        McpServerConfig {
            url: None,
            command: String::new(),
            args: vec![],
            env: Default::default(),
            cwd: None,
            trusted: false,
            network: false,
            startup_timeout_sec: 20,
            call_timeout_sec: 60,
        }
    }
}

/// Where skills come from, beyond the standard roots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct SkillsConfig {
    /// Project or extra skill directories (highest precedence, in order).
    pub extra_dirs: Vec<String>,
    /// Characters the catalog may take in the system prompt.
    pub prompt_budget: usize,
}

impl Default for SkillsConfig {
    fn default() -> Self {
        SkillsConfig {
            extra_dirs: vec![],
            prompt_budget: DEFAULT_SKILL_PROMPT_BUDGET,
        }
    }
}

/// The OS sandbox commands, created tools and MCP servers run in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct SandboxConfig {
    /// Force an older Landlock ABI (0 = the newest the kernel has).
    pub abi: u8,
    /// Let every command use the network (otherwise only a call approved
    /// "with network" does).
    pub network: bool,
    /// Run commands unconfined where the sandbox cannot be applied.
    pub allow_unconfined: bool,
    /// Environment variables passed to commands beyond the built-in list.
    pub env: Vec<String>,
    /// More folders commands may read (read-only).
    pub read: Vec<String>,
}

/// Voice settings (the `jarvis-voice` crate reads them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct VoiceSettings {
    /// "auto" or a whisper language code ("en", "zh", ...); also picks the voice.
    pub language: String,
    /// "auto" (Piper when installed, else the system voice), "piper" or "system".
    pub engine: String,
    /// Microphone by name; the system default when unset.
    pub input_device: Option<String>,
    /// Keep the microphone open between presses (faster start, pre-roll;
    /// the mic-in-use light stays on).
    pub keep_mic_warm: bool,
    /// In conversation mode, silence that ends listening.
    pub silence_timeout_sec: u64,
    /// Unload the speech model after this long unused.
    pub stt_idle_unload_sec: u64,
    /// The desktop app's global push-to-talk shortcut (held down to talk).
    pub ptt_shortcut: String,
    /// The desktop app's global Stop everything shortcut.
    pub stop_shortcut: String,
    /// Paused from the tray: no listening, no speech.
    pub paused: bool,
    /// Hours when announcements stay silent, "22:00-07:00"; empty for never.
    pub do_not_disturb: String,
}

impl Default for VoiceSettings {
    fn default() -> Self {
        VoiceSettings {
            language: "auto".into(),
            engine: "auto".into(),
            input_device: None,
            keep_mic_warm: false,
            silence_timeout_sec: 8,
            stt_idle_unload_sec: 300,
            ptt_shortcut: "Ctrl+Alt+Space".into(),
            stop_shortcut: "Ctrl+Alt+End".into(),
            paused: false,
            do_not_disturb: String::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct Config {
    /// Layout version (see [`CONFIG_VERSION`]).
    #[serde(default = "legacy_version")]
    pub version: u32,
    pub llm: LlmConfig,
    pub persona: Persona,
    pub tools: ToolToggles,
    pub approvals: Approvals,
    /// The working directory that confines the tools; the current one if unset.
    pub workdir: Option<String>,
    pub granted_roots: Vec<String>,
    pub approval_timeout_sec: u64,
    pub sandbox: SandboxConfig,
    pub skills: SkillsConfig,
    /// MCP servers by name.
    pub mcp_servers: std::collections::BTreeMap<String, McpServerConfig>,
    pub voice: VoiceSettings,
    pub retention: Retention,
    pub tasks: TasksConfig,
    pub budget: BudgetConfig,
    pub evolve: EvolveConfig,
    pub memory: MemoryConfig,
}

/// Noticing repeated requests and proposing skills for them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct EvolveConfig {
    /// Off: requests are not kept and nothing is proposed.
    pub enabled: bool,
    /// Similar requests a group needs before a skill is proposed.
    pub min_requests: u32,
    /// In at least this many conversations.
    pub min_sessions: u32,
    /// Within this many days.
    pub window_days: u32,
    /// How alike two requests must be to count as one (TF-IDF cosine, 0–1).
    pub similarity: f64,
}

impl Default for EvolveConfig {
    fn default() -> Self {
        EvolveConfig {
            enabled: true,
            min_requests: 3,
            min_sessions: 2,
            window_days: 30,
            similarity: 0.4,
        }
    }
}

/// What Jarvis remembers about the user, in its prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct MemoryConfig {
    /// Characters of memory at most (the prompt carries all of it).
    pub max_chars: u32,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        MemoryConfig { max_chars: 2_000 }
    }
}

/// What a model's tokens cost, in US dollars per million.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct Price {
    pub prompt_per_mtok: f64,
    pub completion_per_mtok: f64,
}

/// Daily caps on model use (0: no cap), by day in the user's time zone.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct BudgetConfig {
    /// Tokens a day, every run and side call counted.
    pub daily_tokens: u64,
    /// Dollars a day, from `prices`.
    pub daily_cost_usd: f64,
    /// By model name; a model without a price (the embedded one) costs 0.
    pub prices: std::collections::BTreeMap<String, Price>,
    /// Tokens one task may use (0: only the daily cap).
    pub task_max_tokens: u64,
    /// Rounds of tool calls one task may take (0: `llm.max_rounds`).
    pub task_max_rounds: u32,
}

/// Background tasks (the hub).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct TasksConfig {
    /// Tasks running at once, across every Jarvis process; the rest queue.
    pub max_parallel: u32,
    /// Finished tasks are forgotten after this many days (0: kept).
    pub keep_days: u32,
    /// A task still running after this many minutes is stopped (`timed_out`).
    pub timeout_min: u32,
}

impl Default for TasksConfig {
    fn default() -> Self {
        TasksConfig {
            max_parallel: 2,
            keep_days: 30,
            timeout_min: 30,
        }
    }
}

/// How long records are kept (0: for ever), applied when Jarvis starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct Retention {
    /// Audit rows older than this many days are deleted.
    pub audit_days: u32,
    /// Conversations untouched for this many days are deleted.
    pub messages_days: u32,
}

impl Default for Retention {
    fn default() -> Self {
        Retention {
            audit_days: 90,
            messages_days: 0,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            version: CONFIG_VERSION,
            llm: LlmConfig::default(),
            persona: Persona::default(),
            tools: ToolToggles::default(),
            approvals: Approvals::default(),
            workdir: None,
            granted_roots: vec![],
            approval_timeout_sec: 60,
            sandbox: SandboxConfig::default(),
            skills: SkillsConfig::default(),
            mcp_servers: Default::default(),
            voice: VoiceSettings::default(),
            retention: Retention::default(),
            tasks: TasksConfig::default(),
            budget: BudgetConfig::default(),
            evolve: EvolveConfig::default(),
            memory: MemoryConfig::default(),
        }
    }
}

impl Config {
    /// Brings a file written by an older Jarvis to the current layout; the
    /// sentence to tell the user once, when anything changed. The toggles
    /// used to mean "run without asking"; now they mean "offered", and not
    /// asking is a separate choice per kind, so what was usable stays usable
    /// and what ran without asking asks until the user opts in again.
    pub fn migrate(&mut self) -> Option<String> {
        if self.version >= CONFIG_VERSION {
            return None;
        }
        let was_auto: Vec<&str> = [("write", self.tools.write), ("exec", self.tools.exec)]
            .iter()
            .filter(|(_, on)| *on)
            .map(|(k, _)| *k)
            .collect();
        self.tools = ToolToggles {
            read: true,
            write: true,
            exec: true,
            network: true,
        };
        self.approvals.auto.clear();
        self.version = CONFIG_VERSION;
        let mut msg = "Settings from an older Jarvis were updated: file access, writes, commands and web requests stay available, and each write, command and data-carrying request now asks before it runs.".to_string();
        if !was_auto.is_empty() {
            msg.push_str(&format!(
                " You had {} running without asking; choose \"Don't ask\" for them in Settings (approvals.auto) if you want that again.",
                was_auto.join(" and ")
            ));
        }
        Some(msg)
    }

    /// The kind of call that runs without asking, per `approvals.auto`.
    pub fn auto(&self, kind: &str) -> bool {
        self.approvals.auto.iter().any(|k| k == kind)
    }

    /// Every dotted key with its current value, in a stable order.
    pub fn list(&self) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        flatten(
            "",
            &serde_json::to_value(self).unwrap_or(Value::Null),
            &mut out,
        );
        out
    }

    pub fn get(&self, key: &str) -> Result<Value, SettingError> {
        self.list()
            .into_iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .ok_or_else(|| SettingError::UnknownKey(key.to_string()))
    }

    /// Sets one dotted key from text: JSON if it parses as such, a string otherwise.
    pub fn set(&mut self, key: &str, raw: &str) -> Result<(), SettingError> {
        if is_secret(key) {
            return Err(SettingError::SecretKey(key.to_string()));
        }
        let mut whole = serde_json::to_value(&*self).map_err(|e| SettingError::InvalidValue {
            key: key.into(),
            message: e.to_string(),
        })?;
        // A leaf or a whole table (`budget.prices`, `mcp_servers`).
        let mut slot = &mut whole;
        for part in key.split('.') {
            slot = slot
                .get_mut(part)
                .ok_or_else(|| SettingError::UnknownKey(key.to_string()))?;
        }
        let parsed = serde_json::from_str::<Value>(raw).unwrap_or_else(|_| Value::from(raw));
        // A string setting keeps "123" or "true" as text.
        let value = if slot.is_string() && !parsed.is_string() && !parsed.is_null() {
            Value::from(raw)
        } else {
            parsed
        };
        *slot = value;
        let next: Config =
            serde_json::from_value(whole).map_err(|e| SettingError::InvalidValue {
                key: key.into(),
                message: e.to_string(),
            })?;
        if let Some(bad) = next
            .approvals
            .auto
            .iter()
            .find(|k| !AUTO_KINDS.contains(&k.as_str()))
        {
            return Err(SettingError::InvalidValue {
                key: key.into(),
                message: format!("{bad:?} is not one of {AUTO_KINDS:?}"),
            });
        }
        *self = next;
        Ok(())
    }
}

/// A key that names a secret (`llm.api_key`, `…token`): secrets live in the
/// OS keyring. By the key's last part, so `budget.daily_tokens` is a setting.
fn is_secret(key: &str) -> bool {
    let last = key.rsplit('.').next().unwrap_or(key).to_ascii_lowercase();
    matches!(
        last.as_str(),
        "key" | "secret" | "token" | "password" | "passwd"
    ) || ["_key", "_secret", "_token", "_password", "apikey"]
        .iter()
        .any(|s| last.ends_with(s))
}

fn flatten(prefix: &str, v: &Value, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        other => out.push((prefix.to_string(), other.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotted_keys_get_and_set_with_types_checked() {
        let mut c = Config::default();
        assert_eq!(c.get("tools.exec").unwrap(), Value::Bool(false));
        c.set("tools.exec", "true").unwrap();
        assert!(c.tools.exec);
        c.set("llm.model", "123").unwrap();
        assert_eq!(c.llm.model, "123");
        c.set("llm.context_window", "2048").unwrap();
        assert_eq!(c.llm.context_window, 2048);
        assert!(matches!(
            c.set("llm.context_window", "lots"),
            Err(SettingError::InvalidValue { .. })
        ));
        assert!(matches!(
            c.set("nope", "1"),
            Err(SettingError::UnknownKey(_))
        ));
        assert!(matches!(
            c.set("llm.api_key", "sk-1"),
            Err(SettingError::SecretKey(_))
        ));
        for secret in ["llm.token", "mcp.github_token", "llm.apiKey", "x.password"] {
            assert!(
                matches!(c.set(secret, "v"), Err(SettingError::SecretKey(_))),
                "{secret}"
            );
        }
        c.set("budget.daily_tokens", "1000").unwrap();
        assert_eq!(c.budget.daily_tokens, 1000);
        // A whole table at once.
        c.set("budget.prices", r#"{"m": {"prompt_per_mtok": 1.5}}"#)
            .unwrap();
        assert_eq!(c.budget.prices["m"].prompt_per_mtok, 1.5);
        c.set("workdir", "/tmp/x").unwrap();
        assert_eq!(c.workdir.as_deref(), Some("/tmp/x"));
        let keys: Vec<String> = c.list().into_iter().map(|(k, _)| k).collect();
        for k in [
            "llm.base_url",
            "llm.model",
            "llm.context_window",
            "tools.read",
            "tools.write",
            "tools.exec",
            "workdir",
        ] {
            assert!(keys.contains(&k.to_string()), "{k}");
        }
    }
}
