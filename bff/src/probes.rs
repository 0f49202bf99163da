//! The BFF's probes: `/livez` and `/healthz` (liveness: the process answers, nothing else is
//! asked) and `/readyz` (readiness: a server that says SERVING answers through the same
//! balanced channel the calls take, within two seconds).

use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tonic::transport::Channel;

use crate::servers::ask_health;

const READY_TIMEOUT: Duration = Duration::from_secs(2);

pub fn routes<S: Clone + Send + Sync + 'static>(channel: Channel) -> Router<S> {
    Router::new()
        .route("/livez", get(alive))
        .route("/healthz", get(alive))
        .route("/readyz", get(ready))
        .with_state(channel)
}

fn plain_text(status: StatusCode, text: String) -> Response {
    (status, [(header::CACHE_CONTROL, "no-store")], text).into_response()
}

async fn alive() -> Response {
    plain_text(StatusCode::OK, "ok".to_owned())
}

async fn ready(State(channel): State<Channel>) -> Response {
    match ask_health(channel, READY_TIMEOUT).await {
        Ok(()) => plain_text(StatusCode::OK, "ready".to_owned()),
        Err(why) => plain_text(StatusCode::SERVICE_UNAVAILABLE, format!("not ready: {why}")),
    }
}
