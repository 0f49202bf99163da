//! The Rust side of `make bench` (scripts/bench/run.sh): prints nothing it measures itself,
//! it prepares and holds what the script measures.
//!
//! - `bench_client seed OUT_DIR`: with `DATABASE_URL` and `JWT_SECRET` of a running server,
//!   adds approved member professionals (four live streams each, the default per-account
//!   limit), writes their tokens to `OUT_DIR/tokens` and the framed gRPC request bodies h2load
//!   sends (`OUT_DIR/get_public_professional.bin`, `OUT_DIR/get_professional.bin` with the
//!   first professional's id in `OUT_DIR/professional_id` and token first in `tokens`,
//!   `OUT_DIR/list_services.bin`), and, with `GRPC_URL`, checks that each call answers OK
//!   before anything is timed.
//! - `bench_client watch BFF_URL TOKENS_FILE COUNT`: opens COUNT `WatchOpenRequests` streams
//!   through the BFF's gRPC-web passthrough (HTTP/2, 100 streams per connection, as a browser
//!   over HTTP/2 would), waits for each one's first message (the snapshot), prints
//!   `open COUNT`, and holds them until SIGTERM or SIGINT.

use std::{path::Path, time::Duration};

use bytes::{Buf, BufMut, Bytes, BytesMut};
use futures::StreamExt;
use prost::Message;
use repairs_proto::{accounts as accounts_pb, content as content_pb, matching as matching_pb};
use repairs_server::{
    accounts::account_kind,
    auth::{Caller, TokenKeys},
    domain::{Email, Language, Role},
    store,
};
use uuid::Uuid;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Professionals seeded: 1,000 streams at four each.
const PROFESSIONALS: usize = 250;
/// Streams one HTTP/2 connection to the BFF carries.
const STREAMS_PER_CONNECTION: usize = 100;
/// Streams being opened at once (each first reads its snapshot from the database).
const OPENING_AT_ONCE: usize = 32;
/// The migrations' first service (plumbing).
const PLUMBING: &str = "0190a6c0-0000-7000-8000-000000000001";

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["seed", out_dir] => seed(Path::new(out_dir)).await,
        ["watch", bff_url, tokens, count] => {
            watch(bff_url, Path::new(tokens), count.parse()?).await
        }
        _ => Err("usage: bench_client seed OUT_DIR | watch BFF_URL TOKENS_FILE COUNT".into()),
    }
}

fn env(name: &str) -> Result<String, BoxError> {
    std::env::var(name).map_err(|_| format!("{name} is not set").into())
}

/// A gRPC message with its 5-byte frame header (not compressed, then the length).
fn framed(message: &impl Message) -> Result<Bytes, BoxError> {
    let body = message.encode_to_vec();
    let mut frame = BytesMut::with_capacity(body.len() + 5);
    frame.put_u8(0);
    frame.put_u32(u32::try_from(body.len())?);
    frame.put_slice(&body);
    Ok(frame.freeze())
}

async fn seed(out_dir: &Path) -> Result<(), BoxError> {
    let db = sqlx::PgPool::connect(&env("DATABASE_URL")?).await?;
    let keys = TokenKeys::new(
        env("JWT_SECRET")?.as_bytes(),
        Duration::from_secs(24 * 3600),
        Duration::from_secs(3600),
    );
    let mut tokens = String::new();
    let mut first = None;
    for n in 0..PROFESSIONALS {
        let id = Uuid::now_v7();
        let email = Email::parse(&format!("bench-{}@example.ca", id.simple()))?;
        let kind = account_kind(Role::Professional).map_err(|e| format!("{e:?}"))?;
        let name = format!("Bench Professional {n}");
        store::accounts::insert(&db, kind, id, &name, &email, None, Language::English).await?;
        sqlx::query(
            "update professionals set state = 'approved', approved_at = now(),
                phone = '+1587555' || lpad(($2::int)::text, 4, '0'), phone_verified = true,
                description = 'Licensed plumber, 24/7 emergencies.', radius_km = 50,
                home_latitude = 51.0447, home_longitude = -114.0719,
                time_zone = 'America/Edmonton', available_days = '{1,2,3,4,5,6,7}',
                available_from = '00:00', available_to = '23:59',
                membership_expires_at = now() + interval '30 days'
             where id = $1",
        )
        .bind(id)
        .bind(i32::try_from(n)?)
        .execute(&db)
        .await?;
        sqlx::query(
            "insert into professional_services (professional_id, service_id) values ($1, $2)",
        )
        .bind(id)
        .bind(Uuid::parse_str(PLUMBING)?)
        .execute(&db)
        .await?;
        let caller = Caller {
            account_id: id,
            role: Role::Professional,
        };
        tokens.push_str(&keys.issue(caller, 0)?.token);
        tokens.push('\n');
        first.get_or_insert(id);
    }
    let id = first.ok_or("no professional seeded")?.to_string();
    let one_row = accounts_pb::GetPublicProfessionalRequest { id: id.clone() };
    let own = accounts_pb::GetProfessionalRequest { id: id.clone() };
    let services = content_pb::ListServicesRequest::default();
    std::fs::write(out_dir.join("tokens"), &tokens)?;
    std::fs::write(out_dir.join("professional_id"), &id)?;
    std::fs::write(
        out_dir.join("get_public_professional.bin"),
        framed(&one_row)?,
    )?;
    std::fs::write(out_dir.join("get_professional.bin"), framed(&own)?)?;
    std::fs::write(out_dir.join("list_services.bin"), framed(&services)?)?;
    if let Ok(url) = std::env::var("GRPC_URL") {
        let token = tokens.lines().next().unwrap_or_default();
        check(&url, one_row, (own, token), services).await?;
    }
    println!("seeded {PROFESSIONALS} professionals");
    Ok(())
}

/// Both timed calls answer OK (h2load counts any HTTP 200 as a success, whatever the
/// grpc-status).
async fn check(
    url: &str,
    one_row: accounts_pb::GetPublicProfessionalRequest,
    (own, token): (accounts_pb::GetProfessionalRequest, &str),
    services: content_pb::ListServicesRequest,
) -> Result<(), BoxError> {
    let channel = tonic::transport::Channel::from_shared(url.to_owned())?
        .connect()
        .await?;
    let mut accounts =
        accounts_pb::accounts_service_client::AccountsServiceClient::new(channel.clone());
    let professional = accounts
        .get_public_professional(one_row)
        .await?
        .into_inner();
    let mut signed_in = tonic::Request::new(own);
    signed_in
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse()?);
    let profile = accounts.get_professional(signed_in).await?.into_inner();
    let listed = content_pb::content_service_client::ContentServiceClient::new(channel)
        .list_services(services)
        .await?
        .into_inner();
    println!(
        "checked: GetPublicProfessional {} bytes, GetProfessional (signed in) {} bytes, ListServices {} services",
        professional.encoded_len(),
        profile.encoded_len(),
        listed.services.len()
    );
    Ok(())
}

async fn watch(bff_url: &str, tokens: &Path, count: usize) -> Result<(), BoxError> {
    let tokens: Vec<String> = std::fs::read_to_string(tokens)?
        .lines()
        .map(str::to_owned)
        .collect();
    let clients = (0..count.div_ceil(STREAMS_PER_CONNECTION))
        .map(|_| reqwest::Client::builder().http2_prior_knowledge().build())
        .collect::<Result<Vec<_>, _>>()?;
    let url = format!("{bff_url}/repairs.matching.v1.MatchingService/WatchOpenRequests");
    let body = framed(&matching_pb::WatchOpenRequestsRequest::default())?;
    let opened: Vec<Result<reqwest::Response, BoxError>> = futures::stream::iter(0..count)
        .map(|n| {
            let request = clients[n / STREAMS_PER_CONNECTION]
                .post(&url)
                .header("content-type", "application/grpc-web+proto")
                .header("x-grpc-web", "1")
                .bearer_auth(&tokens[(n / 4) % tokens.len()])
                .body(body.clone());
            async move { first_message(request).await }
        })
        .buffer_unordered(OPENING_AT_ONCE)
        .collect()
        .await;
    let mut streams = Vec::with_capacity(count);
    for stream in opened {
        streams.push(stream?);
    }
    println!("open {}", streams.len());
    wait_for_signal().await;
    drop(streams);
    Ok(())
}

/// Sends the call and reads until its first message has arrived; a gRPC-web error comes as a
/// trailer frame (flag 0x80) instead.
async fn first_message(request: reqwest::RequestBuilder) -> Result<reqwest::Response, BoxError> {
    let mut response = request.send().await?.error_for_status()?;
    if let Some(status) = response.headers().get("grpc-status") {
        return Err(format!("refused: grpc-status {status:?}").into());
    }
    let mut received = BytesMut::new();
    while received.len() < 5 {
        let chunk = response.chunk().await?.ok_or("the stream ended at once")?;
        received.extend_from_slice(&chunk);
    }
    if received.get_u8() & 0x80 != 0 {
        return Err(format!("refused: {}", String::from_utf8_lossy(&received[4..])).into());
    }
    Ok(response)
}

async fn wait_for_signal() {
    let mut terminate =
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(signal) => signal,
            Err(_) => return,
        };
    tokio::select! {
        _ = terminate.recv() => {},
        _ = tokio::signal::ctrl_c() => {},
    }
}
