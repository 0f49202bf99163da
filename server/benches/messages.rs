//! Message delivery to a watching reader: 200 conversations (200 customers in Calgary, each
//! with an open request and a plumber who may see it), each customer watching theirs with
//! WatchConversation, while the professionals send 20 messages a second in all, evenly
//! spaced, round the conversations. Prints p50/p95/p99 from the start of each SendMessage
//! call to the message on its reader's stream, from the call's answer to the stream, and of
//! the call itself; asserts nothing. Everything runs through gRPC against the in-process
//! server on the test Postgres and Redis, so the clients share the machine with it.
//!
//! Run: `source scripts/services.sh && start_test_postgres && start_test_redis`, then
//! `cargo bench -p repairs-server --bench messages` (`BENCH_SECONDS=60` for a longer run,
//! 30 by default).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark: failures should panic"
)]

#[path = "../tests/common/mod.rs"]
mod common;
mod figures;

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use common::with_token;
use repairs_proto::{
    marketplace::{
        self as pb, marketplace_service_client::MarketplaceServiceClient,
        watch_conversation_response::Event,
    },
    types::Address,
};
use repairs_server::{domain::Role, providers::Gazetteer};
use tonic::transport::Channel;
use uuid::Uuid;

const CONVERSATIONS: usize = 200;
const PER_SECOND: u64 = 20;
const PLUMBING: &str = "0190a6c0-0000-7000-8000-000000000001";

type Market = MarketplaceServiceClient<Channel>;

/// When each message (by its number) left and arrived.
#[derive(Default)]
struct Timings {
    started: HashMap<usize, Instant>,
    answered: HashMap<usize, Instant>,
    arrived: HashMap<usize, Instant>,
}

/// A customer watching their conversation with a professional.
struct Pair {
    request_id: String,
    professional_token: String,
}

async fn setup_pair(
    server: &common::TestServer,
    market: &mut Market,
    home: (f64, f64),
) -> (Pair, String, String) {
    let db = &server.server.state.db;
    let (customer_id, customer) = server.account_token(Role::Customer).await;
    sqlx::query("update customers set phone = '+14035550100', phone_verified = true where id = $1")
        .bind(customer_id)
        .execute(db)
        .await
        .unwrap();
    let (pro_id, professional) = server.account_token(Role::Professional).await;
    sqlx::query(
        "update professionals set state = 'approved', approved_at = now(),
            phone = '+15875550100', phone_verified = true, home_latitude = $2,
            home_longitude = $3, time_zone = 'America/Edmonton',
            available_days = '{1,2,3,4,5,6,7}', available_from = '00:00',
            available_to = '23:59', radius_km = 50,
            membership_expires_at = now() + interval '30 days'
         where id = $1",
    )
    .bind(pro_id)
    .bind(home.0)
    .bind(home.1)
    .execute(db)
    .await
    .unwrap();
    sqlx::query("insert into professional_services (professional_id, service_id) values ($1, $2)")
        .bind(pro_id)
        .bind(Uuid::parse_str(PLUMBING).unwrap())
        .execute(db)
        .await
        .unwrap();
    let draft = pb::RepairRequestDraft {
        service_id: PLUMBING.into(),
        description: "The kitchen sink leaks under the counter".into(),
        urgency: pb::Urgency::Immediate as i32,
        address: Some(Address {
            line1: "100 8 Ave SW".into(),
            line2: String::new(),
            city: "Calgary".into(),
            province: "AB".into(),
            postal_code: "T2P 1J9".into(),
            country: "CA".into(),
        }),
    };
    let placed = market
        .create_repair_request(with_token(
            pb::CreateRepairRequestRequest {
                photos_to_follow: 0,
                request_id: Uuid::now_v7().to_string(),
                draft: Some(draft),
            },
            &customer,
        ))
        .await
        .unwrap()
        .into_inner()
        .repair_request
        .unwrap();
    let pair = Pair {
        request_id: placed.id,
        professional_token: professional,
    };
    (pair, customer, pro_id.to_string())
}

/// Watches a conversation and records when each bench message arrives.
fn watch(
    mut market: Market,
    (customer, request_id, pro_id): (String, String, String),
    timings: Arc<Mutex<Timings>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let request = pb::WatchConversationRequest {
            repair_request_id: request_id,
            professional_id: pro_id,
            after_sequence: 0,
        };
        let mut stream = market
            .watch_conversation(with_token(request, &customer))
            .await
            .unwrap()
            .into_inner();
        while let Ok(Some(message)) = stream.message().await {
            if let Some(Event::Message(message)) = message.event {
                let Some(number) = message.text.strip_prefix("bench ") else {
                    continue;
                };
                let number: usize = number.parse().unwrap();
                timings
                    .lock()
                    .unwrap()
                    .arrived
                    .insert(number, Instant::now());
            }
        }
    })
}

/// Sends `count` messages from `first` on, `PER_SECOND` a second, round the conversations.
async fn send_all(
    market: &Market,
    pairs: &Arc<Vec<Pair>>,
    (first, count): (usize, usize),
    timings: &Arc<Mutex<Timings>>,
) {
    let mut ticks = tokio::time::interval(Duration::from_millis(1000 / PER_SECOND));
    let mut sends = Vec::with_capacity(count);
    for number in first..first + count {
        ticks.tick().await;
        let (mut market, pairs, timings) = (market.clone(), pairs.clone(), timings.clone());
        sends.push(tokio::spawn(async move {
            let pair = &pairs[number % pairs.len()];
            let request = pb::SendMessageRequest {
                repair_request_id: pair.request_id.clone(),
                professional_id: String::new(),
                text: format!("bench {number}"),
                request_id: Uuid::now_v7().to_string(),
                photo_ids: Vec::new(),
            };
            let request = with_token(request, &pair.professional_token);
            timings
                .lock()
                .unwrap()
                .started
                .insert(number, Instant::now());
            market.send_message(request).await.unwrap();
            timings
                .lock()
                .unwrap()
                .answered
                .insert(number, Instant::now());
        }));
    }
    for send in sends {
        send.await.unwrap();
    }
}

/// For the messages `numbers`: send call to stream, answer to stream, and the call itself.
fn figures_of(
    timings: &Timings,
    numbers: std::ops::Range<usize>,
) -> (Vec<Duration>, Vec<Duration>, Vec<Duration>) {
    let mut delivery = Vec::new();
    let mut after_answer = Vec::new();
    let mut calls = Vec::new();
    for number in numbers {
        let (started, answered) = (timings.started[&number], timings.answered[&number]);
        calls.push(answered - started);
        if let Some(arrived) = timings.arrived.get(&number) {
            delivery.push(*arrived - started);
            after_answer.push(arrived.saturating_duration_since(answered));
        }
    }
    (delivery, after_answer, calls)
}

#[tokio::main]
async fn main() {
    let seconds: u64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let server = common::TestServer::start_with(|config| {
        // One alert per request placed, so the outbox stays out of the figures.
        config.repair_request_max_notified = 1;
        config.messages_per_account_per_10_minutes = 100_000;
        config.messages_per_account_per_day = 100_000;
        config.database_max_connections = 16;
    })
    .await;
    let channel = server.channel().await;
    let mut market = MarketplaceServiceClient::new(channel.clone());
    let home = Gazetteer::shipped()
        .unwrap()
        .lookup_postal_code("T2P")
        .unwrap();
    let mut pairs = Vec::with_capacity(CONVERSATIONS);
    let timings = Arc::new(Mutex::new(Timings::default()));
    let mut watchers = Vec::with_capacity(CONVERSATIONS);
    for _ in 0..CONVERSATIONS {
        let (pair, customer, pro_id) =
            setup_pair(&server, &mut market, (home.latitude, home.longitude)).await;
        let watched = (customer, pair.request_id.clone(), pro_id);
        watchers.push(watch(market.clone(), watched, timings.clone()));
        pairs.push(pair);
    }
    let pairs = Arc::new(pairs);
    println!(
        "{CONVERSATIONS} conversations watched by their customers; {PER_SECOND} messages a second for {seconds} s"
    );
    // Warm-up: one message in each conversation (opening it), not counted.
    send_all(&market, &pairs, (0, CONVERSATIONS), &timings).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let measured = usize::try_from(seconds * PER_SECOND).unwrap();
    send_all(&market, &pairs, (CONVERSATIONS, measured), &timings).await;
    tokio::time::sleep(Duration::from_secs(2)).await;

    let numbers = CONVERSATIONS..CONVERSATIONS + measured;
    let (delivery, after_answer, calls) = figures_of(&timings.lock().unwrap(), numbers);
    let missing = measured - delivery.len();
    figures::report("send call -> on the reader's stream", delivery);
    figures::report("answer    -> on the reader's stream", after_answer);
    figures::report("SendMessage call                   ", calls);
    println!("messages not delivered: {missing} of {measured}");
    for watcher in watchers {
        watcher.abort();
    }
    server.stop().await;
}
