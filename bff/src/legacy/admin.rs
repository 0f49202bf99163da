//! Administrator sign-in (`/api/admin`).

use axum::Router;

use super::table::{Call, post};
use crate::AppState;

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[post("/api/admin/login", "AccountsService.LogIn")];

pub fn routes() -> Router<AppState> {
    super::pending::routes(CALLS)
}
