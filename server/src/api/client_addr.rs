//! The client's address: the peer of the connection, or, when the peer is a trusted proxy
//! (the BFF, a load balancer: `TRUSTED_PROXIES`), the address that proxy put in
//! `x-forwarded-for`. Entries are read from the right, skipping trusted proxies, so a client
//! cannot pass itself off as another by sending its own header.

use std::net::IpAddr;

use tonic::Request;

use crate::domain::ClientAddr;

pub fn client_addr<T>(request: &Request<T>, trusted: &[IpAddr]) -> ClientAddr {
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

fn resolve(peer: Option<IpAddr>, forwarded: &str, trusted: &[IpAddr]) -> Option<IpAddr> {
    let mut client = peer?;
    // Each trusted hop vouches for the entry to its left; the first untrusted one is the client.
    for entry in forwarded.rsplit(',') {
        if !trusted.contains(&client) {
            break;
        }
        match entry.trim().parse::<IpAddr>() {
            Ok(addr) => client = addr,
            Err(_) => break,
        }
    }
    Some(client)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn only_trusted_proxies_name_the_client() {
        let trusted = [ip("127.0.0.1")];
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
}
