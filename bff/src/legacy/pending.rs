//! The one placeholder behind every legacy call that is not translated yet: 501 naming the call.

use axum::Router;
use axum::extract::Request;
use axum::routing::on;
use tonic::Status;

use super::error::ApiError;
use super::table::{self, Call};
use crate::AppState;

/// Routes every call of `calls` to the placeholder.
pub fn routes(calls: &'static [Call]) -> Router<AppState> {
    calls.iter().fold(Router::new(), route)
}

/// Adds the placeholder for one call to `router`.
pub fn route(router: Router<AppState>, call: &'static Call) -> Router<AppState> {
    let handler = on(call.verb.filter(), move |request: Request| {
        not_yet(call, request)
    });
    table::route(router, call, handler)
}

async fn not_yet(call: &'static Call, request: Request) -> ApiError {
    // The body is still checked, so size and JSON errors read the same as they will later.
    if let Err(error) = super::body::check(request).await {
        return error;
    }
    // Through the shared mapping, as the real RPC's UNIMPLEMENTED would be.
    Status::unimplemented(format!("Not available yet: {call}")).into()
}
