//! What the local APNs and FCM share: the keys' names, what devices took, and the state
//! every route reads.

use std::{
    collections::{HashMap, HashSet, VecDeque},
    sync::{Arc, Mutex},
};

use axum::{
    Json,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use jsonwebtoken::DecodingKey;

use super::super::push_service::lock;
use crate::{domain::NativePlatform, providers::native_push::fcm::GrantClaims};

pub const KEY_ID: &str = "TESTKEY001";
pub const TEAM_ID: &str = "TESTTEAM01";
pub const TOPIC: &str = "ca.repairs.test-app";
pub const PROJECT: &str = "repairs-test";
pub const CLIENT_EMAIL: &str = "push@repairs-test.iam.gserviceaccount.com";
/// How long the access tokens this service issues live.
pub const ACCESS_TOKEN_SECS: i64 = 3599;

/// One alert a device took.
#[derive(Debug, Clone)]
pub struct Received {
    pub platform: NativePlatform,
    pub device_token: String,
    pub title: String,
    pub body: String,
    pub url: String,
    pub tag: String,
    /// APNs' `apns-priority` ("10", "5"), or FCM's `android.priority` ("HIGH", "NORMAL").
    pub priority: String,
    /// How long the service is asked to keep it: `apns-expiration` less the time it came,
    /// or FCM's `android.ttl`, in seconds.
    pub keep_secs: i64,
    /// The whole request body.
    pub raw: serde_json::Value,
    pub at: std::time::Instant,
}

pub struct Shared {
    pub apns_key: DecodingKey,
    pub fcm_key: DecodingKey,
    pub token_uri: String,
    /// Access tokens issued, and when each expires (seconds since the epoch).
    pub access_tokens: Mutex<HashMap<String, i64>>,
    /// Grants exchanged for a token.
    pub grants: Mutex<Vec<GrantClaims>>,
    /// The distinct APNs provider tokens seen.
    pub provider_tokens: Mutex<HashSet<String>>,
    /// Statuses each device answers next, in order; accepted when none is queued.
    pub answers: Mutex<HashMap<String, VecDeque<u16>>>,
    /// Requests each device was sent, answered or not.
    pub tries: Mutex<HashMap<String, usize>>,
    pub received: Mutex<Vec<Received>>,
    pub refused: Mutex<Vec<String>>,
}

pub type Cell = Arc<std::sync::OnceLock<Arc<Shared>>>;

pub fn shared(cell: &Cell) -> Arc<Shared> {
    cell.get()
        .expect("the service's state is set at start")
        .clone()
}

pub fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

pub fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Refuses a request for `why`, answering `status` with `body`.
pub fn refuse(
    shared: &Shared,
    why: String,
    status: StatusCode,
    body: serde_json::Value,
) -> Response {
    lock(&shared.refused).push(why);
    (status, Json(body)).into_response()
}

/// The next status `device` answers, counting the try.
pub fn next_answer(shared: &Shared, device: &str) -> u16 {
    *lock(&shared.tries).entry(device.to_owned()).or_default() += 1;
    lock(&shared.answers)
        .get_mut(device)
        .and_then(VecDeque::pop_front)
        .unwrap_or(200)
}
