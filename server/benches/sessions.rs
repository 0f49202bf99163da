//! What checking that a session was not ended costs a call: a signed-in call (its token's
//! version read from the cache) beside the same kind of call made anonymously, end to end
//! through gRPC against Postgres and Redis; and what renewing a session costs
//! (RefreshSession, one transaction). Prints figures; asserts nothing.
//!
//! Run: `source scripts/services.sh && start_test_postgres && start_test_redis`, then
//! `cargo bench -p repairs-server --bench sessions`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark: failures should panic"
)]

#[path = "../tests/common/mod.rs"]
mod common;
mod figures;

use std::time::Instant;

use common::{AccountsClient, sign_up, with_token};
use repairs_proto::accounts as pb;

const ROUNDS: usize = 500;

#[tokio::main]
async fn main() {
    let server = common::TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let me = sign_up(&mut client, pb::Role::Customer, "bench@example.ca").await;

    // A public call, without and with a token (a token is checked on public calls too), and
    // a call only the signed-in customer may make.
    let cases: [(&str, Option<&str>); 2] = [("anonymous", None), ("signed in", Some(&me.token))];
    for (label, token) in cases {
        let mut times = Vec::with_capacity(ROUNDS);
        for _ in 0..ROUNDS {
            let message = pb::GetSignInOptionsRequest::default();
            let request = match token {
                Some(token) => with_token(message, token),
                None => tonic::Request::new(message),
            };
            let started = Instant::now();
            client.get_sign_in_options(request).await.unwrap();
            times.push(started.elapsed());
        }
        figures::report(&format!("public call, {label:10}"), times);
    }
    let mut times = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let request = with_token(pb::GetCustomerRequest { id: me.id.clone() }, &me.token);
        let started = Instant::now();
        client.get_customer(request).await.unwrap();
        times.push(started.elapsed());
    }
    figures::report("own record, signed in ", times);
    // Renewals one after the other, each with the refresh token the previous one gave.
    let mut refresh_token = me.refresh.clone();
    let mut times = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let request = pb::RefreshSessionRequest { refresh_token };
        let started = Instant::now();
        let renewed = client.refresh_session(request).await.unwrap().into_inner();
        times.push(started.elapsed());
        refresh_token = renewed.session.unwrap().refresh_token;
    }
    figures::report("session renewal       ", times);
    server.stop().await;
}
