//! The server's plain HTTP side, beside gRPC: downloads of stored files through signed,
//! expiring links (the BFF passes `/files/...` through to it), the liveness probe (`/healthz`:
//! the process answers) and the readiness probe (`/readyz`: Postgres and Redis answer and the
//! server is not stopping; see `crate::readiness`), and the Prometheus metrics (`/metrics`).

use axum::{
    Router,
    extract::{Path, Query, State},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use serde::Deserialize;

use crate::{
    metrics::{self as m, Snapshot},
    providers::storage::{SignedUrlError, verify_file_url},
    readiness::Readiness,
    state::AppState,
    store,
};

/// Card holds reported as lapsing when they end within this (`repairs_payment_holds`).
const HOLDS_LAPSING_WITHIN: chrono::TimeDelta = chrono::TimeDelta::hours(24);

/// `GET /metrics`: the counters, with the pool, the streams, the outbox and the holds read
/// now (two small queries; when the database cannot answer, those keep their last values).
async fn metrics(State(state): State<AppState>) -> Response {
    let pool_size = state.db.size();
    let pool_idle = u32::try_from(state.db.num_idle()).unwrap_or(u32::MAX);
    let outbox = store::outbox::gauges(&state.db).await;
    let holds = store::payments::hold_gauges(&state.db, HOLDS_LAPSING_WITHIN).await;
    if let Err(error) = outbox.as_ref().and(holds.as_ref()) {
        tracing::warn!(%error, "metrics: the outbox or the holds could not be read");
    }
    let snapshot = Snapshot {
        pool_in_use: pool_size.saturating_sub(pool_idle),
        pool_idle,
        pool_max: state.db.options().get_max_connections(),
        streams: vec![
            ("WatchOpenRequests", state.open_requests.open_streams()),
            ("WatchRepairRequest", state.request_changes.open_streams()),
            (
                "WatchConversation",
                state.conversation_changes.open_streams(),
            ),
        ],
        outbox: outbox
            .ok()
            .map(|(pending, parked, oldest_pending_secs)| m::OutboxGauges {
                pending,
                parked,
                oldest_pending_secs,
            }),
        holds: holds
            .ok()
            .map(|(lapsing, lapsed)| m::HoldGauges { lapsing, lapsed }),
    };
    (
        [
            (header::CONTENT_TYPE, m::CONTENT_TYPE),
            (header::CACHE_CONTROL, "no-store"),
        ],
        state.metrics.render(&snapshot),
    )
        .into_response()
}

pub fn router(state: AppState, readiness: Readiness) -> Router {
    let ready = Router::new()
        .route("/readyz", get(ready))
        .with_state(readiness);
    Router::new()
        .route("/files/{*key}", get(download))
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .with_state(state)
        .merge(ready)
}

async fn ready(State(readiness): State<Readiness>) -> Response {
    let status = readiness.current();
    let code = if status.is_ready() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    plain_text(code, &status.describe())
}

#[derive(Deserialize)]
struct Signature {
    exp: Option<i64>,
    sig: Option<String>,
}

fn plain_text(status: StatusCode, message: &str) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        message.to_owned(),
    )
        .into_response()
}

async fn download(
    State(state): State<AppState>,
    Path(key): Path<String>,
    Query(query): Query<Signature>,
) -> Response {
    let (Some(exp), Some(sig)) = (query.exp, query.sig) else {
        return plain_text(StatusCode::FORBIDDEN, "this link is not valid");
    };
    match verify_file_url(
        state.file_link_key.as_slice(),
        &key,
        exp,
        &sig,
        chrono::Utc::now(),
    ) {
        Ok(()) => {}
        Err(error @ SignedUrlError::Expired) => {
            return plain_text(StatusCode::GONE, &error.to_string());
        }
        Err(error) => return plain_text(StatusCode::FORBIDDEN, &error.to_string()),
    }
    match state.storage.get(&key).await {
        Ok(Some((content_type, bytes))) => {
            let content_type = HeaderValue::from_str(&content_type)
                .unwrap_or(HeaderValue::from_static("application/octet-stream"));
            (
                [
                    (header::CONTENT_TYPE, content_type),
                    (
                        header::CACHE_CONTROL,
                        HeaderValue::from_static("private, max-age=3600"),
                    ),
                    (
                        header::X_CONTENT_TYPE_OPTIONS,
                        HeaderValue::from_static("nosniff"),
                    ),
                    (
                        header::CONTENT_DISPOSITION,
                        HeaderValue::from_static("inline"),
                    ),
                ],
                bytes,
            )
                .into_response()
        }
        Ok(None) => plain_text(StatusCode::NOT_FOUND, "this file no longer exists"),
        Err(error) => {
            tracing::error!(%error, key, "could not read a stored file");
            plain_text(
                StatusCode::SERVICE_UNAVAILABLE,
                "the file cannot be read right now; try again",
            )
        }
    }
}
