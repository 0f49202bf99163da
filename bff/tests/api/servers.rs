//! Several servers behind one BFF (SERVER_URL with commas): calls are spread over them, and
//! one that stops is no longer used; downloads (FILES_URL with commas) move on from a file
//! listener that cannot be reached. And the BFF's probes: `/livez` and `/healthz` ask
//! nothing of anyone, `/readyz` asks the servers.
//!
//! Needs TEST_DATABASE_URL and TEST_REDIS_URL (`make test`).

use std::collections::BTreeMap;
use std::time::Duration;

use bytes::Bytes;
use repairs_server::providers::storage::sign_file_url;
use repairs_server::testing::TestServer;

use crate::helpers::{Bff, ClosedPort, NO_WEB};

/// A server whose first catalogue service is named `name`, so a listing tells which server
/// answered.
async fn server_named(name: &str) -> TestServer {
    let server = TestServer::start().await;
    sqlx::query(
        "update services set name_en = $1 where position = (select min(position) from services)",
    )
    .bind(name)
    .execute(&server.server.state.db)
    .await
    .unwrap();
    server
}

/// How many of `calls` listings each server answered (by its first service's name).
async fn answered_by(bff: &Bff, calls: usize) -> BTreeMap<String, usize> {
    let http = reqwest::Client::new();
    let mut counts = BTreeMap::new();
    for _ in 0..calls {
        let reply = http.get(bff.url("/api/services")).send().await.unwrap();
        assert_eq!(reply.status(), 200);
        let services: serde_json::Value = reply.json().await.unwrap();
        let name = services[0]["name"].as_str().unwrap().to_owned();
        *counts.entry(name).or_default() += 1;
    }
    counts
}

#[tokio::test]
async fn calls_are_spread_over_the_servers_and_a_stopped_one_is_left_out() {
    let a = server_named("Server A").await;
    let b = server_named("Server B").await;
    let urls = format!("{},{}", a.url(), b.url());
    let bff = Bff::start(Some(&urls), NO_WEB, &["--server-check-ms", "100"]).await;

    let counts = answered_by(&bff, 40).await;
    assert_eq!(counts.len(), 2, "both servers answer: {counts:?}");
    assert!(counts.values().all(|&n| n >= 5), "{counts:?}");

    b.stop().await;
    // Within a couple of checks the stopped server is out; then no call fails.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let counts = answered_by(&bff, 20).await;
    assert_eq!(counts, BTreeMap::from([("Server A".to_owned(), 20)]));
    let ready = reqwest::get(bff.url("/readyz")).await.unwrap();
    assert_eq!(ready.status(), 200);

    bff.stop().await;
    a.stop().await;
}

#[tokio::test]
async fn liveness_asks_nothing_and_readiness_asks_the_servers() {
    let none = Bff::start(None, NO_WEB, &[]).await;
    for path in ["/livez", "/healthz"] {
        let reply = reqwest::get(none.url(path)).await.unwrap();
        assert_eq!(reply.status(), 200, "{path}");
        assert_eq!(reply.text().await.unwrap(), "ok");
    }
    let reply = reqwest::get(none.url("/readyz")).await.unwrap();
    assert_eq!(reply.status(), 503);
    let reason = reply.text().await.unwrap();
    assert!(reason.starts_with("not ready: "), "{reason}");
    none.stop().await;

    let server = TestServer::start().await;
    let bff = Bff::start(Some(&server.url()), NO_WEB, &[]).await;
    let reply = reqwest::get(bff.url("/readyz")).await.unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.text().await.unwrap(), "ready");
    bff.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn downloads_move_on_from_a_file_listener_that_cannot_be_reached() {
    let server = TestServer::start().await;
    let down = ClosedPort::new();
    let files = format!("{},http://{}", down.url(), server.server.http_addr);
    let bff = Bff::start(Some(&server.url()), NO_WEB, &["--files-url", &files]).await;
    let state = &server.server.state;
    let (key, png) = ("photos/0190c3/profile.png", b"\x89PNG\r\n\x1a\n a photo");
    state
        .storage
        .put(key, "image/png", Bytes::from_static(png))
        .await
        .unwrap();
    let expires = chrono::Utc::now() + chrono::Duration::minutes(10);
    let link = sign_file_url(state.file_link_key.as_slice(), key, expires).unwrap();
    // Each download starts at the next listener: the one that is down comes first in turn.
    for _ in 0..3 {
        let reply = reqwest::get(bff.url(&link)).await.unwrap();
        assert_eq!(reply.status(), 200);
        assert_eq!(&reply.bytes().await.unwrap()[..], png);
    }
    bff.stop().await;
    server.stop().await;
}
