//! Arguments as the audit log stores them: secrets replaced.

use serde_json::Value;

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
