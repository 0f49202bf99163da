//! Matching: the rule's edges against real Postgres (radius boundary, days and hours across
//! time zones and midnight, specialisation, approval, membership, phone), the open-requests
//! pages and stream, and displayed distances (the OSRM adapter against a local server that
//! speaks its `table` protocol, through the Redis cache).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test crate: failures should panic"
)]

mod common;
mod providers_support;

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use axum::{
    Json, Router,
    extract::{Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use providers_support::{LocalServer, closed_port_url};
use repairs_server::{
    cache::{Cache, RedisCache},
    matching::DistanceService,
    providers::{
        Coordinates, great_circle_meters,
        osrm::{OsrmConfig, OsrmDistance},
    },
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

fn parse_points(points: &str) -> Option<Vec<Coordinates>> {
    points
        .split(';')
        .map(|pair| {
            let (lng, lat) = pair.split_once(',')?;
            Some(Coordinates {
                latitude: lat.parse().ok()?,
                longitude: lng.parse().ok()?,
            })
        })
        .collect()
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

async fn redis() -> Arc<dyn Cache> {
    let prefix = format!("test:{}:", uuid::Uuid::now_v7());
    Arc::new(
        RedisCache::connect(&common::test_redis_url(), &prefix)
            .await
            .unwrap(),
    )
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
    let cache = redis().await;
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
    let distances = osrm_service(&fake.url(), redis().await, Duration::from_millis(500));
    let at = |longitude| Coordinates {
        latitude: 50.0,
        longitude,
    };

    let island = distances.between(CALGARY, at(ISLAND_LONGITUDE)).await;
    let status = tonic::Status::from(island.unwrap_err());
    assert_eq!(status.code(), tonic::Code::FailedPrecondition);
    assert_eq!(common::reason(&status), "NO_ROUTE");

    let broken = distances.between(CALGARY, at(BROKEN_LONGITUDE)).await;
    let status = tonic::Status::from(broken.unwrap_err());
    assert_eq!(status.code(), tonic::Code::Unavailable);
    assert_eq!(common::reason(&status), "DISTANCE_UNAVAILABLE");
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
        &closed_port_url().await,
        redis().await,
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
        redis().await,
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
