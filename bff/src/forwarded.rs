//! Who the caller is, as every call passed on to the server says it: the server counts its
//! per-client limits (codes, sign-ins, reset requests) by `x-forwarded-for`, on gRPC-web and
//! legacy calls alike.

use std::net::SocketAddr;

use http::HeaderMap;

/// The `x-forwarded-for` to send on: the one received, with the peer's address added.
pub fn forwarded_for(headers: &HeaderMap, addr: SocketAddr) -> String {
    let ip = addr.ip().to_string();
    match headers.get("x-forwarded-for").and_then(|v| v.to_str().ok()) {
        Some(earlier) => format!("{earlier}, {ip}"),
        None => ip,
    }
}
