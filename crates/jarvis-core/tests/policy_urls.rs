//! http_request's policy scored on `../shared/oracles/security/urls.jsonl`:
//! every row answered as labelled; `[dns]` rows run through the real tool
//! with a stub resolver, `[redirect]` rows against a stub server whose
//! redirect every hop is re-checked against.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::net::IpAddr;
use std::sync::Arc;

use common::*;
use jarvis_core::policy::url::check_url;
use jarvis_core::policy::{AllowOnceApprover, ScriptedApprover, Verdict};
use jarvis_core::tools::net::StaticResolver;
use jarvis_protocol::{ApprovalDecision, ToolStatus};
use jarvis_testkit::{MockServer, Reply};
use serde_json::{Value, json};

struct Row {
    id: String,
    verdict: String,
    url: String,
    note: String,
}

fn rows() -> Vec<Row> {
    let p = jarvis_testkit::shared_dir().join("oracles/security/urls.jsonl");
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            Row {
                id: v["id"].as_str().unwrap().into(),
                verdict: v["verdict"].as_str().unwrap().into(),
                url: v["url"].as_str().unwrap().replace("APPPORT", "7420"),
                note: v["note"].as_str().unwrap().into(),
            }
        })
        .collect()
}

fn label(v: Verdict) -> &'static str {
    v.as_str()
}

/// `169.254.169.254.nip.io` and friends: the address is in the name.
fn embedded_ip(host: &str) -> Option<IpAddr> {
    for suffix in [".nip.io", ".sslip.io", ".xip.io"] {
        if let Some(ip) = host.strip_suffix(suffix) {
            let ip = ip
                .rsplit(|c: char| !(c.is_ascii_digit() || c == '.'))
                .next()
                .unwrap_or(ip);
            return ip.parse().ok();
        }
    }
    match host {
        "localtest.me" | "lvh.me" => "127.0.0.1".parse().ok(),
        _ => None,
    }
}

#[test]
fn static_rows_are_answered_as_labelled() {
    let mut table = std::collections::BTreeMap::<(String, String), usize>::new();
    let mut bad = Vec::new();
    for r in rows()
        .iter()
        .filter(|r| !r.note.contains("[dns]") && !r.note.contains("[redirect]"))
    {
        let d = check_url(&r.url);
        *table
            .entry((r.verdict.clone(), label(d.verdict).to_string()))
            .or_default() += 1;
        if label(d.verdict) != r.verdict {
            bad.push(format!(
                "{} {:?}: expected {}, got {} ({})",
                r.id,
                r.url,
                r.verdict,
                label(d.verdict),
                d.reason
            ));
        }
    }
    println!("label → answer: {table:?}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[tokio::test]
async fn dns_rows_are_judged_by_every_resolved_address() {
    let tagged: Vec<Row> = rows()
        .into_iter()
        .filter(|r| r.note.contains("[dns]"))
        .collect();
    let mut executed = 0;
    for r in &tagged {
        let url = reqwest::Url::parse(&r.url).unwrap();
        let host = url.host_str().unwrap().to_string();
        let ip =
            embedded_ip(&host).unwrap_or_else(|| panic!("{}: no stub address for {host}", r.id));
        let resolver = Arc::new(StaticResolver::default().with(&host, &[ip]));
        let approver = Arc::new(ScriptedApprover::new([ApprovalDecision::AllowOnce]));
        let e = env(Setup {
            resolver: Some(resolver),
            ..Setup::new("http://127.0.0.1:9/v1".into(), approver.clone())
        });
        let out = e
            .brain
            .run_tool("http_request", &json!({"url": r.url}).to_string())
            .await;
        let audit = e.brain.audit(1, None).unwrap();
        let verdict = if out.status == ToolStatus::Refused && audit[0].verdict == "block" {
            "block"
        } else if !approver.asked().is_empty() {
            "ask"
        } else {
            "allow"
        };
        assert_eq!(
            verdict, r.verdict,
            "{} {}: {} / {}",
            r.id, r.url, out.summary, audit[0].reason
        );
        executed += 1;
    }
    assert_eq!(
        executed,
        tagged.len(),
        "every [dns] row ran against the stub resolver"
    );
    assert!(executed >= 1);
}

#[tokio::test]
async fn redirect_rows_are_rechecked_on_every_hop() {
    let tagged: Vec<Row> = rows()
        .into_iter()
        .filter(|r| r.note.contains("[redirect]"))
        .collect();
    let mut executed = 0;
    for r in &tagged {
        let url = reqwest::Url::parse(&r.url).unwrap();
        // The redirect target is in the query (`?to=…`), as the note describes.
        let to = url
            .query_pairs()
            .find(|(k, _)| k == "to")
            .map(|(_, v)| v.to_string())
            .unwrap();
        let target = to.clone();
        let server = MockServer::with_handler(move |_, _| {
            Reply::status(302, "").with_header("Location", &target)
        })
        .await
        .unwrap();
        let port: u16 = server
            .base_url()
            .rsplit(':')
            .next()
            .unwrap()
            .trim_end_matches("/v1")
            .parse()
            .unwrap();
        // The stub stands in for the public host; plain http on loopback.
        let mut first = url.clone();
        first.set_scheme("http").unwrap();
        first.set_port(Some(port)).unwrap();
        let host = url.host_str().unwrap().to_string();
        let resolver =
            Arc::new(StaticResolver::default().with(&host, &["127.0.0.1".parse().unwrap()]));
        let e = env(Setup {
            resolver: Some(resolver),
            ..Setup::new("http://127.0.0.1:9/v1".into(), Arc::new(AllowOnceApprover))
        });
        let out = e
            .brain
            .run_tool("http_request", &json!({"url": first.as_str()}).to_string())
            .await;
        assert_eq!(out.status, ToolStatus::Refused, "{}: {}", r.id, out.content);
        assert!(out.content.contains("redirect to"), "{}", out.content);
        assert_eq!(
            server.requests().len(),
            1,
            "the first hop ran, the redirect was not followed"
        );
        executed += 1;
    }
    assert_eq!(
        executed,
        tagged.len(),
        "every [redirect] row ran against the stub server"
    );
    assert!(executed >= 1);
}

#[tokio::test]
async fn a_same_origin_redirect_after_approval_is_followed() {
    let server = MockServer::with_handler(|req, _| {
        if req.path == "/old" {
            Reply::status(301, "").with_header("Location", "/new")
        } else {
            Reply::json(json!({"path": req.path}))
        }
    })
    .await
    .unwrap();
    let url = server.base_url().replace("/v1", "/old");
    let e = env(Setup::new(
        "http://127.0.0.1:9/v1".into(),
        Arc::new(AllowOnceApprover),
    ));
    let out = e
        .brain
        .run_tool("http_request", &json!({"url": url}).to_string())
        .await;
    assert_eq!(out.status, ToolStatus::Ok, "{}", out.content);
    assert!(out.content.contains(r#""path":"/new""#), "{}", out.content);
}
