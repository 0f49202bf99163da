//! Webhooks from outside providers, forwarded to the server that verifies them.

use axum::Router;

use crate::AppState;
use crate::legacy::table::{Call, post};

/// Stripe's events (signature checked by the server, so the raw body must reach it unchanged).
pub const CALLS: &[Call] = &[post("/webhooks/stripe", "BillingService.HandleStripeEvent")];

pub fn routes() -> Router<AppState> {
    crate::legacy::body::limit(crate::legacy::pending::routes(CALLS))
}
