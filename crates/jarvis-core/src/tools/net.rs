//! Name resolution behind a trait, so the policy can see every address a
//! host name resolves to and the request can be pinned to those addresses
//! (no DNS rebinding between check and connect). Tests use a fixed table.

use std::collections::HashMap;
use std::net::IpAddr;

use async_trait::async_trait;

#[async_trait]
pub trait Resolver: Send + Sync {
    async fn lookup(&self, host: &str, port: u16) -> std::io::Result<Vec<IpAddr>>;
}

/// The operating system's resolver.
pub struct SystemResolver;

#[async_trait]
impl Resolver for SystemResolver {
    async fn lookup(&self, host: &str, port: u16) -> std::io::Result<Vec<IpAddr>> {
        let mut out: Vec<IpAddr> = tokio::net::lookup_host((host, port))
            .await?
            .map(|a| a.ip())
            .collect();
        out.sort();
        out.dedup();
        Ok(out)
    }
}

/// A fixed table; unknown names do not resolve.
#[derive(Default)]
pub struct StaticResolver(pub HashMap<String, Vec<IpAddr>>);

impl StaticResolver {
    pub fn with(mut self, host: &str, addrs: &[IpAddr]) -> Self {
        self.0.insert(host.to_string(), addrs.to_vec());
        self
    }
}

#[async_trait]
impl Resolver for StaticResolver {
    async fn lookup(&self, host: &str, _port: u16) -> std::io::Result<Vec<IpAddr>> {
        self.0.get(host).cloned().ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("{host}: no such host"),
            )
        })
    }
}
