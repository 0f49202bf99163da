//! Customer accounts, their reviews and dashboard (`/api/users`).

use axum::Router;

use super::table::{Call, get, post};
use crate::AppState;

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    post("/api/users", "AccountsService.SignUp"),
    post("/api/users/login", "AccountsService.LogIn"),
    post(
        "/api/users/google-login",
        "AccountsService.SignInWithGoogle",
    ),
    post("/api/users/fb-login", "AccountsService.SignInWithFacebook"),
    post(
        "/api/users/forgot-password",
        "AccountsService.RequestPasswordReset",
    ),
    post("/api/users/reset-password", "AccountsService.ResetPassword"),
    get(
        "/api/users/get-user1/{id}/{token}",
        "AccountsService.CheckPasswordResetToken",
    ),
    get("/api/users/get-user/{id}", "AccountsService.GetCustomer"),
    post(
        "/api/users/get-sms-updates/",
        "AccountsService.UpdateSmsPreference",
    ),
    post(
        "/api/users/update-account",
        "AccountsService.UpdateCustomer",
    ),
    get(
        "/api/users/delete-user/{id}",
        "AccountsService.DeleteCustomer",
    ),
    get("/api/users", "AccountsService.ListCustomers"),
    get(
        "/api/users/get-reviews/{professionalId}",
        "MarketplaceService.ListProfessionalReviews",
    ),
    post(
        "/api/users/submit-review",
        "MarketplaceService.CreateReview",
    ),
    post(
        "/api/users/user-dashboard-data/",
        "MarketplaceService.GetCustomerDashboard",
    ),
];

pub fn routes() -> Router<AppState> {
    super::pending::routes(CALLS)
}
