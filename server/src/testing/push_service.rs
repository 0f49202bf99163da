//! A local push service (RFC 8030) for the Web Push tests and the alerts benchmark
//! (`server/examples/alerts_bench.rs`), on 127.0.0.1: each device it
//! makes has an endpoint here and a browser's key pair and auth secret. A message is taken
//! only with a VAPID token (RFC 8292) that verifies against the server's public key for
//! this origin, and is decrypted (RFC 8291) with the device's private key, as a browser
//! would; each device answers 201, or the status a test sets (404, 410, 500).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    Router,
    body::Bytes,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    routing::post,
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use p256::{SecretKey, elliptic_curve::sec1::ToEncodedPoint};

use super::LocalServer;
use crate::providers::web_push::{ece, vapid};

/// A browser subscribed at the local service.
#[derive(Clone)]
pub struct Device {
    pub endpoint: String,
    /// `keys.p256dh` and `keys.auth`, base64url, as `PushSubscription.toJSON()` gives them.
    pub p256dh: String,
    pub auth: String,
    id: String,
    key: SecretKey,
    auth_secret: [u8; 16],
}

/// One message a device took.
#[derive(Debug, Clone)]
pub struct Received {
    pub device: String,
    /// The decrypted JSON.
    pub payload: serde_json::Value,
    pub ttl: u64,
    pub urgency: String,
    pub at: std::time::Instant,
}

#[derive(Default)]
struct Shared {
    /// The VAPID public key messages must be signed with.
    vapid_key: Mutex<String>,
    origin: Mutex<String>,
    devices: Mutex<HashMap<String, Device>>,
    answers: Mutex<HashMap<String, u16>>,
    received: Mutex<Vec<Received>>,
    refused: Mutex<Vec<String>>,
}

pub struct PushService {
    server: LocalServer,
    shared: Arc<Shared>,
}

pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl PushService {
    /// Starts the service; messages must verify against `vapid_public_key`.
    pub async fn start(vapid_public_key: &str) -> Self {
        let shared = Arc::new(Shared::default());
        *lock(&shared.vapid_key) = vapid_public_key.to_owned();
        let router = Router::new()
            .route("/push/{device}", post(take))
            .with_state(shared.clone());
        let server = LocalServer::start(router).await;
        *lock(&shared.origin) = server.url();
        Self { server, shared }
    }

    /// A new browser with keys of its own.
    pub fn device(&self) -> Device {
        let key = SecretKey::random(&mut rand::thread_rng());
        let mut auth_secret = [0u8; 16];
        rand::RngCore::fill_bytes(&mut rand::thread_rng(), &mut auth_secret);
        let id = uuid::Uuid::now_v7().to_string();
        let device = Device {
            endpoint: format!("{}/push/{id}", self.server.url()),
            p256dh: URL_SAFE_NO_PAD.encode(key.public_key().to_encoded_point(false)),
            auth: URL_SAFE_NO_PAD.encode(auth_secret),
            id: id.clone(),
            key,
            auth_secret,
        };
        lock(&self.shared.devices).insert(id, device.clone());
        device
    }

    /// What `device` answers from now on.
    pub fn answer(&self, device: &Device, status: u16) {
        lock(&self.shared.answers).insert(device.id.clone(), status);
    }

    /// Every message `device` took so far.
    pub fn received(&self, device: &Device) -> Vec<Received> {
        lock(&self.shared.received)
            .iter()
            .filter(|m| m.device == device.id)
            .cloned()
            .collect()
    }

    /// Every message taken so far, by any device, in the order they arrived.
    pub fn all_received(&self) -> Vec<Received> {
        lock(&self.shared.received).clone()
    }

    /// Waits (up to `secs`) for `count` messages to `device`.
    pub async fn wait_for(&self, device: &Device, count: usize, secs: u64) -> Vec<Received> {
        super::wait_for_count(
            secs,
            count,
            "pushes",
            || self.received(device),
            || lock(&self.shared.refused).clone(),
        )
        .await
    }

    /// Why messages were refused (a bad token or body).
    pub fn refused(&self) -> Vec<String> {
        lock(&self.shared.refused).clone()
    }

    pub async fn stop(self) {
        self.server.stop().await;
    }
}

async fn take(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let Some(device) = lock(&shared.devices).get(&id).cloned() else {
        return StatusCode::NOT_FOUND;
    };
    match read(&shared, &device, &headers, &body) {
        Ok(received) => {
            let status = lock(&shared.answers).get(&id).copied().unwrap_or(201);
            if status == 201 {
                lock(&shared.received).push(received);
            }
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
        }
        Err(why) => {
            lock(&shared.refused).push(format!("{why:#}"));
            StatusCode::UNAUTHORIZED
        }
    }
}

/// Checks a message as a push service and its browser would, and reads it.
fn read(
    shared: &Shared,
    device: &Device,
    headers: &HeaderMap,
    body: &[u8],
) -> anyhow::Result<Received> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| anyhow::anyhow!("no {name} header"))
    };
    anyhow::ensure!(header("content-encoding")? == "aes128gcm", "not aes128gcm");
    let now = chrono::Utc::now().timestamp();
    let vapid_key = lock(&shared.vapid_key).clone();
    let origin = lock(&shared.origin).clone();
    vapid::verify(&header("authorization")?, &vapid_key, &origin, now)?;
    let plaintext = ece::decrypt(body, &device.key, &device.auth_secret)?;
    Ok(Received {
        device: device.id.clone(),
        payload: serde_json::from_slice(&plaintext)?,
        ttl: header("ttl")?.parse()?,
        urgency: header("urgency")?,
        at: std::time::Instant::now(),
    })
}
