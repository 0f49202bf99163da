//! gRPC-web passthrough: a browser's gRPC-web call goes to the server unchanged and the reply
//! streams back, frame by frame (server streams included). No body is ever buffered here.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::response::{IntoResponse, Response};
use http::header::{self, HeaderName};
use http::{HeaderMap, HeaderValue, Uri, Version};
use tonic::Code;
use tonic::transport::Channel;
use tower::{Service, ServiceExt};

use crate::forwarded::forwarded_for;

const GRPC_WEB: &str = "application/grpc-web";
const GRPC_WEB_TEXT: &str = "application/grpc-web-text";

/// The servers for passthrough calls: the balanced channel the legacy calls use too
/// (`crate::servers`), carrying each call as it is, body and reply streamed.
#[derive(Clone)]
pub struct Upstream {
    channel: Channel,
}

impl Upstream {
    pub fn new(channel: Channel) -> Self {
        Self { channel }
    }

    /// Sends the call on and returns the server's reply as it streams; a server that cannot be
    /// reached is a gRPC UNAVAILABLE the browser client can read, not an HTTP error page.
    pub async fn forward(&self, request: Request) -> Response {
        let text = is_text(request.headers());
        let (mut parts, body) = request.into_parts();
        if !is_method_path(parts.uri.path()) {
            return grpc_error(text, Code::Unimplemented, "not a gRPC method path");
        }
        // The channel gives each call the scheme and address of the server it picks.
        let path = parts.uri.path_and_query().cloned();
        let uri = Uri::builder()
            .path_and_query(path.map_or_else(String::new, |p| p.to_string()))
            .build();
        let Ok(uri) = uri else {
            return grpc_error(text, Code::Unimplemented, "not a gRPC method path");
        };
        let client_addr = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0);
        strip_hop_by_hop(&mut parts.headers);
        // The server sees its own authority, taken from the URI.
        parts.headers.remove(header::HOST);
        if let Some(addr) = client_addr {
            append_forwarded_for(&mut parts.headers, addr);
        }
        parts.uri = uri;
        parts.version = Version::HTTP_2;

        let request = Request::from_parts(parts, tonic::body::Body::new(body));
        let mut channel = self.channel.clone();
        let reply = match channel.ready().await {
            Ok(ready) => ready.call(request).await,
            Err(error) => Err(error),
        };
        match reply {
            Ok(reply) => {
                let (mut parts, body) = reply.into_parts();
                strip_hop_by_hop(&mut parts.headers);
                Response::from_parts(parts, Body::new(body))
            }
            Err(error) => {
                tracing::warn!(error = ?error, "gRPC server unreachable");
                grpc_error(text, Code::Unavailable, "server unavailable, please retry")
            }
        }
    }
}

/// A gRPC-web call: its content type is `application/grpc-web[-text][+proto|+json]`.
pub fn is_grpc_web(headers: &HeaderMap) -> bool {
    content_type_starts_with(headers, GRPC_WEB)
}

fn is_text(headers: &HeaderMap) -> bool {
    content_type_starts_with(headers, GRPC_WEB_TEXT)
}

fn content_type_starts_with(headers: &HeaderMap, prefix: &str) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.as_bytes().get(..prefix.len()))
        .is_some_and(|start| start.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// `/<package.Service>/<Method>`, e.g. `/repairs.accounts.v1.AccountsService/LogIn`.
fn is_method_path(path: &str) -> bool {
    let ident = |s: &str| {
        !s.is_empty()
            && !s.starts_with('.')
            && !s.ends_with('.')
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    };
    let Some((service, method)) = path.strip_prefix('/').and_then(|p| p.split_once('/')) else {
        return false;
    };
    ident(service) && service.contains('.') && ident(method) && !method.contains('.')
}

/// A "trailers-only" gRPC-web reply: the status travels in the headers and the body is empty.
fn grpc_error(text: bool, code: Code, message: &'static str) -> Response {
    let content_type = if text {
        "application/grpc-web-text+proto"
    } else {
        "application/grpc-web+proto"
    };
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (
            HeaderName::from_static("grpc-status"),
            HeaderValue::from(code as i32),
        ),
        // grpc-message is percent-encoded; these fixed ASCII texts need no escaping.
        (
            HeaderName::from_static("grpc-message"),
            HeaderValue::from_static(message),
        ),
    ];
    (headers, Body::empty()).into_response()
}

/// Connection-level headers belong to one hop; HTTP/2 forbids them outright.
fn strip_hop_by_hop(headers: &mut HeaderMap) {
    let listed: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    for name in listed {
        headers.remove(name);
    }
    for name in [
        header::CONNECTION,
        HeaderName::from_static("keep-alive"),
        HeaderName::from_static("proxy-connection"),
        header::TE,
        header::TRAILER,
        header::TRANSFER_ENCODING,
        header::UPGRADE,
    ] {
        headers.remove(name);
    }
}

/// Tells the server who the caller is (rate limits on codes and sign-ins are per client).
fn append_forwarded_for(headers: &mut HeaderMap, addr: SocketAddr) {
    if let Ok(value) = HeaderValue::try_from(forwarded_for(headers, addr)) {
        headers.insert(HeaderName::from_static("x-forwarded-for"), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_paths() {
        assert!(is_method_path("/grpc.health.v1.Health/Check"));
        assert!(is_method_path("/repairs.accounts.v1.AccountsService/LogIn"));
        for path in [
            "/",
            "/index.html",
            "/Health/Check",
            "/a.B/C/D",
            "/a.B/",
            "/.B/C",
            "/a.B/C.D",
            "/api/users",
        ] {
            assert!(!is_method_path(path), "{path}");
        }
    }

    #[test]
    fn grpc_web_content_types() {
        let mut headers = HeaderMap::new();
        for (value, web, text) in [
            ("application/grpc-web+proto", true, false),
            ("application/grpc-web", true, false),
            ("application/grpc-web-text", true, true),
            ("Application/gRPC-Web-Text+proto", true, true),
            ("application/grpc", false, false),
            ("application/json", false, false),
        ] {
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(value));
            assert_eq!(
                (is_grpc_web(&headers), is_text(&headers)),
                (web, text),
                "{value}"
            );
        }
    }

    #[test]
    fn hop_by_hop_headers_are_dropped() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONNECTION,
            HeaderValue::from_static("keep-alive, x-hop"),
        );
        headers.insert("x-hop", HeaderValue::from_static("1"));
        headers.insert("keep-alive", HeaderValue::from_static("timeout=5"));
        headers.insert(header::TE, HeaderValue::from_static("trailers"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer t"));
        strip_hop_by_hop(&mut headers);
        assert_eq!(headers.len(), 1);
        assert!(headers.contains_key(header::AUTHORIZATION));
    }

    #[test]
    fn forwarded_for_is_appended() {
        let mut headers = HeaderMap::new();
        let addr: SocketAddr = "10.0.0.2:4000".parse().unwrap();
        append_forwarded_for(&mut headers, addr);
        headers.insert("x-forwarded-for", HeaderValue::from_static("1.2.3.4"));
        append_forwarded_for(&mut headers, addr);
        assert_eq!(headers["x-forwarded-for"], "1.2.3.4, 10.0.0.2");
    }
}
