//! Membership coupons (`/api/coupons`).

use super::table::{Call, Translation, delete, get, post};

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    post("/api/coupons/validate", "BillingService.QuoteMembership"),
    post("/api/coupons/create", "BillingService.CreateCoupon"),
    get("/api/coupons/list", "BillingService.ListCoupons"),
    delete("/api/coupons/delete/{id}", "BillingService.DeleteCoupon"),
];

/// None of these calls is translated yet: they all answer 501.
pub fn translations() -> Vec<Translation> {
    Vec::new()
}
