//! The Rust side of `make bench-alerts` (scripts/bench/alerts.sh): how fast an emergency's
//! first Web Push reaches a push service, and its first native push APNs or FCM. It prints
//! figures and asserts nothing.
//!
//! - `alerts_bench vapid-key`: prints a new VAPID private key, for the server's
//!   `VAPID_PRIVATE_KEY`.
//! - `alerts_bench native-keys DIR URL`: writes an APNs key and an FCM service account for
//!   a local APNs and FCM at `URL` into `DIR`, and prints the server's settings for them
//!   (`APNS_URL=...`, one a line).
//! - `alerts_bench run`: with `DATABASE_URL`, `GRPC_URL`, `METRICS_URL`, `JWT_SECRET`,
//!   `VAPID_PRIVATE_KEY`, and `NATIVE_DIR` and `NATIVE_ADDR` of the native keys, of a running
//!   server (with `PUSH_ENDPOINT_HOSTS=127.0.0.1` and the native settings): starts the local
//!   push service of the tests (`repairs_server::testing::push_service`, which checks each
//!   VAPID token and decrypts each message) and their local APNs and FCM
//!   (`repairs_server::testing::native_push`, which check every token), seeds
//!   `BENCH_PROFESSIONALS` (10,000) approved member professionals over Alberta's towns, two
//!   services each, each with a browser and a phone subscribed (SQL; every other phone an
//!   iPhone, the others Android), then places `BENCH_PER_MINUTE` (50) emergencies a minute, evenly
//!   spaced, for `BENCH_MINUTES` (5) through `CreateRepairRequest`, each by a customer of its
//!   own, of a random service where a random professional lives. For each request: from the
//!   call's answer to the first push of it the push service took, and to the first native
//!   push APNs or FCM took. Then the server's own `repairs_notification_delay_seconds`
//!   (placing to each push, native push and email) from /metrics.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::{Rng, seq::SliceRandom};
use repairs_proto::{
    marketplace::{self as pb, marketplace_service_client::MarketplaceServiceClient},
    types::Address,
};
use repairs_server::{
    auth::{Caller, TokenKeys},
    domain::Role,
    providers::{Gazetteer, web_push::VapidKey},
    testing::{
        native_push::{self, NativePushService},
        push_service::PushService,
        scrape, with_token,
    },
};
use uuid::Uuid;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How many of the catalogue's services (migrations) requests and professionals use: the
/// first six, plumbing to electrician.
const SERVICES: u32 = 6;
/// How long to wait for the last requests' first pushes after the last call.
const DRAIN: Duration = Duration::from_secs(120);

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["vapid-key"] => {
            println!("{}", VapidKey::generate().private_base64url());
            Ok(())
        }
        ["native-keys", dir, url] => {
            native_push::write_keys(std::path::Path::new(dir), url);
            for (name, value) in native_push::settings(std::path::Path::new(dir), url) {
                println!("{name}={value}");
            }
            Ok(())
        }
        ["run"] => run().await,
        _ => Err("usage: alerts_bench vapid-key | native-keys DIR URL | run".into()),
    }
}

fn env(name: &str) -> Result<String, BoxError> {
    std::env::var(name).map_err(|_| format!("{name} is not set").into())
}

fn setting(name: &str, default: f64) -> Result<f64, BoxError> {
    match std::env::var(name) {
        Ok(value) => Ok(value.parse().map_err(|_| format!("{name}: {value:?}"))?),
        Err(_) => Ok(default),
    }
}

/// An urban postal area of Alberta and the town its codes are addressed in.
#[derive(Clone)]
struct Area {
    fsa: String,
    town: String,
    latitude: f64,
    longitude: f64,
}

/// Alberta's urban postal areas (a second character other than 0) that have a town.
fn alberta() -> Result<Vec<Area>, BoxError> {
    let gazetteer = Gazetteer::shipped()?;
    let mut csv = csv::Reader::from_reader(include_str!("../data/geo/ca-fsa.csv").as_bytes());
    let mut areas = Vec::new();
    for row in csv.records() {
        let row = row?;
        let field = |n| row.get(n).unwrap_or_default();
        let (fsa, province) = (field(0), field(2));
        if province != "AB" || fsa.as_bytes().get(1) == Some(&b'0') {
            continue;
        }
        if let Some(town) = gazetteer.town_of_area(fsa) {
            areas.push(Area {
                fsa: fsa.to_owned(),
                town: town.to_owned(),
                latitude: field(3).parse()?,
                longitude: field(4).parse()?,
            });
        }
    }
    if areas.is_empty() {
        return Err("no Alberta area in the gazetteer".into());
    }
    Ok(areas)
}

/// Seeds the professionals, each with a browser at `push` and a phone at `native`; the area
/// of each.
async fn seed_professionals(
    db: &sqlx::PgPool,
    push: &PushService,
    native: &NativePushService,
    areas: &[Area],
    count: usize,
) -> Result<Vec<Area>, BoxError> {
    let mut rng = rand::thread_rng();
    let homes: Vec<Area> = (0..count)
        .map(|_| areas.choose(&mut rng).cloned().ok_or("no area"))
        .collect::<Result<_, _>>()?;
    let ids: Vec<Uuid> = (0..count).map(|_| Uuid::now_v7()).collect();
    let numbers: Vec<i32> = (0..count).map(i32::try_from).collect::<Result<_, _>>()?;
    // Spread around each area's centre (about 2 km).
    let latitudes: Vec<f64> = homes
        .iter()
        .map(|a| a.latitude + rng.gen_range(-0.02..0.02))
        .collect();
    let longitudes: Vec<f64> = homes
        .iter()
        .map(|a| a.longitude + rng.gen_range(-0.03..0.03))
        .collect();
    let languages: Vec<&str> = (0..count)
        .map(|n| if n % 4 == 0 { "fr" } else { "en" })
        .collect();
    sqlx::query(
        "insert into professionals (id, name, email, language, state, approved_at, phone,
             phone_verified, sms_updates, description, radius_km, home_latitude, home_longitude,
             time_zone, available_days, available_from, available_to, membership_expires_at)
         select id, 'Bench Professional ' || n, 'bench-pro-' || n || '@example.ca', language,
             'approved', now(), '+1587' || lpad(n::text, 7, '0'), true, 'no',
             'Licensed, 24/7 emergencies.', 50, lat, lon, 'America/Edmonton',
             '{1,2,3,4,5,6,7}', '00:00', '23:59', now() + interval '30 days'
         from unnest($1::uuid[], $2::int[], $3::float8[], $4::float8[], $5::text[])
             as p (id, n, lat, lon, language)",
    )
    .bind(&ids)
    .bind(&numbers)
    .bind(&latitudes)
    .bind(&longitudes)
    .bind(&languages)
    .execute(db)
    .await?;
    // Two services each.
    let (mut offered_by, mut offered) = (Vec::new(), Vec::new());
    for id in &ids {
        for service in rand::seq::index::sample(&mut rng, SERVICES as usize, 2) {
            offered_by.push(*id);
            offered.push(service_id(service as u32 + 1));
        }
    }
    sqlx::query(
        "insert into professional_services (professional_id, service_id)
         select * from unnest($1::uuid[], $2::uuid[])",
    )
    .bind(&offered_by)
    .bind(&offered)
    .execute(db)
    .await?;
    let devices: Vec<_> = ids.iter().map(|_| push.device()).collect();
    let key = |text: &str| URL_SAFE_NO_PAD.decode(text);
    sqlx::query(
        "insert into push_subscriptions (id, professional_id, endpoint, p256dh, auth, language)
         select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::bytea[], $5::bytea[],
                              $6::text[])",
    )
    .bind(ids.iter().map(|_| Uuid::now_v7()).collect::<Vec<_>>())
    .bind(&ids)
    .bind(
        devices
            .iter()
            .map(|d| d.endpoint.clone())
            .collect::<Vec<_>>(),
    )
    .bind(
        devices
            .iter()
            .map(|d| key(&d.p256dh))
            .collect::<Result<Vec<_>, _>>()?,
    )
    .bind(
        devices
            .iter()
            .map(|d| key(&d.auth))
            .collect::<Result<Vec<_>, _>>()?,
    )
    .bind(&languages)
    .execute(db)
    .await?;
    // And a phone each: every other one an iPhone.
    let (platforms, tokens): (Vec<&str>, Vec<String>) = (0..count)
        .map(|n| {
            if n % 2 == 0 {
                ("ios", native.ios_device())
            } else {
                ("android", native.android_device())
            }
        })
        .unzip();
    sqlx::query(
        "insert into push_subscriptions (id, professional_id, platform, device_token, language)
         select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[])",
    )
    .bind(ids.iter().map(|_| Uuid::now_v7()).collect::<Vec<_>>())
    .bind(&ids)
    .bind(&platforms)
    .bind(&tokens)
    .bind(&languages)
    .execute(db)
    .await?;
    Ok(homes)
}

/// Seeds `count` customers with a verified phone; a token for each.
async fn seed_customers(db: &sqlx::PgPool, count: usize) -> Result<Vec<String>, BoxError> {
    let keys = TokenKeys::new(
        env("JWT_SECRET")?.as_bytes(),
        Duration::from_secs(24 * 3600),
        Duration::from_secs(3600),
    );
    let ids: Vec<Uuid> = (0..count).map(|_| Uuid::now_v7()).collect();
    sqlx::query(
        "insert into customers (id, name, email, phone, phone_verified)
         select id, 'Bench Customer', 'bench-customer-' || id || '@example.ca',
                '+14035550100', true
         from unnest($1::uuid[]) as c (id)",
    )
    .bind(&ids)
    .execute(db)
    .await?;
    ids.into_iter()
        .map(|account_id| {
            let caller = Caller {
                account_id,
                role: Role::Customer,
            };
            Ok(keys.issue(caller, 0)?.token)
        })
        .collect()
}

/// The id of the catalogue's `n`-th service.
fn service_id(n: u32) -> Uuid {
    Uuid::from_u128(0x0190a6c0_0000_7000_8000_000000000000 | u128::from(n))
}

fn emergency(area: &Area, service: Uuid) -> pb::RepairRequestDraft {
    pb::RepairRequestDraft {
        service_id: service.to_string(),
        description: "Water is coming through the ceiling, please come now".into(),
        urgency: pb::Urgency::Immediate as i32,
        address: Some(Address {
            line1: "100 Main St".into(),
            line2: String::new(),
            city: area.town.clone(),
            province: "AB".into(),
            postal_code: format!("{} 1A1", area.fsa),
            country: "CA".into(),
        }),
    }
}

/// One placed request: its id, when its call answered and how long the call took.
struct Placed {
    id: String,
    answered: Instant,
    call: Duration,
}

async fn run() -> Result<(), BoxError> {
    let professionals = setting("BENCH_PROFESSIONALS", 10_000.0)? as usize;
    let per_minute = setting("BENCH_PER_MINUTE", 50.0)?;
    let minutes = setting("BENCH_MINUTES", 5.0)?;
    let total = (per_minute * minutes).round() as usize;
    let vapid = VapidKey::from_base64url(&env("VAPID_PRIVATE_KEY")?)?;
    let push = PushService::start(vapid.public_base64url()).await;
    let native =
        NativePushService::start_on(env("NATIVE_ADDR")?.parse()?, env("NATIVE_DIR")?.into()).await;
    let db = sqlx::PgPool::connect(&env("DATABASE_URL")?).await?;
    let areas = alberta()?;
    let seeding = Instant::now();
    let homes = seed_professionals(&db, &push, &native, &areas, professionals).await?;
    let tokens = seed_customers(&db, total).await?;
    println!(
        "seeded {professionals} professionals with a browser and a phone each over {} areas of Alberta, \
         {total} customers, in {:.1} s",
        areas.len(),
        seeding.elapsed().as_secs_f64()
    );
    let channel = tonic::transport::Channel::from_shared(env("GRPC_URL")?)?
        .connect()
        .await?;
    let market = MarketplaceServiceClient::new(channel);
    let every = Duration::from_secs_f64(60.0 / per_minute);
    let start = tokio::time::Instant::now();
    let mut calls = Vec::with_capacity(total);
    for (n, token) in tokens.into_iter().enumerate() {
        tokio::time::sleep_until(start + every * u32::try_from(n)?).await;
        let (area, service) = {
            let mut rng = rand::thread_rng();
            let home = homes.choose(&mut rng).ok_or("no professional")?;
            (home.clone(), service_id(rng.gen_range(1..=SERVICES)))
        };
        let mut market = market.clone();
        calls.push(tokio::spawn(async move {
            let request = pb::CreateRepairRequestRequest {
                request_id: Uuid::new_v4().to_string(),
                draft: Some(emergency(&area, service)),
                photos_to_follow: 0,
            };
            let sent = Instant::now();
            let answer = market
                .create_repair_request(with_token(request, &token))
                .await;
            let answered = Instant::now();
            answer.map(|answer| Placed {
                id: answer
                    .into_inner()
                    .repair_request
                    .map(|r| r.id)
                    .unwrap_or_default(),
                answered,
                call: answered - sent,
            })
        }));
    }
    let mut placed = Vec::with_capacity(total);
    for call in calls {
        placed.push(call.await??);
    }
    let first = wait_for_first(&placed, || {
        push.all_received()
            .into_iter()
            .filter_map(|r| Some((request_of(r.payload["url"].as_str()?)?.to_owned(), r.at)))
            .collect()
    })
    .await;
    let first_native = wait_for_first(&placed, || {
        native
            .all_received()
            .into_iter()
            .filter_map(|r| Some((request_of(&r.url)?.to_owned(), r.at)))
            .collect()
    })
    .await;
    report(&push, &placed, &first, professionals, per_minute, minutes);
    report_native(&native, &placed, &first_native);
    let metrics = scrape::scrape(&env("METRICS_URL")?).await;
    print_server_delays(&metrics);
    push.stop().await;
    native.stop().await;
    Ok(())
}

/// The request a push is about: the last segment of the page it opens.
fn request_of(url: &str) -> Option<&str> {
    url.rsplit('/').next()
}

/// Waits until every request got a push (or [`DRAIN`] passed): the first push's arrival of
/// each request that got one, from `received` (each push's request and arrival).
async fn wait_for_first(
    placed: &[Placed],
    received: impl Fn() -> Vec<(String, Instant)>,
) -> HashMap<String, Instant> {
    let deadline = Instant::now() + DRAIN;
    loop {
        let mut first: HashMap<String, Instant> = HashMap::new();
        for (id, at) in received() {
            first.entry(id).or_insert(at);
        }
        let got = placed.iter().filter(|p| first.contains_key(&p.id)).count();
        if got == placed.len() || Instant::now() > deadline {
            return first;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// From each call's answer to its request's first push, in seconds, sorted; negative when
/// the push came first (it may reach the service before the answer reaches the client).
fn first_delays(placed: &[Placed], first: &HashMap<String, Instant>) -> Vec<f64> {
    sorted(
        placed
            .iter()
            .filter_map(|p| {
                let at = first.get(&p.id)?;
                Some(match at.checked_duration_since(p.answered) {
                    Some(after) => after.as_secs_f64(),
                    None => -(p.answered - *at).as_secs_f64(),
                })
            })
            .collect(),
    )
}

/// `label`: p50, p90, p99 and max of `delays`, and how many requests got one.
fn print_delays(label: &str, delays: &[f64], placed: usize) {
    println!(
        "{label}: p50 {:.3}  p90 {:.3}  p99 {:.3}  max {:.3}  \
         ({} of {placed} requests got one; {} before the answer)",
        quantile(delays, 0.5),
        quantile(delays, 0.9),
        quantile(delays, 0.99),
        delays.last().copied().unwrap_or(f64::NAN),
        delays.len(),
        delays.iter().filter(|d| **d < 0.0).count()
    );
}

/// The `q` quantile of sorted `values` (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn sorted(mut values: Vec<f64>) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    values
}

fn report(
    push: &PushService,
    placed: &[Placed],
    first: &HashMap<String, Instant>,
    professionals: usize,
    per_minute: f64,
    minutes: f64,
) {
    println!();
    println!(
        "== Alerts: {professionals} professionals, {per_minute} emergencies a minute for \
         {minutes} min ({} placed) ==",
        placed.len()
    );
    let calls = sorted(placed.iter().map(|p| p.call.as_secs_f64()).collect());
    println!(
        "CreateRepairRequest call (ms):             p50 {:7.1}  p99 {:7.1}",
        quantile(&calls, 0.5) * 1e3,
        quantile(&calls, 0.99) * 1e3
    );
    print_delays(
        "answer -> first push at the push service (s)",
        &first_delays(placed, first),
        placed.len(),
    );
    let received = push.all_received();
    if let (Some(first), Some(last)) = (received.first(), received.last()) {
        let span = (last.at - first.at).as_secs_f64().max(1e-3);
        println!(
            "pushes received: {} in {:.1} s, {:.0} per second; refused: {}",
            received.len(),
            span,
            received.len() as f64 / span,
            push.refused().len()
        );
    }
}

/// The native side: from each answer to its request's first alert at APNs or FCM.
fn report_native(native: &NativePushService, placed: &[Placed], first: &HashMap<String, Instant>) {
    print_delays(
        "answer -> first native push at APNs or FCM (s)",
        &first_delays(placed, first),
        placed.len(),
    );
    let received = native.all_received();
    let ios = received
        .iter()
        .filter(|r| r.platform == repairs_server::domain::NativePlatform::Ios)
        .count();
    println!(
        "native pushes received: {} (APNs {ios}, FCM {}); refused: {}; FCM token grants: {}, \
         APNs provider tokens: {}",
        received.len(),
        received.len() - ios,
        native.refused().len(),
        native.grants().len(),
        native.provider_tokens()
    );
}

/// The server's `repairs_notification_delay_seconds` by channel: count, mean and the
/// quantiles its buckets give (linear within a bucket, as `histogram_quantile` does).
fn print_server_delays(metrics: &str) {
    const NAME: &str = "repairs_notification_delay_seconds";
    println!("server {NAME} (placing -> each notification handed to its provider):");
    for channel in ["push", "apns", "fcm", "email"] {
        let labels = [("channel", channel)];
        let count = scrape::metric(metrics, &format!("{NAME}_count"), &labels).unwrap_or(0.0);
        let sum = scrape::metric(metrics, &format!("{NAME}_sum"), &labels).unwrap_or(0.0);
        let prefix = format!("{NAME}_bucket{{channel=\"{channel}\",le=\"");
        let buckets: Vec<(f64, f64)> = metrics
            .lines()
            .filter_map(|line| {
                let rest = line.strip_prefix(&prefix)?;
                let (le, value) = rest.split_once("\"} ")?;
                let le = if le == "+Inf" {
                    f64::INFINITY
                } else {
                    le.parse().ok()?
                };
                Some((le, value.parse().ok()?))
            })
            .collect();
        let q = |q| bucket_quantile(&buckets, q);
        println!(
            "  {channel:<5} count {count:6.0}  mean {:.3}  p50 {:.3}  p90 {:.3}  p99 {:.3}",
            sum / count.max(1.0),
            q(0.5),
            q(0.9),
            q(0.99)
        );
    }
}

fn bucket_quantile(buckets: &[(f64, f64)], q: f64) -> f64 {
    let Some(&(_, total)) = buckets.last() else {
        return f64::NAN;
    };
    let rank = q * total;
    let mut below = (0.0, 0.0);
    for &(le, count) in buckets {
        if count >= rank {
            if le.is_infinite() {
                return below.0;
            }
            let share = if count > below.1 {
                (rank - below.1) / (count - below.1)
            } else {
                0.0
            };
            return below.0 + (le - below.0) * share;
        }
        below = (le, count);
    }
    f64::NAN
}
