//! What the metrics cost: the per-RPC layer alone around a service that answers at once
//! (status in the headers, and in the body's end), beside the bare service; then the
//! one-row read (GetCustomer, signed in) end to end through the server, which runs the
//! layer, and a scrape of `/metrics`. Prints figures; asserts nothing.
//!
//! Run: `source scripts/services.sh && start_test_postgres && start_test_redis`, then
//! `cargo bench -p repairs-server --bench metrics`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark: failures should panic"
)]

#[path = "../tests/common/mod.rs"]
mod common;
mod figures;

use std::{convert::Infallible, time::Instant};

use common::{AccountsClient, sign_up, with_token};
use http_body_util::{BodyExt, Full};
use repairs_proto::accounts as pb;
use repairs_server::metrics::{Metrics, RpcMetricsLayer};
use tower::{Layer, Service, ServiceExt};

const CALLS: u32 = 200_000;
const ROUNDS: usize = 2000;
const PATH: &str = "/repairs.accounts.v1.AccountsService/GetCustomer";

async fn answer(_: http::Request<()>) -> Result<http::Response<Full<bytes::Bytes>>, Infallible> {
    let mut response = http::Response::new(Full::new(bytes::Bytes::from_static(b"reply")));
    response
        .headers_mut()
        .insert("grpc-status", http::HeaderValue::from_static("0"));
    Ok(response)
}

/// Nanoseconds per call of `service`, reading each reply's body to its end.
async fn per_call<S, B>(mut service: S) -> f64
where
    S: Service<http::Request<()>, Response = http::Response<B>, Error = Infallible>,
    B: http_body::Body + Unpin,
    B::Error: std::fmt::Debug,
{
    let started = Instant::now();
    for _ in 0..CALLS {
        let request = http::Request::builder().uri(PATH).body(()).unwrap();
        let response = service.ready().await.unwrap().call(request).await.unwrap();
        response.into_body().collect().await.unwrap();
    }
    started.elapsed().as_nanos() as f64 / f64::from(CALLS)
}

#[tokio::main]
async fn main() {
    let bare = per_call(tower::service_fn(answer)).await;
    let metrics = Metrics::new();
    let layered = per_call(RpcMetricsLayer::new(&metrics).layer(tower::service_fn(answer))).await;
    println!(
        "per-RPC metrics layer: bare {bare:.0} ns/call, layered {layered:.0} ns/call: \
         {:.0} ns per call",
        layered - bare
    );

    let server = common::TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let me = sign_up(&mut client, pb::Role::Customer, "bench@example.ca").await;
    let mut times = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let request = with_token(pb::GetCustomerRequest { id: me.id.clone() }, &me.token);
        let started = Instant::now();
        client.get_customer(request).await.unwrap();
        times.push(started.elapsed());
    }
    figures::report("one-row read (GetCustomer), with the layer", times);
    let url = format!("http://{}/metrics", server.server.http_addr);
    let mut times = Vec::with_capacity(50);
    for _ in 0..50 {
        let started = Instant::now();
        reqwest::get(&url).await.unwrap().text().await.unwrap();
        times.push(started.elapsed());
    }
    figures::report("scrape of /metrics", times);
    server.stop().await;
}
