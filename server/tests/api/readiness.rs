//! Liveness and readiness as a load balancer reads them: `/healthz` answers while the process
//! runs; `/readyz` and `grpc.health.v1` say NOT_SERVING when Redis or Postgres is out of reach
//! (here: a relay to it, cut) and, on SIGTERM, before the server stops (the binary, signalled
//! for real). Also the start refused for a shared database without Redis.

use std::{process::Stdio, time::Duration};

use tokio::process::Command;
use tonic::{Code, transport::Channel};
use tonic_health::pb::{
    HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
};

use crate::helpers::{self, free_port, relayed, test_redis_url};

async fn get(http_addr: impl std::fmt::Display, path: &str) -> (u16, String) {
    let reply = reqwest::get(format!("http://{http_addr}{path}"))
        .await
        .unwrap();
    (reply.status().as_u16(), reply.text().await.unwrap())
}

async fn health(channel: &Channel, service: &str) -> Result<ServingStatus, Code> {
    let request = HealthCheckRequest {
        service: service.to_owned(),
    };
    match HealthClient::new(channel.clone()).check(request).await {
        Ok(reply) => Ok(reply.get_ref().status()),
        Err(status) => Err(status.code()),
    }
}

/// `/readyz` once it answers 200 (`ready`) or not (within 5 s).
async fn until_ready(http_addr: impl std::fmt::Display + Copy, ready: bool) -> (u16, String) {
    for _ in 0..100 {
        let reply = get(http_addr, "/readyz").await;
        if (reply.0 == 200) == ready {
            return reply;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("/readyz did not turn (ready: {ready})");
}

/// A server whose Redis (`cut_redis`) or Postgres is reached through a relay, cut once the
/// server is ready: readiness turns, liveness does not; restored, readiness comes back.
async fn readiness_follows(cut_redis: bool) -> String {
    let (redis_relay, redis_url) = relayed(&test_redis_url()).await;
    let database = helpers::TestDatabase::create().await;
    let (postgres_relay, database_url) = relayed(&database.url).await;
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = repairs_server::config::Config::for_tests(
        data_dir.path().to_path_buf(),
        database_url,
        Some(redis_url),
    );
    config.deployment.readiness_check_ms = 100;
    config.database_acquire_timeout_ms = 300;
    let server = repairs_server::start(config).await.unwrap();
    let channel = helpers::channel_to(server.grpc_addr).await;
    assert_eq!(
        get(server.http_addr, "/readyz").await,
        (200, "ready".into())
    );
    for service in ["", "repairs.accounts.v1.AccountsService"] {
        assert_eq!(health(&channel, service).await, Ok(ServingStatus::Serving));
    }
    assert_eq!(
        health(&channel, "no.such.Service").await,
        Err(Code::NotFound)
    );
    // Watch says SERVICE_UNKNOWN and stays open, as the health protocol asks.
    let unknown = HealthCheckRequest {
        service: "no.such.Service".to_owned(),
    };
    let mut watch = HealthClient::new(channel.clone())
        .watch(unknown)
        .await
        .unwrap()
        .into_inner();
    let first = watch.message().await.unwrap().unwrap();
    assert_eq!(first.status(), ServingStatus::ServiceUnknown);
    let next = tokio::time::timeout(Duration::from_millis(200), watch.message()).await;
    assert!(next.is_err(), "the watch ended or said more: {next:?}");

    let relay = if cut_redis {
        &redis_relay
    } else {
        &postgres_relay
    };
    relay.cut();
    let (status, reason) = until_ready(server.http_addr, false).await;
    assert_eq!(status, 503);
    assert_eq!(health(&channel, "").await, Ok(ServingStatus::NotServing));
    assert_eq!(get(server.http_addr, "/healthz").await, (200, "ok".into()));

    relay.restore();
    assert_eq!(until_ready(server.http_addr, true).await.1, "ready");
    assert_eq!(health(&channel, "").await, Ok(ServingStatus::Serving));
    server.stop().await.unwrap();
    database.drop_database().await;
    reason
}

#[tokio::test]
async fn readiness_turns_when_redis_is_out_of_reach() {
    let reason = readiness_follows(true).await;
    assert!(reason.starts_with("not ready: Redis"), "{reason}");
}

#[tokio::test]
async fn readiness_turns_when_postgres_is_out_of_reach() {
    let reason = readiness_follows(false).await;
    assert!(reason.starts_with("not ready: Postgres"), "{reason}");
}

/// The calls' pool keeps every connection it was sized with beside the live streams'
/// listeners (each on a connection of its own); and with every one of them taken (calls keep
/// the pool busy), the replica stays ready, since the check asks Postgres on its own too.
#[tokio::test]
async fn a_replica_whose_pool_is_busy_stays_ready() {
    let database = helpers::TestDatabase::create().await;
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = repairs_server::config::Config::for_tests(
        data_dir.path().to_path_buf(),
        database.url.clone(),
        Some(test_redis_url()),
    );
    config.deployment.readiness_check_ms = 50;
    // Short, so that the checks below outlast several waits; long enough for the start's own
    // connections on a loaded machine.
    config.database_acquire_timeout_ms = 500;
    config.database_max_connections = 2;
    let server = repairs_server::start(config).await.unwrap();
    let pool = &server.state.db;
    // Once the listeners are listening (they start with the server), the background work
    // (outbox, sweeps) takes a connection now and then: wait it out.
    until_ready(server.http_addr, true).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut taken = Vec::new();
    for _ in 0..25 {
        match pool.acquire().await {
            Ok(connection) => taken.push(connection),
            Err(sqlx::Error::PoolTimedOut) => {}
            Err(error) => panic!("{error}"),
        }
        if taken.len() == 2 {
            break;
        }
    }
    assert_eq!(taken.len(), 2, "the listeners hold pooled connections");
    // Long enough for several checks to wait out the pool's acquire timeout.
    for _ in 0..20 {
        assert_eq!(
            get(server.http_addr, "/readyz").await,
            (200, "ready".into())
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(taken);
    server.stop().await.unwrap();
    database.drop_database().await;
}

fn server_binary(data_dir: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_repairs-server"));
    command
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATA_DIR", data_dir)
        .env("RUST_LOG", "warn")
        // No .env of the developer's is read.
        .current_dir(data_dir)
        .kill_on_drop(true);
    command
}

#[tokio::test]
async fn on_sigterm_health_turns_not_serving_before_the_server_stops() {
    let database = helpers::TestDatabase::create().await;
    let data_dir = tempfile::tempdir().unwrap();
    let (grpc_port, http_port) = (free_port(), free_port());
    let http_addr = format!("127.0.0.1:{http_port}");
    let mut child = server_binary(data_dir.path())
        .env("DATABASE_URL", &database.url)
        .env("REDIS_URL", test_redis_url())
        .env("CACHE_PREFIX", format!("ready:{}:", uuid::Uuid::now_v7()))
        .env("JWT_SECRET", "readiness-test-secret-that-is-long-enough")
        .env("GRPC_ADDR", format!("127.0.0.1:{grpc_port}"))
        .env("HTTP_ADDR", &http_addr)
        .env("DRAIN_DELAY_MS", "1000")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut started = false;
    for _ in 0..300 {
        if let Ok(reply) = reqwest::get(format!("http://{http_addr}/readyz")).await
            && reply.status() == 200
        {
            started = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(started, "the server did not become ready");
    let channel = helpers::channel_to(([127, 0, 0, 1], grpc_port).into()).await;
    let mut watch = HealthClient::new(channel)
        .watch(HealthCheckRequest::default())
        .await
        .unwrap()
        .into_inner();
    let first = watch.message().await.unwrap().unwrap();
    assert_eq!(first.status(), ServingStatus::Serving);

    let pid = child.id().unwrap().to_string();
    let signalled = Command::new("kill").args(["-TERM", &pid]).status().await;
    assert!(signalled.unwrap().success());
    let turned = tokio::time::timeout(Duration::from_millis(500), watch.message()).await;
    assert_eq!(
        turned.unwrap().unwrap().unwrap().status(),
        ServingStatus::NotServing
    );
    // Still running, and saying why it is not ready.
    assert_eq!(
        get(&http_addr, "/readyz").await,
        (503, "not ready: shutting down".into())
    );
    assert!(child.try_wait().unwrap().is_none());

    let exit = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
    assert!(exit.unwrap().unwrap().success());
    // The watch ended with the server, after its last NOT_SERVING.
    while let Ok(Some(update)) = watch.message().await {
        assert_eq!(update.status(), ServingStatus::NotServing);
    }
    database.drop_database().await;
}

#[tokio::test]
async fn a_shared_database_without_redis_is_refused_at_start() {
    let data_dir = tempfile::tempdir().unwrap();
    let output = server_binary(data_dir.path())
        .env("DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")
        .env("JWT_SECRET", "readiness-test-secret-that-is-long-enough")
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("DATABASE_URL is set but REDIS_URL is not")
            && said.contains("SINGLE_REPLICA=true"),
        "{said}"
    );
}
