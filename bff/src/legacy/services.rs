//! The service catalogue, English and French names (`/api/services`, `/api/fr/services`).

use axum::Router;

use super::table::{Call, delete, get, post};
use crate::AppState;

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    get("/api/services", "ContentService.ListServices"),
    get("/api/fr/services", "ContentService.ListServices"),
    get(
        "/api/services/get-service/{id}",
        "ContentService.GetService",
    ),
    post("/api/services/create", "ContentService.CreateService"),
    post(
        "/api/services/update-service",
        "ContentService.UpdateService",
    ),
    delete(
        "/api/services/delete-service/{id}",
        "ContentService.DeleteService",
    ),
];

pub fn routes() -> Router<AppState> {
    super::pending::routes(CALLS)
}
