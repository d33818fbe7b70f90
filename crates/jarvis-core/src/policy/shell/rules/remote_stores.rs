//! Stores on another machine emptied or dropped whole: a database or
//! schema, a Kafka topic, a Redis keyspace. Their data is not the
//! project's and nothing on this machine brings it back. On this machine
//! (loopback, a socket, a container named by its service) the same
//! commands are a developer's reset, and ask.

use super::*;

/// Another machine: not loopback, not `localhost`, not a bare service name
/// (`db`, `postgres`: a container beside this one). An empty host is the
/// tool's default, this machine.
pub(super) fn elsewhere(host: &str) -> bool {
    let h = host.trim_matches(['[', ']']).trim_end_matches('.');
    if h.is_empty() || h.eq_ignore_ascii_case("localhost") || !h.contains(['.', ':']) {
        return false;
    }
    match h.parse::<std::net::IpAddr>() {
        Ok(ip) => !ip.is_loopback() && !ip.is_unspecified(),
        Err(_) => true,
    }
}

/// The hosts a URL or connection string names (`jdbc:postgresql://h:5432/db`,
/// `redis://:pw@h:6379`, `h1:9092,h2:9092`).
pub(super) fn url_hosts(value: &str) -> Vec<String> {
    let rest = value.split_once("://").map_or(value, |(_, r)| r);
    let authority = rest.split(['/', '?']).next().unwrap_or(rest);
    authority
        .split(',')
        .map(super::project_out::address_host)
        .collect()
}

/// SQL or shell-of-the-store text that drops or empties a whole table,
/// schema or database.
fn wipes(text: &str) -> bool {
    // (A comment is a blank to SQL: `DROP/**/DATABASE`.)
    let mut t = lower(text);
    while let Some(a) = t.find("/*") {
        let b = t[a..].find("*/").map_or(t.len(), |e| a + e + 2);
        t.replace_range(a..b, " ");
    }
    let l = t.split_whitespace().collect::<Vec<_>>().join(" ");
    // JavaScript calls read the same with spaces anywhere (`( {} )`).
    let squeezed: String = t.chars().filter(|ch| !ch.is_whitespace()).collect();
    [
        "drop database",
        "drop schema",
        "drop table",
        "truncate",
        "flushall",
        "flushdb",
        "drop keyspace",
    ]
    .iter()
    .any(|k| l.contains(k))
        // Every row of a table: a DELETE with no condition.
        || l.split(';').any(|st| {
            let st = st.trim();
            st.starts_with("delete from") && !st.contains(" where ")
        })
        || [
            "dropdatabase(",
            ".drop()",
            // Every document of a collection (an empty filter).
            "deletemany({})",
            ".remove({})",
        ]
        .iter()
        .any(|k| squeezed.contains(k))
}

/// The hosts a libpq connection string names (`host=db.example.com
/// dbname=app`, `hostaddr=…`), comma-separated lists included.
fn conninfo_hosts(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .filter(|(k, _)| matches!(*k, "host" | "hostaddr"))
        .flat_map(|(_, v)| v.trim_matches(['\'', '"']).split(','))
        .map(str::to_string)
        .collect()
}

impl Analyzer<'_> {
    /// A whole store on another machine dropped or emptied.
    pub(super) fn remote_store_wipe(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        let lb = lb.strip_suffix(".sh").unwrap_or(lb);
        let vals = |flags: &[&str]| -> Vec<String> {
            let mut out: Vec<String> = super::script_opts::values(c, flags)
                .into_iter()
                .map(|w| w.text)
                .collect();
            // Single-dash long options with `=` (flyway's `-url=…`).
            for f in flags.iter().filter(|f| !f.starts_with("--") && f.len() > 2) {
                out.extend(
                    c.args
                        .iter()
                        .filter_map(|a| a.strip_prefix(f)?.strip_prefix('='))
                        .map(str::to_string),
                );
            }
            out
        };
        // Lowered only when the program is one of ours.
        let operands = || c.operands_lower();
        let (hosts, what): (Vec<String>, &str) = match lb {
            "flyway"
                if operands().iter().any(|o| o == "clean")
                    && !c.args.iter().any(|a| a == "-cleanDisabled=true") =>
            {
                (
                    vals(&["-url"]),
                    "flyway clean drops every object in the schemas",
                )
            }
            "liquibase" if operands().iter().any(|o| o == "drop-all" || o == "dropall") => (
                vals(&["--url", "-url"]),
                "liquibase drops every object in the database",
            ),
            "kafka-topics" if c.has("--delete") => (
                vals(&["--bootstrap-server", "--zookeeper"]),
                "deletes Kafka topics and their records",
            ),
            "redis-cli" if operands().iter().any(|o| o == "flushall" || o == "flushdb") => {
                (vals(&["-h", "-u"]), "empties a Redis keyspace")
            }
            "dropdb" => (vals(&["-h", "--host"]), "drops a database"),
            // `curl -X DELETE https://es…/_all`: every index of a search
            // cluster (`*` too), through its HTTP API.
            "curl"
                if vals(&["-X", "--request"])
                    .iter()
                    .any(|m| m.eq_ignore_ascii_case("delete")) =>
            {
                let every = |u: &str| {
                    let path = u.split_once("://").map_or(u, |(_, r)| r);
                    let path = path.split_once('/').map_or("", |(_, p)| p);
                    let first = path.split(['/', '?']).next().unwrap_or("");
                    matches!(lower(first).as_str(), "_all" | "*" | "%2a")
                };
                let urls: Vec<String> = c
                    .args
                    .iter()
                    .filter(|a| a.contains("://") && every(a))
                    .cloned()
                    .collect();
                if urls.is_empty() {
                    return;
                }
                (urls, "deletes every index of a search cluster (_all)")
            }
            "mysqladmin" if operands().iter().any(|o| o == "drop") => {
                (vals(&["-h", "--host"]), "drops a database")
            }
            // Statements by option or fed on standard input.
            "psql" | "mysql" | "mariadb" | "mongosh" | "mongo"
                if vals(&["-c", "--command", "-e", "--execute", "--eval"])
                    .iter()
                    .any(|t| wipes(t))
                    || wipes(&self.statements(c).0) =>
            {
                // The host by option, or in a connection string operand
                // (a URL, or libpq's `host=…`).
                let mut hosts = vals(&["-h", "--host"]);
                hosts.extend(
                    c.args
                        .iter()
                        .filter(|a| !a.starts_with('-') && a.contains("://"))
                        .cloned(),
                );
                for v in vals(&["-d", "--dbname"])
                    .iter()
                    .chain(c.args.iter().filter(|a| !a.starts_with('-')))
                {
                    hosts.extend(conninfo_hosts(v));
                }
                (hosts, "drops or empties tables or a database")
            }
            _ => return,
        };
        // The clients' environment names the host too (`PGHOST=… dropdb`).
        let mut hosts = hosts;
        hosts.extend(
            c.assigns
                .iter()
                .filter(|(n, _)| matches!(n.as_str(), "PGHOST" | "MYSQL_HOST"))
                .map(|(_, v)| v.text.clone()),
        );
        if let Some(h) = hosts
            .iter()
            .flat_map(|v| url_hosts(v))
            .find(|h| elsewhere(h))
        {
            self.block(format!("destroys data on another machine ({h}): {what}"));
        }
    }
}
