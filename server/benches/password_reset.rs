//! Password-reset latency through gRPC against Postgres and Redis, for a known email and an
//! unknown one: the reply comes before the account is looked up, so both must cost the same.
//! Prints figures; asserts nothing. The per-email and per-address limits are raised so that
//! every round does the whole work.
//!
//! Run: `source scripts/services.sh && start_test_postgres && start_test_redis`, then
//! `cargo bench -p repairs-server --bench password_reset`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark: failures should panic"
)]

#[path = "../tests/common/mod.rs"]
mod common;
mod figures;

use std::time::{Duration, Instant};

use repairs_proto::accounts::{self as pb, accounts_service_client::AccountsServiceClient};

const ROUNDS: usize = 200;

#[tokio::main]
async fn main() {
    let server = common::TestServer::start_with(|config| {
        config.password_reset_per_email_per_hour = 100_000;
        config.password_reset_per_address_per_hour = 100_000;
    })
    .await;
    let mut client = AccountsServiceClient::new(server.channel().await);
    common::sign_up(&mut client, pb::Role::Customer, "known@example.ca").await;
    let cases = [
        ("known email", "known@example.ca"),
        ("unknown email", "nobody@example.ca"),
    ];
    let mut times = [Vec::with_capacity(ROUNDS), Vec::with_capacity(ROUNDS)];
    // The cases take turns, with a pause after each call so that the work done after one
    // reply (the look-up, the token, the email) does not slow the next call.
    for _ in 0..ROUNDS {
        for (case, (_, email)) in cases.iter().enumerate() {
            let started = Instant::now();
            client
                .request_password_reset(pb::RequestPasswordResetRequest {
                    role: pb::Role::Customer as i32,
                    email: (*email).into(),
                })
                .await
                .unwrap();
            times[case].push(started.elapsed());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    for ((label, _), times) in cases.into_iter().zip(times) {
        figures::report(&format!("password reset, {label:13}"), times);
    }
    server.stop().await;
}
