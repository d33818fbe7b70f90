//! Text that a Java server's logger expands as a lookup: `${jndi:ldap://…}`
//! (Log4Shell) makes any server that logs it load and run a class from
//! the address named, however the lookup is spelled (`${${lower:j}ndi:…}`,
//! `${${::-j}${::-n}di:…}`).

use super::*;

/// The text with Log4j's nested lookups that only spell letters taken
/// away: `${lower:J}` → `j`, `${::-n}` and `${env:X:-n}` → `n`.
fn unnested(text: &str) -> String {
    let mut s = text.to_ascii_lowercase();
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
                    let letters = body
                        .strip_prefix("lower:")
                        .or_else(|| body.strip_prefix("upper:"))
                        .or_else(|| body.split_once(":-").map(|(_, d)| d));
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
    if !text.contains("${") {
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

impl Analyzer<'_> {
    pub(super) fn jndi_lookups(&mut self, c: &Cmd<'_>) {
        let words = c.words.iter().map(|w| w.text.as_str());
        let fed = c
            .src
            .redirects
            .iter()
            .flat_map(|r| std::iter::once(&r.target).chain(r.body.as_ref()))
            .map(|w| w.text.as_str());
        if words.chain(fed).any(jndi_lookup) {
            self.block(
                "carries a JNDI lookup (`${jndi:…}`): a Java server that logs it loads and runs code from that address (Log4Shell)",
            );
        }
    }
}
