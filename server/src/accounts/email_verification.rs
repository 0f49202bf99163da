//! Proving an account's email. A password sign-up gets a link by email (through the outbox,
//! in the person's language), valid three days; nothing waits for it: sign-up goes straight
//! on to the phone code. A social sign-up is proven by its provider, a password reset by
//! the inbox it used. What a proven email unlocks: linking a Google or Facebook sign-in to
//! the account (see `social`).

use base64::Engine;
use chrono::{Duration, Utc};
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    domain::{Email, Language, PersonName, Role},
    error::{ApiError, ApiResult, ErrorReason},
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::{
        accounts::{self, AccountKind},
        email_verifications, social_identities,
    },
    words,
};

const VALID_FOR: Duration = Duration::days(3);

/// How a new account's email is known to be its owner's.
pub enum EmailProof<'a> {
    /// Not yet: a link is emailed.
    Unproven,
    /// A sign-in provider vouched for it; the account is linked to that identity.
    Provider { provider: &'a str, subject: &'a str },
}

fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.trim().as_bytes()).to_vec()
}

/// An account being created.
pub(super) struct NewAccount<'a> {
    pub kind: AccountKind,
    pub id: Uuid,
    pub name: &'a PersonName,
    pub email: &'a Email,
    pub language: Language,
}

/// In the transaction that creates the account: the link and its email, or the provider's
/// proof and the link to its identity.
pub(super) async fn on_new_account(
    tx: &mut PgConnection,
    state: &AppState,
    account: &NewAccount<'_>,
    proof: &EmailProof<'_>,
) -> ApiResult<()> {
    let NewAccount {
        kind,
        id: account_id,
        name,
        email,
        language,
    } = *account;
    if let EmailProof::Provider { provider, subject } = proof {
        accounts::mark_email_verified(&mut *tx, kind, account_id, email.as_str()).await?;
        social_identities::link(&mut *tx, provider, subject, kind, account_id).await?;
        return Ok(());
    }
    let mut raw = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut raw);
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw);
    let expires_at = Utc::now() + VALID_FOR;
    email_verifications::insert(
        &mut *tx,
        kind,
        account_id,
        email.as_str(),
        &token_hash(&token),
        expires_at,
    )
    .await?;
    let link = state.config.links().verify_email(&token);
    let mail = words::of(language).email_confirmation(name.as_str(), link.of(language));
    let message =
        NewOutboxMessage::email(email.as_str(), mail.subject, mail.body).discard_after(expires_at);
    outbox::enqueue(&mut *tx, &message).await?;
    Ok(())
}

/// Confirms the address a link was sent to; returns whose it is.
pub async fn confirm(state: &AppState, token: &str) -> ApiResult<(Role, Uuid)> {
    let expired = || ApiError::FailedPrecondition {
        reason: ErrorReason::EmailLinkExpired,
        message: "this confirmation link has expired or was already used".to_owned(),
    };
    // Tokens are 43 characters; anything far longer is not one of ours.
    if token.trim().is_empty() || token.len() > 200 {
        return Err(expired());
    }
    let (kind, account_id) = email_verifications::confirm(&state.db, &token_hash(token))
        .await?
        .ok_or_else(expired)?;
    Ok((kind.role(), account_id))
}
