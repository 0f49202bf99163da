//! Account rules: sign-up and sign-in, password reset, phone verification, and the admins'
//! review of professionals. Transport-free: the gRPC handlers in `api::accounts` call these.

pub mod email_verification;
pub mod password_reset;
pub mod phone_verification;
pub mod profile;
pub mod removal;
pub mod review;
pub mod sessions;
pub mod sms_budget;
pub mod social;

use uuid::Uuid;

use crate::{
    auth::Caller,
    domain::Role,
    error::{ApiError, ApiResult},
    store::accounts::AccountKind,
};

/// The account kind behind a customer or professional role.
pub fn account_kind(role: Role) -> ApiResult<AccountKind> {
    match role {
        Role::Customer => Ok(AccountKind::Customer),
        Role::Professional => Ok(AccountKind::Professional),
        Role::Admin => Err(ApiError::invalid(
            "role",
            "choose a customer or professional account",
        )),
    }
}

/// Parses an id from a request field.
pub fn parse_id(field: &str, raw: &str) -> ApiResult<Uuid> {
    Uuid::parse_str(raw.trim()).map_err(|_| ApiError::invalid(field, "this id is not valid"))
}

/// The caller must be this account (admins included only where `admin_too`).
pub fn require_self(caller: &Caller, account_id: Uuid, admin_too: bool) -> ApiResult<()> {
    if caller.account_id == account_id || (admin_too && caller.role == Role::Admin) {
        Ok(())
    } else {
        Err(ApiError::PermissionDenied {
            reason: "NOT_OWNER",
            message: "you can only see or change your own account".to_owned(),
        })
    }
}

/// An id given by the caller, or the caller's own when empty.
pub fn own_or_given(caller: &Caller, field: &str, raw: &str) -> ApiResult<Uuid> {
    if raw.trim().is_empty() {
        return Ok(caller.account_id);
    }
    let id = parse_id(field, raw)?;
    require_self(caller, id, false)?;
    Ok(id)
}

pub fn not_found(what: &str) -> ApiError {
    ApiError::NotFound {
        reason: "NOT_FOUND",
        message: format!("this {what} does not exist"),
    }
}
