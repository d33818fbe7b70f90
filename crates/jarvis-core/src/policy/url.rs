//! The http_request policy: WHATWG parsing, http/https only, no userinfo,
//! every resolved address classified (IPv4 in any notation, mapped, NAT64
//! and 6to4 IPv6 decoded), Fetch's bad ports, and local admin endpoints.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::{Decision, Verdict};

/// Fetch standard "bad ports": never a web server.
const BAD_PORTS: &[u16] = &[
    1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
    103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
    512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
    995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
    6669, 6679, 6697, 10080,
];

/// Jarvis's own control port.
pub const JARVIS_PORT: u16 = 7420;

/// Local endpoints that hand over a machine: browser and Node debuggers,
/// the Docker API, adb, and Jarvis's own control port.
/// Notebook servers and cluster dashboards: whoever reaches them runs code
/// (Jupyter 8888/8889, Ray's dashboard 8265, Dask 8786/8787).
pub const CODE_PORTS: &[u16] = &[8888, 8889, 8265, 8786, 8787];

pub const ADMIN_PORTS: &[u16] = &[9222, 9229, 2375, 2376, 5555, JARVIS_PORT];

fn d(v: Verdict, why: impl Into<String>) -> Decision {
    Decision {
        verdict: v,
        reason: why.into(),
    }
}

/// The verdict for one address.
pub fn classify_ip(ip: IpAddr) -> Decision {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return classify_v4(v4);
            }
            let s = v6.segments();
            // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address.
            if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
                return classify_v4(Ipv4Addr::new(
                    (s[6] >> 8) as u8,
                    s[6] as u8,
                    (s[7] >> 8) as u8,
                    s[7] as u8,
                ));
            }
            if s[0] == 0x2002 {
                return classify_v4(Ipv4Addr::new(
                    (s[1] >> 8) as u8,
                    s[1] as u8,
                    (s[2] >> 8) as u8,
                    s[2] as u8,
                ));
            }
            if v6.is_unspecified() {
                d(Verdict::Block, format!("{ip} is the unspecified address"))
            } else if v6.is_loopback() {
                d(Verdict::Ask, format!("{ip} is this machine (loopback)"))
            } else if (s[0] & 0xffc0) == 0xfe80 {
                d(Verdict::Block, format!("{ip} is link-local"))
            } else if v6 == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
                d(Verdict::Block, format!("{ip} is the AWS metadata service"))
            } else if (s[0] & 0xfe00) == 0xfc00 {
                d(Verdict::Ask, format!("{ip} is on the local network (ULA)"))
            } else if (s[0] & 0xff00) == 0xff00 {
                d(Verdict::Block, format!("{ip} is multicast"))
            } else if s[0] == 0x2001 && s[1] == 0x0db8 {
                d(
                    Verdict::Block,
                    format!("{ip} is reserved for documentation"),
                )
            } else {
                d(Verdict::Allow, format!("{ip} is a public address"))
            }
        }
    }
}

fn classify_v4(ip: Ipv4Addr) -> Decision {
    let o = ip.octets();
    if ip == Ipv4Addr::new(100, 100, 100, 200) {
        return d(Verdict::Block, format!("{ip} is a cloud metadata service"));
    }
    if o[0] == 0 {
        d(Verdict::Block, format!("{ip} is the unspecified network"))
    } else if ip.is_loopback() {
        d(Verdict::Ask, format!("{ip} is this machine (loopback)"))
    } else if ip.is_link_local() {
        d(
            Verdict::Block,
            format!("{ip} is link-local (cloud metadata services live there)"),
        )
    } else if ip.is_private() || (o[0] == 100 && (o[1] & 0xc0) == 64) {
        d(Verdict::Ask, format!("{ip} is on the local network"))
    } else if ip.is_broadcast() || ip.is_multicast() || o[0] >= 240 {
        d(
            Verdict::Block,
            format!("{ip} is broadcast, multicast or reserved"),
        )
    } else if ip.is_documentation()
        || (o[0] == 198 && (o[1] & 0xfe) == 18)
        || (o[0] == 192 && o[1] == 0 && o[2] == 0)
    {
        d(Verdict::Block, format!("{ip} is a reserved range"))
    } else {
        d(Verdict::Allow, format!("{ip} is a public address"))
    }
}

/// A URL the model gave, parsed the way the request will be made.
#[derive(Debug, Clone)]
pub struct Target {
    pub url: reqwest::Url,
    /// Lower-case host without a trailing dot; empty for IP literals.
    pub domain: Option<String>,
    pub port: u16,
}

/// Checks what can be known without DNS. `Ok` carries the parsed target
/// and the verdict so far (a domain still needs its addresses checked).
pub fn check_static(raw: &str) -> Result<(Target, Decision), Decision> {
    if raw.contains('\\') {
        return Err(d(
            Verdict::Block,
            "a backslash in the URL is read differently by different parsers",
        ));
    }
    if raw.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(d(Verdict::Block, "control characters or spaces in the URL"));
    }
    let url = reqwest::Url::parse(raw)
        .map_err(|e| d(Verdict::Block, format!("not a valid URL ({e})")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(d(
            Verdict::Block,
            format!("only http and https are allowed, not {}:", url.scheme()),
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(d(Verdict::Block, "credentials (user:pass@) in the URL"));
    }
    let port = url.port_or_known_default().unwrap_or(80);
    if BAD_PORTS.contains(&port) {
        return Err(d(
            Verdict::Block,
            format!("port {port} is not a web port (Fetch bad port)"),
        ));
    }
    let host = url.host().ok_or_else(|| d(Verdict::Block, "no host"))?;
    let decision = match host {
        url::Host::Ipv4(ip) => classify_ip(IpAddr::V4(ip)),
        url::Host::Ipv6(ip) => classify_ip(IpAddr::V6(ip)),
        url::Host::Domain(name) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            if matches!(
                name.as_str(),
                "metadata.google.internal"
                    | "metadata"
                    | "instance-data"
                    | "metadata.azure.internal"
            ) || name.ends_with(".metadata.google.internal")
            {
                return Err(d(
                    Verdict::Block,
                    format!("{name} is a cloud metadata service"),
                ));
            }
            let t = Target {
                url: url.clone(),
                domain: Some(name.clone()),
                port,
            };
            let dec =
                if name == "localhost" || name.ends_with(".localhost") || loopback_alias(&name) {
                    d(Verdict::Ask, format!("{name} is this machine (loopback)"))
                } else {
                    d(
                        Verdict::Allow,
                        format!("{name} (addresses checked when resolved)"),
                    )
                };
            return finish(t, dec);
        }
    };
    finish(
        Target {
            url,
            domain: None,
            port,
        },
        decision,
    )
}

/// Public names whose DNS answers loopback: `localtest.me`, `lvh.me` and
/// their subdomains, and the wildcard services that answer the address
/// spelled in the name (`127.0.0.1.nip.io`, `app.127-0-0-1.sslip.io`).
pub fn loopback_alias(name: &str) -> bool {
    let n = name.trim_end_matches('.').to_ascii_lowercase();
    let under = |d: &str| n == d || n.ends_with(&format!(".{d}"));
    if [
        "localtest.me",
        "lvh.me",
        "localho.st",
        "vcap.me",
        "lacolhost.com",
        "fbi.com",
    ]
    .iter()
    .any(|d| under(d))
    {
        return true;
    }
    let Some(rest) = ["nip.io", "sslip.io", "xip.io", "traefik.me", "localdev.me"]
        .iter()
        .find_map(|d| n.strip_suffix(&format!(".{d}")))
    else {
        return false;
    };
    // The address is the name's dotted or dashed tail (`a.127.0.0.1`,
    // `a-127-0-0-1`), or its hex form (`7f000001`).
    let labels: Vec<&str> = rest.split('.').collect();
    let dotted = labels.len() >= 4 && labels[labels.len() - 4] == "127";
    let dashed = labels
        .iter()
        .any(|l| l.starts_with("127-") || l.contains("-127-") || l == &"7f000001");
    dotted || dashed || rest == "localhost"
}

fn finish(t: Target, dec: Decision) -> Result<(Target, Decision), Decision> {
    if dec.verdict == Verdict::Ask && ADMIN_PORTS.contains(&t.port) {
        return Err(d(
            Verdict::Block,
            format!(
                "port {} on this machine or the local network is an admin endpoint (debugger, Docker API or Jarvis itself)",
                t.port
            ),
        ));
    }
    if dec.verdict == Verdict::Block {
        return Err(dec);
    }
    Ok((t, dec))
}

/// The verdict for a target once its addresses are known: the strictest
/// over every address, so one bad record taints the name.
pub fn check_resolved(t: &Target, so_far: &Decision, addrs: &[IpAddr]) -> Decision {
    let mut worst = so_far.clone();
    for ip in addrs {
        let mut dec = classify_ip(*ip);
        if let Some(name) = &t.domain {
            dec.reason = format!("{name} resolves to {}", dec.reason);
        }
        if dec.verdict == Verdict::Ask && ADMIN_PORTS.contains(&t.port) {
            dec = d(
                Verdict::Block,
                format!("port {} on a local address is an admin endpoint", t.port),
            );
        }
        if dec.verdict > worst.verdict
            || (worst.reason.contains("addresses checked") && dec.verdict == worst.verdict)
        {
            worst = dec;
        }
    }
    worst
}

/// The whole static verdict as a `Decision`.
pub fn check_url(raw: &str) -> Decision {
    match check_static(raw) {
        Ok((_, dec)) => dec,
        Err(dec) => dec,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_decode_to_the_address_they_mean() {
        for (u, v) in [
            ("http://0xA9FEA9FE/", Verdict::Block),
            ("http://169.254.43518/", Verdict::Block),
            ("http://[::ffff:a9fe:a9fe]/", Verdict::Block),
            ("http://[64:ff9b::a9fe:a9fe]/", Verdict::Block),
            ("http://[2002:a9fe:a9fe::1]/", Verdict::Block),
            ("http://127.1/", Verdict::Ask),
            ("http://0x7f.0.0.1/", Verdict::Ask),
            ("http://0/", Verdict::Block),
            ("https://8.8.8.8/", Verdict::Allow),
            ("http://localhost:9222/json", Verdict::Block),
            ("http://example.com:25/", Verdict::Block),
        ] {
            assert_eq!(check_url(u).verdict, v, "{u}");
        }
    }
}
