//! The Google ID-token verifier against keys made here and a JWKS served on 127.0.0.1.

use std::{
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use crate::helpers::LocalServer;
use axum::{
    Json, Router,
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use jsonwebtoken::{
    Algorithm, EncodingKey, Header,
    jwk::{Jwk, JwkSet},
};
use repairs_server::providers::{
    GoogleIdentity, GoogleUser, IdentityError,
    google_identity::{GoogleConfig, GoogleJwksVerifier},
};
use rsa::pkcs1::EncodeRsaPrivateKey;
use serde_json::{Value, json};

const CLIENT_ID: &str = "1234-web.apps.googleusercontent.com";
const OTHER_CLIENT_ID: &str = "1234-android.apps.googleusercontent.com";
const GOOGLE: &str = "Google";

/// Two RSA keys made once for the whole file (key generation is the slow part).
fn keys() -> &'static [EncodingKey; 2] {
    static KEYS: OnceLock<[EncodingKey; 2]> = OnceLock::new();
    KEYS.get_or_init(|| {
        let make = || {
            let private = rsa::RsaPrivateKey::new(&mut rand::rngs::OsRng, 2048).unwrap();
            EncodingKey::from_rsa_der(private.to_pkcs1_der().unwrap().as_bytes())
        };
        [make(), make()]
    })
}

fn key_a() -> &'static EncodingKey {
    &keys()[0]
}

fn key_b() -> &'static EncodingKey {
    &keys()[1]
}

fn public_jwk(key: &EncodingKey, kid: &str) -> Jwk {
    let mut jwk = Jwk::from_encoding_key(key, Algorithm::RS256).unwrap();
    jwk.common.key_id = Some(kid.into());
    jwk
}

fn jwks(keys: &[(&EncodingKey, &str)]) -> Value {
    let keys = keys.iter().map(|(key, kid)| public_jwk(key, kid)).collect();
    serde_json::to_value(JwkSet { keys }).unwrap()
}

#[derive(Clone)]
struct FakeGoogle {
    document: Arc<Mutex<Value>>,
    failing: Arc<Mutex<bool>>,
    fetches: Arc<AtomicUsize>,
}

async fn certs(State(google): State<FakeGoogle>) -> Response {
    google.fetches.fetch_add(1, Ordering::SeqCst);
    if *google.failing.lock().unwrap() {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    let document = google.document.lock().unwrap().clone();
    (
        [(
            header::CACHE_CONTROL,
            "public, max-age=19845, must-revalidate, no-transform",
        )],
        Json(document),
    )
        .into_response()
}

struct Fixture {
    server: LocalServer,
    google: FakeGoogle,
    verifier: GoogleJwksVerifier,
}

impl Fixture {
    /// Serves key A as `key-a`; the verifier accepts two client ids.
    async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    async fn start_with(adjust: impl FnOnce(&mut GoogleConfig)) -> Self {
        let google = FakeGoogle {
            document: Arc::new(Mutex::new(jwks(&[(key_a(), "key-a")]))),
            failing: Arc::default(),
            fetches: Arc::default(),
        };
        let router = Router::new()
            .route("/oauth2/v3/certs", get(certs))
            .with_state(google.clone());
        let server = LocalServer::start(router).await;
        let mut config = GoogleConfig {
            jwks_url: format!("{}/oauth2/v3/certs", server.url()),
            ..GoogleConfig::new(vec![CLIENT_ID.into(), OTHER_CLIENT_ID.into()])
        };
        adjust(&mut config);
        let verifier = GoogleJwksVerifier::new(config).unwrap();
        Self {
            server,
            google,
            verifier,
        }
    }

    fn fetches(&self) -> usize {
        self.google.fetches.load(Ordering::SeqCst)
    }

    async fn verify(&self, token: &str) -> Result<GoogleUser, IdentityError> {
        self.verifier.verify(token).await
    }

    async fn stop(self) {
        self.server.stop().await;
    }
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Claims like Google's, with some replaced or (when `null`) removed.
fn claims(changes: Value) -> Value {
    let mut claims = json!({
        "iss": "https://accounts.google.com",
        "azp": CLIENT_ID,
        "aud": CLIENT_ID,
        "sub": "110169484474386276334",
        "email": "anais@example.ca",
        "email_verified": true,
        "name": "Anaïs Tremblay",
        "iat": now(),
        "exp": now() + 3600,
    });
    for (name, value) in changes.as_object().unwrap() {
        if value.is_null() {
            claims.as_object_mut().unwrap().remove(name);
        } else {
            claims[name] = value.clone();
        }
    }
    claims
}

fn sign(key: &EncodingKey, kid: &str, claims: &Value) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(kid.into());
    jsonwebtoken::encode(&header, claims, key).unwrap()
}

fn good_token() -> String {
    sign(key_a(), "key-a", &claims(json!({})))
}

#[tokio::test]
async fn a_good_token_gives_the_account() {
    let fixture = Fixture::start().await;
    let user = fixture.verify(&good_token()).await.unwrap();
    assert_eq!(
        user,
        GoogleUser {
            subject: "110169484474386276334".into(),
            email: "anais@example.ca".into(),
            email_verified: true,
            name: Some("Anaïs Tremblay".into()),
        }
    );
    fixture.stop().await;
    // Both spellings of the issuer, and every configured client id, are accepted.
    let other = json!({"iss": "accounts.google.com", "aud": OTHER_CLIENT_ID});
    assert!(verdict_on(other).await.is_ok());
}

#[tokio::test]
async fn keys_are_fetched_once_while_fresh() {
    let fixture = Fixture::start().await;
    for _ in 0..3 {
        fixture.verify(&good_token()).await.unwrap();
    }
    assert_eq!(fixture.fetches(), 1);
    fixture.stop().await;
}

/// What the verifier says of a token signed with the published key whose claims carry
/// `changes`.
async fn verdict_on(changes: Value) -> Result<GoogleUser, IdentityError> {
    let fixture = Fixture::start().await;
    let verdict = fixture
        .verify(&sign(key_a(), "key-a", &claims(changes)))
        .await;
    fixture.stop().await;
    verdict
}

#[tokio::test]
async fn a_token_for_another_client_is_refused() {
    assert_eq!(
        verdict_on(json!({"aud": "someone-else.apps"})).await,
        Err(IdentityError::WrongAudience { provider: GOOGLE })
    );
}

#[tokio::test]
async fn a_token_from_another_issuer_is_refused() {
    assert_eq!(
        verdict_on(json!({"iss": "https://evil.example"})).await,
        Err(IdentityError::WrongIssuer { provider: GOOGLE })
    );
}

#[tokio::test]
async fn an_expired_token_is_refused() {
    assert_eq!(
        verdict_on(json!({"iat": now() - 7200, "exp": now() - 3600})).await,
        Err(IdentityError::Expired { provider: GOOGLE })
    );
}

#[tokio::test]
async fn a_bad_signature_is_refused() {
    let fixture = Fixture::start().await;
    // Signed by another key under the published key's id.
    let forged = sign(key_b(), "key-a", &claims(json!({})));
    let bad_signature = Err(IdentityError::BadSignature { provider: GOOGLE });
    assert_eq!(fixture.verify(&forged).await, bad_signature);
    // A genuine token whose claims were changed afterwards.
    let genuine = good_token();
    let other = sign(
        key_a(),
        "key-a",
        &claims(json!({"email": "eve@example.ca"})),
    );
    let parts: Vec<&str> = genuine.split('.').collect();
    let tampered = format!(
        "{}.{}.{}",
        parts[0],
        other.split('.').nth(1).unwrap(),
        parts[2]
    );
    assert_eq!(fixture.verify(&tampered).await, bad_signature);
    fixture.stop().await;
}

#[tokio::test]
async fn an_unknown_key_is_refused_and_refetched_at_most_once_a_minute() {
    let fixture = Fixture::start().await;
    let token = sign(key_b(), "key-b", &claims(json!({})));
    let unknown = Err(IdentityError::UnknownKey { provider: GOOGLE });
    assert_eq!(fixture.verify(&token).await, unknown);
    assert_eq!(fixture.verify(&token).await, unknown);
    assert_eq!(fixture.fetches(), 1);
    fixture.stop().await;
}

#[tokio::test]
async fn a_rotated_key_is_picked_up_by_refetching() {
    let fixture = Fixture::start_with(|config| config.min_refetch_interval = Duration::ZERO).await;
    fixture.verify(&good_token()).await.unwrap();
    *fixture.google.document.lock().unwrap() = jwks(&[(key_a(), "key-a"), (key_b(), "key-b")]);
    let token = sign(key_b(), "key-b", &claims(json!({})));
    assert!(fixture.verify(&token).await.is_ok());
    assert_eq!(fixture.fetches(), 2);
    fixture.stop().await;
}

#[tokio::test]
async fn an_unverified_or_missing_email_is_refused() {
    let unverified = Err(IdentityError::EmailNotVerified { provider: GOOGLE });
    assert_eq!(
        verdict_on(json!({"email_verified": false})).await,
        unverified
    );
    assert_eq!(
        verdict_on(json!({"email_verified": null})).await,
        unverified
    );
    assert_eq!(
        verdict_on(json!({"email": null})).await,
        Err(IdentityError::MissingEmail { provider: GOOGLE })
    );
}

#[tokio::test]
async fn a_token_signed_with_a_shared_secret_is_refused() {
    // Algorithm confusion: HS256 "signed" with something public must never pass.
    let fixture = Fixture::start().await;
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some("key-a".into());
    let token = jsonwebtoken::encode(
        &header,
        &claims(json!({})),
        &EncodingKey::from_secret(b"public"),
    )
    .unwrap();
    assert_eq!(
        fixture.verify(&token).await,
        Err(IdentityError::InvalidToken { provider: GOOGLE })
    );
    fixture.stop().await;
}

#[tokio::test]
async fn an_unreachable_jwks_is_reported_as_unavailable() {
    let fixture = Fixture::start().await;
    *fixture.google.failing.lock().unwrap() = true;
    let error = fixture.verify(&good_token()).await.unwrap_err();
    assert!(
        matches!(
            error,
            IdentityError::Unavailable {
                provider: GOOGLE,
                ..
            }
        ),
        "{error:?}"
    );
    fixture.stop().await;
}
