//! Quotes on a request (`/api/applications`).

use axum::Router;

use super::table::{Call, get};
use crate::AppState;

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    get(
        "/api/applications/request-applications/{requestId}",
        "MarketplaceService.ListRequestApplications",
    ),
    get(
        "/api/applications/view-application/{id}",
        "MarketplaceService.GetApplication",
    ),
];

pub fn routes() -> Router<AppState> {
    super::pending::routes(CALLS)
}
