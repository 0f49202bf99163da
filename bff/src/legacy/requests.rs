//! Repair requests, for customers, professionals and the admin (`/api/requests`).

use super::table::{Call, Translation, get, post};

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    post("/api/requests/place", "MarketplaceService.CreateRequest"),
    get(
        "/api/requests/pending-requests/{userId}",
        "MarketplaceService.ListCustomerRequests",
    ),
    get(
        "/api/requests/request-applications/{userId}",
        "MarketplaceService.ListCustomerRequests",
    ),
    get(
        "/api/requests/active-requests/{userId}",
        "MarketplaceService.ListCustomerRequests",
    ),
    get(
        "/api/requests/user-completed-requests/{userId}",
        "MarketplaceService.ListCustomerRequests",
    ),
    get("/api/requests/{id}", "MarketplaceService.GetRequest"),
    post(
        "/api/requests/update/{id}",
        "MarketplaceService.UpdateRequest",
    ),
    get(
        "/api/requests/delete-request/{id}",
        "MarketplaceService.DeleteRequest",
    ),
    get(
        "/api/requests/mark-completed/{id}",
        "MarketplaceService.CompleteRequest",
    ),
    post("/api/requests/translate", "ContentService.TranslateText"),
    post("/api/requests/translate1", "ContentService.TranslateText"),
    get(
        "/api/requests/request-list/{professionalId}",
        "MatchingService.ListOpenRequests",
    ),
    get(
        "/api/requests/applied-requests/{professionalId}",
        "MarketplaceService.ListProfessionalRequests",
    ),
    get(
        "/api/requests/completed-requests/{professionalId}",
        "MarketplaceService.ListProfessionalRequests",
    ),
    get(
        "/api/requests/professional-active-requests",
        "MarketplaceService.ListProfessionalRequests",
    ),
    get("/api/requests", "MarketplaceService.ListRequests"),
    post(
        "/api/requests/apply",
        "MarketplaceService.CreateApplication",
    ),
];

/// None of these calls is translated yet: they all answer 501.
pub fn translations() -> Vec<Translation> {
    Vec::new()
}
