//! A call that runs out of time on the server answers DEADLINE_EXCEEDED (reason
//! DEADLINE_EXCEEDED), never CANCELLED: whether the client's `grpc-timeout` or the server's
//! own limit (`RPC_TIMEOUT_MS`) ran out. The call is held on a row lock the test takes, so it
//! is slow for sure, and what it was doing is not done.

use std::time::{Duration, Instant};

use crate::helpers::{
    TestServer,
    market::{Market, customer, db, get, in_calgary, market, place},
    reason,
};
use repairs_proto::marketplace as pb;
use repairs_server::config::Config;
use tonic::Code;
use uuid::Uuid;

/// A server (configured by `adjust`), a client, a customer's token and their open request.
async fn world(adjust: impl FnOnce(&mut Config)) -> (TestServer, Market, String, String) {
    let server = TestServer::start_with(adjust).await;
    let mut market = market(&server).await;
    let (_, token) = customer(&server).await;
    let request = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    (server, market, token, request.id)
}

const CANCEL: &str = "/repairs.marketplace.v1.MarketplaceService/CancelRepairRequest";

/// The status a unary call answered when it failed, sent as plain HTTP/2 with `grpc-timeout`
/// `timeout`. Not through tonic's client: it stops the call by itself at the deadline
/// (CANCELLED, "Timeout expired") and never reads what the server answered.
async fn unary_over_http2(
    server: &TestServer,
    path: &str,
    message: &impl prost::Message,
    token: &str,
    timeout: Option<Duration>,
) -> tonic::Status {
    let body = message.encode_to_vec();
    let mut framed = vec![0];
    framed.extend_from_slice(&u32::try_from(body.len()).unwrap().to_be_bytes());
    framed.extend_from_slice(&body);
    let client = reqwest::Client::builder()
        .http2_prior_knowledge()
        .build()
        .unwrap();
    let mut request = client
        .post(format!("{}{path}", server.url()))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .header("authorization", format!("Bearer {token}"))
        .body(framed);
    if let Some(timeout) = timeout {
        request = request.header("grpc-timeout", format!("{}m", timeout.as_millis()));
    }
    let response = request.send().await.unwrap();
    // A failure answers at once, its status in the headers (a "trailers-only" response).
    tonic::Status::from_header_map(response.headers()).expect("the call failed")
}

/// Cancels request `id` while the test holds its row locked (the cancel waits on it), with
/// `grpc-timeout` `client_timeout` when given: the status it answered and how long it took.
/// The request is still open afterwards: the stopped cancel did nothing.
async fn cancel_held_up(
    server: &TestServer,
    market: &mut Market,
    token: &str,
    id: &str,
    client_timeout: Option<Duration>,
) -> (tonic::Status, Duration) {
    let mut lock = db(server).begin().await.unwrap();
    sqlx::query("select 1 from repair_requests where id = $1 for update")
        .bind(Uuid::parse_str(id).unwrap())
        .execute(&mut *lock)
        .await
        .unwrap();
    let message = pb::CancelRepairRequestRequest { id: id.into() };
    let started = Instant::now();
    let status = tokio::time::timeout(
        Duration::from_secs(10),
        unary_over_http2(server, CANCEL, &message, token, client_timeout),
    )
    .await
    .expect("an answer within 10 s");
    let took = started.elapsed();
    lock.rollback().await.unwrap();
    let still = get(market, token, id).await.unwrap();
    assert_eq!(still.state(), pb::RepairRequestState::Open);
    (status, took)
}

fn assert_deadline_exceeded(status: &tonic::Status) {
    assert_eq!(
        (status.code(), reason(status).as_str()),
        (Code::DeadlineExceeded, "DEADLINE_EXCEEDED"),
        "{status:?}"
    );
    assert!(status.message().contains("took longer"), "{status:?}");
}

#[tokio::test]
async fn a_client_deadline_that_runs_out_answers_deadline_exceeded() {
    let (server, mut market, token, id) = world(|_| {}).await;
    let timeout = Some(Duration::from_millis(200));
    let (status, took) = cancel_held_up(&server, &mut market, &token, &id, timeout).await;
    assert_deadline_exceeded(&status);
    assert!(took < Duration::from_secs(2), "answered after {took:?}");
    server.stop().await;
}

#[tokio::test]
async fn the_servers_own_limit_answers_deadline_exceeded_too() {
    let limit = Duration::from_millis(1_500);
    let (server, mut market, token, id) = world(|config| {
        config.rpc_timeout_ms = u64::try_from(limit.as_millis()).unwrap();
    })
    .await;
    let (status, took) = cancel_held_up(&server, &mut market, &token, &id, None).await;
    assert_deadline_exceeded(&status);
    assert!(took >= limit, "answered after {took:?}");
    assert!(
        took < limit + Duration::from_secs(2),
        "answered after {took:?}"
    );
    // A client asking for longer than the server allows gets the server's limit.
    let (status, took) = cancel_held_up(
        &server,
        &mut market,
        &token,
        &id,
        Some(Duration::from_secs(30)),
    )
    .await;
    assert_deadline_exceeded(&status);
    assert!(
        took < limit + Duration::from_secs(2),
        "answered after {took:?}"
    );
    server.stop().await;
}
