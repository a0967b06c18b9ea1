//! Which `Host` and `Origin` headers the server answers.
//!
//! Binding to loopback keeps other machines out, but not other web sites: a page on any domain
//! can make the browser send requests to 127.0.0.1, and with DNS rebinding it can even read the
//! answers. Both attacks carry a foreign name — the attacker's domain in `Host`, or its site in
//! `Origin` — so the server only answers requests addressed to itself by address or `localhost`,
//! with its own port.

use std::net::IpAddr;

/// The host names (with port) this server answers to.
#[derive(Debug, Clone)]
pub struct HostPolicy {
    port: u16,
    names: Vec<String>,
    any_ip: bool,
}

impl HostPolicy {
    /// The policy for a server bound to `ip:port`: `localhost`, the loopback addresses and the
    /// bound address. Bound to an unspecified address (0.0.0.0, ::), any IP literal is accepted,
    /// never a domain name other than `localhost` (a rebinding attack needs a name).
    pub fn new(ip: IpAddr, port: u16) -> HostPolicy {
        let mut names = vec!["localhost".to_string(), "127.0.0.1".into(), "[::1]".into()];
        let bound = host_literal(ip);
        if !names.contains(&bound) {
            names.push(bound);
        }
        HostPolicy {
            port,
            names,
            any_ip: ip.is_unspecified(),
        }
    }

    /// True when a `Host` header value (`name:port`) addresses this server.
    pub fn allows_host(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        let Some((name, port)) = host.rsplit_once(':') else {
            return false;
        };
        if port.parse::<u16>() != Ok(self.port) {
            return false;
        }
        if self.names.iter().any(|n| n == name) {
            return true;
        }
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        self.any_ip && bare.parse::<IpAddr>().is_ok()
    }

    /// True when an `Origin` header value is this server's own origin.
    pub fn allows_origin(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .is_some_and(|rest| !rest.contains('/') && self.allows_host(rest))
    }
}

/// An address as it appears in a URL's host part.
pub fn host_literal(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_with_the_right_port_only() {
        let p = HostPolicy::new("127.0.0.1".parse().unwrap(), 8123);
        assert!(p.allows_host("127.0.0.1:8123"));
        assert!(p.allows_host("localhost:8123"));
        assert!(p.allows_host("LOCALHOST:8123"));
        assert!(p.allows_host("[::1]:8123"));
        assert!(!p.allows_host("127.0.0.1:8124"));
        assert!(!p.allows_host("127.0.0.1"));
        assert!(!p.allows_host("evil.example:8123"));
        assert!(!p.allows_host("10.0.0.2:8123"));
        assert!(p.allows_origin("http://localhost:8123"));
        assert!(!p.allows_origin("http://evil.example:8123"));
        assert!(!p.allows_origin("https://localhost:8123"));
        assert!(!p.allows_origin("null"));
    }

    #[test]
    fn an_unspecified_bind_accepts_ip_literals_but_no_names() {
        let p = HostPolicy::new("0.0.0.0".parse().unwrap(), 9000);
        assert!(p.allows_host("192.168.1.20:9000"));
        assert!(p.allows_host("[fe80::1]:9000"));
        assert!(!p.allows_host("rebind.example:9000"));
        let p = HostPolicy::new("192.168.1.20".parse().unwrap(), 9000);
        assert!(p.allows_host("192.168.1.20:9000"));
        assert!(!p.allows_host("192.168.1.21:9000"));
    }
}
