//! Membership coupons (`/api/coupons`).

use axum::Router;

use super::table::{Call, delete, get, post};
use crate::AppState;

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    post("/api/coupons/validate", "BillingService.QuoteMembership"),
    post("/api/coupons/create", "BillingService.CreateCoupon"),
    get("/api/coupons/list", "BillingService.ListCoupons"),
    delete("/api/coupons/delete/{id}", "BillingService.DeleteCoupon"),
];

pub fn routes() -> Router<AppState> {
    super::pending::routes(CALLS)
}
