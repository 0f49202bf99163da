//! Sessions that last. Every sign-in opens a family of refresh tokens and gives its first one
//! with a short-lived access token; `renew` trades a refresh token, once, for a new access
//! token and the family's next refresh token, until the family's end (30 days after the
//! sign-in for customers and professionals, the admin session's lifetime for admins:
//! `Config::sign_in_lifetime`). Access tokens never outlive their family.
//!
//! A family ends early when the person signs out (`sign_out`), when one of its refresh tokens
//! is sent a second time (it may have been stolen: whoever holds the newer token loses it
//! too), and when the account's token version moves on (a password reset, a denial, a
//! deletion: the family recorded the version at the sign-in, as access tokens do).

use std::time::SystemTime;

use chrono::{DateTime, SubsecRound, Utc};
use uuid::Uuid;

use crate::{
    auth::{Caller, refresh_token::RefreshToken, token::IssuedToken},
    domain::{Role, push::MAX_ENDPOINT_CHARS},
    error::{ApiError, ApiResult, ErrorReason},
    state::AppState,
    store::{
        push_subscriptions::{self, Owner},
        refresh_tokens::{self, Ended, Family, NewFamily, Spent},
        session_versions,
    },
};

/// A session as a sign-in or a renewal gives it.
#[derive(Debug)]
pub struct NewSession {
    pub account_id: Uuid,
    pub role: Role,
    pub access: IssuedToken,
    pub refresh: RefreshToken,
    /// The end of the sign-in: no renewal goes beyond it.
    pub refresh_expires_at: DateTime<Utc>,
}

/// Opens a session for the account at its current token version: a new family, its first
/// refresh token and an access token. Every sign-in comes through here, so a closed account
/// is refused here (ACCOUNT_CLOSED), whichever way it signs in.
pub async fn open(state: &AppState, account_id: Uuid, role: Role) -> ApiResult<NewSession> {
    if let Ok(kind) = super::account_kind(role) {
        super::closure::refuse_if_closed(state, kind, account_id).await?;
    }
    let version = state
        .sessions
        .current(role, account_id)
        .await?
        .ok_or_else(|| crate::error::not_found("account"))?;
    let lifetime = chrono::Duration::from_std(state.config.sign_in_lifetime(role))
        .map_err(|e| ApiError::Internal(anyhow::Error::new(e).context("sign-in lifetime")))?;
    // Whole seconds, as the access tokens' expiry: every renewal names the same end.
    let refresh_expires_at = (Utc::now() + lifetime).trunc_subsecs(0);
    let refresh = RefreshToken::generate();
    let family = NewFamily {
        id: Uuid::now_v7(),
        role,
        account_id,
        token_version: version,
        expires_at: refresh_expires_at,
        first_token_hash: &refresh.hash(),
    };
    refresh_tokens::open(&state.db, &family).await?;
    let caller = Caller { account_id, role };
    Ok(NewSession {
        account_id,
        role,
        access: access_token(state, caller, version, refresh_expires_at)?,
        refresh,
        refresh_expires_at,
    })
}

/// Trades a refresh token for the next session of its family. The token is spent in the
/// same transaction that adds its successor, so of concurrent calls with one token a single
/// one succeeds; the others find it spent, which ends the family.
pub async fn renew(state: &AppState, refresh_token: &str) -> ApiResult<NewSession> {
    let token = parse(refresh_token)?;
    let next = RefreshToken::generate();
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let family = match refresh_tokens::spend(&mut tx, &token.hash()).await? {
        Spent::Now(family) => family,
        Spent::Before => {
            // The family's end is kept: the token was sent twice.
            tx.commit().await?;
            return Err(revoked(
                "this refresh token was used already, so its session was ended; sign in again",
            ));
        }
        Spent::Unknown => {
            return Err(ApiError::Unauthenticated {
                reason: ErrorReason::SessionInvalid,
                message: "this refresh token is not known; sign in again".to_owned(),
            });
        }
    };
    // Refusals below leave the token as it was (the transaction is not committed).
    let role = still_open(&family)?;
    let current = session_versions::current(&mut *tx, role, family.account_id).await?;
    if current != Some(family.token_version) {
        return Err(revoked(
            "this session was ended because the account changed; sign in again",
        ));
    }
    refresh_tokens::add(&mut *tx, family.id, &next.hash()).await?;
    tx.commit().await?;
    let caller = Caller {
        account_id: family.account_id,
        role,
    };
    Ok(NewSession {
        account_id: family.account_id,
        role,
        access: access_token(state, caller, family.token_version, family.expires_at)?,
        refresh: next,
        refresh_expires_at: family.expires_at,
    })
}

/// Ends the sign-in the refresh token belongs to, and forgets `push_endpoint` (this
/// browser's subscription) for its account. Nothing to end (unknown, or ended before) is not
/// an error: the caller is signed out either way.
pub async fn sign_out(
    state: &AppState,
    refresh_token: &str,
    push_endpoint: Option<&str>,
) -> ApiResult<()> {
    let token = parse(refresh_token)?;
    if push_endpoint.is_some_and(|endpoint| endpoint.chars().count() > MAX_ENDPOINT_CHARS) {
        return Err(ApiError::invalid(
            "push_endpoint",
            "the endpoint must be at most 1,000 characters",
        ));
    }
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let Some(signed_out) = refresh_tokens::sign_out(&mut *tx, &token.hash()).await? else {
        tracing::debug!("sign-out with an unknown refresh token");
        return Ok(());
    };
    if !signed_out.ended_now {
        tracing::debug!("sign-out of a session that was not open");
    }
    // Admins have no devices to forget.
    let kind = super::account_kind(signed_out.role.0).ok();
    if let (Some(endpoint), Some(kind)) = (push_endpoint, kind) {
        let owner = Owner {
            kind,
            id: signed_out.account_id,
        };
        push_subscriptions::remove(&mut *tx, owner, endpoint.trim()).await?;
    }
    tx.commit().await?;
    Ok(())
}

fn parse(refresh_token: &str) -> ApiResult<RefreshToken> {
    RefreshToken::parse(refresh_token).map_err(|e| ApiError::invalid("refresh_token", e))
}

/// The family's role, if it may still be renewed.
fn still_open(family: &Family) -> ApiResult<Role> {
    match family.ended {
        Ended::SignedOut => Err(revoked("this session was signed out; sign in again")),
        Ended::Reused => Err(revoked(
            "this session was ended because a refresh token was used twice; sign in again",
        )),
        Ended::No if family.expired => Err(ApiError::Unauthenticated {
            reason: ErrorReason::SessionTooOld,
            message: "this session reached the end of its lifetime; sign in again".to_owned(),
        }),
        Ended::No => Ok(family.role.0),
    }
}

fn revoked(message: &str) -> ApiError {
    ApiError::Unauthenticated {
        reason: ErrorReason::SessionRevoked,
        message: message.to_owned(),
    }
}

fn access_token(
    state: &AppState,
    caller: Caller,
    version: i32,
    not_after: DateTime<Utc>,
) -> ApiResult<IssuedToken> {
    state
        .tokens
        .issue_until(caller, version, SystemTime::from(not_after))
        .map_err(|e| ApiError::Internal(anyhow::Error::new(e).context("signing a token")))
}
