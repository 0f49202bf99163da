//! The local FCM: the OAuth 2 token address and `POST /v1/projects/{project}/messages:send`.

use std::collections::HashMap;

use axum::{
    Form, Json,
    extract::{Path, Request, State},
    http::{StatusCode, Version},
    response::{IntoResponse, Response},
};
use jsonwebtoken::{Algorithm, Validation};
use serde_json::json;

use super::shared::*;
use crate::testing::push_service::lock;
use crate::{
    domain::NativePlatform,
    providers::native_push::fcm::{GrantClaims, SCOPE},
};

/// FCM's token address: a signed grant for an access token.
pub(super) async fn token(
    State(cell): State<Cell>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let shared = shared(&cell);
    let grant_type = form.get("grant_type").map(String::as_str);
    let assertion = form
        .get("assertion")
        .map(String::as_str)
        .unwrap_or_default();
    match check_grant(&shared, grant_type, assertion) {
        Ok(claims) => {
            lock(&shared.grants).push(claims);
            let access_token = format!("ya29.test-{}", uuid::Uuid::new_v4().simple());
            lock(&shared.access_tokens).insert(access_token.clone(), now() + ACCESS_TOKEN_SECS);
            Json(json!({
                "access_token": access_token,
                "expires_in": ACCESS_TOKEN_SECS,
                "token_type": "Bearer",
            }))
            .into_response()
        }
        Err(why) => refuse(
            &shared,
            format!("grant: {why:#}"),
            StatusCode::BAD_REQUEST,
            json!({ "error": "invalid_grant", "error_description": "Invalid JWT Signature." }),
        ),
    }
}

/// A grant: RS256 with the service account's key, its email as issuer, the token address
/// as audience, the messaging scope, unexpired and an hour long at most.
fn check_grant(
    shared: &Shared,
    grant_type: Option<&str>,
    assertion: &str,
) -> anyhow::Result<GrantClaims> {
    anyhow::ensure!(
        grant_type == Some("urn:ietf:params:oauth:grant-type:jwt-bearer"),
        "grant_type {grant_type:?}"
    );
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_required_spec_claims(&["exp", "iss", "aud"]);
    validation.set_issuer(&[CLIENT_EMAIL]);
    validation.set_audience(&[&shared.token_uri]);
    let claims =
        jsonwebtoken::decode::<GrantClaims>(assertion, &shared.fcm_key, &validation)?.claims;
    anyhow::ensure!(claims.scope == SCOPE, "scope {}", claims.scope);
    anyhow::ensure!(
        claims.exp - claims.iat <= 3600 && (now() - claims.iat).abs() < 300,
        "made at {} to last until {}",
        claims.iat,
        claims.exp
    );
    Ok(claims)
}

/// FCM HTTP v1: checks the access token and the message.
pub(super) async fn send(
    State(cell): State<Cell>,
    Path(project): Path<String>,
    request: Request,
) -> Response {
    let shared = shared(&cell);
    let status_body = |code: u16, status: &str, details: serde_json::Value| json!({ "error": { "code": code, "message": status, "status": status, "details": details } });
    if request.version() != Version::HTTP_2 {
        return refuse(
            &shared,
            format!("FCM over {:?}", request.version()),
            StatusCode::HTTP_VERSION_NOT_SUPPORTED,
            json!({}),
        );
    }
    let bearer = header(request.headers(), "authorization")
        .strip_prefix("Bearer ")
        .unwrap_or_default()
        .to_owned();
    let expires = lock(&shared.access_tokens).get(&bearer).copied();
    if expires.is_none_or(|at| at <= now()) {
        return refuse(
            &shared,
            format!("FCM access token {bearer:?}"),
            StatusCode::UNAUTHORIZED,
            status_body(401, "UNAUTHENTICATED", json!([])),
        );
    }
    if project != PROJECT {
        return refuse(
            &shared,
            format!("project {project}"),
            StatusCode::FORBIDDEN,
            status_body(403, "PERMISSION_DENIED", json!([])),
        );
    }
    let Ok(body) = axum::body::to_bytes(request.into_body(), 8192).await else {
        return refuse(
            &shared,
            "a body over 8 KB".into(),
            StatusCode::PAYLOAD_TOO_LARGE,
            json!({}),
        );
    };
    let Ok(raw) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return refuse(
            &shared,
            "a body that is not JSON".into(),
            StatusCode::BAD_REQUEST,
            status_body(400, "INVALID_ARGUMENT", json!([])),
        );
    };
    let message = &raw["message"];
    let text = |value: &serde_json::Value| value.as_str().unwrap_or_default().to_owned();
    let device = text(&message["token"]);
    let ttl = text(&message["android"]["ttl"]);
    let Some(keep_secs) = ttl.strip_suffix('s').and_then(|s| s.parse::<i64>().ok()) else {
        return refuse(
            &shared,
            format!("android.ttl {ttl:?}"),
            StatusCode::BAD_REQUEST,
            status_body(400, "INVALID_ARGUMENT", json!([])),
        );
    };
    match next_answer(&shared, &device) {
        200 => {}
        404 => {
            let details = json!([{ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED" }]);
            return (
                StatusCode::NOT_FOUND,
                Json(status_body(404, "NOT_FOUND", details)),
            )
                .into_response();
        }
        400 => {
            let details = json!([
                { "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT" },
                { "@type": "type.googleapis.com/google.rpc.BadRequest",
                  "fieldViolations": [{ "field": "message.token", "description": "Invalid registration token" }] }
            ]);
            return (
                StatusCode::BAD_REQUEST,
                Json(status_body(400, "INVALID_ARGUMENT", details)),
            )
                .into_response();
        }
        status => {
            let (code, name) = match status {
                429 => (StatusCode::TOO_MANY_REQUESTS, "RESOURCE_EXHAUSTED"),
                503 => (StatusCode::SERVICE_UNAVAILABLE, "UNAVAILABLE"),
                _ => (StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL"),
            };
            return (code, Json(status_body(status, name, json!([])))).into_response();
        }
    }
    lock(&shared.received).push(Received {
        platform: NativePlatform::Android,
        device_token: device,
        title: text(&message["notification"]["title"]),
        body: text(&message["notification"]["body"]),
        url: text(&message["data"]["url"]),
        tag: text(&message["data"]["tag"]),
        priority: text(&message["android"]["priority"]),
        keep_secs,
        raw: raw.clone(),
        at: std::time::Instant::now(),
    });
    Json(
        json!({ "name": format!("projects/{PROJECT}/messages/{}", uuid::Uuid::new_v4().simple()) }),
    )
    .into_response()
}
