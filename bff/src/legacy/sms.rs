//! Phone verification codes (`/api/sms`).

use axum::Router;

use super::table::{Call, post};
use crate::AppState;

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    post("/api/sms/send-otp", "AccountsService.SendPhoneCode"),
    post("/api/sms/verify-otp", "AccountsService.VerifyPhoneCode"),
    post("/api/sms/resend-otp", "AccountsService.SendPhoneCode"),
];

pub fn routes() -> Router<AppState> {
    super::pending::routes(CALLS)
}
