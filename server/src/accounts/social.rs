//! Sign-in with Google or Facebook. The provider proves the email (Google's token is
//! verified against its published keys, Facebook's through the Graph API); an email and a
//! name alone never sign anyone in. An account is created on first sign-in, without a
//! password.

use uuid::Uuid;

use super::{account_kind, sessions};
use crate::{
    auth::token::IssuedToken,
    domain::{Email, Language, PersonName, Role},
    error::{ApiError, ApiResult},
    providers::IdentityError,
    state::AppState,
    store::accounts,
};

pub struct SocialSignIn {
    pub account_id: Uuid,
    pub session: IssuedToken,
    pub created: bool,
}

pub fn identity_error(error: IdentityError) -> ApiError {
    let reason = error.reason();
    let message = error.to_string();
    match error {
        IdentityError::NotConfigured { .. } => ApiError::FailedPrecondition { reason, message },
        IdentityError::Unavailable { detail, .. } => {
            tracing::warn!(%detail, "sign-in provider unavailable");
            ApiError::Unavailable { reason, message }
        }
        _ => ApiError::Unauthenticated { reason, message },
    }
}

pub async fn google(
    state: &AppState,
    role: Role,
    id_token: &str,
    language: Language,
) -> ApiResult<SocialSignIn> {
    let user = state
        .google
        .verify(id_token.trim())
        .await
        .map_err(identity_error)?;
    sign_in(state, role, &user.email, user.name.as_deref(), language).await
}

pub async fn facebook(
    state: &AppState,
    role: Role,
    access_token: &str,
    language: Language,
) -> ApiResult<SocialSignIn> {
    let user = state
        .facebook
        .verify(access_token.trim())
        .await
        .map_err(identity_error)?;
    sign_in(state, role, &user.email, user.name.as_deref(), language).await
}

async fn sign_in(
    state: &AppState,
    role: Role,
    email: &str,
    name: Option<&str>,
    language: Language,
) -> ApiResult<SocialSignIn> {
    let kind = account_kind(role)?;
    let email = Email::parse(email).map_err(|_| ApiError::Unauthenticated {
        reason: "SIGN_IN_EMAIL_MISSING",
        message: "the account does not share a usable email address".to_owned(),
    })?;
    if let Some(existing) = accounts::find_credentials(&state.db, kind, email.as_str()).await? {
        let session = sessions::issue(state, existing.id, role).await?;
        return Ok(SocialSignIn {
            account_id: existing.id,
            session,
            created: false,
        });
    }
    let fallback = email
        .as_str()
        .split('@')
        .next()
        .unwrap_or("New member")
        .to_owned();
    let name = name
        .and_then(|n| PersonName::parse(n).ok())
        .or_else(|| PersonName::parse(&fallback).ok());
    let name = name.ok_or_else(|| ApiError::invalid("name", "the account has no usable name"))?;
    let (account_id, session) =
        sessions::create_account(state, role, &name, &email, None, language).await?;
    Ok(SocialSignIn {
        account_id,
        session,
        created: true,
    })
}
