//! Arguments as the audit log stores them: secrets replaced, and large
//! values (a file's content, a request body) kept as their hash, size and
//! first 200 bytes, never whole.

use serde_json::Value;

/// Strings longer than this are stored summarised.
pub const AUDIT_KEEP: usize = 200;

const SECRET_KEYS: &[&str] = &[
    "authorization",
    "api_key",
    "apikey",
    "token",
    "secret",
    "password",
    "passwd",
    "cookie",
    "x-api-key",
];

/// Replaces values under secret-looking keys, bearer tokens and known secrets.
pub fn redact(args: &Value, known_secrets: &[String]) -> Value {
    match args {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let lk = k.to_ascii_lowercase();
                    if SECRET_KEYS.iter().any(|s| lk.contains(s)) {
                        (k.clone(), Value::from("[redacted]"))
                    } else {
                        (k.clone(), redact(v, known_secrets))
                    }
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|v| redact(v, known_secrets)).collect()),
        Value::String(s) => Value::from(redact_text(s, known_secrets)),
        other => other.clone(),
    }
}

pub fn redact_text(s: &str, known_secrets: &[String]) -> String {
    let mut out = s.to_string();
    for k in known_secrets.iter().filter(|k| k.len() >= 6) {
        out = out.replace(k.as_str(), "[redacted]");
    }
    // `Bearer xyz` and `sk-…` style keys.
    let words: Vec<String> = out
        .split_inclusive(char::is_whitespace)
        .map(str::to_string)
        .collect();
    let mut result = String::with_capacity(out.len());
    let mut after_bearer = false;
    for w in words {
        let t = w.trim();
        let looks_key = (t.starts_with("sk-") || t.starts_with("ghp_") || t.starts_with("xoxb-"))
            && t.len() >= 20;
        if after_bearer || looks_key {
            result.push_str("[redacted]");
            result.push_str(&w[w.trim_end().len()..]);
        } else {
            result.push_str(&w);
        }
        after_bearer = t.eq_ignore_ascii_case("bearer");
    }
    result
}

/// A long string as its first [`AUDIT_KEEP`] bytes, size and sha256.
pub fn summarize_text(s: &str) -> String {
    if s.len() <= AUDIT_KEEP {
        return s.to_string();
    }
    let mut cut = AUDIT_KEEP;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    let hash = crate::digest::sha256(s.as_bytes());
    format!("{}… [{} bytes, sha256 {hash}]", &s[..cut], s.len())
}

/// Every long string in the arguments summarised.
pub fn summarize(args: &Value) -> Value {
    match args {
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), summarize(v))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(summarize).collect()),
        Value::String(s) => Value::from(summarize_text(s)),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn large_values_are_kept_as_hash_size_and_head() {
        let body = "x".repeat(210) + &"SECRET-TAIL-".repeat(50);
        let s = summarize(&json!({"url": "https://e.com", "body": body})).to_string();
        assert!(s.contains("https://e.com"));
        assert!(!s.contains("SECRET-TAIL-SECRET"), "{s}");
        assert!(
            s.contains(&format!("[{} bytes, sha256 ", body.len())),
            "{s}"
        );
        assert_eq!(summarize_text("short"), "short");
    }

    #[test]
    fn secrets_never_reach_the_audit() {
        let v = json!({"url": "https://x", "headers": {"Authorization": "Bearer abc"},
            "command": "curl -H 'Authorization: Bearer s3cr3tvalue' -d sk-abcdefghijklmnopqrstuv", "body": "key=MYSECRET99"});
        let r = redact(&v, &["MYSECRET99".into()]).to_string();
        for s in [
            "abc\"",
            "s3cr3tvalue",
            "sk-abcdefghijklmnopqrstuv",
            "MYSECRET99",
        ] {
            assert!(!r.contains(s), "{s} leaked: {r}");
        }
        assert!(r.contains("https://x"));
    }
}
