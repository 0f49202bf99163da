//! The client's address: the peer of the connection, or, when the peer is a trusted proxy
//! (the BFF, a load balancer: `TRUSTED_PROXIES`), the address that proxy put in
//! `x-forwarded-for`. Entries are read from the right, skipping trusted proxies, so a client
//! cannot pass itself off as another by sending its own header. A trusted proxy is an address
//! or a CIDR range (an ingress whose pods come and go within 10.0.0.0/8).

use std::net::IpAddr;

use ipnet::IpNet;
use tonic::Request;

use crate::domain::ClientAddr;

pub fn client_addr<T>(request: &Request<T>, trusted: &[IpNet]) -> ClientAddr {
    let forwarded = request
        .metadata()
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .collect::<Vec<_>>()
        .join(",");
    ClientAddr::new(resolve(
        request.remote_addr().map(|a| a.ip()),
        &forwarded,
        trusted,
    ))
}

fn resolve(peer: Option<IpAddr>, forwarded: &str, trusted: &[IpNet]) -> Option<IpAddr> {
    let mut client = peer?;
    // Each trusted hop vouches for the entry to its left; the first untrusted one is the client.
    for entry in forwarded.rsplit(',') {
        if !is_trusted(trusted, client) {
            break;
        }
        match entry.trim().parse::<IpAddr>() {
            Ok(addr) => client = addr,
            Err(_) => break,
        }
    }
    Some(client)
}

/// An IPv4 peer seen on an IPv6 socket (`::ffff:10.0.0.5`) is the IPv4 address.
fn is_trusted(trusted: &[IpNet], addr: IpAddr) -> bool {
    let addr = match addr {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(addr, IpAddr::V4),
        v4 => v4,
    };
    trusted.iter().any(|net| net.contains(&addr))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn net(s: &str) -> IpNet {
        s.parse().unwrap()
    }

    #[test]
    fn only_trusted_proxies_name_the_client() {
        let trusted = [net("127.0.0.1/32")];
        // Straight from a client: its header is ignored.
        assert_eq!(
            resolve(Some(ip("203.0.113.9")), "10.9.9.9", &trusted),
            Some(ip("203.0.113.9"))
        );
        // Through the BFF: the address it saw.
        assert_eq!(
            resolve(Some(ip("127.0.0.1")), "198.51.100.7", &trusted),
            Some(ip("198.51.100.7"))
        );
        // A forged entry to the left of the one the BFF added is not believed.
        assert_eq!(
            resolve(Some(ip("127.0.0.1")), "10.9.9.9, 198.51.100.7", &trusted),
            Some(ip("198.51.100.7"))
        );
        // The BFF with no header: the BFF itself.
        assert_eq!(
            resolve(Some(ip("127.0.0.1")), "", &trusted),
            Some(ip("127.0.0.1"))
        );
        assert_eq!(resolve(None, "198.51.100.7", &trusted), None);
    }

    #[test]
    fn a_range_trusts_every_proxy_in_it() {
        let trusted = [net("10.0.0.0/8"), net("fd00::/8")];
        for proxy in ["10.1.2.3", "10.200.0.9", "::ffff:10.4.4.4", "fd12::7"] {
            assert_eq!(
                resolve(Some(ip(proxy)), "198.51.100.7", &trusted),
                Some(ip("198.51.100.7")),
                "{proxy}"
            );
        }
        // Two hops inside the range (ingress, then BFF): the client beyond both.
        assert_eq!(
            resolve(Some(ip("10.0.0.2")), "198.51.100.7, 10.0.0.1", &trusted),
            Some(ip("198.51.100.7"))
        );
        // Just outside the range: the peer itself, whatever it claims.
        assert_eq!(
            resolve(Some(ip("11.0.0.1")), "198.51.100.7", &trusted),
            Some(ip("11.0.0.1"))
        );
    }
}
