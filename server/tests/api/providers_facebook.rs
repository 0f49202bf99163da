//! The Facebook verifier against a local fake of the Graph API (`debug_token`, `me`).

use std::{
    collections::HashMap,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
};

use crate::helpers::{LocalServer, closed_port_url};
use axum::{
    Json, Router,
    extract::{Query, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use hmac::{Hmac, Mac};
use repairs_server::providers::{
    FacebookIdentity, FacebookUser, IdentityError,
    facebook_identity::{FacebookConfig, FacebookGraph},
};
use serde_json::{Value, json};

const APP_ID: &str = "1122334455";
const APP_SECRET: &str = "fb-app-secret-value";
const FACEBOOK: &str = "Facebook";

type Params = Query<HashMap<String, String>>;

fn graph_error(code: i64, subcode: Option<i64>, message: &str) -> Value {
    json!({"message": message, "type": "OAuthException", "code": code,
           "error_subcode": subcode, "fbtrace_id": "AbCdEf"})
}

fn refused(code: i64, message: &str) -> Response {
    let body = json!({"error": graph_error(code, None, message)});
    (StatusCode::BAD_REQUEST, Json(body)).into_response()
}

/// Which app and user each test token belongs to.
fn token_owner(token: &str) -> Option<(&'static str, &'static str)> {
    match token {
        "good-token" => Some((APP_ID, "10001")),
        "no-email-token" => Some((APP_ID, "10002")),
        "other-app-token" => Some(("9999999999", "10003")),
        _ => None,
    }
}

async fn debug_token(Query(params): Params) -> Response {
    if params.get("access_token").map(String::as_str) != Some(&format!("{APP_ID}|{APP_SECRET}")) {
        return refused(1, "Error validating client secret.");
    }
    let token = params.get("input_token").cloned().unwrap_or_default();
    let data = match (token.as_str(), token_owner(&token)) {
        (_, Some((app_id, user_id))) => json!({
            "app_id": app_id, "type": "USER", "application": "Réparations",
            "expires_at": 4_102_444_800_i64, "is_valid": true,
            "scopes": ["email", "public_profile"], "user_id": user_id,
        }),
        ("expired-token", None) => json!({
            "is_valid": false, "scopes": [],
            "error": graph_error(190, Some(463), "Session has expired"),
        }),
        ("revoked-token", None) => json!({
            "is_valid": false, "scopes": [],
            "error": graph_error(190, Some(460), "The session has been invalidated"),
        }),
        _ => {
            return refused(
                190,
                "Invalid OAuth access token - Cannot parse access token",
            );
        }
    };
    Json(json!({ "data": data })).into_response()
}

async fn me(State(calls): State<Arc<AtomicUsize>>, Query(params): Params) -> Response {
    calls.fetch_add(1, Ordering::SeqCst);
    let token = params.get("access_token").cloned().unwrap_or_default();
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(APP_SECRET.as_bytes()).unwrap();
    mac.update(token.as_bytes());
    let proof: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if params.get("appsecret_proof") != Some(&proof) {
        return refused(100, "Invalid appsecret_proof provided in the API argument");
    }
    assert_eq!(params["fields"], "id,name,email");
    match token.as_str() {
        "good-token" => {
            Json(json!({"id": "10001", "name": "Anaïs Tremblay", "email": "anais@example.ca"}))
                .into_response()
        }
        "no-email-token" => Json(json!({"id": "10002", "name": "Phone Only"})).into_response(),
        _ => refused(190, "Invalid OAuth access token"),
    }
}

struct Fixture {
    server: LocalServer,
    me_calls: Arc<AtomicUsize>,
}

impl Fixture {
    async fn start() -> Self {
        let me_calls = Arc::new(AtomicUsize::new(0));
        let router = Router::new()
            .route("/v23.0/debug_token", get(debug_token))
            .route("/v23.0/me", get(me))
            .with_state(me_calls.clone());
        Self {
            server: LocalServer::start(router).await,
            me_calls,
        }
    }

    fn graph(&self, secret: &str) -> FacebookGraph {
        FacebookGraph::new(FacebookConfig {
            graph_url: format!("{}/v23.0/", self.server.url()),
            ..FacebookConfig::new(APP_ID, secret)
        })
        .unwrap()
    }

    async fn verify(&self, token: &str) -> Result<FacebookUser, IdentityError> {
        self.graph(APP_SECRET).verify(token).await
    }
}

#[tokio::test]
async fn a_valid_token_gives_the_account() {
    let fixture = Fixture::start().await;
    let facebook: Arc<dyn FacebookIdentity> = Arc::new(fixture.graph(APP_SECRET));
    assert!(facebook.is_configured());
    assert_eq!(
        facebook.verify("good-token").await.unwrap(),
        FacebookUser {
            id: "10001".into(),
            email: "anais@example.ca".into(),
            name: Some("Anaïs Tremblay".into()),
        }
    );
    fixture.server.stop().await;
}

#[tokio::test]
async fn an_invalid_token_is_refused() {
    let fixture = Fixture::start().await;
    let invalid = Err(IdentityError::InvalidToken { provider: FACEBOOK });
    assert_eq!(fixture.verify("garbage").await, invalid);
    assert_eq!(fixture.verify("revoked-token").await, invalid);
    assert_eq!(fixture.verify("").await, invalid);
    assert_eq!(
        fixture.verify("expired-token").await,
        Err(IdentityError::Expired { provider: FACEBOOK })
    );
    assert_eq!(fixture.me_calls.load(Ordering::SeqCst), 0);
    fixture.server.stop().await;
}

#[tokio::test]
async fn a_token_made_for_another_app_is_refused() {
    let fixture = Fixture::start().await;
    assert_eq!(
        fixture.verify("other-app-token").await,
        Err(IdentityError::WrongAudience { provider: FACEBOOK })
    );
    assert_eq!(fixture.me_calls.load(Ordering::SeqCst), 0);
    fixture.server.stop().await;
}

#[tokio::test]
async fn an_account_without_email_is_refused() {
    let fixture = Fixture::start().await;
    let error = fixture.verify("no-email-token").await.unwrap_err();
    assert_eq!(error, IdentityError::MissingEmail { provider: FACEBOOK });
    assert!(error.to_string().contains("email"));
    fixture.server.stop().await;
}

#[tokio::test]
async fn a_wrong_app_secret_is_our_fault_not_the_persons() {
    let fixture = Fixture::start().await;
    let error = fixture
        .graph("stale-secret")
        .verify("good-token")
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            IdentityError::Unavailable {
                provider: FACEBOOK,
                ..
            }
        ),
        "{error:?}"
    );
    fixture.server.stop().await;
}

#[tokio::test]
async fn an_unreachable_graph_is_unavailable_and_keeps_the_secret() {
    let graph = FacebookGraph::new(FacebookConfig {
        graph_url: closed_port_url(),
        ..FacebookConfig::new(APP_ID, APP_SECRET)
    })
    .unwrap();
    let error = graph.verify("good-token").await.unwrap_err();
    assert!(matches!(error, IdentityError::Unavailable { .. }));
    assert!(!format!("{error:?} {error}").contains(APP_SECRET));
    assert!(!format!("{graph:?}").contains(APP_SECRET));
}
