//! Photos of the damage under load: the server binary as a process of its own (so its memory
//! is its own, apart from the client's 15 MiB messages), a customer's open requests, and
//! rounds of 16 AddRepairRequestPhoto calls at once. Prints, for each kind of photo, the
//! photos processed per second, the answers by code and reason, and the server's resident
//! set and its peak (VmRSS, VmHWM from /proc) before and after. Asserts only that no answer
//! is a server fault.
//!
//! The photos: a phone's 12 MP photo of fine texture (noise, JPEG quality 100, as large as
//! its pixels make it), and the worst case the bounds allow, a 40 MP JPEG padded to 15 MiB
//! (the most pixels a photo may have, in the largest file).
//!
//! Run (release server, test Postgres and Redis, as `make test` starts them):
//!   `source scripts/services.sh && start_test_postgres && start_test_redis`, then
//!   `cargo bench -p repairs-server --bench photos`.
//! `PHOTOS_ROUNDS` (3) rounds of `PHOTOS_AT_ONCE` (16) uploads per kind; the server's
//! `PHOTO_CONCURRENCY` and `PHOTO_QUEUE` are passed on when set.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark: failures should panic"
)]

#[path = "../tests/common/mod.rs"]
mod common;
mod process;

use std::{
    collections::BTreeMap,
    path::PathBuf,
    time::{Duration, Instant},
};

use process::ServerProcess;
use repairs_proto::{
    accounts::{self as apb, accounts_service_client::AccountsServiceClient},
    marketplace::{self as pb, marketplace_service_client::MarketplaceServiceClient},
    types::Address,
};
use repairs_server::testing::photos;
use tokio::task::JoinSet;
use tonic::{Code, transport::Channel};

type Market = MarketplaceServiceClient<Channel>;

/// A photo request's largest size, with room for its other fields.
const MAX_MESSAGE: usize = 16 * 1024 * 1024;
const FIFTEEN_MIB: usize = 15 * 1024 * 1024;

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn with_token<T>(message: T, token: &str) -> tonic::Request<T> {
    common::with_token(message, token)
}

/// The largest noisy JPEG of about `megapixels` that fits in 15 MiB.
fn noisy_photo(megapixels: f64) -> Vec<u8> {
    let mut scale = 1.0;
    loop {
        let width = (4000.0 * scale * (megapixels / 12.0).sqrt()) as u32;
        let height = width * 3 / 4;
        let jpeg = photos::noisy_jpeg(width, height, 7);
        if jpeg.len() <= FIFTEEN_MIB {
            return jpeg;
        }
        scale *= 0.9;
    }
}

/// A 40 MP JPEG (7300 x 5475) padded after its end to exactly 15 MiB.
fn largest_photo() -> Vec<u8> {
    let mut jpeg = photos::jpeg(7300, 5475);
    assert!(jpeg.len() <= FIFTEEN_MIB);
    jpeg.resize(FIFTEEN_MIB, 0);
    jpeg
}

/// A customer with a verified phone, through the server's own calls and its database.
async fn customer(server: &ServerProcess) -> String {
    let mut accounts = AccountsServiceClient::new(server.channel().await);
    let email = format!("photos-{}@example.ca", uuid::Uuid::now_v7());
    let signed_up = common::sign_up(&mut accounts, apb::Role::Customer, &email).await;
    let database = server.database.as_ref().expect("a test database");
    let db = sqlx::PgPool::connect(&database.url).await.unwrap();
    sqlx::query(
        "update customers set phone = '+14035550100', phone_verified = true where id = $1::uuid",
    )
    .bind(&signed_up.id)
    .execute(&db)
    .await
    .unwrap();
    db.close().await;
    signed_up.token
}

async fn open_request(market: &mut Market, token: &str) -> String {
    market
        .create_repair_request(with_token(
            pb::CreateRepairRequestRequest {
                photos_to_follow: 0,
                request_id: uuid::Uuid::now_v7().to_string(),
                draft: Some(pb::RepairRequestDraft {
                    service_id: "0190a6c0-0000-7000-8000-000000000001".into(),
                    description: "Water comes through the ceiling".into(),
                    urgency: pb::Urgency::Immediate as i32,
                    address: Some(Address {
                        line1: "100 8 Ave SW".into(),
                        city: "Calgary".into(),
                        province: "AB".into(),
                        postal_code: "T2P 1J9".into(),
                        country: "CA".into(),
                        ..Default::default()
                    }),
                }),
            },
            token,
        ))
        .await
        .unwrap()
        .into_inner()
        .repair_request
        .unwrap()
        .id
}

/// `count` uploads of `photo` at once, over `count` connections, to requests of 8 places
/// each; the answers by code and reason, and how long the round took.
async fn round(
    server: &ServerProcess,
    token: &str,
    photo: &[u8],
    count: usize,
) -> (BTreeMap<String, usize>, Duration) {
    let mut market = Market::new(server.channel().await);
    let mut requests = Vec::new();
    for _ in 0..count.div_ceil(8) {
        requests.push(open_request(&mut market, token).await);
    }
    let mut clients = Vec::new();
    for _ in 0..count {
        clients.push(
            Market::new(server.channel().await)
                .max_encoding_message_size(MAX_MESSAGE)
                .max_decoding_message_size(MAX_MESSAGE),
        );
    }
    let started = Instant::now();
    let mut calls = JoinSet::new();
    for (n, mut client) in clients.into_iter().enumerate() {
        let request = with_token(
            pb::AddRepairRequestPhotoRequest {
                repair_request_id: requests[n / 8].clone(),
                content: photo.to_vec(),
            },
            token,
        );
        calls.spawn(async move { client.add_repair_request_photo(request).await.map(drop) });
    }
    (process::tally(calls.join_all().await), started.elapsed())
}

#[tokio::main]
async fn main() {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_repairs-server"));
    let rounds = setting("PHOTOS_ROUNDS", 3);
    let at_once = setting("PHOTOS_AT_ONCE", 16);
    let passed_on: Vec<(&str, String)> = ["PHOTO_CONCURRENCY", "PHOTO_QUEUE"]
        .into_iter()
        .filter_map(|name| Some((name, std::env::var(name).ok()?)))
        .collect();
    let mut settings: Vec<(&str, &str)> = vec![("REPAIR_REQUESTS_PER_CUSTOMER_PER_HOUR", "1000")];
    settings.extend(
        passed_on
            .iter()
            .map(|(name, value)| (*name, value.as_str())),
    );
    let release = !binary.to_string_lossy().contains("/debug/");
    println!(
        "photos: {} server, {} core(s), {rounds} rounds of {at_once} uploads at once, {settings:?}",
        if release { "release" } else { "debug" },
        std::thread::available_parallelism().map_or(1, usize::from),
    );
    let server = ServerProcess::start(&binary, false, &settings).await;
    let token = customer(&server).await;
    let (idle, _) = server.memory();
    println!("photos: server idle rss={idle:.0} MB");

    let kinds = [
        ("12 MP phone photo", noisy_photo(12.0)),
        ("40 MP padded to 15 MiB", largest_photo()),
    ];
    let mut faults = 0;
    for (label, photo) in &kinds {
        let mut processed = 0;
        let mut busy_time = Duration::ZERO;
        let mut answers_all = BTreeMap::new();
        for _ in 0..rounds {
            let (answers, took) = round(&server, &token, photo, at_once).await;
            processed += answers.get("OK").copied().unwrap_or(0);
            busy_time += took;
            for (key, n) in answers {
                *answers_all.entry(key).or_insert(0) += n;
            }
        }
        faults += answers_all
            .keys()
            .filter(|key| {
                [Code::Internal, Code::Unknown, Code::Unavailable]
                    .iter()
                    .any(|code| key.starts_with(&format!("{code:?} ")))
            })
            .count();
        let (rss, peak) = server.memory();
        println!(
            "photos: {label:24} file={:>5.1} MiB  {:>5.2} photos/s  answers={answers_all:?}  \
             server rss={rss:.0} MB peak={peak:.0} MB",
            photo.len() as f64 / (1024.0 * 1024.0),
            processed as f64 / busy_time.as_secs_f64(),
        );
    }
    server.stop().await;
    assert_eq!(faults, 0, "server faults among the answers");
}
