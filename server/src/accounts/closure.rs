//! A person closing their own account (PIPEDA, Law 25): closed at once, erased after the
//! grace period (ACCOUNT_DELETION_GRACE_DAYS) by the housekeeping pass through the one
//! erasure (`super::removal`), unless the emailed link keeps it first. States: OPEN ->
//! CLOSED (`close`), CLOSED -> OPEN (`keep`), CLOSED -> ERASED (`erase_due`); each names
//! where it starts from in its statement (`store::account_closures`).

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Duration, Utc};
use rand::RngCore;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::{
    account_kind,
    removal::{self, Eraser},
};
use crate::{
    auth::Caller,
    domain::{Email, Language, Role},
    error::{ApiError, ApiResult, ErrorReason, FieldViolation, not_found},
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::{
        account_closures,
        accounts::{self, AccountKind},
        push_subscriptions, session_versions,
    },
    words::{self, Moment},
};

/// How the person proves it is them.
#[derive(Debug, Clone, Copy)]
pub struct Proof<'a> {
    /// The account's password, when it has one.
    pub password: &'a str,
    /// An account without a password (Google, Facebook): its email address.
    pub confirm_email: &'a str,
}

/// What closing answered.
#[derive(Debug, Clone)]
pub struct Closed {
    pub erase_after: DateTime<Utc>,
    /// The requests whose open hire or dispute holds the erasure.
    pub held_by: Vec<Uuid>,
}

/// The refusal of a closed account's sign-in and of a second closing.
pub fn closed_error() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::AccountClosed,
        message: "this account is closed and waits for its erasure; the email sent when it \
                  was closed holds the link that keeps it"
            .to_owned(),
    }
}

/// Refuses a sign-in to account `id` while it is closed.
pub async fn refuse_if_closed(state: &AppState, kind: AccountKind, id: Uuid) -> ApiResult<()> {
    if account_closures::is_closed(&state.db, kind, id).await? {
        return Err(closed_error());
    }
    Ok(())
}

/// Closes `caller`'s own account, proved by `proof`.
pub async fn close(state: &AppState, caller: &Caller, proof: Proof<'_>) -> ApiResult<Closed> {
    let kind = account_kind(caller.role)?;
    let id = caller.account_id;
    let contact = accounts::contact(&state.db, kind, id)
        .await?
        .ok_or_else(|| not_found("account"))?;
    check_proof(state, kind, &contact.email, proof).await?;
    let token = new_token();
    let erase_after =
        Utc::now() + Duration::days(i64::from(state.config.account_deletion_grace_days));
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    if !account_closures::close(&mut tx, kind, id, erase_after, &token_hash(&token)).await? {
        return Err(closed_error());
    }
    match kind {
        AccountKind::Customer => {
            removal::cancel_open_requests(&mut tx, state, id).await?;
        }
        AccountKind::Professional => crate::quotes::withdraw_all_of(&mut tx, id).await?,
    }
    let owner = push_subscriptions::Owner { kind, id };
    push_subscriptions::forget_all_of(&mut *tx, owner).await?;
    session_versions::bump(&mut *tx, caller.role, id).await?;
    let link = state.config.links().keep_account(&token);
    let erased_on = Moment::new(erase_after, "");
    let mail = words::of(contact.language).account_closed(
        &contact.name,
        erased_on,
        link.of(contact.language),
    );
    outbox::enqueue(
        &mut *tx,
        &NewOutboxMessage::email(&contact.email, mail.subject, mail.body),
    )
    .await?;
    let held_by = account_closures::holds(&mut *tx, kind, id).await?;
    tx.commit().await?;
    state.outbox.wake();
    state.sessions.refresh(caller.role, id).await;
    tracing::info!(role = %caller.role, held = held_by.len(), "an account was closed by its person");
    Ok(Closed {
        erase_after,
        held_by,
    })
}

async fn check_proof(
    state: &AppState,
    kind: AccountKind,
    email: &str,
    proof: Proof<'_>,
) -> ApiResult<()> {
    let stored = accounts::find_credentials(&state.db, kind, email)
        .await?
        .and_then(|credentials| credentials.password_hash);
    match stored {
        Some(hash) => {
            if proof.password.is_empty() {
                return Err(ApiError::invalid("password", "type your password"));
            }
            let right = state
                .passwords
                .verify(proof.password.to_owned(), Some(hash))
                .await?;
            if !right {
                return Err(ApiError::invalid("password", "the password is not right"));
            }
        }
        None => {
            let same = Email::parse(proof.confirm_email)
                .is_ok_and(|given| given.as_str().eq_ignore_ascii_case(email));
            if !same {
                return Err(ApiError::invalid_fields(vec![FieldViolation::new(
                    "confirm_email",
                    "type the email address of your account",
                )]));
            }
        }
    }
    Ok(())
}

/// Keeps a closed account from its emailed link: sign-in works again.
pub async fn keep(state: &AppState, token: &str) -> ApiResult<(Role, Language)> {
    let invalid = || ApiError::InvalidArgument {
        reason: ErrorReason::AccountDeletionLinkInvalid,
        violations: vec![FieldViolation::new(
            "token",
            "this link no longer keeps an account: it was used already, or the account was erased",
        )],
    };
    if token.len() != TOKEN_CHARS {
        return Err(invalid());
    }
    let (kind, id) = account_closures::keep(&state.db, &token_hash(token))
        .await?
        .ok_or_else(invalid)?;
    let language = accounts::contact(&state.db, kind, id)
        .await?
        .map(|contact| contact.language)
        .unwrap_or_default();
    tracing::info!(role = %kind.role(), "a closed account was kept by its person");
    Ok((kind.role(), language))
}

/// How many closures one housekeeping pass looks at, at most.
const ERASURES_PER_PASS: i64 = 20;
/// How long a held erasure waits before it is looked at again.
const HELD_RETRY: Duration = Duration::hours(6);

/// Erases the closed accounts whose grace has run out by `now` and that nothing holds
/// (housekeeping); a held one is looked at again later. How many were erased.
pub async fn erase_due(state: &AppState, now: DateTime<Utc>) -> ApiResult<usize> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let due = account_closures::claim_due(&mut tx, now, ERASURES_PER_PASS).await?;
    let mut free = Vec::new();
    for (kind, id) in due {
        if account_closures::holds(&mut *tx, kind, id)
            .await?
            .is_empty()
        {
            free.push((kind, id));
        } else {
            account_closures::hold_until(&mut tx, kind, id, now + HELD_RETRY).await?;
        }
    }
    // The held ones are put off; the free ones stay due, each erased in its own transaction
    // (another process that claims one meanwhile finds it erased and skips it).
    tx.commit().await?;
    let mut erased = 0;
    for (kind, id) in free {
        if removal::erase(state, Eraser::ClosureGraceEnded, kind, id).await? {
            erased += 1;
        }
    }
    Ok(erased)
}

const TOKEN_BYTES: usize = 32;
/// Base64url without padding of [`TOKEN_BYTES`].
const TOKEN_CHARS: usize = 43;

fn new_token() -> String {
    let mut bytes = [0u8; TOKEN_BYTES];
    rand::thread_rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The stored form of a keep link's token: its hash (the token has 256 bits of chance, so a
/// plain hash is enough; whoever reads the table cannot keep an account).
fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_stored_hashed() {
        let one = new_token();
        assert_eq!(one.len(), TOKEN_CHARS);
        assert_ne!(one, new_token());
        assert_eq!(token_hash(&one), token_hash(&one));
        assert_ne!(token_hash(&one).as_slice(), one.as_bytes());
    }
}
