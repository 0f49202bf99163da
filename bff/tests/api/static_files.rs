//! The built web app: files, SPA fallback, cache headers, and the "not built" page.

use crate::helpers::{Bff, assert_security_headers, header, varies_by_encoding};

const INDEX: &str = "<!doctype html><html><body><div id=\"root\"></div></body></html>";
const APP_JS: &str = "console.log('app');";

async fn start_with(dist: &std::path::Path) -> Bff {
    Bff::start(None, dist.to_str().unwrap(), &[]).await
}

fn built_app() -> tempfile::TempDir {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), INDEX).unwrap();
    std::fs::create_dir(dist.path().join("assets")).unwrap();
    std::fs::write(dist.path().join("assets/app.js"), APP_JS).unwrap();
    dist
}

#[tokio::test]
async fn pages_are_index_html_and_assets_are_cached_long() {
    let dist = built_app();
    let bff = start_with(dist.path()).await;
    let client = reqwest::Client::new();

    for path in ["/", "/some/deep/route", "/fr/professional-login"] {
        let response = client.get(bff.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_security_headers(&response);
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        assert!(header(&response, "content-type").starts_with("text/html"));
        assert_eq!(response.text().await.unwrap(), INDEX, "{path}");
    }

    let response = client.get(bff.url("/assets/app.js")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_security_headers(&response);
    let cache = header(&response, "cache-control").to_owned();
    assert!(
        cache.contains("max-age=31536000") && cache.contains("immutable"),
        "{cache}"
    );
    assert_eq!(response.text().await.unwrap(), APP_JS);

    // A missing asset is a 404, never index.html under a script's name.
    let response = client
        .get(bff.url("/assets/missing.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    assert_security_headers(&response);
    assert_eq!(response.headers()["cache-control"], "no-cache");

    let response = client.head(bff.url("/some/route")).send().await.unwrap();
    assert_eq!(response.status(), 200);

    let response = client.post(bff.url("/some/route")).send().await.unwrap();
    assert_eq!(response.status(), 405);
    assert_security_headers(&response);

    let response = client.get(bff.url("/healthz")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_security_headers(&response);
    assert_eq!(response.text().await.unwrap(), "ok");

    bff.stop().await;
}

/// The build's brotli and gzip copies (web/scripts/compress.mjs); the bytes stand for them.
const APP_JS_BR: &[u8] = b"brotli bytes of app.js";
const APP_JS_GZ: &[u8] = b"gzip bytes of app.js";
const INDEX_GZ: &[u8] = b"gzip bytes of index.html";

fn compressed_app() -> tempfile::TempDir {
    let dist = built_app();
    std::fs::write(dist.path().join("assets/app.js.br"), APP_JS_BR).unwrap();
    std::fs::write(dist.path().join("assets/app.js.gz"), APP_JS_GZ).unwrap();
    std::fs::write(dist.path().join("index.html.gz"), INDEX_GZ).unwrap();
    dist
}

#[tokio::test]
async fn files_go_out_precompressed_to_clients_that_accept_it() {
    let dist = compressed_app();
    let bff = start_with(dist.path()).await;
    let client = reqwest::Client::new();
    let get = |path: &'static str, accept: Option<&'static str>| {
        let mut request = client.get(bff.url(path));
        if let Some(accept) = accept {
            request = request.header("accept-encoding", accept);
        }
        request.send()
    };

    for (accept, encoding, body) in [
        ("gzip, deflate, br", "br", APP_JS_BR),
        ("gzip", "gzip", APP_JS_GZ),
    ] {
        let response = get("/assets/app.js", Some(accept)).await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(header(&response, "content-encoding"), encoding, "{accept}");
        assert!(varies_by_encoding(&response));
        assert!(header(&response, "content-type").starts_with("text/javascript"));
        assert!(header(&response, "cache-control").contains("immutable"));
        assert_eq!(response.bytes().await.unwrap(), body);
    }
    // No Accept-Encoding (or none the build made): the plain file.
    for accept in [None, Some("deflate")] {
        let response = get("/assets/app.js", accept).await.unwrap();
        assert!(response.headers().get("content-encoding").is_none());
        assert!(header(&response, "cache-control").contains("immutable"));
        assert_eq!(response.text().await.unwrap(), APP_JS);
    }

    // index.html, for a client route too, compressed and never cached.
    for path in ["/", "/some/route"] {
        let response = get(path, Some("gzip, br")).await.unwrap();
        assert_eq!(header(&response, "content-encoding"), "gzip", "{path}");
        assert_eq!(header(&response, "cache-control"), "no-cache", "{path}");
        assert_eq!(response.bytes().await.unwrap(), INDEX_GZ, "{path}");
        let response = get(path, None).await.unwrap();
        assert_eq!(header(&response, "cache-control"), "no-cache", "{path}");
        assert_eq!(response.text().await.unwrap(), INDEX, "{path}");
    }
    bff.stop().await;
}

/// The service worker is fetched again by the browser on each visit's update check, and the
/// manifest read for installing the app: both under fixed names, so never cached long, each
/// with the type the browser requires (a worker served as HTML is refused).
#[tokio::test]
async fn the_service_worker_and_manifest_are_revalidated_and_typed() {
    let dist = built_app();
    std::fs::write(
        dist.path().join("sw.js"),
        "self.addEventListener('push', () => {});",
    )
    .unwrap();
    std::fs::write(
        dist.path().join("manifest.webmanifest"),
        "{\"name\": \"Repairs 24/7\"}",
    )
    .unwrap();
    std::fs::create_dir(dist.path().join("icons")).unwrap();
    std::fs::write(dist.path().join("icons/icon-192.png"), b"\x89PNG\r\n").unwrap();
    let bff = start_with(dist.path()).await;
    let client = reqwest::Client::new();
    for (path, kind) in [
        ("/sw.js", "text/javascript"),
        ("/manifest.webmanifest", "application/manifest+json"),
        ("/icons/icon-192.png", "image/png"),
    ] {
        let response = client.get(bff.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_security_headers(&response);
        assert_eq!(header(&response, "cache-control"), "no-cache", "{path}");
        assert_eq!(header(&response, "content-type"), kind, "{path}");
    }
    bff.stop().await;
}

#[tokio::test]
async fn api_paths_never_fall_back_to_the_app() {
    let dist = built_app();
    let bff = start_with(dist.path()).await;
    let response = reqwest::get(bff.url("/api/nothing-here")).await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(response.headers()["content-type"], "application/json");
    bff.stop().await;
}

#[tokio::test]
async fn a_missing_web_app_is_a_clear_page_not_a_crash() {
    let empty = tempfile::tempdir().unwrap();
    let bff = start_with(&empty.path().join("dist")).await;
    for path in ["/", "/customer-login", "/assets/app.js"] {
        let response = reqwest::get(bff.url(path)).await.unwrap();
        assert_eq!(response.status(), 503, "{path}");
        assert_security_headers(&response);
        assert!(header(&response, "content-type").starts_with("text/html"));
        let page = response.text().await.unwrap();
        assert!(
            page.contains("not built") && page.contains("npm run build"),
            "{page}"
        );
    }
    // The rest of the BFF works on.
    let response = reqwest::get(bff.url("/healthz")).await.unwrap();
    assert_eq!(response.status(), 200);
    bff.stop().await;
}

#[tokio::test]
async fn pages_may_load_stripe_only_when_stripe_takes_the_cards() {
    let dist = built_app();
    let client = reqwest::Client::new();
    let policy = |flags: &'static [&'static str]| {
        let client = client.clone();
        let dist = dist.path().to_str().unwrap().to_owned();
        async move {
            let bff = Bff::start(None, &dist, flags).await;
            let response = client
                .get(bff.url("/purchase-membership"))
                .send()
                .await
                .unwrap();
            let policy = header(&response, "content-security-policy").to_owned();
            bff.stop().await;
            policy
        }
    };

    let test_gateway = policy(&[]).await;
    assert!(!test_gateway.contains("stripe"), "{test_gateway}");
    let stripe = policy(&["--stripe-publishable-key", "pk_test_page"]).await;
    assert!(
        stripe.contains("script-src 'self' https://js.stripe.com"),
        "{stripe}"
    );
    assert!(
        stripe.contains("frame-src https://js.stripe.com"),
        "{stripe}"
    );
    assert!(
        stripe.contains("connect-src 'self' https://api.stripe.com"),
        "{stripe}"
    );
}
