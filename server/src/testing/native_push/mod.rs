//! A local APNs and FCM for the native push tests and the alerts benchmark, on 127.0.0.1,
//! speaking HTTP/2 (prior knowledge, as the adapters post): APNs' `POST /3/device/{token}`,
//! FCM's `POST /v1/projects/{project}/messages:send` and the OAuth 2 token address of the
//! service account file it writes (`POST /token`). Keys are made for each start: an APNs
//! signing key (`.p8`) and a service account's RSA key, written with the service account
//! file into a folder of its own ([`NativePushService::configure`] points a server's
//! settings at them).
//!
//! Each APNs request must carry a provider token that verifies with the key, names its key
//! id and the team, and was made within the hour; each FCM request an access token this
//! service issued and that has not expired, issued only for a grant that verifies with the
//! service account's key, names its email (`iss`), the token address (`aud`) and the
//! messaging scope, and lasts an hour at most. Devices answer as accepted, or the statuses a
//! test queues for them (410, 400, 404, 429, 500), each with the body the real service sends.

use std::{
    net::SocketAddr,
    path::{Path as FsPath, PathBuf},
    sync::{Arc, Mutex},
};

use axum::{Router, routing::post};
use jsonwebtoken::DecodingKey;
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use rsa::traits::PublicKeyParts;
use serde_json::json;

mod apns;
mod fcm;
mod shared;

pub use shared::{ACCESS_TOKEN_SECS, CLIENT_EMAIL, KEY_ID, PROJECT, Received, TEAM_ID, TOPIC};
use shared::{Cell, Shared};

use super::{LocalServer, push_service::lock};
use crate::{config::Config, providers::native_push::fcm::GrantClaims};

pub struct NativePushService {
    server: LocalServer,
    shared: Arc<Shared>,
    files: Files,
}

/// Where the keys and the service account file are.
enum Files {
    /// Made for this service, deleted with it.
    Temporary(tempfile::TempDir),
    /// Written before it started ([`write_keys`]), by whoever started it.
    Kept(PathBuf),
}

impl Files {
    fn path(&self) -> &FsPath {
        match self {
            Self::Temporary(dir) => dir.path(),
            Self::Kept(dir) => dir,
        }
    }
}

const APNS_KEY_FILE: &str = "apns.p8";
const SERVICE_ACCOUNT_FILE: &str = "service-account.json";

/// Writes new keys into `dir` for a service at `url`: the APNs signing key (`apns.p8`) and a
/// service account file whose token address is `url`'s (`service-account.json`).
pub fn write_keys(dir: &FsPath, url: &str) {
    let apns_secret = p256::SecretKey::random(&mut rand::thread_rng());
    let p8 = apns_secret
        .to_pkcs8_pem(LineEnding::LF)
        .expect("encode the APNs key");
    std::fs::write(dir.join(APNS_KEY_FILE), p8.as_bytes()).expect("write the .p8");
    let rsa_key = rsa::RsaPrivateKey::new(&mut rand::rngs::OsRng, 2048).expect("an RSA key");
    let pem = rsa_key
        .to_pkcs8_pem(LineEnding::LF)
        .expect("encode the RSA key");
    let account = json!({
        "type": "service_account",
        "project_id": PROJECT,
        "private_key_id": "test-key-1",
        "private_key": pem.as_str(),
        "client_email": CLIENT_EMAIL,
        "token_uri": format!("{url}/token"),
    });
    std::fs::write(dir.join(SERVICE_ACCOUNT_FILE), account.to_string())
        .expect("write the service account file");
}

/// The server's settings for a service at `url` with the keys in `dir`, as environment
/// variables.
pub fn settings(dir: &FsPath, url: &str) -> Vec<(&'static str, String)> {
    let path = |name: &str| dir.join(name).display().to_string();
    vec![
        ("APNS_URL", url.to_owned()),
        ("APNS_KEY_FILE", path(APNS_KEY_FILE)),
        ("APNS_KEY_ID", KEY_ID.to_owned()),
        ("APNS_TEAM_ID", TEAM_ID.to_owned()),
        ("APNS_TOPIC", TOPIC.to_owned()),
        ("FCM_URL", url.to_owned()),
        ("FCM_SERVICE_ACCOUNT_FILE", path(SERVICE_ACCOUNT_FILE)),
    ]
}

/// The public halves of the keys in `dir`, and the token address.
fn read_keys(dir: &FsPath) -> (DecodingKey, DecodingKey, String) {
    let p8 = std::fs::read_to_string(dir.join(APNS_KEY_FILE)).expect("read the .p8");
    let apns_secret = p256::SecretKey::from_pkcs8_pem(&p8).expect("an APNs key");
    let point = p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(
        &apns_secret.public_key(),
        false,
    );
    let account: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join(SERVICE_ACCOUNT_FILE)).expect("read the account"),
    )
    .expect("a service account file");
    let rsa_key =
        rsa::RsaPrivateKey::from_pkcs8_pem(account["private_key"].as_str().expect("a private key"))
            .expect("an RSA key");
    (
        DecodingKey::from_ec_der(point.as_bytes()),
        DecodingKey::from_rsa_raw_components(
            &rsa_key.n().to_bytes_be(),
            &rsa_key.e().to_bytes_be(),
        ),
        account["token_uri"]
            .as_str()
            .expect("a token_uri")
            .to_owned(),
    )
}

/// The routes, and the cell their state is set in once the keys are known.
fn router() -> (Router, Cell) {
    let cell: Cell = Arc::default();
    let router = Router::new()
        .route("/3/device/{token}", post(apns::send))
        .route("/v1/projects/{project}/messages:send", post(fcm::send))
        .route("/token", post(fcm::token))
        .with_state(cell.clone());
    (router, cell)
}

impl NativePushService {
    /// Starts the service with new keys.
    pub async fn start() -> Self {
        let files = tempfile::tempdir().expect("temp dir");
        let (router, cell) = router();
        let server = LocalServer::start(router).await;
        write_keys(files.path(), &server.url());
        Self::ready(server, cell, Files::Temporary(files))
    }

    /// Starts the service on `addr` with the keys [`write_keys`] wrote into `dir` for it (the
    /// alerts benchmark's server reads them before the service starts).
    pub async fn start_on(addr: SocketAddr, dir: PathBuf) -> Self {
        let (router, cell) = router();
        let server = LocalServer::start_on(addr, router).await;
        Self::ready(server, cell, Files::Kept(dir))
    }

    fn ready(server: LocalServer, cell: Cell, files: Files) -> Self {
        let (apns_key, fcm_key, token_uri) = read_keys(files.path());
        let shared = Arc::new(Shared {
            apns_key,
            fcm_key,
            token_uri,
            access_tokens: Mutex::default(),
            grants: Mutex::default(),
            provider_tokens: Mutex::default(),
            answers: Mutex::default(),
            tries: Mutex::default(),
            received: Mutex::default(),
            refused: Mutex::default(),
        });
        let _ = cell.set(shared.clone());
        Self {
            server,
            shared,
            files,
        }
    }

    /// Points `config`'s APNs and FCM settings at this service and its keys.
    pub fn configure(&self, config: &mut Config) {
        config.apns_url = self.server.url();
        config.apns_key_file = Some(self.files.path().join(APNS_KEY_FILE));
        config.apns_key_id = Some(KEY_ID.to_owned());
        config.apns_team_id = Some(TEAM_ID.to_owned());
        config.apns_topic = Some(TOPIC.to_owned());
        config.fcm_url = self.server.url();
        config.fcm_service_account_file = Some(self.files.path().join(SERVICE_ACCOUNT_FILE));
    }

    /// A new iOS device token (32 random bytes in hexadecimal, as APNs gives them).
    pub fn ios_device(&self) -> String {
        let bytes: [u8; 32] = rand::random();
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// A new Android registration token, of FCM's shape.
    pub fn android_device(&self) -> String {
        format!(
            "{}:APA91b{}",
            uuid::Uuid::new_v4().simple(),
            uuid::Uuid::new_v4().simple()
        )
    }

    /// Queues the statuses `device` answers next (then it accepts again).
    pub fn answer(&self, device: &str, statuses: &[u16]) {
        lock(&self.shared.answers)
            .entry(device.to_owned())
            .or_default()
            .extend(statuses);
    }

    /// Every alert `device` took so far.
    pub fn received(&self, device: &str) -> Vec<Received> {
        lock(&self.shared.received)
            .iter()
            .filter(|m| m.device_token == device)
            .cloned()
            .collect()
    }

    /// Every alert taken so far, in the order they came.
    pub fn all_received(&self) -> Vec<Received> {
        lock(&self.shared.received).clone()
    }

    /// How many requests were sent to `device`, answered or not.
    pub fn tries(&self, device: &str) -> usize {
        lock(&self.shared.tries).get(device).copied().unwrap_or(0)
    }

    /// Waits (up to `secs`) for `count` alerts to `device`.
    pub async fn wait_for(&self, device: &str, count: usize, secs: u64) -> Vec<Received> {
        super::wait_for_count(
            secs,
            count,
            "alerts",
            || self.received(device),
            || self.refused(),
        )
        .await
    }

    /// Forgets every access token issued: the next send with one is refused (401), as
    /// after Google revoked it.
    pub fn revoke_access_tokens(&self) {
        lock(&self.shared.access_tokens).clear();
    }

    /// The grants exchanged for access tokens so far.
    pub fn grants(&self) -> Vec<GrantClaims> {
        lock(&self.shared.grants).clone()
    }

    /// How many different APNs provider tokens were presented.
    pub fn provider_tokens(&self) -> usize {
        lock(&self.shared.provider_tokens).len()
    }

    /// Why requests were refused (a token, header or body that is not right).
    pub fn refused(&self) -> Vec<String> {
        lock(&self.shared.refused).clone()
    }

    pub async fn stop(self) {
        self.server.stop().await;
    }
}
