//! Administrator sign-in (`/api/admin`).

use axum::Json;
use axum::routing;
use repairs_proto::accounts as pb;
use serde_json::json;

use super::accounts_shared;
use super::body::LegacyJson;
use super::error::Reply;
use super::rpc::Rpc;
use super::table::{Call, Translation, post};

const LOG_IN: Call = post("/api/admin/login", "AccountsService.LogIn");

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[LOG_IN];

pub fn translations() -> Vec<Translation> {
    vec![(LOG_IN, routing::post(log_in))]
}

/// `POST /api/admin/login` {email, password} -> LogIn(admin) -> `{admin_token, admin_name,
/// msg}`; a refused sign-in is 401 `{msg}`.
async fn log_in(rpc: Rpc, LegacyJson(body): LegacyJson<accounts_shared::LogInBody>) -> Reply {
    let (session, account) = accounts_shared::log_in(&rpc, pb::Role::Admin, body).await?;
    let name = match account {
        Some(pb::log_in_response::Account::Admin(admin)) => admin.name,
        _ => String::new(),
    };
    Ok(Json(json!({
        "admin_token": session.access_token,
        "admin_name": name,
        "msg": "Logged in Successfully",
    })))
}
