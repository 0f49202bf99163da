//! The built React app (`WEB_DIST`): the prerendered pages at their paths, files as they are
//! (or their brotli or gzip copy, made by the build, for a client that accepts it), and
//! index.html for every other client-side route.

use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::extract::Request;
use axum::response::{Html, IntoResponse, Response};
use http::{HeaderValue, Method, StatusCode, header};
use tonic::transport::Channel;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::legacy::rpc::CatalogueCache;
use crate::prerendered::Prerendered;

/// Vite puts content-hashed files under /assets: their content never changes under a name.
const ASSETS_PREFIX: &str = "/assets/";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The web app's folder and the two ways of serving it.
#[derive(Clone)]
pub struct WebApp {
    index: PathBuf,
    /// Hashed assets: a missing one is a real 404, never index.html (which would then be
    /// cached for a year under a script's name).
    assets: ServeDir,
    /// Everything else: the file if it exists, otherwise index.html for the client router.
    pages: ServeDir<ServeFile>,
    /// The landing and sign-in pages, with the server's current texts filled in.
    prerendered: Prerendered,
}

impl WebApp {
    /// `channel` reaches the server, for the texts of the prerendered pages; their services
    /// come from `catalogue`, the copy the legacy calls keep.
    pub fn new(dist: &Path, channel: Channel, catalogue: CatalogueCache) -> Self {
        let index = dist.join("index.html");
        Self {
            assets: ServeDir::new(dist).precompressed_br().precompressed_gzip(),
            pages: ServeDir::new(dist)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(
                    ServeFile::new(&index)
                        .precompressed_br()
                        .precompressed_gzip(),
                ),
            prerendered: Prerendered::new(dist, channel, catalogue),
            index,
        }
    }

    /// Whether `index.html` is there (checked on each call, so building the app needs no restart).
    pub async fn is_built(&self) -> bool {
        is_index(&self.index).await
    }

    pub async fn serve(&self, request: Request) -> Response {
        if !matches!(*request.method(), Method::GET | Method::HEAD) {
            let allow = [(header::ALLOW, HeaderValue::from_static("GET, HEAD"))];
            return (StatusCode::METHOD_NOT_ALLOWED, allow).into_response();
        }
        if !self.is_built().await {
            return not_built();
        }
        let asset = request.uri().path().starts_with(ASSETS_PREFIX);
        if !asset && let Some(page) = self.prerendered.page(request.uri().path()).await {
            return self.prerendered.serve(page, request).await;
        }
        let Ok(mut response) = if asset {
            self.assets.clone().oneshot(request).await
        } else {
            self.pages.clone().oneshot(request).await
        };
        // index.html (and any other unhashed file) is revalidated on every visit so a deploy
        // shows at once; ServeDir answers the revalidation with 304 from Last-Modified.
        let cache = if asset && response.status().is_success() {
            IMMUTABLE
        } else {
            "no-cache"
        };
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        // The body depends on Accept-Encoding (a brotli or gzip copy, or the file itself).
        headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
        response.map(Body::new)
    }
}

/// Whether the web app is built in `dist`.
pub async fn is_built(dist: &Path) -> bool {
    is_index(&dist.join("index.html")).await
}

async fn is_index(index: &Path) -> bool {
    tokio::fs::metadata(index)
        .await
        .is_ok_and(|meta| meta.is_file())
}

fn not_built() -> Response {
    let page = Html(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Web app not built</title></head><body>\
         <h1>The web app is not built yet</h1>\
         <p>The BFF is running, but it found no <code>index.html</code> in its web folder \
         (<code>WEB_DIST</code>, by default <code>web/dist</code>).</p>\
         <p>Build it with <code>make web</code>, or <code>npm run build</code> in <code>web/</code>, \
         then reload this page.</p></body></html>\n",
    );
    let no_store = [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))];
    (StatusCode::SERVICE_UNAVAILABLE, no_store, page).into_response()
}
