//! Calls the users and professionals areas share, the same but for the role: password reset
//! (forgot, check the link, reset) and the SMS choice.

use axum::Json;
use axum::extract::Path;
use axum::routing;
use http::StatusCode;
use repairs_proto::accounts as pb;
use serde::Deserialize;
use serde_json::json;

use super::body::{LegacyJson, text};
use super::error::{ApiError, Reply};
use super::rpc::Rpc;
use super::shapes::{language_from_text, sms_from_text, sms_text};
use super::table::Handler;

/// The same reply whether or not the email has an account (the server's rule; the BFF only
/// words it).
pub const RESET_LINK_SENT: &str =
    "If an account exists for this email, a reset link is on its way.";

/// The old reset pages did not send the link's token; the server needs it.
pub const RESET_TOKEN_MISSING: &str =
    "This reset link is incomplete: open the link from the email again, or ask for a new one.";

/// A body naming one account by `id` (or `_id`); empty means the caller's own.
#[derive(Deserialize)]
pub struct IdBody {
    #[serde(default, deserialize_with = "text", alias = "_id")]
    pub id: String,
}

/// The id a call names, or else the caller's own (from the token; the server checks both).
pub fn account_id(given: &str, rpc: &Rpc) -> String {
    let given = given.trim();
    if given.is_empty() {
        rpc.token().unverified_subject().unwrap_or_default()
    } else {
        given.to_owned()
    }
}

#[derive(Deserialize)]
struct ForgotBody {
    #[serde(default, deserialize_with = "text")]
    email: String,
}

/// `POST /api/<users|professionals>/forgot-password` {email} -> RequestPasswordReset.
pub fn forgot_password(role: pb::Role) -> Handler {
    routing::post(
        move |rpc: Rpc, LegacyJson(body): LegacyJson<ForgotBody>| async move {
            let request = pb::RequestPasswordResetRequest {
                role: role as i32,
                email: body.email.trim().to_owned(),
            };
            rpc.accounts()
                .request_password_reset(rpc.request(request))
                .await?;
            Reply::Ok(Json(json!({ "msg": RESET_LINK_SENT })))
        },
    )
}

#[derive(Deserialize)]
struct ResetBody {
    #[serde(default, deserialize_with = "text")]
    id: String,
    #[serde(default, deserialize_with = "text", alias = "new_password")]
    password: String,
    #[serde(default, deserialize_with = "text")]
    token: String,
}

/// `POST /api/<users|professionals>/reset-password` {id, password, token} -> ResetPassword.
pub fn reset_password(role: pb::Role) -> Handler {
    routing::post(
        move |rpc: Rpc, LegacyJson(body): LegacyJson<ResetBody>| async move {
            if body.token.trim().is_empty() {
                return Err(ApiError::new(StatusCode::BAD_REQUEST, RESET_TOKEN_MISSING));
            }
            let request = pb::ResetPasswordRequest {
                role: role as i32,
                account_id: body.id.trim().to_owned(),
                token: body.token.trim().to_owned(),
                new_password: body.password,
            };
            rpc.accounts().reset_password(rpc.request(request)).await?;
            Reply::Ok(Json(
                json!({ "msg": "Your password has been changed. You can sign in now." }),
            ))
        },
    )
}

/// `GET /api/users/get-user1/{id}/{token}`, `/api/professionals/get-professional1/{id}/{token}`
/// -> CheckPasswordResetToken: `{msg: "true"}` or `{msg: "false"}` (the old pages read the
/// text), 200 either way.
pub fn check_reset_link(role: pb::Role) -> Handler {
    routing::get(
        move |rpc: Rpc, Path((id, token)): Path<(String, String)>| async move {
            let request = pb::CheckPasswordResetTokenRequest {
                role: role as i32,
                account_id: id,
                token,
            };
            let valid = rpc
                .accounts()
                .check_password_reset_token(rpc.request(request))
                .await?
                .into_inner()
                .valid;
            Reply::Ok(Json(json!({ "msg": valid.to_string() })))
        },
    )
}

#[derive(Deserialize)]
struct SmsBody {
    #[serde(default, deserialize_with = "text")]
    id: String,
    #[serde(default, deserialize_with = "text")]
    sms_updates: String,
}

/// `POST /api/<users|professionals>/get-sms-updates/` {id, sms_updates} -> UpdateSmsPreference.
pub fn sms_preference() -> Handler {
    routing::post(
        |rpc: Rpc, LegacyJson(body): LegacyJson<SmsBody>| async move {
            let request = pb::UpdateSmsPreferenceRequest {
                account_id: body.id.trim().to_owned(),
                sms_updates: sms_from_text(&body.sms_updates) as i32,
            };
            let stored = rpc
                .accounts()
                .update_sms_preference(rpc.request(request))
                .await?
                .into_inner()
                .sms_updates;
            Reply::Ok(Json(json!({
                "msg": "SMS preference updated",
                "sms_updates": sms_text(stored),
            })))
        },
    )
}

/// What the old sign-up forms post, for customers and professionals alike.
#[derive(Deserialize)]
pub struct SignUpBody {
    #[serde(default, deserialize_with = "text")]
    name: String,
    #[serde(default, deserialize_with = "text")]
    email: String,
    #[serde(default, deserialize_with = "text")]
    password: String,
    #[serde(default, deserialize_with = "text", alias = "language")]
    lang: String,
}

/// SignUp for a role; the session and the new account.
pub async fn sign_up(
    rpc: &Rpc,
    role: pb::Role,
    body: SignUpBody,
) -> Result<(pb::Session, Option<pb::sign_up_response::Account>), ApiError> {
    let request = pb::SignUpRequest {
        role: role as i32,
        name: body.name,
        email: body.email,
        password: body.password,
        language: language_from_text(&body.lang) as i32,
    };
    let reply = rpc
        .accounts()
        .sign_up(rpc.request(request))
        .await?
        .into_inner();
    Ok((reply.session.unwrap_or_default(), reply.account))
}

/// What the old login forms post, for every role.
#[derive(Deserialize)]
pub struct LogInBody {
    #[serde(default, deserialize_with = "text")]
    email: String,
    #[serde(default, deserialize_with = "text")]
    password: String,
}

/// LogIn for a role; the session and the account.
pub async fn log_in(
    rpc: &Rpc,
    role: pb::Role,
    body: LogInBody,
) -> Result<(pb::Session, Option<pb::log_in_response::Account>), ApiError> {
    let request = pb::LogInRequest {
        role: role as i32,
        email: body.email,
        password: body.password,
    };
    let reply = rpc
        .accounts()
        .log_in(rpc.request(request))
        .await?
        .into_inner();
    Ok((reply.session.unwrap_or_default(), reply.account))
}
