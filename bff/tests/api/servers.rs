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
    server_named_draining(name, 0).await
}

/// The same, going on serving for `drain_ms` after it says NOT_SERVING when stopped.
async fn server_named_draining(name: &str, drain_ms: u64) -> TestServer {
    let server = TestServer::start_with(|config| config.deployment.drain_delay_ms = drain_ms).await;
    sqlx::query(
        "update services set name_en = $1 where position = (select min(position) from services)",
    )
    .bind(name)
    .execute(&server.server.state.db)
    .await
    .unwrap();
    server
}

/// Checks servers often, and keeps no catalogue: each listing asks a server.
const SPREAD: &[&str] = &["--server-check-ms", "100", "--legacy-catalogue-ttl-ms", "0"];

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
    let bff = Bff::start(Some(&urls), NO_WEB, SPREAD).await;

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
async fn a_server_stopped_with_a_drain_delay_longer_than_the_check_fails_no_call() {
    let a = server_named("Server A").await;
    let b = server_named_draining("Server B", 1000).await;
    let urls = format!("{},{}", a.url(), b.url());
    let bff = Bff::start(Some(&urls), NO_WEB, SPREAD).await;
    assert_eq!(answered_by(&bff, 20).await.len(), 2);

    // Calls one after another all through B's stop (as in a rolling restart).
    let (done, mut stopping) = tokio::sync::oneshot::channel::<()>();
    let url = bff.url("/api/services");
    let calls = tokio::spawn(async move {
        let http = reqwest::Client::new();
        let mut statuses = BTreeMap::<u16, usize>::new();
        while stopping.try_recv().is_err() {
            let status = http.get(&url).send().await.unwrap().status().as_u16();
            *statuses.entry(status).or_default() += 1;
        }
        statuses
    });
    b.stop().await;
    let _ = done.send(());
    let statuses = calls.await.unwrap();
    assert_eq!(statuses.keys().collect::<Vec<_>>(), [&200], "{statuses:?}");
    assert_eq!(
        answered_by(&bff, 10).await,
        BTreeMap::from([("Server A".to_owned(), 10)])
    );
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
