//! Sign-in latency, end to end through gRPC against Postgres and Redis, for a known email
//! and an unknown one (which must cost the same). Prints figures; asserts nothing. Each failed
//! try uses an email of its own, so the failed-sign-in limit does not cut the work short.
//!
//! Run: `source scripts/services.sh && start_test_postgres && start_test_redis`, then
//! `cargo bench -p repairs-server --bench login`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark: failures should panic"
)]

#[path = "../tests/common/mod.rs"]
mod common;
mod figures;

use std::time::Instant;

use repairs_proto::accounts::{self as pb, accounts_service_client::AccountsServiceClient};

const ROUNDS: usize = 40;

/// The email and password of round `n` of a case.
type Credentials = fn(usize) -> (String, &'static str);

#[tokio::main]
async fn main() {
    let server = common::TestServer::start().await;
    let mut client = AccountsServiceClient::new(server.channel().await);
    for n in 0..ROUNDS {
        client
            .sign_up(pb::SignUpRequest {
                role: pb::Role::Customer as i32,
                name: "Bench".into(),
                email: format!("bench{n}@example.ca"),
                password: "bench password".into(),
                language: 0,
            })
            .await
            .unwrap();
    }
    let cases: [(&str, Credentials); 3] = [
        ("right password", |_| {
            ("bench0@example.ca".to_owned(), "bench password")
        }),
        ("wrong password", |n| {
            (format!("bench{n}@example.ca"), "not the password")
        }),
        ("unknown email", |n| {
            (format!("nobody{n}@example.ca"), "bench password")
        }),
    ];
    for (label, credentials) in cases {
        let mut times = Vec::with_capacity(ROUNDS);
        for n in 0..ROUNDS {
            let (email, password) = credentials(n);
            let started = Instant::now();
            let _ = client
                .log_in(pb::LogInRequest {
                    role: pb::Role::Customer as i32,
                    email,
                    password: password.into(),
                })
                .await;
            times.push(started.elapsed());
        }
        figures::report(&format!("login, {label:15}"), times);
    }
    server.stop().await;
}
