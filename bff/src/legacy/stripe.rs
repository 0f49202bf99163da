//! Payments: hiring, membership and the admin's test charge (`/api/stripe`).

use axum::Router;

use super::table::{Call, post};
use crate::AppState;

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    post("/api/stripe/pay", "BillingService.HireProfessional"),
    post("/api/stripe/purchase", "BillingService.PurchaseMembership"),
    post(
        "/api/stripe/block-payment",
        "BillingService.CreateTestCharge",
    ),
    post(
        "/api/stripe/block-payment-confirm",
        "BillingService.CapturePayment",
    ),
];

pub fn routes() -> Router<AppState> {
    super::pending::routes(CALLS)
}
