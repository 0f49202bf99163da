//! Repair requests, for customers, professionals and the admin (`/api/requests`).

use super::table::{Call, Translation, get, post};

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    post(
        "/api/requests/place",
        "MarketplaceService.CreateRepairRequest",
    ),
    get(
        "/api/requests/pending-requests/{userId}",
        "MarketplaceService.ListCustomerRepairRequests",
    ),
    get(
        "/api/requests/request-applications/{userId}",
        "MarketplaceService.ListCustomerRepairRequests",
    ),
    get(
        "/api/requests/active-requests/{userId}",
        "MarketplaceService.ListCustomerRepairRequests",
    ),
    get(
        "/api/requests/user-completed-requests/{userId}",
        "MarketplaceService.ListCustomerRepairRequests",
    ),
    get("/api/requests/{id}", "MarketplaceService.GetRepairRequest"),
    post(
        "/api/requests/update/{id}",
        "MarketplaceService.UpdateRepairRequest",
    ),
    get(
        "/api/requests/delete-request/{id}",
        "MarketplaceService.CancelRepairRequest",
    ),
    get(
        "/api/requests/mark-completed/{id}",
        "MarketplaceService.CompleteRepairRequest",
    ),
    post("/api/requests/translate", "ContentService.TranslateText"),
    post("/api/requests/translate1", "ContentService.TranslateText"),
    get(
        "/api/requests/request-list/{professionalId}",
        "MatchingService.ListOpenRequests",
    ),
    get(
        "/api/requests/applied-requests/{professionalId}",
        "MarketplaceService.ListProfessionalRepairRequests",
    ),
    get(
        "/api/requests/completed-requests/{professionalId}",
        "MarketplaceService.ListProfessionalRepairRequests",
    ),
    get(
        "/api/requests/professional-active-requests",
        "MarketplaceService.ListProfessionalRepairRequests",
    ),
    get("/api/requests", "MarketplaceService.ListRepairRequests"),
    post(
        "/api/requests/apply",
        "MarketplaceService.CreateApplication",
    ),
];

/// None of these calls is translated yet: they all answer 501.
pub fn translations() -> Vec<Translation> {
    Vec::new()
}
