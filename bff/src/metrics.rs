//! Prometheus metrics of one BFF, served in the text format at `/metrics`: every request by
//! route (the route's pattern, never the path, which may carry tokens), method and status,
//! and its time to the response's headers (a stream's opening, not its life).
//!
//! | metric | type | labels |
//! | --- | --- | --- |
//! | `http_server_requests_total` | counter | `route`, `method`, `status` |
//! | `http_server_request_duration_seconds` | histogram | `route` |
//!
//! Requests no route claims are `grpc-web` (passed through to the server, which counts each
//! RPC itself) or `web app` (the built web app's files).

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::header;
use prometheus::{Encoder, HistogramOpts, HistogramVec, IntCounterVec, Opts, Registry};

/// The content type of [`Metrics::render`]'s text.
const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Seconds, from a millisecond to ten seconds.
const BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The BFF's series; cheap to clone (one registry shared by the clones).
#[derive(Clone)]
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    seconds: HistogramVec,
}

impl Metrics {
    pub fn new() -> anyhow::Result<Self> {
        let registry = Registry::new();
        let requests = IntCounterVec::new(
            Opts::new(
                "http_server_requests_total",
                "HTTP requests answered, by route, method and status.",
            ),
            &["route", "method", "status"],
        )?;
        let seconds = HistogramVec::new(
            HistogramOpts::new(
                "http_server_request_duration_seconds",
                "Time from a request's arrival to its response's headers, by route.",
            )
            .buckets(BUCKETS.to_vec()),
            &["route"],
        )?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(seconds.clone()))?;
        Ok(Self {
            registry,
            requests,
            seconds,
        })
    }

    fn render(&self) -> String {
        let mut text = Vec::new();
        if let Err(error) =
            prometheus::TextEncoder::new().encode(&self.registry.gather(), &mut text)
        {
            tracing::error!(%error, "could not write the metrics");
        }
        String::from_utf8_lossy(&text).into_owned()
    }
}

/// The route a request counts under (see the module's note).
enum Route {
    Matched(MatchedPath),
    Unmatched(&'static str),
}

impl Route {
    fn of(request: &Request) -> Self {
        match request.extensions().get::<MatchedPath>() {
            Some(matched) => Self::Matched(matched.clone()),
            None if crate::grpc_web::is_grpc_web(request.headers()) => Self::Unmatched("grpc-web"),
            None => Self::Unmatched("web app"),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            Self::Matched(matched) => matched.as_str(),
            Self::Unmatched(label) => label,
        }
    }
}

/// The standard methods by name; any other (HTTP allows made-up ones) as `other`, so a caller
/// cannot grow the series without bound.
fn method_label(method: &http::Method) -> &'static str {
    const KNOWN: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
    KNOWN
        .into_iter()
        .find(|known| *known == method.as_str())
        .unwrap_or("other")
}

/// Counts and times every request (a layer on the router, so the route is known).
pub async fn record(State(metrics): State<Metrics>, request: Request, next: Next) -> Response {
    let route = Route::of(&request);
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let route = route.as_str();
    metrics
        .seconds
        .with_label_values(&[route])
        .observe(started.elapsed().as_secs_f64());
    metrics
        .requests
        .with_label_values(&[route, method, response.status().as_str()])
        .inc();
    response
}

/// `GET /metrics`.
pub async fn serve(State(metrics): State<Metrics>) -> Response {
    (
        [
            (header::CONTENT_TYPE, CONTENT_TYPE),
            (header::CACHE_CONTROL, "no-store"),
        ],
        metrics.render(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_up_methods_share_one_label() {
        assert_eq!(method_label(&http::Method::POST), "POST");
        let made_up = http::Method::from_bytes(b"BREW").unwrap();
        assert_eq!(method_label(&made_up), "other");
    }
}
