//! A local road router that speaks OSRM's `table` and `route` services (the parts the
//! adapter asks: `annotations=duration,distance` tables from many sources to one destination,
//! and `overview=false` routes), for the API tests and the matching benchmark. Its roads run
//! 1.25 times the straight line at 50 km/h, except across its river: a meridian crossed only
//! at one bridge, so a place just over the water can be a long drive away. It can answer
//! after a delay, and be switched off (every call then fails as a router that is down).

use std::{
    collections::HashMap,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::Duration,
};

use axum::{
    Json, Router,
    extract::{Path, Query, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use serde_json::json;

use super::LocalServer;
use crate::domain::{Coordinates, great_circle_meters};

/// A river along `longitude`, crossed only at `bridge`.
#[derive(Debug, Clone, Copy)]
pub struct River {
    pub longitude: f64,
    pub bridge: Coordinates,
}

/// How the router's roads run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Roads {
    pub river: Option<River>,
    /// How long each answer takes.
    pub delay: Duration,
}

/// Roads wander: 1.25 times the straight line.
const WANDER: f64 = 1.25;
/// 50 km/h, in metres a second.
const SPEED_MPS: f64 = 50_000.0 / 3600.0;

impl Roads {
    /// Metres by road from `a` to `b`.
    pub fn meters(&self, a: Coordinates, b: Coordinates) -> f64 {
        let straight = match self.river {
            Some(river) if (a.longitude < river.longitude) != (b.longitude < river.longitude) => {
                great_circle_meters(a, river.bridge) + great_circle_meters(river.bridge, b)
            }
            _ => great_circle_meters(a, b),
        };
        (straight * WANDER).round()
    }

    /// Seconds by road from `a` to `b`.
    pub fn seconds(&self, a: Coordinates, b: Coordinates) -> f64 {
        (self.meters(a, b) / SPEED_MPS).round()
    }
}

#[derive(Clone)]
struct Shared {
    roads: Roads,
    calls: Arc<AtomicUsize>,
    down: Arc<AtomicBool>,
}

/// The running router: its URL for `OSRM_URL`, how many calls it answered, and its switch.
pub struct RoadRouter {
    server: LocalServer,
    pub roads: Roads,
    calls: Arc<AtomicUsize>,
    down: Arc<AtomicBool>,
}

impl RoadRouter {
    pub async fn start(roads: Roads) -> Self {
        let shared = Shared {
            roads,
            calls: Arc::new(AtomicUsize::new(0)),
            down: Arc::new(AtomicBool::new(false)),
        };
        let router = Router::new()
            .route("/table/v1/{profile}/{points}", get(table))
            .route("/route/v1/{profile}/{points}", get(route))
            .with_state(shared.clone());
        Self {
            server: LocalServer::start(router).await,
            roads,
            calls: shared.calls,
            down: shared.down,
        }
    }

    pub fn url(&self) -> String {
        self.server.url()
    }

    /// Calls answered or refused so far.
    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    /// Makes every later call fail (true) or be answered again (false).
    pub fn set_down(&self, down: bool) {
        self.down.store(down, Ordering::SeqCst);
    }

    pub async fn stop(self) {
        self.server.stop().await;
    }
}

/// OSRM's `{lng},{lat};{lng},{lat}...` path segment.
pub fn parse_points(points: &str) -> Option<Vec<Coordinates>> {
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

fn indexes(list: Option<&String>, len: usize) -> Option<Vec<usize>> {
    match list.map(String::as_str) {
        None | Some("all") => Some((0..len).collect()),
        Some(list) => list
            .split(';')
            .map(|i| i.parse().ok().filter(|i| *i < len))
            .collect(),
    }
}

fn invalid(message: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({"code": "InvalidQuery", "message": message})),
    )
        .into_response()
}

/// Counts the call; `Err` with the refusal at once when switched off, else after the delay.
async fn answer(shared: &Shared) -> Result<(), Response> {
    shared.calls.fetch_add(1, Ordering::SeqCst);
    if shared.down.load(Ordering::SeqCst) {
        return Err((StatusCode::SERVICE_UNAVAILABLE, "<html>down</html>").into_response());
    }
    tokio::time::sleep(shared.roads.delay).await;
    Ok(())
}

async fn table(
    State(shared): State<Shared>,
    Path((profile, points)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    if let Err(refused) = answer(&shared).await {
        return refused;
    }
    let Some(points) = parse_points(&points).filter(|_| profile == "driving") else {
        return invalid("Query string malformed close to position 0");
    };
    let (Some(sources), Some(destinations)) = (
        indexes(query.get("sources"), points.len()),
        indexes(query.get("destinations"), points.len()),
    ) else {
        return invalid("sources or destinations out of range");
    };
    let matrix = |figure: &dyn Fn(Coordinates, Coordinates) -> f64| {
        sources
            .iter()
            .map(|&s| {
                destinations
                    .iter()
                    .map(|&d| figure(points[s], points[d]))
                    .collect::<Vec<f64>>()
            })
            .collect::<Vec<_>>()
    };
    let roads = shared.roads;
    Json(json!({
        "code": "Ok",
        "durations": matrix(&|a, b| roads.seconds(a, b)),
        "distances": matrix(&|a, b| roads.meters(a, b)),
    }))
    .into_response()
}

async fn route(
    State(shared): State<Shared>,
    Path((profile, points)): Path<(String, String)>,
) -> Response {
    if let Err(refused) = answer(&shared).await {
        return refused;
    }
    let Some(points) = parse_points(&points).filter(|p| profile == "driving" && p.len() == 2)
    else {
        return invalid("a route between two places");
    };
    let roads = shared.roads;
    Json(json!({
        "code": "Ok",
        "routes": [{
            "distance": roads.meters(points[0], points[1]),
            "duration": roads.seconds(points[0], points[1]),
        }],
    }))
    .into_response()
}
