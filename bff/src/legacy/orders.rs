//! Order histories (`/api/orders`).

use axum::Router;

use super::table::{Call, get};
use crate::AppState;

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

pub fn routes() -> Router<AppState> {
    super::pending::routes(CALLS)
}
