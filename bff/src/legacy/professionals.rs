//! Professional accounts, profiles and approval; distances and notifications (`/api/professionals`).

use axum::Router;

use super::table::{Call, get, post};
use crate::AppState;

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    get(
        "/api/professionals/get-review/{requestId}/{professionalId}",
        "MarketplaceService.GetRequestReview",
    ),
    post(
        "/api/professionals/get-distance",
        "MatchingService.GetDistance",
    ),
    post(
        "/api/professionals/email-phone",
        "MatchingService.NotifyProfessional",
    ),
    post("/api/professionals", "AccountsService.SignUp"),
    post("/api/professionals/login", "AccountsService.LogIn"),
    get(
        "/api/professionals/get-professional/{token}",
        "AccountsService.GetProfessional",
    ),
    get(
        "/api/professionals/get-professionall/{id}",
        "AccountsService.GetProfessional",
    ),
    get(
        "/api/professionals/view-profile/{id}",
        "AccountsService.GetProfessional",
    ),
    get("/api/professionals", "AccountsService.ListProfessionals"),
    post(
        "/api/professionals/get-sms-updates/",
        "AccountsService.UpdateSmsPreference",
    ),
    post(
        "/api/professionals/professional-dashboard-data/",
        "MarketplaceService.GetProfessionalDashboard",
    ),
    post(
        "/api/professionals/forgot-password",
        "AccountsService.RequestPasswordReset",
    ),
    post(
        "/api/professionals/reset-password",
        "AccountsService.ResetPassword",
    ),
    get(
        "/api/professionals/get-professional1/{id}/{token}",
        "AccountsService.CheckPasswordResetToken",
    ),
    post(
        "/api/professionals/profile",
        "AccountsService.UpdateProfessionalProfile",
    ),
    post(
        "/api/professionals/licenceUpdate",
        "AccountsService.AddLicence",
    ),
    post(
        "/api/professionals/withoutlicenceUpdate",
        "AccountsService.SubmitProfileForReview",
    ),
    get(
        "/api/professionals/delete-professional/{id}",
        "AccountsService.DeleteProfessional",
    ),
    get(
        "/api/professionals/approve-professional/{id}",
        "AccountsService.ApproveProfessional",
    ),
    post(
        "/api/professionals/disapprove-professional",
        "AccountsService.DenyProfessional",
    ),
];

pub fn routes() -> Router<AppState> {
    super::pending::routes(CALLS)
}
