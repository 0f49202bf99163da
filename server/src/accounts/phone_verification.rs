//! Phone verification by a 4-digit code sent by SMS.
//!
//! The code lives in the cache for 10 minutes as a keyed hash (HMAC-SHA256 over account,
//! phone and code), never in clear, and is compared in constant time. Limits: 5 wrong tries
//! per code, 30 s between sends to one account (both in the shared cache, with the code, so
//! a code sent by one server replica verifies on another), and 5 sends per phone per hour
//! with the SMS budgets of [`super::sms_budget`] (in `crate::budgets`, given back when the
//! code could not be stored or queued, or when its text ends unsent). The text goes through
//! the outbox, dropped unsent if the code expires first.

use std::time::Duration;

use subtle::ConstantTimeEq;
use uuid::Uuid;

use crate::{
    auth::secret::keyed_digest,
    budgets::{Budget, Spent},
    domain::{ClientAddr, Phone, PhoneCode, SmsUpdates},
    error::{ApiError, ApiResult, ErrorReason},
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::accounts::{self, AccountKind},
    words,
};

pub const CODE_TTL: Duration = Duration::from_secs(10 * 60);
pub const RESEND_COOLDOWN: Duration = Duration::from_secs(30);
pub const MAX_TRIES: i64 = 5;
pub const MAX_SENDS_PER_HOUR: i64 = 5;

fn code_key(account: Uuid) -> String {
    format!("phone-code:{account}")
}
fn tries_key(account: Uuid) -> String {
    format!("phone-code-tries:{account}")
}
fn cooldown_key(account: Uuid) -> String {
    format!("phone-code-cooldown:{account}")
}
fn sends_key(phone: &Phone) -> String {
    format!("phone-code-sends:{phone}")
}

fn keyed_hash(key: &[u8; 32], account: Uuid, phone: &Phone, code: &PhoneCode) -> String {
    crate::providers::secret::to_hex(&keyed_digest(
        key,
        &[
            account.as_bytes(),
            phone.as_str().as_bytes(),
            code.as_str().as_bytes(),
        ],
    ))
}

/// What is stored while a code is pending: "<phone>|<keyed hash>".
fn pending_value(phone: &Phone, hash: &str) -> String {
    format!("{phone}|{hash}")
}

/// The wait in whole seconds, rounded up and at least one, as the message and the client's
/// countdown say it: asking again once it is over never meets the wait again.
fn whole_seconds(wait: Duration) -> Duration {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    Duration::from_secs(seconds.max(1))
}

fn wait_message(wait: Duration) -> String {
    format!(
        "wait {} seconds before asking for a new code",
        whole_seconds(wait).as_secs()
    )
}

pub struct CodeSent {
    pub phone: Phone,
    pub expires_in: Duration,
    pub next_send_in: Duration,
}

pub async fn send_code(
    state: &AppState,
    kind: AccountKind,
    account: Uuid,
    phone: Phone,
    sms_choice: Option<SmsUpdates>,
    client: ClientAddr,
) -> ApiResult<CodeSent> {
    let contact = accounts::contact(&state.db, kind, account)
        .await?
        .ok_or_else(|| crate::error::not_found("account"))?;
    if contact.phone_verified && contact.phone.as_deref() == Some(phone.as_str()) {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::PhoneAlreadyVerified,
            message: "this phone number is already verified".to_owned(),
        });
    }
    let cache = &state.cache;
    if !cache
        .set_if_absent(&cooldown_key(account), "1", RESEND_COOLDOWN)
        .await?
    {
        let wait = cache
            .time_to_live(&cooldown_key(account))
            .await?
            .unwrap_or(RESEND_COOLDOWN);
        return Err(ApiError::RetryLater {
            reason: ErrorReason::PhoneCodeCooldown,
            message: wait_message(wait),
            retry_after: whole_seconds(wait),
        });
    }
    let sends = Budget::hourly(
        sends_key(&phone),
        MAX_SENDS_PER_HOUR,
        ErrorReason::PhoneCodeSendLimit,
        "too many codes were sent to this number; try again in an hour",
    );
    let [address, country, global] = super::sms_budget::budgets(state, client, &phone);
    // A send refused by a budget, or a code that could not be stored or queued, sent no text:
    // the resend wait is lifted (so another number may be tried at once), and the budgets are
    // given back.
    let spent = match state
        .budgets
        .spend(&[sends, address, country, global], 1)
        .await
    {
        Ok(spent) => spent,
        Err(refused) => {
            lift_resend_wait(state, account).await;
            return Err(refused);
        }
    };
    let outcome =
        store_and_queue(state, (kind, account), &phone, sms_choice, &contact, &spent).await;
    if outcome.is_err() {
        lift_resend_wait(state, account).await;
    }
    spent.settle(outcome).await?;
    Ok(CodeSent {
        phone,
        expires_in: CODE_TTL,
        next_send_in: RESEND_COOLDOWN,
    })
}

/// Ends the resend wait of a send that sent nothing. Best effort: the caller's own answer (the
/// refusal, the budgets given back) matters more, and the wait ends by itself.
async fn lift_resend_wait(state: &AppState, account: Uuid) {
    if let Err(error) = state.cache.delete(&cooldown_key(account)).await {
        tracing::warn!(%error, %account, "could not lift a phone code's resend wait");
    }
}

/// A new code for `account`, kept hashed in the cache, and its text in the outbox, paid by
/// `spent` (given back by the outbox should the provider refuse it).
async fn store_and_queue(
    state: &AppState,
    (kind, account): (AccountKind, Uuid),
    phone: &Phone,
    sms_choice: Option<SmsUpdates>,
    contact: &accounts::Contact,
    spent: &Spent,
) -> ApiResult<()> {
    let cache = &state.cache;
    let code = PhoneCode::generate();
    let hash = keyed_hash(&state.phone_code_key, account, phone, &code);
    cache
        .set(&code_key(account), &pending_value(phone, &hash), CODE_TTL)
        .await?;
    cache.delete(&tries_key(account)).await?;

    let body = words::of(contact.language).phone_code(code.as_str());
    let expires = chrono::Utc::now() + chrono::Duration::from_std(CODE_TTL).unwrap_or_default();
    let text = NewOutboxMessage::sms(phone.as_str(), body).discard_after(expires);
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    if let Some(choice) = sms_choice {
        accounts::set_sms_updates(&mut *tx, kind, account, choice).await?;
    }
    if let Some(id) = outbox::enqueue(&mut *tx, &text).await? {
        spent.pay_for_message(&mut tx, id).await?;
    }
    tx.commit().await?;
    state.outbox.wake();
    Ok(())
}

pub async fn verify_code(
    state: &AppState,
    kind: AccountKind,
    account: Uuid,
    phone: Option<Phone>,
    code: &str,
) -> ApiResult<Phone> {
    let code = PhoneCode::parse(code).map_err(|e| ApiError::invalid("code", e))?;
    let cache = &state.cache;
    let expired = || ApiError::FailedPrecondition {
        reason: ErrorReason::PhoneCodeExpired,
        message: "this code has expired; ask for a new one".to_owned(),
    };
    let pending = cache.get(&code_key(account)).await?.ok_or_else(expired)?;
    let (pending_phone, expected) = pending.split_once('|').ok_or_else(expired)?;
    let pending_phone = Phone::parse_e164(pending_phone).map_err(|_| expired())?;
    if phone.as_ref().is_some_and(|p| *p != pending_phone) {
        return Err(ApiError::invalid(
            "phone",
            "the code was sent to another number; ask for a new code",
        ));
    }
    let tries = cache.increment(&tries_key(account), CODE_TTL).await?;
    if tries > MAX_TRIES {
        cache.delete(&code_key(account)).await?;
        return Err(ApiError::ResourceExhausted {
            reason: ErrorReason::PhoneCodeTooManyTries,
            message: "too many wrong codes; ask for a new one".to_owned(),
        });
    }
    let actual = keyed_hash(&state.phone_code_key, account, &pending_phone, &code);
    if !bool::from(actual.as_bytes().ct_eq(expected.as_bytes())) {
        let left = MAX_TRIES - tries;
        let description = if left > 0 {
            format!("the code is not right; {left} tries left")
        } else {
            "the code is not right; ask for a new one".to_owned()
        };
        return Err(ApiError::InvalidArgument {
            reason: ErrorReason::PhoneCodeWrong,
            violations: vec![crate::error::FieldViolation::new("code", description)],
        });
    }
    cache.delete(&code_key(account)).await?;
    cache.delete(&tries_key(account)).await?;
    accounts::set_verified_phone(&state.db, kind, account, &pending_phone).await?;
    Ok(pending_phone)
}
