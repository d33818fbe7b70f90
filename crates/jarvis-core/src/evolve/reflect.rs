//! Honest metacognition: what Jarvis can do now, what it cannot and why,
//! what it did, and a five-axis radar whose every axis is a measured rate
//! with its sample count. No clock and no model: the same data gives the
//! same report.

use jarvis_protocol::evolve::{RadarAxis, ReflectReport};
use jarvis_protocol::settings::Provider;

use crate::Brain;
use crate::agent::BrainError;
use crate::store::Tally;

fn axis(name: &str, hits: u64, samples: u64, metric: &str) -> RadarAxis {
    let score = if samples == 0 {
        0.0
    } else {
        (hits.min(samples) as f64 / samples as f64 * 1000.0).round() / 1000.0
    };
    let metric = if samples == 0 {
        format!("{metric} — no samples yet, so 0")
    } else {
        format!("{metric}: {hits} of {samples}")
    };
    RadarAxis {
        axis: name.into(),
        score,
        samples,
        metric,
    }
}

fn count(pairs: &[(String, u64)], key: &str) -> u64 {
    pairs.iter().filter(|(k, _)| k == key).map(|(_, n)| n).sum()
}

/// The five axes from the counts.
pub fn radar(t: &Tally, made: u64, made_used: u64) -> Vec<RadarAxis> {
    let background: u64 = t.background.iter().map(|(_, n)| n).sum();
    let proposed: u64 = t.proposals.iter().map(|(_, n)| n).sum();
    vec![
        axis(
            "Hands",
            t.calls_ok,
            t.calls_run,
            "tool calls that ran and succeeded",
        ),
        axis(
            "Skills",
            t.skill_uses,
            t.user_requests,
            "your requests served by a skill (skill uses per request)",
        ),
        axis(
            "Autonomy",
            count(&t.background, "succeeded"),
            background,
            "background runs that succeeded without help",
        ),
        axis(
            "Safety",
            t.calls.saturating_sub(t.blocked + t.denied),
            t.calls,
            "tool calls that needed no override (not blocked, not denied)",
        ),
        axis(
            "Growth",
            count(&t.proposals, "applied") + made_used,
            proposed + made,
            "proposals applied and skills Jarvis made that were used",
        ),
    ]
}

impl Brain {
    /// What Jarvis can and cannot do now, what it did, and the radar.
    pub fn reflect(&self) -> Result<ReflectReport, BrainError> {
        let cfg = self.config();
        let t = self.inner.store.tally()?;
        let mut can = Vec::new();
        let mut cannot = Vec::new();
        let toggles = [
            (
                cfg.tools.read,
                "read and list files in the working folder",
                "tools.read",
            ),
            (
                cfg.tools.write,
                "write files there (each write asks)",
                "tools.write",
            ),
            (
                cfg.tools.exec,
                "run commands there, sandboxed (each asks)",
                "tools.exec",
            ),
            (cfg.tools.network, "make web requests", "tools.network"),
        ];
        for (on, what, key) in toggles {
            if on {
                can.push(format!("{what} ({key} on)"));
            } else {
                cannot.push(format!("{what}: off (turn on {key} in Settings)"));
            }
        }
        match self.workdir_problem() {
            None => can.push(format!("work in {}", self.workdir().display())),
            Some(why) => cannot.push(format!("use files at all: {why}")),
        }
        let skills = self.enabled_skills();
        let mut names: Vec<String> = skills.skills.iter().map(|s| s.name.clone()).collect();
        names.sort();
        if names.is_empty() {
            cannot.push("use a skill: none is enabled".into());
        } else {
            can.push(format!(
                "use {} skill(s): {}",
                names.len(),
                names.join(", ")
            ));
        }
        let mut servers: Vec<&String> = cfg.mcp_servers.keys().collect();
        servers.sort();
        if !servers.is_empty() {
            can.push(format!(
                "use the tools of MCP server(s) {}",
                servers
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        match cfg.llm.provider {
            Provider::Embedded => match crate::llm::local::model_path(self.home(), &cfg.llm) {
                Ok(p) => can.push(format!("think with the built-in engine ({})", p.display())),
                Err(e) => cannot.push(format!("answer with the built-in engine: {e}")),
            },
            Provider::Endpoint => can.push(format!(
                "think with {} at {}",
                cfg.llm.model, cfg.llm.base_url
            )),
        }
        for m in crate::models::list(self.home())
            .into_iter()
            .filter(|m| m.kind == crate::models::ModelKind::Voice && !m.installed)
        {
            cannot.push(format!(
                "use {} ({}): not installed (`jarvis models install {}`)",
                m.name, m.what, m.name
            ));
        }
        let did = vec![
            format!(
                "{} tool calls: {} ran ({} succeeded), {} blocked by the policy, {} denied",
                t.calls, t.calls_run, t.calls_ok, t.blocked, t.denied
            ),
            format!(
                "{} asked a person; {} of those were allowed",
                t.asked, t.approved
            ),
            format!(
                "background runs: {}",
                if t.background.is_empty() {
                    "none yet".to_string()
                } else {
                    t.background
                        .iter()
                        .map(|(s, n)| format!("{n} {s}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
            format!("{} model requests, {} tokens", t.requests, t.tokens),
            format!(
                "{} of your requests noticed, {} skill uses, proposals: {}",
                t.user_requests,
                t.skill_uses,
                if t.proposals.is_empty() {
                    "none".to_string()
                } else {
                    t.proposals
                        .iter()
                        .map(|(s, n)| format!("{n} {s}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
        ];
        let (made, made_used) = self.inner.store.made_skills_used()?;
        Ok(ReflectReport {
            can,
            cannot,
            did,
            radar: radar(&t, made, made_used),
        })
    }
}

/// A short, true statement of what is off, for the system prompt: the
/// model says "I can't run commands now" instead of pretending.
pub fn limits(cfg: &jarvis_protocol::settings::Config) -> String {
    let off: Vec<&str> = [
        (
            cfg.tools.read,
            "reading the user's files (Settings → Local file access)",
        ),
        (cfg.tools.write, "writing files (Settings → Write files)"),
        (cfg.tools.exec, "running commands (Settings → Run commands)"),
        (cfg.tools.network, "web requests (Settings → Web requests)"),
    ]
    .into_iter()
    .filter(|(on, _)| !on)
    .map(|(_, what)| what)
    .collect();
    if off.is_empty() {
        return String::new();
    }
    format!(
        "\n\nSwitched off by the user, so you cannot do it now: {}. When asked for one of these, \
         say so and where to turn it on; do not pretend or work around it.",
        off.join("; ")
    )
}

/// The radar as a self-contained SVG: five labelled axes, the score
/// polygon, the numbers beside the labels.
pub fn radar_svg(axes: &[RadarAxis]) -> String {
    let (cx, cy, r) = (200.0_f64, 190.0_f64, 130.0_f64);
    let n = axes.len().max(1) as f64;
    let at = |i: usize, k: f64| {
        let a = -std::f64::consts::FRAC_PI_2 + i as f64 * std::f64::consts::TAU / n;
        (cx + r * k * a.cos(), cy + r * k * a.sin())
    };
    let mut s = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 400 380\" role=\"img\" aria-label=\"Capability radar\">",
    );
    for ring in [0.25, 0.5, 0.75, 1.0] {
        let pts: Vec<String> = (0..axes.len())
            .map(|i| {
                let (x, y) = at(i, ring);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        s.push_str(&format!(
            "<polygon points=\"{}\" fill=\"none\" stroke=\"#8884\"/>",
            pts.join(" ")
        ));
    }
    for (i, a) in axes.iter().enumerate() {
        let (x, y) = at(i, 1.0);
        let (lx, ly) = at(i, 1.18);
        s.push_str(&format!(
            "<line x1=\"{cx}\" y1=\"{cy}\" x2=\"{x:.1}\" y2=\"{y:.1}\" stroke=\"#8886\"/>\
             <text x=\"{lx:.1}\" y=\"{ly:.1}\" text-anchor=\"middle\" font-size=\"13\">{} {:.0}%</text>",
            a.axis,
            a.score * 100.0
        ));
    }
    let pts: Vec<String> = axes
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let (x, y) = at(i, a.score);
            format!("{x:.1},{y:.1}")
        })
        .collect();
    s.push_str(&format!(
        "<polygon points=\"{}\" fill=\"#3b82f655\" stroke=\"#3b82f6\" stroke-width=\"2\"/></svg>",
        pts.join(" ")
    ));
    s
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The report as one HTML page with nothing outside it.
pub fn html(r: &ReflectReport) -> String {
    let list = |items: &[String]| {
        items
            .iter()
            .map(|i| format!("<li>{}</li>", esc(i)))
            .collect::<String>()
    };
    let rows: String = r
        .radar
        .iter()
        .map(|a| {
            format!(
                "<tr><th>{}</th><td>{:.0} %</td><td>{}</td><td>{}</td></tr>",
                esc(&a.axis),
                a.score * 100.0,
                a.samples,
                esc(&a.metric)
            )
        })
        .collect();
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Jarvis reflects</title>\
         <style>body{{font:15px system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}}\
         td,th{{text-align:left;padding:.2rem .6rem}}</style></head><body>\
         <h1>What Jarvis can do, and did</h1>{svg}\
         <table><thead><tr><th>Axis</th><th>Score</th><th>Samples</th><th>Metric</th></tr></thead><tbody>{rows}</tbody></table>\
         <h2>Can now</h2><ul>{can}</ul><h2>Cannot now</h2><ul>{cannot}</ul><h2>Did</h2><ul>{did}</ul>\
         </body></html>\n",
        svg = radar_svg(&r.radar),
        can = list(&r.can),
        cannot = list(&r.cannot),
        did = list(&r.did),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_axis_is_a_rate_with_its_samples_and_none_is_zero() {
        let t = Tally {
            calls_run: 10,
            calls_ok: 8,
            calls: 12,
            blocked: 1,
            denied: 1,
            user_requests: 4,
            skill_uses: 1,
            background: vec![("failed".into(), 1), ("succeeded".into(), 3)],
            ..Tally::default()
        };
        let r = radar(&t, 0, 0);
        assert_eq!(r.len(), 5);
        let by = |n: &str| r.iter().find(|a| a.axis == n).unwrap().clone();
        assert_eq!(by("Hands").score, 0.8);
        assert_eq!(by("Hands").samples, 10);
        assert_eq!(by("Skills").score, 0.25);
        assert_eq!(by("Autonomy").score, 0.75);
        assert_eq!(by("Safety").score, 0.833);
        assert_eq!(by("Growth").score, 0.0);
        assert!(
            by("Growth").metric.contains("no samples yet"),
            "{:?}",
            by("Growth")
        );
        let svg = radar_svg(&r);
        for name in ["Hands", "Skills", "Autonomy", "Safety", "Growth"] {
            assert!(svg.contains(name), "{svg}");
        }
        assert_eq!(radar_svg(&r), svg, "the same data draws the same radar");
    }
}
