//! Quotes on a request (`/api/applications`).

use super::table::{Call, Translation, get};

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    get(
        "/api/applications/request-applications/{requestId}",
        "MarketplaceService.ListRepairRequestQuotes",
    ),
    get(
        "/api/applications/view-application/{id}",
        "MarketplaceService.GetQuote",
    ),
];

/// None of these calls is translated yet: they all answer 501.
pub fn translations() -> Vec<Translation> {
    Vec::new()
}
