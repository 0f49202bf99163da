//! Payments: hiring, membership and the admin's test charge (`/api/stripe`).

use super::table::{Call, Translation, post};

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

/// None of these calls is translated yet: they all answer 501.
pub fn translations() -> Vec<Translation> {
    Vec::new()
}
