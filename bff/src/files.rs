//! `GET /files/{*key}?exp=..&sig=..`: stored files (profile photos, licences, service icons)
//! through the BFF, so the links the server hands out work on the BFF's own origin. The
//! request goes to the server's plain HTTP listener (`FILES_URL`) as it is, path and query
//! (the signature is checked there), and the reply streams back with its status and the
//! headers a download needs. With several listeners (replicas sharing a bucket), each
//! download starts at the next one and moves on from those that cannot be reached.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use http::header::{self, HeaderName};
use http::uri::{Authority, Scheme};
use http::{StatusCode, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use crate::legacy::error::ApiError;

/// The reply headers passed on (security headers are added to every reply by the app).
const KEPT_HEADERS: [HeaderName; 6] = [
    header::CONTENT_TYPE,
    header::CONTENT_LENGTH,
    header::CACHE_CONTROL,
    header::CONTENT_DISPOSITION,
    header::ETAG,
    header::LAST_MODIFIED,
];

/// The servers' file listeners.
#[derive(Clone)]
pub struct FileServer {
    client: Client<HttpConnector, Body>,
    listeners: Arc<[(Scheme, Authority)]>,
    /// Where the next download starts, so downloads are spread over the listeners.
    next: Arc<AtomicUsize>,
}

impl FileServer {
    /// Each of `files_urls` is `http://host:port` (checked by the configuration).
    pub fn new(files_urls: &[Uri]) -> anyhow::Result<Self> {
        let listeners = files_urls
            .iter()
            .map(|url| match (url.scheme(), url.authority()) {
                (Some(scheme), Some(authority)) => Ok((scheme.clone(), authority.clone())),
                _ => anyhow::bail!("files URL {url} needs a scheme and a host"),
            })
            .collect::<anyhow::Result<Arc<[_]>>>()?;
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(Duration::from_secs(5)));
        Ok(Self {
            client: Client::builder(TokioExecutor::new()).build(connector),
            listeners,
            next: Arc::default(),
        })
    }

    async fn forward(&self, request: Request) -> Response {
        let path = request
            .uri()
            .path_and_query()
            .map_or_else(|| request.uri().path().to_owned(), ToString::to_string);
        let first = self.next.fetch_add(1, Ordering::Relaxed);
        let count = self.listeners.len();
        let mut last_error = None;
        for turn in 0..count {
            let (scheme, authority) = &self.listeners[(first + turn) % count];
            let uri = Uri::builder()
                .scheme(scheme.clone())
                .authority(authority.clone())
                .path_and_query(path.as_str())
                .build();
            let Ok(uri) = uri else {
                return ApiError::not_found().into_response();
            };
            let mut upstream = http::Request::get(uri);
            if let Some(id) = request.headers().get("x-request-id") {
                upstream = upstream.header("x-request-id", id);
            }
            let Ok(upstream) = upstream.body(Body::empty()) else {
                return ApiError::not_found().into_response();
            };
            // A download asks nothing of the server: trying the next one is always safe.
            match self.client.request(upstream).await {
                Ok(reply) => return pass_on(reply),
                Err(error) => last_error = Some(error),
            }
        }
        tracing::warn!(error = ?last_error, "no file server reachable");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "Files are unavailable right now, please try again",
        )
        .into_response()
    }
}

/// The file listener's reply with the headers a download needs, its body streamed.
fn pass_on(reply: http::Response<hyper::body::Incoming>) -> Response {
    let (parts, body) = reply.into_parts();
    let mut response = Response::new(Body::new(body));
    *response.status_mut() = parts.status;
    for name in KEPT_HEADERS {
        if let Some(value) = parts.headers.get(&name) {
            response.headers_mut().insert(name, value.clone());
        }
    }
    response
}

/// The `/files/...` routes, passed through to `files`.
pub fn routes<S: Clone + Send + Sync + 'static>(files: FileServer) -> Router<S> {
    Router::new()
        .route("/files/{*key}", get(download))
        .with_state(files)
}

async fn download(State(files): State<FileServer>, request: Request) -> Response {
    files.forward(request).await
}
