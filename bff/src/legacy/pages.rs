//! Landing-page texts in English and French, and the contact form (`/api/pages`, `/api/fr/pages`).

use axum::Router;

use super::table::{Call, get, post};
use crate::AppState;

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    post("/api/pages/contact", "ContentService.SendContactMessage"),
    get("/api/pages", "ContentService.GetHomePage"),
    get(
        "/api/pages/professional-page",
        "ContentService.GetProfessionalPage",
    ),
    post("/api/pages/update-detail", "ContentService.UpdateHomePage"),
    post(
        "/api/pages/update-professional-page-detail",
        "ContentService.UpdateProfessionalPage",
    ),
    get("/api/fr/pages", "ContentService.GetHomePage"),
    get(
        "/api/fr/pages/professional-page",
        "ContentService.GetProfessionalPage",
    ),
    post(
        "/api/fr/pages/update-detail",
        "ContentService.UpdateHomePage",
    ),
    post(
        "/api/fr/pages/update-professional-page-detail",
        "ContentService.UpdateProfessionalPage",
    ),
];

pub fn routes() -> Router<AppState> {
    super::pending::routes(CALLS)
}
