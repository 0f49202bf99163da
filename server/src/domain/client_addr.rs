//! Where a call comes from, for limits counted per client.

use std::net::IpAddr;

/// The client's address as the server trusts it (see `api::client_addr`), or unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(Option<IpAddr>);

impl ClientAddr {
    pub fn new(addr: Option<IpAddr>) -> Self {
        Self(addr)
    }

    /// The address, when known.
    pub fn ip(&self) -> Option<IpAddr> {
        self.0
    }

    /// The key limits count under: the IPv4 address, or the /64 network of an IPv6 address
    /// (one subscriber holds a whole /64, so counting single addresses would count nothing).
    /// Calls whose address is unknown share one key.
    pub fn limit_key(&self) -> String {
        match self.0 {
            Some(IpAddr::V4(v4)) => v4.to_string(),
            Some(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
                Some(v4) => v4.to_string(),
                None => {
                    let s = v6.segments();
                    format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
                }
            },
            None => "unknown".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_are_counted_by_their_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(
            ClientAddr::new(Some(a)).limit_key(),
            ClientAddr::new(Some(b)).limit_key()
        );
        let mapped: IpAddr = "::ffff:10.0.0.7".parse().unwrap();
        assert_eq!(ClientAddr::new(Some(mapped)).limit_key(), "10.0.0.7");
        assert_eq!(ClientAddr::new(None).limit_key(), "unknown");
    }
}
