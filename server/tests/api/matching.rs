//! Matching: the rule's edges against real Postgres (radius boundary, days and hours across
//! time zones and midnight, specialisation, approval, membership, phone), the open-requests
//! pages and stream, and displayed distances (the OSRM adapter against a local server that
//! speaks its `table` protocol, through the Redis cache).

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use crate::helpers::{self, LocalServer, closed_port_url, redis_cache};
use axum::{
    Json, Router,
    extract::{Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use repairs_server::{
    cache::Cache,
    domain::{Coordinates, great_circle_meters},
    matching::DistanceService,
    providers::osrm::{OsrmConfig, OsrmDistance},
    testing::road_router::parse_points,
};
use serde_json::json;

// ---------------------------------------------------------------------------------------
// Displayed distances: OSRM and the cache

const CALGARY: Coordinates = Coordinates {
    latitude: 51.0447,
    longitude: -114.0719,
};
const EDMONTON: Coordinates = Coordinates {
    latitude: 53.5461,
    longitude: -113.4937,
};
/// The fake answers "no route" to anywhere on this longitude, and fails on the next.
const ISLAND_LONGITUDE: f64 = -50.0;
const BROKEN_LONGITUDE: f64 = -51.0;
const SLOW_LONGITUDE: f64 = -52.0;

/// Road distance in the fake: 1.25 times great-circle, as roads wander.
fn road_meters(a: Coordinates, b: Coordinates) -> f64 {
    (great_circle_meters(a, b) * 1.25).round()
}

/// OSRM's `GET /table/v1/{profile}/{lng,lat;lng,lat}?sources=0&destinations=1&annotations=distance`.
async fn table(
    State(hits): State<Arc<AtomicUsize>>,
    Path((profile, points)): Path<(String, String)>,
    axum::extract::Query(query): axum::extract::Query<std::collections::HashMap<String, String>>,
) -> Response {
    hits.fetch_add(1, Ordering::SeqCst);
    let invalid = |message: &str| {
        (
            StatusCode::BAD_REQUEST,
            Json(json!({"code": "InvalidQuery", "message": message})),
        )
            .into_response()
    };
    let Some(points) = parse_points(&points) else {
        return invalid("Query string malformed close to position 0");
    };
    if profile != "driving"
        || points.len() != 2
        || query.get("sources").map(String::as_str) != Some("0")
        || query.get("destinations").map(String::as_str) != Some("1")
        || query.get("annotations").map(String::as_str) != Some("distance")
    {
        return invalid("unexpected table query");
    }
    let (a, b) = (points[0], points[1]);
    if [a, b].iter().any(|p| p.longitude == BROKEN_LONGITUDE) {
        return (StatusCode::INTERNAL_SERVER_ERROR, "<html>down</html>").into_response();
    }
    if [a, b].iter().any(|p| p.longitude == SLOW_LONGITUDE) {
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
    let cell = if [a, b].iter().any(|p| p.longitude == ISLAND_LONGITUDE) {
        serde_json::Value::Null
    } else {
        json!(road_meters(a, b))
    };
    Json(json!({
        "code": "Ok",
        "distances": [[cell]],
        "sources": [{"location": [a.longitude, a.latitude], "name": ""}],
        "destinations": [{"location": [b.longitude, b.latitude], "name": ""}],
    }))
    .into_response()
}

async fn osrm_fake() -> (LocalServer, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let router = Router::new()
        .route("/table/v1/{profile}/{points}", get(table))
        .with_state(hits.clone());
    (LocalServer::start(router).await, hits)
}

/// At most two look-ups at once; a third waits for a turn as long as one look-up may take.
fn osrm_service(url: &str, cache: Arc<dyn Cache>, timeout: Duration) -> DistanceService {
    osrm_service_waiting(url, cache, timeout, timeout)
}

fn osrm_service_waiting(
    url: &str,
    cache: Arc<dyn Cache>,
    timeout: Duration,
    wait: Duration,
) -> DistanceService {
    let mut config = OsrmConfig::new(url);
    config.timeout = timeout;
    DistanceService::new(Arc::new(OsrmDistance::new(config).unwrap()), cache, 2, wait)
}

#[tokio::test]
async fn osrm_road_distance_is_looked_up_once_per_pair_of_places() {
    let (fake, hits) = osrm_fake().await;
    let cache = redis_cache().await;
    let distances = osrm_service(&fake.url(), cache.clone(), Duration::from_secs(2));

    let first = distances.between(CALGARY, EDMONTON).await.unwrap();
    assert_eq!(first.meters, road_meters(CALGARY, EDMONTON));
    assert!(first.whole_km() > 300, "{first:?}");
    assert_eq!(hits.load(Ordering::SeqCst), 1);

    // The same pair, the other way round, and a point a few metres off: the cache answers.
    assert_eq!(distances.between(EDMONTON, CALGARY).await.unwrap(), first);
    let nearby = Coordinates {
        latitude: CALGARY.latitude + 0.00002,
        longitude: CALGARY.longitude - 0.00001,
    };
    assert_eq!(distances.between(nearby, EDMONTON).await.unwrap(), first);
    assert_eq!(hits.load(Ordering::SeqCst), 1);

    // Another replica sharing Redis asks nothing either.
    let other = osrm_service(&fake.url(), cache, Duration::from_secs(2));
    assert_eq!(other.between(CALGARY, EDMONTON).await.unwrap(), first);
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    fake.stop().await;
}

#[tokio::test]
async fn osrm_failures_are_unavailable_or_no_route_never_a_panic() {
    let (fake, hits) = osrm_fake().await;
    let distances = osrm_service(&fake.url(), redis_cache().await, Duration::from_millis(500));
    let at = |longitude| Coordinates {
        latitude: 50.0,
        longitude,
    };

    let island = distances.between(CALGARY, at(ISLAND_LONGITUDE)).await;
    let status = tonic::Status::from(island.unwrap_err());
    assert_eq!(status.code(), tonic::Code::FailedPrecondition);
    assert_eq!(helpers::reason(&status), "NO_ROUTE");

    let broken = distances.between(CALGARY, at(BROKEN_LONGITUDE)).await;
    let status = tonic::Status::from(broken.unwrap_err());
    assert_eq!(status.code(), tonic::Code::Unavailable);
    assert_eq!(helpers::reason(&status), "DISTANCE_UNAVAILABLE");
    assert!(
        status.message().contains("try again"),
        "{}",
        status.message()
    );

    let started = std::time::Instant::now();
    let slow = distances.between(CALGARY, at(SLOW_LONGITUDE)).await;
    assert_eq!(
        tonic::Status::from(slow.unwrap_err()).code(),
        tonic::Code::Unavailable
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the timeout holds"
    );

    // Failures are not cached: the next call asks again.
    let before = hits.load(Ordering::SeqCst);
    assert!(
        distances
            .between(CALGARY, at(BROKEN_LONGITUDE))
            .await
            .is_err()
    );
    assert_eq!(hits.load(Ordering::SeqCst), before + 1);
    fake.stop().await;

    let nobody = osrm_service(
        &closed_port_url(),
        redis_cache().await,
        Duration::from_secs(1),
    );
    let status = tonic::Status::from(nobody.between(CALGARY, EDMONTON).await.unwrap_err());
    assert_eq!(status.code(), tonic::Code::Unavailable);
}

#[tokio::test]
async fn osrm_calls_in_flight_are_bounded() {
    let (fake, hits) = osrm_fake().await;
    // Two calls at once at most (each cut off after 1 s); others wait 200 ms for a turn.
    let distances = Arc::new(osrm_service_waiting(
        &fake.url(),
        redis_cache().await,
        Duration::from_secs(1),
        Duration::from_millis(200),
    ));
    let slow = |i: u32| Coordinates {
        latitude: 50.0 + f64::from(i),
        longitude: SLOW_LONGITUDE,
    };
    let calls: Vec<_> = (0..4)
        .map(|i| {
            let distances = distances.clone();
            tokio::spawn(async move { distances.between(CALGARY, slow(i)).await })
        })
        .collect();
    for call in calls {
        assert!(call.await.unwrap().is_err());
    }
    assert_eq!(
        hits.load(Ordering::SeqCst),
        2,
        "only two calls reached the server; the others gave up waiting"
    );
    fake.stop().await;
}

// ---------------------------------------------------------------------------------------
// The rule, against the real schema

use crate::helpers::{
    TestServer,
    market::{ELECTRICIAN, PLUMBING},
};
use chrono::{DateTime, TimeZone, Utc};
use repairs_server::matching::{self, OpenRequestsPageRequest};
use sqlx::{PgPool, Row};
use uuid::Uuid;

const ROOFING: &str = "0190a6c0-0000-7000-8000-000000000004";
/// The server's Earth radius: metres per radian of latitude.
const EARTH_RADIUS_METERS: f64 = 6_371_008.8;

fn service(id: &str) -> Uuid {
    Uuid::parse_str(id).unwrap()
}

/// The point `meters` due north of `from`.
fn north_of(from: Coordinates, meters: f64) -> Coordinates {
    Coordinates {
        latitude: from.latitude + (meters / EARTH_RADIUS_METERS).to_degrees(),
        longitude: from.longitude,
    }
}

/// A professional as the rule sees them; `Pro::member(...)` matches everything by default.
#[derive(Clone)]
struct Pro {
    home: Coordinates,
    radius_km: i32,
    time_zone: &'static str,
    /// ISO weekdays, 1 = Monday.
    days: Vec<i16>,
    from: &'static str,
    to: &'static str,
    state: &'static str,
    phone_verified: bool,
    membership_days_left: Option<i64>,
    services: Vec<&'static str>,
    sms: &'static str,
}

impl Pro {
    fn member(home: Coordinates, radius_km: i32) -> Self {
        Self {
            home,
            radius_km,
            time_zone: "America/Edmonton",
            days: (1..=7).collect(),
            from: "00:00",
            to: "23:59",
            state: "approved",
            phone_verified: true,
            membership_days_left: Some(10),
            services: vec![PLUMBING],
            sms: "yes",
        }
    }
}

async fn add_professional(db: &PgPool, pro: &Pro) -> Uuid {
    let id = Uuid::now_v7();
    sqlx::query("insert into professionals (id, name, email) values ($1, 'Pro', $2)")
        .bind(id)
        .bind(format!("{id}@example.ca"))
        .execute(db)
        .await
        .unwrap();
    shape_professional(db, id, pro).await;
    id
}

/// Gives professional `id` the standing, home base, hours and services of `pro`.
async fn shape_professional(db: &PgPool, id: Uuid, pro: &Pro) {
    sqlx::query(
        "update professionals set phone = '+15875550100', phone_verified = $2,
             sms_updates = $3, state = $4, home_latitude = $5, home_longitude = $6,
             time_zone = $7, available_days = $8, available_from = $9::time,
             available_to = $10::time, radius_km = $11,
             membership_expires_at = now() + make_interval(days => $12::int),
             profile_saved_at = now()
         where id = $1",
    )
    .bind(id)
    .bind(pro.phone_verified)
    .bind(pro.sms)
    .bind(pro.state)
    .bind(pro.home.latitude)
    .bind(pro.home.longitude)
    .bind(pro.time_zone)
    .bind(&pro.days)
    .bind(pro.from)
    .bind(pro.to)
    .bind(pro.radius_km)
    .bind(pro.membership_days_left)
    .execute(db)
    .await
    .unwrap();
    sqlx::query("delete from professional_services where professional_id = $1")
        .bind(id)
        .execute(db)
        .await
        .unwrap();
    for s in &pro.services {
        sqlx::query(
            "insert into professional_services (professional_id, service_id) values ($1, $2)",
        )
        .bind(id)
        .bind(service(s))
        .execute(db)
        .await
        .unwrap();
    }
}

async fn add_customer(db: &PgPool) -> Uuid {
    let id = Uuid::now_v7();
    sqlx::query("insert into customers (id, name, email) values ($1, 'Customer', $2)")
        .bind(id)
        .bind(format!("{id}@example.ca"))
        .execute(db)
        .await
        .unwrap();
    id
}

/// An open request placed at `at` for `service_id`.
async fn add_request(db: &PgPool, customer: Uuid, at: Coordinates, service_id: &str) -> Uuid {
    let id = Uuid::now_v7();
    sqlx::query(
        "insert into repair_requests (id, customer_id, request_id, request_hash, service_id,
             urgency, description, line1, city, province, postal_code, latitude, longitude,
             placed_by, expires_at)
         values ($1, $2, $1, $3, $4, 'immediate', 'A burst pipe', '1 Main St', 'Calgary', 'AB',
             '', $5, $6, 'city', now() + interval '3 days')",
    )
    .bind(id)
    .bind(customer)
    .bind(vec![0_u8; 32])
    .bind(service(service_id))
    .bind(at.latitude)
    .bind(at.longitude)
    .execute(db)
    .await
    .unwrap();
    id
}

async fn listed(db: &PgPool, professional: Uuid) -> Vec<Uuid> {
    let page = OpenRequestsPageRequest::parse(100, "").unwrap();
    matching::open_requests_for(db, professional, &page)
        .await
        .unwrap()
        .matches
        .into_iter()
        .map(|m| m.request_id)
        .collect()
}

async fn notified_at(db: &PgPool, request: Uuid, now: DateTime<Utc>) -> Vec<Uuid> {
    let mut tx = db.begin().await.unwrap();
    let found = matching::professionals_to_notify_at(&mut tx, request, now, 1_000)
        .await
        .unwrap();
    tx.rollback().await.unwrap();
    found.into_iter().map(|n| n.professional_id).collect()
}

async fn notified(db: &PgPool, request: Uuid) -> Vec<Uuid> {
    notified_at(db, request, Utc::now()).await
}

fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, s).unwrap()
}

async fn world() -> (TestServer, PgPool, Uuid) {
    let server = TestServer::start().await;
    let db = server.server.state.db.clone();
    let customer = add_customer(&db).await;
    (server, db, customer)
}

async fn finish(server: TestServer) {
    server.database.drop_database().await;
    server.server.stop().await.unwrap();
}

#[tokio::test]
async fn the_radius_is_compared_in_whole_km_as_the_spec_rounds() {
    let (server, db, customer) = world().await;
    let pro = add_professional(&db, &Pro::member(CALGARY, 10)).await;
    // 10.49 km rounds to 10 (in reach); 10.51 km rounds to 11 (out of reach).
    let inside = add_request(&db, customer, north_of(CALGARY, 10_490.0), PLUMBING).await;
    let outside = add_request(&db, customer, north_of(CALGARY, 10_510.0), PLUMBING).await;

    assert_eq!(listed(&db, pro).await, vec![inside]);
    assert_eq!(notified(&db, inside).await, vec![pro]);
    assert!(notified(&db, outside).await.is_empty());
    let distance = matching::matches(&db, pro, inside).await.unwrap().unwrap();
    assert_eq!(distance.whole_km(), 10);
    assert!((distance.meters - 10_490.0).abs() < 1.0, "{distance:?}");
    assert_eq!(matching::matches(&db, pro, outside).await.unwrap(), None);
    finish(server).await;
}

#[tokio::test]
async fn only_approved_verified_members_offering_the_service_match() {
    let (server, db, customer) = world().await;
    let base = Pro::member(CALGARY, 50);
    let good = add_professional(&db, &base).await;
    let waiting = add_professional(
        &db,
        &Pro {
            state: "waiting_for_approval",
            ..base.clone()
        },
    )
    .await;
    let denied_update = add_professional(
        &db,
        &Pro {
            state: "profile_updated",
            ..base.clone()
        },
    )
    .await;
    let unverified = add_professional(
        &db,
        &Pro {
            phone_verified: false,
            ..base.clone()
        },
    )
    .await;
    let lapsed = add_professional(
        &db,
        &Pro {
            membership_days_left: Some(-1),
            ..base.clone()
        },
    )
    .await;
    let never_paid = add_professional(
        &db,
        &Pro {
            membership_days_left: None,
            ..base.clone()
        },
    )
    .await;
    let roofer = add_professional(
        &db,
        &Pro {
            services: vec![ROOFING],
            ..base.clone()
        },
    )
    .await;
    let both = add_professional(
        &db,
        &Pro {
            services: vec![ROOFING, PLUMBING],
            ..base.clone()
        },
    )
    .await;

    let request = add_request(&db, customer, north_of(CALGARY, 2_000.0), PLUMBING).await;
    let mut expected = vec![good, both];
    expected.sort();
    let mut found = notified(&db, request).await;
    found.sort();
    assert_eq!(found, expected);
    for pro in [
        waiting,
        denied_update,
        unverified,
        lapsed,
        never_paid,
        roofer,
    ] {
        assert!(listed(&db, pro).await.is_empty());
        assert_eq!(matching::matches(&db, pro, request).await.unwrap(), None);
    }
    assert_eq!(listed(&db, good).await, vec![request]);

    // A request no longer open matches nobody.
    sqlx::query("update repair_requests set state = 'cancelled', closed_at = now() where id = $1")
        .bind(request)
        .execute(&db)
        .await
        .unwrap();
    assert!(listed(&db, good).await.is_empty());
    assert!(notified(&db, request).await.is_empty());
    finish(server).await;
}

#[tokio::test]
async fn days_and_hours_are_read_in_each_professionals_own_time_zone() {
    let (server, db, customer) = world().await;
    // Monday 9:00 to 17:00, in three zones (MST -7, EST -5, NST -3:30 in November).
    let office = |time_zone| Pro {
        time_zone,
        days: vec![1],
        from: "09:00",
        to: "17:00",
        ..Pro::member(CALGARY, 50)
    };
    let edmonton = add_professional(&db, &office("America/Edmonton")).await;
    let toronto = add_professional(&db, &office("America/Toronto")).await;
    let st_johns = add_professional(&db, &office("America/St_Johns")).await;
    let request = add_request(&db, customer, CALGARY, PLUMBING).await;
    let at = |h, mi, s| notified_at(&db, request, utc(2026, 11, 23, h, mi, s));
    let sorted = |mut v: Vec<Uuid>| {
        v.sort();
        v
    };

    // Monday 12:25 UTC: 05:25 MST, 07:25 EST, 08:55 NST: nobody.
    assert!(at(12, 25, 0).await.is_empty());
    // 12:35 UTC: 09:05 in St. John's only.
    assert_eq!(at(12, 35, 0).await, vec![st_johns]);
    // 16:30 UTC: 09:30 MST, 11:30 EST, 13:00 NST: all three.
    assert_eq!(at(16, 30, 0).await.len(), 3);
    // 22:00:59 UTC: 17:00 in Toronto is still within (whole minutes, both ends included).
    assert_eq!(sorted(at(22, 0, 59).await), sorted(vec![edmonton, toronto]));
    // 22:01 UTC: 17:01 in Toronto, past; 15:01 in Edmonton, within.
    assert_eq!(at(22, 1, 0).await, vec![edmonton]);
    // Tuesday 16:30 UTC: not one of their days anywhere.
    assert!(
        notified_at(&db, request, utc(2026, 11, 24, 16, 30, 0))
            .await
            .is_empty()
    );
    // The listing ignores days and hours.
    assert_eq!(listed(&db, toronto).await, vec![request]);
    finish(server).await;
}

#[tokio::test]
async fn hours_across_midnight_belong_to_the_day_they_start() {
    let (server, db, customer) = world().await;
    // Mondays, 22:00 to 06:00, in Edmonton (UTC-7 in November).
    let night = add_professional(
        &db,
        &Pro {
            days: vec![1],
            from: "22:00",
            to: "06:00",
            ..Pro::member(CALGARY, 50)
        },
    )
    .await;
    let request = add_request(&db, customer, CALGARY, PLUMBING).await;
    let cases = [
        // Monday 01:00 local: Sunday's night, not a working day.
        (utc(2026, 11, 23, 8, 0, 0), false),
        // Monday 21:59 local: before the shift.
        (utc(2026, 11, 24, 4, 59, 0), false),
        // Monday 22:00 local: the shift starts.
        (utc(2026, 11, 24, 5, 0, 0), true),
        // Tuesday 01:00 local: still Monday's shift.
        (utc(2026, 11, 24, 8, 0, 0), true),
        // Tuesday 06:00 local: the last minute of it.
        (utc(2026, 11, 24, 13, 0, 30), true),
        // Tuesday 06:01 local: over.
        (utc(2026, 11, 24, 13, 1, 0), false),
        // Wednesday 01:00 local: Tuesday's night, not a working day.
        (utc(2026, 11, 25, 8, 0, 0), false),
    ];
    for (now, expected) in cases {
        let found = notified_at(&db, request, now).await;
        assert_eq!(found == vec![night], expected, "at {now}");
    }
    finish(server).await;
}

#[tokio::test]
async fn the_list_is_nearest_first_and_its_pages_hold_while_requests_arrive() {
    let (server, db, customer) = world().await;
    let pro = add_professional(&db, &Pro::member(CALGARY, 100)).await;
    let mut placed = Vec::new();
    for km in [30.0, 5.0, 50.0, 20.0] {
        placed.push((
            km,
            add_request(&db, customer, north_of(CALGARY, km * 1000.0), PLUMBING).await,
        ));
    }
    // Three at one place (a postal area's point): newest first among them.
    let same_place = north_of(CALGARY, 10_000.0);
    for _ in 0..3 {
        placed.push((10.0, add_request(&db, customer, same_place, PLUMBING).await));
    }
    let mut expected = placed.clone();
    expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
    let expected: Vec<Uuid> = expected.into_iter().map(|(_, id)| id).collect();

    let mut seen = Vec::new();
    let mut token = String::new();
    let mut pages = 0;
    loop {
        let page = OpenRequestsPageRequest::parse(2, &token).unwrap();
        let answer = matching::open_requests_for(&db, pro, &page).await.unwrap();
        assert!(answer.matches.len() <= 2);
        let kms: Vec<i32> = answer
            .matches
            .iter()
            .map(|m| m.distance.whole_km())
            .collect();
        assert!(kms.windows(2).all(|w| w[0] <= w[1]), "{kms:?}");
        seen.extend(answer.matches.iter().map(|m| m.request_id));
        pages += 1;
        if pages == 1 {
            // New requests, nearer and farther, while the professional pages on.
            add_request(&db, customer, north_of(CALGARY, 1_000.0), PLUMBING).await;
            add_request(&db, customer, north_of(CALGARY, 90_000.0), PLUMBING).await;
            add_request(&db, customer, same_place, PLUMBING).await;
        }
        if answer.next_page_token.is_empty() {
            break;
        }
        token = answer.next_page_token;
    }
    assert_eq!(
        seen, expected,
        "every request placed before the first page, once, in order"
    );
    assert_eq!(pages, 4);
    // A new first page shows the new ones too.
    assert_eq!(listed(&db, pro).await.len(), expected.len() + 3);
    finish(server).await;
}

/// The plan of `sql` (text, one line a row), run for real.
async fn analyzed_plan(
    db: &PgPool,
    sql: &str,
    bind: impl FnOnce(PgQuery<'_>) -> PgQuery<'_>,
) -> Vec<String> {
    let explain = format!("explain (analyze, costs off, timing off, summary off) {sql}");
    bind(sqlx::query(sqlx::AssertSqlSafe(explain)))
        .fetch_all(db)
        .await
        .unwrap()
        .iter()
        .map(|row| row.get::<String, _>(0))
        .collect()
}

type PgQuery<'q> = sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>;

#[tokio::test]
async fn the_professional_side_reads_their_services_once_not_per_request() {
    let (server, db, customer) = world().await;
    let pro = add_professional(
        &db,
        &Pro {
            services: vec![PLUMBING, ROOFING],
            ..Pro::member(CALGARY, 100)
        },
    )
    .await;
    let mut first = None;
    for (km, service) in [
        (5.0, PLUMBING),
        (10.0, ROOFING),
        (15.0, ELECTRICIAN),
        (20.0, PLUMBING),
    ] {
        let id = add_request(&db, customer, north_of(CALGARY, km * 1000.0), service).await;
        first.get_or_insert(id);
    }
    let now = Utc::now();
    let plans = [
        analyzed_plan(
            &db,
            &repairs_server::store::match_rule::OPEN_REQUESTS,
            |q| {
                q.bind(pro)
                    .bind(now)
                    .bind(now)
                    .bind(None::<f64>)
                    .bind(None::<DateTime<Utc>>)
                    .bind(None::<Uuid>)
                    .bind(51_i64)
            },
        )
        .await,
        analyzed_plan(&db, &repairs_server::store::match_rule::LATEST_OPEN, |q| {
            q.bind(pro).bind(now).bind(5_i64)
        })
        .await,
        analyzed_plan(&db, &repairs_server::store::match_rule::ONE_MATCH, |q| {
            q.bind(pro).bind(first.unwrap()).bind(now)
        })
        .await,
    ];
    for plan in plans {
        let reads: Vec<usize> = (1..plan.len())
            .filter(|&n| plan[n].contains(" on professional_services "))
            .collect();
        assert!(!reads.is_empty(), "{plan:#?}");
        for n in reads {
            // Read once, into the array each request is checked against in the scan.
            assert!(
                plan[n - 1].trim_start().starts_with("InitPlan") && plan[n].contains("loops=1)"),
                "the services are joined per request: {plan:#?}"
            );
        }
    }
    assert_eq!(
        listed(&db, pro).await.len(),
        3,
        "the electrician's request is not theirs"
    );
    finish(server).await;
}

#[tokio::test]
async fn a_professional_who_moves_or_changes_services_is_matched_where_they_are_now() {
    let (server, db, customer) = world().await;
    let pro = add_professional(&db, &Pro::member(CALGARY, 20)).await;
    let in_edmonton = add_request(&db, customer, EDMONTON, PLUMBING).await;
    assert!(notified(&db, in_edmonton).await.is_empty());

    // The home base moves to Edmonton: the fan-out's index follows.
    sqlx::query("update professionals set home_latitude = $2, home_longitude = $3 where id = $1")
        .bind(pro)
        .bind(EDMONTON.latitude)
        .bind(EDMONTON.longitude)
        .execute(&db)
        .await
        .unwrap();
    assert_eq!(notified(&db, in_edmonton).await, vec![pro]);
    let in_calgary = add_request(&db, customer, CALGARY, PLUMBING).await;
    assert!(notified(&db, in_calgary).await.is_empty());

    // A radius wide enough reaches Calgary again (about 280 km away).
    sqlx::query("update professionals set radius_km = 300 where id = $1")
        .bind(pro)
        .execute(&db)
        .await
        .unwrap();
    assert_eq!(notified(&db, in_calgary).await, vec![pro]);

    // Services replaced, as saving a profile does: roofing only.
    sqlx::query("delete from professional_services where professional_id = $1")
        .bind(pro)
        .execute(&db)
        .await
        .unwrap();
    sqlx::query("insert into professional_services (professional_id, service_id) values ($1, $2)")
        .bind(pro)
        .bind(service(ROOFING))
        .execute(&db)
        .await
        .unwrap();
    assert!(notified(&db, in_calgary).await.is_empty());
    let roof = add_request(&db, customer, CALGARY, ROOFING).await;
    assert_eq!(notified(&db, roof).await, vec![pro]);
    assert_eq!(listed(&db, pro).await, vec![roof]);
    finish(server).await;
}

#[tokio::test]
async fn a_professional_without_a_time_zone_is_listed_but_not_notified() {
    let (server, db, customer) = world().await;
    let pro = add_professional(
        &db,
        &Pro {
            time_zone: "",
            ..Pro::member(CALGARY, 20)
        },
    )
    .await;
    let request = add_request(&db, customer, CALGARY, PLUMBING).await;
    assert!(notified(&db, request).await.is_empty());
    assert_eq!(listed(&db, pro).await, vec![request]);
    finish(server).await;
}

// ---------------------------------------------------------------------------------------
// The fan-out's index of eligible professionals, and its limit

/// Whether professional `id`'s rows are in the fan-out's index (`eligible`), one per service.
async fn in_reach_index(db: &PgPool, id: Uuid) -> Vec<bool> {
    sqlx::query_scalar(
        "select eligible from professional_services where professional_id = $1
         order by service_id",
    )
    .bind(id)
    .fetch_all(db)
    .await
    .unwrap()
}

async fn set_professional(db: &PgPool, id: Uuid, assignment: &str) {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "update professionals set {assignment} where id = $1"
    )))
    .bind(id)
    .execute(db)
    .await
    .unwrap();
}

/// A month granted as a purchase grants it (the paid-until time moves, a receipt is written).
async fn grant_month(db: &PgPool, id: Uuid) {
    let grant = repairs_server::store::memberships::Grant {
        professional_id: id,
        request_id: Uuid::now_v7(),
        payment_id: None,
        coupon_id: None,
    };
    let now = Utc::now();
    let granted = repairs_server::store::memberships::grant(
        db,
        &grant,
        |end| repairs_server::billing::membership::next_period(now, end),
        |member, _| repairs_server::outbox::NewOutboxMessage::email(&member.email, "Receipt", "."),
    )
    .await
    .unwrap();
    assert!(granted);
}

#[tokio::test]
async fn the_fan_out_index_holds_eligible_professionals_as_their_standing_changes() {
    let (server, db, _) = world().await;
    let base = Pro {
        services: vec![PLUMBING, ROOFING],
        ..Pro::member(CALGARY, 30)
    };
    let pro = add_professional(&db, &base).await;
    assert_eq!(in_reach_index(&db, pro).await, vec![true, true]);
    let mut unpaid = base.clone();
    unpaid.membership_days_left = None;
    let never_paid = add_professional(&db, &unpaid).await;
    assert_eq!(in_reach_index(&db, never_paid).await, vec![false, false]);

    // Each condition the rule names takes the professional out, and back when it holds again.
    for (off, on) in [
        ("phone_verified = false", "phone_verified = true"),
        ("state = 'profile_updated'", "state = 'approved'"),
        ("radius_km = null", "radius_km = 30"),
        ("home_latitude = null", "home_latitude = 51.0447"),
        (
            "membership_expires_at = now() - interval '1 minute'",
            "membership_expires_at = now() + interval '1 day'",
        ),
    ] {
        set_professional(&db, pro, off).await;
        assert_eq!(in_reach_index(&db, pro).await, vec![false, false], "{off}");
        set_professional(&db, pro, on).await;
        assert_eq!(in_reach_index(&db, pro).await, vec![true, true], "{on}");
    }
    // A service added later enters with the professional's standing.
    sqlx::query("insert into professional_services (professional_id, service_id) values ($1, $2)")
        .bind(never_paid)
        .bind(service("0190a6c0-0000-7000-8000-000000000002"))
        .execute(&db)
        .await
        .unwrap();
    assert_eq!(in_reach_index(&db, never_paid).await, vec![false; 3]);
    // The purchase of a first month puts them in at once, with no housekeeping pass.
    grant_month(&db, never_paid).await;
    assert_eq!(in_reach_index(&db, never_paid).await, vec![true; 3]);

    // The index's flag and the rule's exact check say the same of every professional.
    let disagreeing: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "select count(*) from professionals p
         where professional_may_be_matched(p, $1) is distinct from ({})",
        repairs_server::store::match_rule::eligible("$1")
    )))
    .bind(Utc::now())
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(disagreeing, 0);
    finish(server).await;
}

#[tokio::test]
async fn a_membership_lapsing_between_housekeeping_passes_is_never_notified() {
    let (server, db, customer) = world().await;
    let pro = add_professional(&db, &Pro::member(CALGARY, 30)).await;
    set_professional(
        &db,
        pro,
        "membership_expires_at = now() + interval '1 hour'",
    )
    .await;
    let request = add_request(&db, customer, north_of(CALGARY, 3_000.0), PLUMBING).await;
    assert_eq!(notified(&db, request).await, vec![pro]);

    // Two hours on, before the next pass: still in the index, but no longer a member.
    let later = Utc::now() + chrono::Duration::hours(2);
    assert_eq!(in_reach_index(&db, pro).await, vec![true]);
    assert!(notified_at(&db, request, later).await.is_empty());

    // The pass takes them out of the index (and leaves everyone else as they were).
    let member = add_professional(&db, &Pro::member(CALGARY, 30)).await;
    assert_eq!(matching::refresh_eligibility(&db, later).await.unwrap(), 1);
    assert_eq!(in_reach_index(&db, pro).await, vec![false]);
    assert_eq!(in_reach_index(&db, member).await, vec![true]);
    assert_eq!(matching::refresh_eligibility(&db, later).await.unwrap(), 0);

    // Renewing puts them back at once.
    grant_month(&db, pro).await;
    assert_eq!(in_reach_index(&db, pro).await, vec![true]);
    let mut found = notified(&db, request).await;
    found.sort();
    let mut expected = vec![pro, member];
    expected.sort();
    assert_eq!(found, expected);
    finish(server).await;
}

#[tokio::test]
async fn past_the_limit_the_nearest_are_notified_first() {
    let (server, db, customer) = world().await;
    let request_at = CALGARY;
    let at_km = |km: f64| north_of(request_at, km * 1_000.0);
    let far = add_professional(&db, &Pro::member(at_km(4.0), 50)).await;
    let second = add_professional(&db, &Pro::member(at_km(2.0), 50)).await;
    let first = add_professional(&db, &Pro::member(at_km(1.0), 50)).await;
    let farthest = add_professional(&db, &Pro::member(at_km(5.0), 50)).await;
    // Two at the same place: the limit falls between them, and the lower id is kept.
    let tied_a = add_professional(&db, &Pro::member(at_km(3.0), 50)).await;
    let tied_b = add_professional(&db, &Pro::member(at_km(3.0), 50)).await;
    // Nearer than all, but not to be told: they must not take a place.
    add_professional(
        &db,
        &Pro {
            phone_verified: false,
            ..Pro::member(at_km(0.5), 50)
        },
    )
    .await;
    add_professional(
        &db,
        &Pro {
            time_zone: "",
            ..Pro::member(at_km(0.5), 50)
        },
    )
    .await;
    let lapsing = add_professional(&db, &Pro::member(at_km(0.5), 50)).await;
    set_professional(
        &db,
        lapsing,
        "membership_expires_at = now() + interval '1 hour'",
    )
    .await;

    let request = add_request(&db, customer, request_at, PLUMBING).await;
    let later = Utc::now() + chrono::Duration::hours(2);
    let pool = &db;
    let nearest = |limit| async move {
        let mut tx = pool.begin().await.unwrap();
        let found = matching::professionals_to_notify_at(&mut tx, request, later, limit)
            .await
            .unwrap();
        tx.rollback().await.unwrap();
        found
            .into_iter()
            .map(|n| n.professional_id)
            .collect::<Vec<_>>()
    };
    let tied = tied_a.min(tied_b);
    assert_eq!(nearest(3).await, vec![first, second, tied]);
    assert_eq!(nearest(1).await, vec![first]);
    assert_eq!(
        nearest(10).await,
        vec![first, second, tied, tied_a.max(tied_b), far, farthest]
    );
    finish(server).await;
}

// ---------------------------------------------------------------------------------------
// MatchingService

use crate::helpers::{reason, with_token};
use repairs_proto::{
    marketplace::repair_request::Location,
    matching::{self as pb, matching_service_client::MatchingServiceClient},
};
use repairs_server::{
    domain::Role,
    live::{notify_hub::Heard, open_requests::Opened},
};
use tonic::{Code, transport::Channel};

async fn client(server: &TestServer) -> MatchingServiceClient<Channel> {
    MatchingServiceClient::new(server.channel().await)
}

/// A signed-in professional shaped like `pro`.
async fn professional_token(server: &TestServer, pro: &Pro) -> (Uuid, String) {
    let (id, token) = server.account_token(Role::Professional).await;
    shape_professional(&server.server.state.db, id, pro).await;
    (id, token)
}

fn list(professional_id: Uuid, token: &str) -> tonic::Request<pb::ListOpenRequestsRequest> {
    with_token(
        pb::ListOpenRequestsRequest {
            professional_id: professional_id.to_string(),
            page_size: 10,
            page_token: String::new(),
        },
        token,
    )
}

#[tokio::test]
async fn open_requests_need_a_membership_and_show_no_street() {
    let (server, db, customer) = world().await;
    let mut matching = client(&server).await;
    let lapsed = Pro {
        membership_days_left: None,
        ..Pro::member(CALGARY, 30)
    };
    let (pro, token) = professional_token(&server, &lapsed).await;
    let request = add_request(&db, customer, north_of(CALGARY, 3_000.0), PLUMBING).await;
    sqlx::query("update repair_requests set postal_code = 'T2P 1J9' where id = $1")
        .bind(request)
        .execute(&db)
        .await
        .unwrap();

    let refused = matching
        .list_open_requests(list(pro, &token))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "MEMBERSHIP_INACTIVE");

    shape_professional(&db, pro, &Pro::member(CALGARY, 30)).await;
    let page = matching
        .list_open_requests(list(pro, &token))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(page.repair_requests.len(), 1);
    let shown = page.repair_requests[0].repair_request.clone().unwrap();
    assert_eq!(shown.id, request.to_string());
    assert_eq!(shown.service_name, "Plumbing Services");
    let Some(Location::ApproximateLocation(place)) = shown.location else {
        panic!(
            "a professional sees the approximate location only: {:?}",
            shown.location
        );
    };
    assert_eq!(
        (
            place.city.as_str(),
            place.province.as_str(),
            place.postal_area.as_str()
        ),
        ("Calgary", "AB", "T2P")
    );
    assert_eq!(place.distance_km, 3);

    // Someone else's list, or a customer: refused.
    let (other, other_token) = professional_token(&server, &Pro::member(CALGARY, 30)).await;
    let denied = matching
        .list_open_requests(list(pro, &other_token))
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let mine = matching
        .list_open_requests(list(other, &other_token))
        .await
        .unwrap();
    assert_eq!(mine.into_inner().repair_requests.len(), 1);
    let (_, customer_token) = server.account_token(Role::Customer).await;
    let denied = matching
        .list_open_requests(list(pro, &customer_token))
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    finish(server).await;
}

/// The next message of a stream, or `None` when none comes within `wait`.
async fn next_within(
    stream: &mut tonic::Streaming<pb::WatchOpenRequestsResponse>,
    wait: Duration,
) -> Option<Result<Option<pb::WatchOpenRequestsResponse>, tonic::Status>> {
    tokio::time::timeout(wait, stream.message()).await.ok()
}

/// The next message of a stream, which must be a snapshot: the ids it holds, and its token.
async fn next_snapshot(
    stream: &mut tonic::Streaming<pb::WatchOpenRequestsResponse>,
) -> (Vec<String>, String) {
    let message = next_within(stream, Duration::from_secs(10))
        .await
        .expect("a snapshot within 10 s")
        .unwrap()
        .expect("the stream goes on");
    assert!(message.repair_request.is_none(), "{message:?}");
    let snapshot = message.snapshot.expect("a snapshot");
    (ids(&snapshot.repair_requests), snapshot.next_page_token)
}

fn ids(requests: &[pb::OpenRepairRequest]) -> Vec<String> {
    requests
        .iter()
        .map(|r| r.repair_request.as_ref().unwrap().id.clone())
        .collect()
}

/// The caller's open-requests stream, with snapshots of `page_size`.
async fn open_stream(
    matching: &mut MatchingServiceClient<Channel>,
    page_size: i32,
    token: &str,
) -> tonic::Streaming<pb::WatchOpenRequestsResponse> {
    let request = pb::WatchOpenRequestsRequest {
        professional_id: String::new(),
        page_size,
    };
    matching
        .watch_open_requests(with_token(request, token))
        .await
        .unwrap()
        .into_inner()
}

/// "List, then watch" misses nothing: a request placed after the list was read and before
/// the stream opened comes in the stream's first message, a snapshot (or in a later page of
/// it); what is placed after comes alone; a gap brings a fresh snapshot.
#[tokio::test]
async fn a_request_placed_between_the_list_and_the_watch_is_not_missed() {
    let (server, db, customer) = world().await;
    let mut matching = client(&server).await;
    let (pro, token) = professional_token(&server, &Pro::member(CALGARY, 30)).await;
    let first = add_request(&db, customer, north_of(CALGARY, 1_000.0), PLUMBING).await;
    let listed = matching
        .list_open_requests(list(pro, &token))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(&listed.repair_requests), [first.to_string()]);

    let between = add_request(&db, customer, north_of(CALGARY, 2_000.0), PLUMBING).await;
    let mut stream = open_stream(&mut matching, 0, &token).await;
    let (shown, rest) = next_snapshot(&mut stream).await;
    assert_eq!(shown, [first.to_string(), between.to_string()]);
    assert!(rest.is_empty());
    // Postgres may deliver the notice of a request the snapshot showed after the snapshot
    // was read (a busy listener): it is not sent a second time.
    server
        .server
        .state
        .open_requests
        .announce(Heard::Event(Opened {
            id: between,
            service_id: PLUMBING.parse().unwrap(),
            point: north_of(CALGARY, 2_000.0),
        }));

    let after = add_request(&db, customer, north_of(CALGARY, 3_000.0), PLUMBING).await;
    let message = next_within(&mut stream, Duration::from_secs(10))
        .await
        .expect("the new request arrives")
        .unwrap()
        .unwrap();
    assert!(message.snapshot.is_none());
    let arrived = message.repair_request.unwrap().repair_request.unwrap();
    assert_eq!(arrived.id, after.to_string());

    // Missed notifications (the listener reconnected, say): the list comes again.
    server.server.state.open_requests.announce(Heard::Gap);
    let (shown, _) = next_snapshot(&mut stream).await;
    assert_eq!(shown.len(), 3);
    drop(stream);

    // A snapshot is a first page: the rest is read from the list with its token.
    let mut small = open_stream(&mut matching, 2, &token).await;
    let (shown, rest) = next_snapshot(&mut small).await;
    assert_eq!(shown, [first.to_string(), between.to_string()]);
    let mut next = list(pro, &token);
    next.get_mut().page_token = rest;
    let page = matching
        .list_open_requests(next)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(&page.repair_requests), [after.to_string()]);
    drop(small);
    finish(server).await;
}

#[tokio::test]
async fn the_stream_brings_new_matching_requests_only_and_is_bounded() {
    let server = TestServer::start_with(|config| config.watch_streams_per_professional = 1).await;
    let db = server.server.state.db.clone();
    let customer = add_customer(&db).await;
    let mut matching = client(&server).await;
    let (pro, token) = professional_token(&server, &Pro::member(CALGARY, 30)).await;
    let watch = |token: &str| {
        with_token(
            pb::WatchOpenRequestsRequest {
                professional_id: pro.to_string(),
                page_size: 0,
            },
            token,
        )
    };
    let mut stream = matching
        .watch_open_requests(watch(&token))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(next_snapshot(&mut stream).await, (vec![], String::new()));

    // One stream per professional here: a second one is refused.
    let second = matching
        .watch_open_requests(watch(&token))
        .await
        .unwrap_err();
    assert_eq!(second.code(), Code::ResourceExhausted);
    assert_eq!(reason(&second), "TOO_MANY_STREAMS");

    // Another service, then out of reach, then one that matches.
    add_request(&db, customer, CALGARY, ROOFING).await;
    add_request(&db, customer, EDMONTON, PLUMBING).await;
    let wanted = add_request(&db, customer, north_of(CALGARY, 5_000.0), PLUMBING).await;
    let message = next_within(&mut stream, Duration::from_secs(10))
        .await
        .expect("a matching request arrives")
        .unwrap()
        .unwrap();
    let shown = message.repair_request.unwrap().repair_request.unwrap();
    assert_eq!(shown.id, wanted.to_string());
    assert!(matches!(
        shown.location,
        Some(Location::ApproximateLocation(ref place)) if place.distance_km == 5
    ));
    assert!(
        next_within(&mut stream, Duration::from_millis(500))
            .await
            .is_none(),
        "nothing else matched"
    );

    // The server stopping ends the stream instead of waiting for it.
    let stopped = tokio::time::timeout(Duration::from_secs(20), finish(server)).await;
    assert!(stopped.is_ok(), "an open stream does not hold the server");
    let end = next_within(&mut stream, Duration::from_secs(5)).await;
    assert!(matches!(end, Some(Ok(None)) | Some(Err(_))), "{end:?}");
}

/// A bounded load: 12 open streams (Calgary plumbers, Edmonton plumbers, Calgary roofers)
/// and 10 new requests (plumbing in Calgary, roofing in Edmonton). Without the in-memory
/// pre-filter every stream asks the database about every request (120 queries); with it
/// only the streams that may match do (the 4 Calgary plumbers for the 5 Calgary requests).
#[tokio::test]
async fn streams_ask_the_database_only_about_requests_they_may_match() {
    let server = TestServer::start().await;
    let db = server.server.state.db.clone();
    let customer = add_customer(&db).await;
    let mut matching = client(&server).await;
    let roofer = |home| Pro {
        services: vec![ROOFING],
        ..Pro::member(home, 50)
    };
    let mut streams = Vec::new();
    for pro in [
        Pro::member(CALGARY, 50),
        Pro::member(EDMONTON, 50),
        roofer(CALGARY),
    ] {
        for _ in 0..4 {
            let (id, token) = professional_token(&server, &pro).await;
            let request = with_token(
                pb::WatchOpenRequestsRequest {
                    professional_id: id.to_string(),
                    page_size: 0,
                },
                &token,
            );
            let mut stream = matching
                .watch_open_requests(request)
                .await
                .unwrap()
                .into_inner();
            next_snapshot(&mut stream).await;
            streams.push(stream);
        }
    }
    for _ in 0..5 {
        add_request(&db, customer, EDMONTON, ROOFING).await;
    }
    for _ in 0..5 {
        add_request(&db, customer, north_of(CALGARY, 2_000.0), PLUMBING).await;
    }
    for stream in &mut streams[..4] {
        for _ in 0..5 {
            let message = next_within(stream, Duration::from_secs(10)).await;
            assert!(matches!(message, Some(Ok(Some(_)))), "{message:?}");
        }
    }
    for stream in &mut streams[4..] {
        assert!(
            next_within(stream, Duration::from_millis(200))
                .await
                .is_none()
        );
    }
    let (announced, checks) = server.server.state.open_requests.checks();
    println!(
        "{} streams, {announced} new requests: {checks} rule queries, {:.1} per request \
         (without the pre-filter: {})",
        streams.len(),
        checks as f64 / announced as f64,
        streams.len() as u64 * announced
    );
    assert_eq!((announced, checks), (10, 20));
    finish(server).await;
}

fn distance(origin: pb::place::Kind, destination: pb::place::Kind) -> pb::GetDistanceRequest {
    pb::GetDistanceRequest {
        origin: Some(pb::Place { kind: Some(origin) }),
        destination: Some(pb::Place {
            kind: Some(destination),
        }),
    }
}

#[tokio::test]
async fn distances_between_postal_codes_addresses_and_points() {
    let (server, _db, _customer) = world().await;
    let mut matching = client(&server).await;
    let (_, token) = server.account_token(Role::Customer).await;
    use pb::place::Kind;

    let calgary_to_edmonton = matching
        .get_distance(with_token(
            distance(
                Kind::PostalCode("T2P 1J9".into()),
                Kind::Address("10235 101 St NW, Edmonton, AB T5J 3G1".into()),
            ),
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(
        (270..=300).contains(&calgary_to_edmonton.distance_km),
        "{calgary_to_edmonton:?}"
    );
    assert!(calgary_to_edmonton.origin_name.ends_with(", AB"));

    let by_town = matching
        .get_distance(with_token(
            distance(
                Kind::Address("12 Main Street, Red Deer, AB".into()),
                Kind::Point(pb::LatLng {
                    latitude: CALGARY.latitude,
                    longitude: CALGARY.longitude,
                }),
            ),
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert!((130..=160).contains(&by_town.distance_km), "{by_town:?}");
    assert_eq!(
        by_town.distance_meters / 1000,
        i64::from(by_town.distance_km) - i64::from(by_town.distance_meters % 1000 >= 500)
    );

    let nowhere = matching
        .get_distance(with_token(
            distance(
                Kind::Address("Nowhere in particular".into()),
                Kind::PostalCode("T2P".into()),
            ),
            &token,
        ))
        .await
        .unwrap_err();
    assert_eq!(nowhere.code(), Code::NotFound);
    assert_eq!(reason(&nowhere), "ADDRESS_NOT_FOUND");

    let off_the_map = matching
        .get_distance(with_token(
            distance(
                Kind::Point(pb::LatLng {
                    latitude: 91.0,
                    longitude: 0.0,
                }),
                Kind::PostalCode("not a code".into()),
            ),
            &token,
        ))
        .await
        .unwrap_err();
    assert_eq!(off_the_map.code(), Code::InvalidArgument);

    let anonymous = matching
        .get_distance(distance(
            Kind::PostalCode("T2P".into()),
            Kind::PostalCode("T5J".into()),
        ))
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);
    finish(server).await;
}

/// Records that `professional` was told of `request` on `channel`, through an outbox row in
/// `outbox_state` (`None`: the outbox has purged it).
async fn record_notification(
    db: &PgPool,
    request: Uuid,
    professional: Uuid,
    channel: &str,
    outbox_state: Option<(&str, i32, &str)>,
    distance_m: i32,
) {
    let message = match outbox_state {
        Some((state, attempts, error)) => {
            let id = Uuid::now_v7();
            sqlx::query(
                "insert into outbox_messages (id, channel, recipient, body, state, attempts,
                     last_error, finished_at)
                 values ($1, $2, 'pro@example.ca', 'A new request', $3, $4, $5,
                     case when $3 = 'pending' then null else now() end)",
            )
            .bind(id)
            .bind(channel)
            .bind(state)
            .bind(attempts)
            .bind(error)
            .execute(db)
            .await
            .unwrap();
            Some(id)
        }
        None => None,
    };
    sqlx::query(
        "insert into request_notifications (repair_request_id, professional_id, channel,
             outbox_message_id, distance_m)
         values ($1, $2, $3, $4, $5)",
    )
    .bind(request)
    .bind(professional)
    .bind(channel)
    .bind(message)
    .bind(distance_m)
    .execute(db)
    .await
    .unwrap();
}

#[tokio::test]
async fn admins_see_whom_a_request_matched_and_how_each_notification_went() {
    let (server, db, customer) = world().await;
    let mut matching = client(&server).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let request = add_request(&db, customer, CALGARY, PLUMBING).await;
    let near = add_professional(&db, &Pro::member(CALGARY, 30)).await;
    let far = add_professional(&db, &Pro::member(CALGARY, 30)).await;
    record_notification(&db, request, near, "email", Some(("sent", 1, "")), 1_400).await;
    record_notification(
        &db,
        request,
        near,
        "sms",
        Some(("parked", 8, "carrier refused")),
        1_400,
    )
    .await;
    record_notification(&db, request, far, "email", None, 12_600).await;
    let ask = |page_token: String, token: &str| {
        with_token(
            pb::ListRepairRequestMatchesRequest {
                repair_request_id: request.to_string(),
                page_size: 1,
                page_token,
            },
            token,
        )
    };

    let first = matching
        .list_repair_request_matches(ask(String::new(), &admin))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first.matches.len(), 1);
    let nearest = &first.matches[0];
    assert_eq!(nearest.professional_id, near.to_string());
    assert_eq!(nearest.distance_km, 1);
    let states: Vec<(i32, i32, i32, &str)> = nearest
        .notifications
        .iter()
        .map(|n| (n.channel, n.state, n.attempts, n.last_error.as_str()))
        .collect();
    assert_eq!(
        states,
        vec![
            (
                pb::NotificationChannel::Email as i32,
                pb::DeliveryState::Sent as i32,
                1,
                ""
            ),
            (
                pb::NotificationChannel::Sms as i32,
                pb::DeliveryState::Parked as i32,
                8,
                "carrier refused"
            ),
        ]
    );
    assert!(
        nearest
            .notifications
            .iter()
            .all(|n| n.finish_time.is_some())
    );

    let second = matching
        .list_repair_request_matches(ask(first.next_page_token, &admin))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(second.matches.len(), 1);
    assert_eq!(second.matches[0].professional_id, far.to_string());
    assert_eq!(second.matches[0].distance_km, 13);
    assert_eq!(
        second.matches[0].notifications[0].state,
        pb::DeliveryState::Purged as i32
    );
    assert!(second.next_page_token.is_empty());

    let missing = with_token(
        pb::ListRepairRequestMatchesRequest {
            repair_request_id: Uuid::now_v7().to_string(),
            ..Default::default()
        },
        &admin,
    );
    let missing = matching
        .list_repair_request_matches(missing)
        .await
        .unwrap_err();
    assert_eq!(missing.code(), Code::NotFound);
    let (_, pro_token) = server.account_token(Role::Professional).await;
    let denied = matching
        .list_repair_request_matches(ask(String::new(), &pro_token))
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    finish(server).await;
}

#[tokio::test]
async fn the_legacy_notify_call_tells_a_matching_professional_once_and_reveals_nothing() {
    let (server, db, _) = world().await;
    let mut matching = client(&server).await;
    let (customer, token) = server.account_token(Role::Customer).await;
    let request = add_request(&db, customer, CALGARY, PLUMBING).await;
    let pro = add_professional(&db, &Pro::member(CALGARY, 30)).await;
    let email: String = sqlx::query_scalar("select email::text from professionals where id = $1")
        .bind(pro)
        .fetch_one(&db)
        .await
        .unwrap();
    let notify = |email: &str, request_id: String| {
        with_token(
            pb::NotifyProfessionalRequest {
                repair_request_id: request_id,
                professional_email: email.to_owned(),
            },
            &token,
        )
    };
    let told = || async {
        sqlx::query_scalar::<_, i64>(
            "select count(*) from request_notifications where repair_request_id = $1",
        )
        .bind(request)
        .fetch_one(&db)
        .await
        .unwrap()
    };

    // The latest open request, by the legacy client's email: email and SMS, once.
    matching
        .notify_professional(notify(&email, String::new()))
        .await
        .unwrap();
    assert_eq!(told().await, 2);
    matching
        .notify_professional(notify(&email, request.to_string()))
        .await
        .unwrap();
    assert_eq!(told().await, 2, "never twice");
    // An unknown email answers the same and tells nobody.
    matching
        .notify_professional(notify("nobody@example.ca", String::new()))
        .await
        .unwrap();
    assert_eq!(told().await, 2);
    // Someone else's request is not found.
    let stranger = add_customer(&db).await;
    let theirs = add_request(&db, stranger, CALGARY, PLUMBING).await;
    let refused = matching
        .notify_professional(notify(&email, theirs.to_string()))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    finish(server).await;
}
