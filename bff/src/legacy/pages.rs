//! Landing-page texts in English and French, and the contact form (`/api/pages`, `/api/fr/pages`).

use super::table::{Call, Translation, get, post};

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

/// None of these calls is translated yet: they all answer 501.
pub fn translations() -> Vec<Translation> {
    Vec::new()
}
