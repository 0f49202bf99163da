//! Order histories (`/api/orders`).

use super::table::{Call, Translation, get};

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    get(
        "/api/orders/user-orders/{userId}",
        "BillingService.ListOrders",
    ),
    get(
        "/api/orders/professional-orders/{professionalId}",
        "BillingService.ListOrders",
    ),
    get("/api/orders/view-orders/", "BillingService.ListOrders"),
];

/// None of these calls is translated yet: they all answer 501.
pub fn translations() -> Vec<Translation> {
    Vec::new()
}
