//! The local APNs: `POST /3/device/{token}`.

use std::collections::HashSet;

use axum::{
    Json,
    extract::{Path, Request, State},
    http::{StatusCode, Version},
    response::{IntoResponse, Response},
};
use jsonwebtoken::{Algorithm, Validation};
use serde_json::json;

use super::shared::*;
use crate::testing::push_service::lock;
use crate::{domain::NativePlatform, providers::native_push::apns::Claims};

/// APNs: checks the provider token, the headers and the body.
pub(super) async fn send(
    State(cell): State<Cell>,
    Path(device): Path<String>,
    request: Request,
) -> Response {
    let shared = shared(&cell);
    let refused = |why: String, status, reason: &str| {
        refuse(&shared, why, status, json!({ "reason": reason }))
    };
    if request.version() != Version::HTTP_2 {
        return refused(
            format!("APNs over {:?}", request.version()),
            StatusCode::HTTP_VERSION_NOT_SUPPORTED,
            "BadRequest",
        );
    }
    let headers = request.headers().clone();
    let token = header(&headers, "authorization")
        .strip_prefix("bearer ")
        .unwrap_or_default()
        .to_owned();
    if let Err(why) = check_provider_token(&shared, &token) {
        return refused(
            format!("APNs token: {why:#}"),
            StatusCode::FORBIDDEN,
            "InvalidProviderToken",
        );
    }
    lock(&shared.provider_tokens).insert(token);
    for (name, wanted) in [("apns-topic", TOPIC), ("apns-push-type", "alert")] {
        if header(&headers, name) != wanted {
            return refused(
                format!("{name}: {:?}", header(&headers, name)),
                StatusCode::BAD_REQUEST,
                "BadTopic",
            );
        }
    }
    let priority = header(&headers, "apns-priority").to_owned();
    let Ok(expiration) = header(&headers, "apns-expiration").parse::<i64>() else {
        return refused(
            "no apns-expiration".into(),
            StatusCode::BAD_REQUEST,
            "BadExpirationDate",
        );
    };
    if !matches!(priority.as_str(), "5" | "10") {
        return refused(
            format!("apns-priority {priority}"),
            StatusCode::BAD_REQUEST,
            "BadPriority",
        );
    }
    let Ok(body) = axum::body::to_bytes(request.into_body(), 4096).await else {
        return refused(
            "a body over 4 KB".into(),
            StatusCode::PAYLOAD_TOO_LARGE,
            "PayloadTooLarge",
        );
    };
    let Ok(raw) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return refused(
            "a body that is not JSON".into(),
            StatusCode::BAD_REQUEST,
            "PayloadEmpty",
        );
    };
    match next_answer(&shared, &device) {
        200 => {}
        status => {
            let reason = match status {
                410 => "Unregistered",
                400 => "BadDeviceToken",
                429 => "TooManyRequests",
                _ => "InternalServerError",
            };
            let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            return (
                code,
                Json(json!({ "reason": reason, "timestamp": now() * 1000 })),
            )
                .into_response();
        }
    }
    let text = |value: &serde_json::Value| value.as_str().unwrap_or_default().to_owned();
    lock(&shared.received).push(Received {
        platform: NativePlatform::Ios,
        device_token: device,
        title: text(&raw["aps"]["alert"]["title"]),
        body: text(&raw["aps"]["alert"]["body"]),
        url: text(&raw["url"]),
        tag: text(&raw["tag"]),
        priority,
        keep_secs: if expiration == 0 {
            0
        } else {
            expiration - now()
        },
        raw,
        at: std::time::Instant::now(),
    });
    let id = header(&headers, "apns-id").to_owned();
    (StatusCode::OK, [("apns-id", id)]).into_response()
}

/// An APNs provider token: ES256 with the team's key, its key id, the team as issuer, made
/// within the last hour.
fn check_provider_token(shared: &Shared, token: &str) -> anyhow::Result<()> {
    let header = jsonwebtoken::decode_header(token)?;
    anyhow::ensure!(
        header.kid.as_deref() == Some(KEY_ID),
        "key id {:?}",
        header.kid
    );
    let mut validation = Validation::new(Algorithm::ES256);
    validation.required_spec_claims = HashSet::from(["iss".to_owned()]);
    validation.validate_exp = false;
    validation.set_issuer(&[TEAM_ID]);
    let claims = jsonwebtoken::decode::<Claims>(token, &shared.apns_key, &validation)?.claims;
    let age = now() - claims.iat;
    anyhow::ensure!((-60..3600).contains(&age), "made {age} s ago");
    Ok(())
}
