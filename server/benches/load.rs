//! Load test of the sign-in path: starts the server binary as a process of its own on
//! 127.0.0.1, drives it with bursts of sign-ins, and prints what each burst answered and the
//! server's memory (resident set, and its peak, from /proc). Each line ends in `ok` or
//! `FAILED` against the limits the server must keep; the run exits non-zero if one failed.
//!
//! - 300 concurrent wrong sign-ins (three rounds): no 5xx-class answer (INTERNAL, UNKNOWN,
//!   ...), and the server stays under 100 MB (a release build) or 300 MB (a debug build).
//! - 60 concurrent guesses on one account: at most 10 are checked (answered
//!   INVALID_CREDENTIALS); the others are refused before any hash.
//! - 40 sign-ins with 1 MiB emails (three rounds): all refused, no cache key left, memory
//!   within the same limit (it settles after the first round: freed buffers the allocator
//!   keeps).
//!
//! Run (release server, test Postgres and Redis, as `make test` starts them):
//!   `source scripts/services.sh && start_test_postgres && start_test_redis`, then
//!   `cargo bench -p repairs-server --bench load`.
//! The debug server of `make run` (embedded Postgres, in-process cache):
//!   `LOAD_EMBEDDED=1 cargo bench --profile dev -p repairs-server --bench load`.
//! `LOAD_SERVER_BIN=path` runs another server binary.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a load test: failures should panic"
)]

#[path = "../tests/common/mod.rs"]
mod common;
mod process;

use std::{
    collections::BTreeMap,
    path::PathBuf,
    time::{Duration, Instant},
};

use process::ServerProcess as Server;
use repairs_proto::accounts::{self as pb, accounts_service_client::AccountsServiceClient};
use tokio::task::JoinSet;
use tonic::{Code, transport::Channel};

type Client = AccountsServiceClient<Channel>;

/// Connections the bursts are spread over, as many callers would.
const CONNECTIONS: usize = 10;

/// Connections to the server, each a client of its own.
async fn clients(server: &Server) -> Vec<Client> {
    let mut clients = Vec::new();
    for _ in 0..CONNECTIONS {
        let channel = server.channel().await;
        clients.push(Client::new(channel).max_encoding_message_size(8 * 1024 * 1024));
    }
    clients
}

/// Cache keys under the server's prefix, when it uses Redis.
async fn cache_keys(server: &Server) -> Option<usize> {
    let (url, prefix) = server.redis.as_ref()?;
    let client = redis::Client::open(url.as_str()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}*"))
        .query_async(&mut conn)
        .await
        .unwrap();
    Some(keys.len())
}

/// Sends `count` sign-ins at once over the clients, and counts the answers by code and
/// reason.
async fn burst(
    clients: &[Client],
    count: usize,
    email: impl Fn(usize) -> String,
    password: &str,
) -> (BTreeMap<String, usize>, Duration) {
    let started = Instant::now();
    let mut calls = JoinSet::new();
    for n in 0..count {
        let mut client = clients[n % clients.len()].clone();
        let request = pb::LogInRequest {
            role: pb::Role::Customer as i32,
            email: email(n),
            password: password.to_owned(),
        };
        calls.spawn(async move { client.log_in(request).await.map(|_| ()) });
    }
    (process::tally(calls.join_all().await), started.elapsed())
}

/// Answers a server must never give to a caller's input.
fn server_faults(counts: &BTreeMap<String, usize>) -> usize {
    let faults = [
        Code::Internal,
        Code::Unknown,
        Code::DataLoss,
        Code::Unimplemented,
        Code::Unavailable,
        Code::DeadlineExceeded,
    ];
    counts
        .iter()
        .filter(|(key, _)| {
            faults
                .iter()
                .any(|code| key.starts_with(&format!("{code:?} ")))
        })
        .map(|(_, n)| n)
        .sum()
}

fn verdict(ok: bool, failures: &mut usize) -> &'static str {
    if ok {
        "ok"
    } else {
        *failures += 1;
        "FAILED"
    }
}

#[tokio::main]
async fn main() {
    let binary = std::env::var_os("LOAD_SERVER_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_repairs-server")),
        PathBuf::from,
    );
    let embedded = std::env::var_os("LOAD_EMBEDDED").is_some();
    let release = !binary.to_string_lossy().contains("/debug/");
    let memory_limit = if release { 100.0 } else { 300.0 };
    println!(
        "server: {} ({} build, {})",
        binary.display(),
        if release { "release" } else { "debug" },
        if embedded {
            "embedded Postgres, in-process cache"
        } else {
            "test Postgres and Redis"
        }
    );
    let server = Server::start(&binary, embedded, &[]).await;
    let clients = clients(&server).await;
    let mut failures = 0;
    clients[0]
        .clone()
        .sign_up(pb::SignUpRequest {
            role: pb::Role::Customer as i32,
            name: "Ana Lopez".into(),
            email: "ana@example.ca".into(),
            password: "correct horse".into(),
            language: 0,
        })
        .await
        .unwrap();
    let (rss, _) = server.memory();
    println!("after start and one sign-up: RSS {rss:.1} MB");

    for round in 1..=3 {
        let (counts, took) = burst(
            &clients,
            300,
            |n| format!("nobody{round}x{n}@example.ca"),
            "wrong horse",
        )
        .await;
        let (rss, peak) = server.memory();
        let faults = server_faults(&counts);
        println!(
            "300 concurrent wrong sign-ins, round {round}: {counts:?} in {:.2} s; 5xx-class: \
             {faults} {}; RSS {rss:.1} MB, peak {peak:.1} MB (limit {memory_limit} MB) {}",
            took.as_secs_f64(),
            verdict(faults == 0, &mut failures),
            verdict(peak < memory_limit, &mut failures),
        );
    }

    let (counts, took) = burst(&clients, 60, |_| "ana@example.ca".to_owned(), "wrong horse").await;
    let checked = counts
        .get("Unauthenticated INVALID_CREDENTIALS")
        .copied()
        .unwrap_or(0);
    println!(
        "60 concurrent guesses on one account: {counts:?} in {:.2} s; passwords checked: \
         {checked} (limit 10) {}",
        took.as_secs_f64(),
        verdict(checked <= 10 && server_faults(&counts) == 0, &mut failures),
    );

    let huge = format!("{}@example.ca", "a".repeat(1024 * 1024));
    for round in 1..=3 {
        let keys_before = cache_keys(&server).await;
        let (rss_before, _) = server.memory();
        let (counts, took) = burst(&clients, 40, |_| huge.clone(), "wrong horse").await;
        let keys_after = cache_keys(&server).await;
        let (rss_after, peak) = server.memory();
        let refused = counts
            .get("ResourceExhausted REQUEST_TOO_LARGE")
            .copied()
            .unwrap_or(0);
        let keys = match (keys_before, keys_after) {
            (Some(before), Some(after)) => format!("cache keys {before} -> {after}"),
            _ => "cache keys: in-process cache, not visible".to_owned(),
        };
        println!(
            "40 sign-ins with 1 MiB emails, round {round}: {counts:?} in {:.2} s; refused \
             {refused}/40; {keys}; RSS {rss_before:.1} -> {rss_after:.1} MB, peak {peak:.1} MB {}",
            took.as_secs_f64(),
            verdict(
                refused == 40 && keys_before == keys_after && peak < memory_limit,
                &mut failures
            ),
        );
    }

    server.stop().await;
    if failures > 0 {
        println!("{failures} check(s) FAILED");
        std::process::exit(1);
    }
    println!("every check ok");
}
