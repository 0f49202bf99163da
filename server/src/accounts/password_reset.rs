//! Password reset: a random single-use token, valid one hour, sent as a link by email. Only
//! its SHA-256 is stored.
//!
//! Asking answers at once, before the account is even looked up: the look-up, the token and
//! the email (through the outbox) happen after the reply, so neither the answer nor its
//! timing tells whether the email has an account. Asking is limited per email address and
//! per client address (`PASSWORD_RESET_PER_*`, `crate::budgets`), counted before the check,
//! so nobody can flood an inbox. Expired links are purged by `crate::housekeeping`.

use base64::Engine;
use chrono::{Duration, Utc};
use rand::RngCore;
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;
use uuid::Uuid;

use super::{account_kind, email_counter_key};
use crate::error::parse_id;
use crate::{
    budgets::Budget,
    domain::{ClientAddr, Email, NewPassword, Role},
    error::{ApiError, ApiResult, ErrorReason},
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::{
        accounts::{self, AccountKind},
        password_resets,
    },
    words,
};

const VALID_FOR: Duration = Duration::hours(1);
/// Reset requests being prepared after their reply, in this process.
static PREPARING: Semaphore = Semaphore::const_new(32);

fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.trim().as_bytes()).to_vec()
}

pub async fn request(
    state: &AppState,
    role: Role,
    email: Email,
    client: ClientAddr,
) -> ApiResult<()> {
    let kind = account_kind(role)?;
    // Asked for first, so that a busy refusal spends no budget.
    let Ok(permit) = PREPARING.try_acquire() else {
        return Err(ApiError::ResourceExhausted {
            reason: ErrorReason::PasswordResetBusy,
            message: "too many reset requests right now; try again in a minute".to_owned(),
        });
    };
    let spent = state
        .budgets
        .spend(&budgets(state, role, &email, client), 1)
        .await?;
    let state = state.clone();
    tokio::spawn(async move {
        // A reset that could not be prepared gives its budgets back; an unknown email keeps
        // them spent, as a known one does, so the limits tell nothing.
        if let Err(error) = spent
            .settle(prepare(&state, kind, role, &email).await)
            .await
        {
            tracing::error!(error = ?error, "could not prepare a password reset email");
        }
        drop(permit);
    });
    Ok(())
}

fn budgets(state: &AppState, role: Role, email: &Email, client: ClientAddr) -> [Budget; 2] {
    let config = &state.config;
    [
        Budget::hourly(
            format!("password-reset:address:{}", client.limit_key()),
            config.password_reset_per_address_per_hour,
            ErrorReason::PasswordResetAddressLimit,
            "too many reset requests from your network; try again in an hour",
        ),
        Budget::hourly(
            email_counter_key(&state.counter_key, "password-reset:email", role, email),
            config.password_reset_per_email_per_hour,
            ErrorReason::PasswordResetEmailLimit,
            "a reset link was sent several times already; check your inbox or try again in an hour",
        ),
    ]
}

/// After the reply: when the email has an account, a new token and its email, together.
async fn prepare(
    state: &AppState,
    kind: AccountKind,
    role: Role,
    email: &Email,
) -> anyhow::Result<()> {
    let Some(account) = accounts::find_credentials(&state.db, kind, email.as_str()).await? else {
        tracing::info!("password reset asked for an unknown email");
        return Ok(());
    };
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let Some(contact) = accounts::contact(&mut *tx, kind, account.id).await? else {
        return Ok(());
    };
    let mut raw = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut raw);
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw);
    let expires_at = Utc::now() + VALID_FOR;
    password_resets::insert(&mut *tx, kind, account.id, &token_hash(&token), expires_at).await?;

    let link = state
        .config
        .links()
        .reset_password(role, account.id, &token);
    let mail = words::of(contact.language).password_reset(&contact.name, link.of(contact.language));
    let message =
        NewOutboxMessage::email(contact.email, mail.subject, mail.body).discard_after(expires_at);
    outbox::enqueue(&mut *tx, &message).await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok(())
}

pub async fn check(state: &AppState, role: Role, account_id: &str, token: &str) -> ApiResult<bool> {
    let kind = account_kind(role)?;
    let Ok(account_id) = Uuid::parse_str(account_id.trim()) else {
        return Ok(false);
    };
    Ok(password_resets::is_usable(&state.db, kind, account_id, &token_hash(token)).await?)
}

pub async fn reset(
    state: &AppState,
    role: Role,
    account_id: &str,
    token: &str,
    new_password: &str,
) -> ApiResult<()> {
    let kind = account_kind(role)?;
    let account_id = parse_id("account_id", account_id)?;
    let new_password =
        NewPassword::parse(new_password).map_err(|e| ApiError::invalid("new_password", e))?;
    if token.trim().is_empty() {
        return Err(ApiError::invalid(
            "token",
            "open the link from the email to reset your password",
        ));
    }
    let hash = state.passwords.hash(new_password.into_inner()).await?;
    if password_resets::redeem(&state.db, kind, account_id, &token_hash(token), &hash).await? {
        state.sessions.refresh(role, account_id).await;
        Ok(())
    } else {
        Err(ApiError::FailedPrecondition {
            reason: ErrorReason::ResetLinkExpired,
            message: "this reset link has expired or was already used; ask for a new one"
                .to_owned(),
        })
    }
}
