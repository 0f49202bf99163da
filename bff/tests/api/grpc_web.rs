//! gRPC-web passthrough against a real tonic server (health service, tonic-web, HTTP/1.1 on).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::helpers::{Bff, NO_WEB, assert_security_headers, header};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use prost::Message;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};

const CHECK: &str = "/grpc.health.v1.Health/Check";
const WATCH: &str = "/grpc.health.v1.Health/Watch";
const VITE: &str = "http://localhost:5173";
/// What a gRPC-web or legacy browser client asks to send.
const REQUEST_HEADERS: &str =
    "content-type,x-grpc-web,x-user-agent,grpc-timeout,authorization,x-auth-token";

/// A tonic server as ours is set up: gRPC-web layer, HTTP/1.1 accepted. It records the headers
/// the BFF forwarded.
struct HealthServer {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<http::HeaderMap>>>,
    _reporter: tonic_health::server::HealthReporter,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl HealthServer {
    async fn start() -> Self {
        let (reporter, service) = tonic_health::server::health_reporter();
        reporter
            .set_service_status("", tonic_health::ServingStatus::Serving)
            .await;
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = seen.clone();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            tonic::transport::Server::builder()
                .accept_http1(true)
                .layer(tower::util::MapRequestLayer::new(
                    move |request: http::Request<tonic::body::Body>| {
                        record.lock().unwrap().push(request.headers().clone());
                        request
                    },
                ))
                .layer(tonic_web::GrpcWebLayer::new())
                .add_service(service)
                .serve_with_incoming_shutdown(
                    tonic::transport::server::TcpIncoming::from(listener),
                    async {
                        let _ = stopped.await;
                    },
                )
                .await
                .unwrap();
        });
        Self {
            addr,
            seen,
            _reporter: reporter,
            stop,
            task,
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        self.task.await.unwrap();
    }
}

/// One gRPC-web message frame: flag 0, big-endian length, protobuf bytes.
fn frame(message: &impl Message) -> Vec<u8> {
    let payload = message.encode_to_vec();
    let mut framed = Vec::with_capacity(5 + payload.len());
    framed.put_u8(0);
    framed.put_u32(u32::try_from(payload.len()).unwrap());
    framed.extend_from_slice(&payload);
    framed
}

/// Splits a gRPC-web body into complete frames (flag, payload); returns what is left over.
fn split_frames(buffer: &mut BytesMut) -> Vec<(u8, Bytes)> {
    let mut frames = Vec::new();
    while buffer.len() >= 5 {
        let length = u32::from_be_bytes([buffer[1], buffer[2], buffer[3], buffer[4]]) as usize;
        if buffer.len() < 5 + length {
            break;
        }
        let flag = buffer.get_u8();
        buffer.advance(4);
        frames.push((flag, buffer.split_to(length).freeze()));
    }
    frames
}

/// A health server and a BFF in front of it.
async fn start_both() -> (HealthServer, Bff) {
    let server = HealthServer::start().await;
    let bff = Bff::start(Some(&server.url()), NO_WEB, &[]).await;
    (server, bff)
}

async fn stop_both((server, bff): (HealthServer, Bff)) {
    bff.stop().await;
    server.stop().await;
}

fn grpc_web_post(client: &reqwest::Client, bff: &Bff, path: &str) -> reqwest::RequestBuilder {
    grpc_web_post_as(client, bff, path, "application/grpc-web+proto")
}

fn grpc_web_post_as(
    client: &reqwest::Client,
    bff: &Bff,
    path: &str,
    content_type: &str,
) -> reqwest::RequestBuilder {
    client
        .post(bff.url(path))
        .header("content-type", content_type)
        .header("x-grpc-web", "1")
        .header("accept", "application/grpc-web+proto")
        .body(frame(&HealthCheckRequest {
            service: String::new(),
        }))
}

#[tokio::test]
async fn unary_call_passes_through_with_status_in_the_trailer_frame() {
    let (server, bff) = start_both().await;
    let client = reqwest::Client::new();

    let response = grpc_web_post(&client, &bff, CHECK)
        .header("authorization", "Bearer a.b.c")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_security_headers(&response);
    assert!(header(&response, "content-type").starts_with("application/grpc-web"));
    let request_id = response.headers()["x-request-id"].clone();
    let mut body = BytesMut::from(&response.bytes().await.unwrap()[..]);
    let frames = split_frames(&mut body);
    assert!(body.is_empty());
    assert_eq!(frames.len(), 2, "one message and one trailer frame");
    assert_eq!(frames[0].0, 0);
    let answer = HealthCheckResponse::decode(frames[0].1.clone()).unwrap();
    assert_eq!(answer.status(), ServingStatus::Serving);
    assert_eq!(frames[1].0, 0x80);
    let trailers = String::from_utf8(frames[1].1.to_vec())
        .unwrap()
        .to_lowercase();
    assert!(trailers.contains("grpc-status:0"), "{trailers}");

    // The server got the caller's token and the BFF's request id.
    let seen = server.seen.lock().unwrap().clone();
    let headers = seen.last().unwrap();
    assert_eq!(headers["authorization"], "Bearer a.b.c");
    assert_eq!(headers["x-request-id"], request_id);

    stop_both((server, bff)).await;
}

#[tokio::test]
async fn server_stream_delivers_its_first_message_while_still_open() {
    let (server, bff) = start_both().await;
    let client = reqwest::Client::new();

    let mut response = grpc_web_post(&client, &bff, WATCH).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let mut buffer = BytesMut::new();
    let first = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let chunk = response.chunk().await.unwrap().expect("stream ended early");
            buffer.extend_from_slice(&chunk);
            if let Some(first) = split_frames(&mut buffer).into_iter().next() {
                return first;
            }
        }
    })
    .await
    .expect("the first message of the stream never arrived: is the body buffered?");
    assert_eq!(first.0, 0, "a message, not the trailer frame");
    let answer = HealthCheckResponse::decode(first.1).unwrap();
    assert_eq!(answer.status(), ServingStatus::Serving);
    // Watch only ends when the client goes: nothing more (and no trailer) comes for now.
    let next = tokio::time::timeout(Duration::from_millis(500), response.chunk()).await;
    assert!(next.is_err(), "the stream should still be open: {next:?}");

    drop(response);
    stop_both((server, bff)).await;
}

#[tokio::test]
async fn cors_preflight_and_exposed_grpc_headers() {
    let (server, bff) = start_both().await;
    let client = reqwest::Client::new();

    let preflight = client
        .request(reqwest::Method::OPTIONS, bff.url(CHECK))
        .header("origin", VITE)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", REQUEST_HEADERS)
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert_security_headers(&preflight);
    assert_eq!(preflight.headers()["access-control-allow-origin"], VITE);
    let allowed = header(&preflight, "access-control-allow-headers").to_lowercase();
    for name in REQUEST_HEADERS.split(',') {
        assert!(allowed.contains(name), "{name} not allowed: {allowed}");
    }
    let methods = header(&preflight, "access-control-allow-methods");
    assert!(methods.contains("POST"), "{methods}");

    let response = grpc_web_post(&client, &bff, CHECK)
        .header("origin", VITE)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["access-control-allow-origin"], VITE);
    let exposed = header(&response, "access-control-expose-headers").to_lowercase();
    for name in ["grpc-status", "grpc-message", "grpc-status-details-bin"] {
        assert!(exposed.contains(name), "{name} not exposed: {exposed}");
    }

    // An origin nobody configured gets no CORS grant.
    let foreign = client
        .request(reqwest::Method::OPTIONS, bff.url(CHECK))
        .header("origin", "https://elsewhere.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert!(
        !foreign
            .headers()
            .contains_key("access-control-allow-origin")
    );

    stop_both((server, bff)).await;
}

#[tokio::test]
async fn configured_origins_replace_the_dev_defaults() {
    let bff = Bff::start(None, NO_WEB, &["--cors-origins", "https://app.example"]).await;
    let client = reqwest::Client::new();
    for (origin, allowed) in [("https://app.example", true), (VITE, false)] {
        let preflight = client
            .request(reqwest::Method::OPTIONS, bff.url("/api/users/login"))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .send()
            .await
            .unwrap();
        assert_eq!(
            preflight
                .headers()
                .contains_key("access-control-allow-origin"),
            allowed,
            "{origin}"
        );
    }
    bff.stop().await;
}

#[tokio::test]
async fn server_down_is_grpc_unavailable_not_an_http_error() {
    let bff = Bff::start(None, NO_WEB, &[]).await;
    let client = reqwest::Client::new();

    for content_type in ["application/grpc-web+proto", "application/grpc-web-text"] {
        let response = grpc_web_post_as(&client, &bff, CHECK, content_type)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        assert_security_headers(&response);
        assert_eq!(response.headers()["grpc-status"], "14");
        assert!(response.headers().contains_key("grpc-message"));
        let returned = header(&response, "content-type");
        assert!(
            returned.starts_with(content_type),
            "{returned} for {content_type}"
        );
    }
    bff.stop().await;
}

#[tokio::test]
async fn grpc_web_to_a_path_that_is_no_method_is_unimplemented() {
    let bff = Bff::start(None, NO_WEB, &[]).await;
    let response = reqwest::Client::new()
        .post(bff.url("/not-a-method"))
        .header("content-type", "application/grpc-web+proto")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["grpc-status"], "12");
    bff.stop().await;
}
