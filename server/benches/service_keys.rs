//! What a service account's key costs a call, beside an admin's session token on the same
//! RPC (ListAuditEvents, open to admins and to the scope `audit.read`), end to end through
//! gRPC against Postgres and Redis: the key's check (one cache read and a SHA-256), its
//! counter per minute (one upsert in `limit_counters`) and the note of its use (a cache
//! marker, a write once a minute). Prints figures; asserts nothing.
//!
//! Run: `source scripts/services.sh && start_test_postgres && start_test_redis`, then
//! `cargo bench -p repairs-server --bench service_keys`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark: failures should panic"
)]

#[path = "../tests/common/mod.rs"]
mod common;
mod figures;

use std::time::Instant;

use common::{AccountsClient, admin_token, with_token};
use repairs_proto::accounts as pb;

const ROUNDS: usize = 500;

#[tokio::main]
async fn main() {
    // Above the rounds, so no call is refused by the limit.
    let server = common::TestServer::start_with(|config| {
        config.service_account_calls_per_minute = 10_000;
    })
    .await;
    let mut client = AccountsClient::new(server.channel().await);
    let admin = admin_token(&server, &mut client).await;
    let key = client
        .create_service_account(with_token(
            pb::CreateServiceAccountRequest {
                name: "Audit export".into(),
                scopes: vec!["audit.read".into()],
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .key;

    for (label, token) in [("admin session", &admin), ("service key  ", &key)] {
        let mut times = Vec::with_capacity(ROUNDS);
        for _ in 0..ROUNDS {
            let request = with_token(
                pb::ListAuditEventsRequest {
                    page_size: 1,
                    ..Default::default()
                },
                token,
            );
            let started = Instant::now();
            client.list_audit_events(request).await.unwrap();
            times.push(started.elapsed());
        }
        figures::report(&format!("ListAuditEvents, {label}"), times);
    }
    server.stop().await;
}
