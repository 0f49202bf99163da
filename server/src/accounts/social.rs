//! Sign-in with Google or Facebook. The provider proves who the person is (Google's token is
//! verified against its published keys, Facebook's through the Graph API); an email and a
//! name alone never sign anyone in.
//!
//! Accounts are found by the provider's stable subject, never by email. A first sign-in
//! creates the account (without a password) or, when an account of that email exists,
//! links to it only if its email is proven; otherwise whoever signed up with that address
//! may not be its owner, so the account's password is asked for (SOCIAL_LINK_NEEDS_PASSWORD)
//! before linking.

use uuid::Uuid;

use super::{
    account_kind,
    consents::Arrival,
    email_verification::EmailProof,
    renewal::{self, NewSession},
    sessions,
};
use crate::{
    domain::{Email, PersonName, Role},
    error::{ApiError, ApiResult, ErrorReason},
    providers::IdentityError,
    state::AppState,
    store::{accounts, social_identities},
};

pub struct SocialSignIn {
    pub account_id: Uuid,
    pub session: NewSession,
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

/// What a provider vouched for.
struct ProvenIdentity<'a> {
    provider: &'static str,
    /// The provider's stable id of the person.
    subject: &'a str,
    email: &'a str,
    name: Option<&'a str>,
}

pub async fn google(
    state: &AppState,
    role: Role,
    id_token: &str,
    password: &str,
    arrival: Arrival,
) -> ApiResult<SocialSignIn> {
    let user = state
        .google
        .verify(id_token.trim())
        .await
        .map_err(identity_error)?;
    let identity = ProvenIdentity {
        provider: "google",
        subject: &user.subject,
        email: &user.email,
        name: user.name.as_deref(),
    };
    sign_in(state, role, &identity, password, arrival).await
}

pub async fn facebook(
    state: &AppState,
    role: Role,
    access_token: &str,
    password: &str,
    arrival: Arrival,
) -> ApiResult<SocialSignIn> {
    let user = state
        .facebook
        .verify(access_token.trim())
        .await
        .map_err(identity_error)?;
    let identity = ProvenIdentity {
        provider: "facebook",
        subject: &user.id,
        email: &user.email,
        name: user.name.as_deref(),
    };
    sign_in(state, role, &identity, password, arrival).await
}

async fn sign_in(
    state: &AppState,
    role: Role,
    identity: &ProvenIdentity<'_>,
    password: &str,
    arrival: Arrival,
) -> ApiResult<SocialSignIn> {
    let kind = account_kind(role)?;
    if let Some(account_id) =
        social_identities::find(&state.db, identity.provider, identity.subject, kind).await?
    {
        return signed_in(state, account_id, role).await;
    }
    let email = Email::parse(identity.email).map_err(|_| ApiError::Unauthenticated {
        reason: ErrorReason::SignInEmailMissing,
        message: "the account does not share a usable email address".to_owned(),
    })?;
    let Some(existing) = accounts::find_credentials(&state.db, kind, email.as_str()).await? else {
        let name = account_name(identity.name, &email)?;
        let proof = EmailProof::Provider {
            provider: identity.provider,
            subject: identity.subject,
        };
        let (account_id, session) =
            sessions::create_account(state, role, &name, &email, None, arrival, &proof).await?;
        return Ok(SocialSignIn {
            account_id,
            session,
            created: true,
        });
    };
    if !accounts::email_verified(&state.db, kind, existing.id).await? {
        if password.is_empty() {
            return Err(ApiError::FailedPrecondition {
                reason: ErrorReason::SocialLinkNeedsPassword,
                message: "an account with this email already exists; enter its password to link this sign-in to it"
                    .to_owned(),
            });
        }
        // The password proves the account is the caller's (throttled like any sign-in).
        sessions::check_log_in(state, role, email.as_str(), password).await?;
    }
    link(state, kind, identity, existing.id, &email).await?;
    signed_in(state, existing.id, role).await
}

/// A session for an account that existed before this sign-in.
async fn signed_in(state: &AppState, account_id: Uuid, role: Role) -> ApiResult<SocialSignIn> {
    Ok(SocialSignIn {
        account_id,
        session: renewal::open(state, account_id, role).await?,
        created: false,
    })
}

/// Links the identity to the account; the provider has proven the address too.
async fn link(
    state: &AppState,
    kind: accounts::AccountKind,
    identity: &ProvenIdentity<'_>,
    account_id: Uuid,
    email: &Email,
) -> ApiResult<()> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    accounts::mark_email_verified(&mut *tx, kind, account_id, email.as_str()).await?;
    social_identities::link(
        &mut *tx,
        identity.provider,
        identity.subject,
        kind,
        account_id,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The provider's name for the person, or the email's local part.
fn account_name(name: Option<&str>, email: &Email) -> ApiResult<PersonName> {
    let fallback = email
        .as_str()
        .split('@')
        .next()
        .unwrap_or("New member")
        .to_owned();
    name.and_then(|n| PersonName::parse(n).ok())
        .or_else(|| PersonName::parse(&fallback).ok())
        .ok_or_else(|| ApiError::invalid("name", "the account has no usable name"))
}
