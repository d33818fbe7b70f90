//! Text that a Java server's logger expands as a lookup: `${jndi:ldap://…}`
//! (Log4Shell) makes any server that logs it load and run a class from
//! the address named, however the lookup is spelled (`${${lower:j}ndi:…}`,
//! `${${::-j}${::-n}di:…}`).

use super::*;

/// The text with Log4j's nested lookups that only spell letters taken
/// away: `${lower:J}` → `j`, `${::-n}` and `${env:X:-n}` → `n`.
fn unnested(text: &str) -> String {
    // JSON's and URLs' escapes of `${`, `}` and `:` first.
    let mut s = text
        .to_ascii_lowercase()
        .replace("\\u0024", "$")
        .replace("\\u007b", "{")
        .replace("\\u007d", "}")
        .replace("%24", "$")
        .replace("%7b", "{")
        .replace("%7d", "}")
        .replace("%3a", ":");
    // Each pass resolves the innermost lookups; the text only shrinks.
    for _ in 0..16 {
        let mut out = String::with_capacity(s.len());
        let mut changed = false;
        let mut rest = s.as_str();
        while let Some(at) = rest.find("${") {
            out.push_str(&rest[..at]);
            let body_start = at + 2;
            let inner = &rest[body_start..];
            let close = inner.find('}');
            let nested = inner.find("${");
            match close {
                Some(end) if nested.is_none_or(|n| n > end) => {
                    let body = &inner[..end];
                    // (`${date:'j'}`: a format of quoted letters prints them.)
                    let letters = body
                        .strip_prefix("lower:")
                        .or_else(|| body.strip_prefix("upper:"))
                        .or_else(|| body.split_once(":-").map(|(_, d)| d))
                        .or_else(|| {
                            body.split_once(':')
                                .map(|(_, q)| q)
                                .filter(|q| {
                                    q.len() >= 2 && q.starts_with('\'') && q.ends_with('\'')
                                })
                                .map(|q| &q[1..q.len() - 1])
                        });
                    match letters {
                        Some(l) => {
                            out.push_str(l);
                            changed = true;
                        }
                        None => {
                            out.push_str("${");
                            out.push_str(body);
                            out.push('}');
                        }
                    }
                    rest = &inner[end + 1..];
                }
                _ => {
                    out.push_str("${");
                    rest = inner;
                }
            }
        }
        out.push_str(rest);
        s = out;
        if !changed {
            break;
        }
    }
    s
}

/// A JNDI lookup of a naming service (`ldap`, `rmi`, `dns`…).
pub(super) fn jndi_lookup(text: &str) -> bool {
    // (Most words hold none of `$`, `%` or `\`: no copy made for them.)
    if !text.bytes().any(|b| matches!(b, b'$' | b'%' | b'\\')) {
        return false;
    }
    let s = unnested(text);
    s.match_indices("${jndi:").any(|(at, m)| {
        let after = &s[at + m.len()..];
        [
            "ldap", "ldaps", "rmi", "dns", "iiop", "corba", "nds", "nis", "http",
        ]
        .iter()
        .any(|p| after.starts_with(p))
    })
}

/// Programs that only search, show or store text: a lookup in their words
/// is a pattern or a note (`grep -rF '${jndi:' logs/`), logged by nobody.
pub(super) const TEXT_TOOLS: &[&str] = &[
    "grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "jq", "yq", "echo",
    "printf", "cat", "tee", "less", "more", "head", "tail", "sort", "uniq", "wc", "cut", "tr",
    "diff", "git", "zgrep", "ugrep",
];

impl Analyzer<'_> {
    pub(super) fn jndi_lookups(&mut self, c: &Cmd<'_>) {
        if TEXT_TOOLS.contains(&c.lb.as_str()) {
            return;
        }
        let words = c.words.iter().map(|w| w.text.clone());
        let fed = c
            .src
            .redirects
            .iter()
            .flat_map(|r| std::iter::once(&r.target).chain(r.body.as_ref()))
            .map(|w| w.text.clone());
        // What the stage before prints into it (`echo '${jndi:…}' | nc …`).
        let piped = c
            .src
            .stdin_from
            .and_then(|i| c.script.commands.get(i))
            .and_then(|p| {
                crate::policy::shell::eval::printed(&Command {
                    argv: peeled(&p.argv).to_vec(),
                    ..p.clone()
                })
            });
        if words.chain(fed).chain(piped).any(|t| jndi_lookup(&t)) {
            self.block(
                "carries a JNDI lookup (`${jndi:…}`): a Java server that logs it loads and runs code from that address (Log4Shell)",
            );
        }
    }
}
