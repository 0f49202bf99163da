//! Push subscriptions ("Alert me on this device"): a customer's or professional's
//! browsers, checked before they are kept (an endpoint on a listed push service, keys of
//! the sizes RFC 8291 gives), and their native apps' devices (a token of the shape APNs or
//! FCM gives, on a platform this server has keys for); and the alerts each event writes to
//! them through the outbox, one per device, in the device's language. Emails and texts are
//! written beside them as before: an alert that fails takes nothing from them.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgExecutor;
use uuid::Uuid;

use crate::{
    auth::Caller,
    domain::{
        DeviceToken, Language, NativePlatform, PushEndpoint, PushKeys,
        push::{EndpointProblem, KeyProblem},
    },
    error::{ApiError, ApiResult, ErrorReason, FieldViolation},
    outbox::{NewOutboxMessage, Urgency},
    state::AppState,
    store::{
        accounts::AccountKind,
        push_subscriptions::{self, Owner},
        services::ServiceNames,
    },
    words::Alert,
};

/// The VAPID public key to subscribe with.
pub fn public_key(state: &AppState) -> ApiResult<&str> {
    state.push_public_key.as_deref().ok_or_else(not_configured)
}

/// Keeps the caller's browser subscription (idempotent per endpoint).
pub async fn subscribe(
    state: &AppState,
    caller: &Caller,
    endpoint: &str,
    p256dh: &str,
    auth: &str,
    language: Language,
) -> ApiResult<()> {
    public_key(state)?;
    let owner = owner(caller)?;
    let endpoint =
        PushEndpoint::parse(endpoint, &state.config.push_hosts()).map_err(|problem| {
            let (reason, text) = match problem {
                EndpointProblem::Invalid => (
                    ErrorReason::PushEndpointInvalid,
                    "the endpoint must be an https address of at most 1,000 characters",
                ),
                EndpointProblem::NotAllowed => (
                    ErrorReason::PushEndpointNotAllowed,
                    "the endpoint is not on a push service this server sends to",
                ),
            };
            invalid(reason, "endpoint", text)
        })?;
    let keys = PushKeys::parse(p256dh, auth).map_err(|problem| match problem {
        KeyProblem::P256dh => invalid(
            ErrorReason::PushKeysInvalid,
            "keys.p256dh",
            "the key must be base64url of a P-256 public key (65 bytes)",
        ),
        KeyProblem::Auth => invalid(
            ErrorReason::PushKeysInvalid,
            "keys.auth",
            "the auth secret must be base64url of 16 bytes",
        ),
    })?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    push_subscriptions::save(&mut tx, owner, &endpoint, &keys, language).await?;
    tx.commit().await?;
    Ok(())
}

/// Keeps the caller's native app's device (idempotent per token): refused, and nothing
/// kept, when this server has no key for its platform.
pub async fn subscribe_device(
    state: &AppState,
    caller: &Caller,
    platform: NativePlatform,
    token: &str,
    language: Language,
) -> ApiResult<()> {
    let owner = owner(caller)?;
    if !state.native_push.allows(platform) {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::NativePushNotConfigured,
            message: match platform {
                NativePlatform::Ios => "this server sends no alerts to iOS apps (no APNs key)",
                NativePlatform::Android => {
                    "this server sends no alerts to Android apps (no FCM service account)"
                }
            }
            .to_owned(),
        });
    }
    let token = DeviceToken::parse(platform, token).ok_or_else(|| {
        invalid(
            ErrorReason::DeviceTokenInvalid,
            "device_token",
            match platform {
                NativePlatform::Ios => "an APNs device token is 64 to 200 hexadecimal digits",
                NativePlatform::Android => {
                    "an FCM registration token is 1 to 1,000 letters, digits, '-', '_' or ':'"
                }
            },
        )
    })?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    push_subscriptions::save_device(&mut tx, owner, platform, &token, language).await?;
    tx.commit().await?;
    Ok(())
}

/// Forgets the caller's subscription of `endpoint`: NOT_FOUND when they have none (another
/// account's is not theirs to end).
pub async fn unsubscribe(state: &AppState, caller: &Caller, endpoint: &str) -> ApiResult<()> {
    let owner = owner(caller)?;
    found(push_subscriptions::remove(&state.db, owner, endpoint.trim()).await?)
}

/// Forgets the caller's native device `token` of `platform`, as [`unsubscribe`] a browser.
pub async fn unsubscribe_device(
    state: &AppState,
    caller: &Caller,
    platform: NativePlatform,
    token: &str,
) -> ApiResult<()> {
    let owner = owner(caller)?;
    // Stored as parsed (APNs' in lower case); a token of no valid shape was never stored.
    let Some(token) = DeviceToken::parse(platform, token) else {
        return found(false);
    };
    found(push_subscriptions::remove_device(&state.db, owner, platform, token.as_str()).await?)
}

fn found(removed: bool) -> ApiResult<()> {
    if removed {
        Ok(())
    } else {
        Err(crate::error::not_found("push subscription"))
    }
}

/// An alert as the service worker reads it (the push's plaintext).
#[derive(Debug, Serialize)]
struct Payload<'a> {
    title: &'a str,
    body: &'a str,
    /// The page a click opens.
    url: &'a str,
    /// One notification per thing: a newer one replaces it.
    tag: &'a str,
}

/// What one event alerts: to whom, how urgently, until when it is worth showing.
#[derive(Debug, Clone, Copy)]
pub struct Alerting<'a> {
    kind: AccountKind,
    accounts: &'a [Uuid],
    urgency: Urgency,
    /// Not worth delivering after this (also bounds how long the push service keeps it).
    until: Option<DateTime<Utc>>,
    url: &'a str,
    tag: &'a str,
    /// Keys the pushes (`{dedupe}:{subscription}`) so that a retried event writes none twice.
    dedupe: &'a str,
}

impl<'a> Alerting<'a> {
    /// Alerts to the devices of `accounts` (of `kind`) that open `url`: one notification
    /// per `tag` on a device, a newer one replacing it; keyed by `tag` too, unless
    /// [`Self::keyed`] says otherwise. Normal urgency, kept a day at most.
    pub fn new(kind: AccountKind, accounts: &'a [Uuid], url: &'a str, tag: &'a str) -> Self {
        Self {
            kind,
            accounts,
            urgency: Urgency::Normal,
            until: None,
            url,
            tag,
            dedupe: tag,
        }
    }

    /// Wakes the device now (an emergency, a hire).
    pub fn urgent(mut self, urgent: bool) -> Self {
        self.urgency = if urgent {
            Urgency::High
        } else {
            Urgency::Normal
        };
        self
    }

    /// Drops the alerts still unsent at `time`.
    pub fn until(mut self, time: DateTime<Utc>) -> Self {
        self.until = Some(time);
        self
    }

    /// Keys the pushes by `dedupe` rather than the tag.
    pub fn keyed(mut self, dedupe: &'a str) -> Self {
        self.dedupe = dedupe;
        self
    }
}

/// One push per device of `to.accounts`, written by `alert` in the device's language (for
/// the account it belongs to; `None`: none for that account), to put in the outbox with the
/// event's other messages.
pub async fn alerts(
    db: impl PgExecutor<'_>,
    to: Alerting<'_>,
    alert: impl Fn(Uuid, Language) -> Option<Alert>,
) -> sqlx::Result<Vec<NewOutboxMessage>> {
    if to.accounts.is_empty() {
        return Ok(Vec::new());
    }
    let devices = push_subscriptions::devices_of(db, to.kind, to.accounts).await?;
    Ok(devices
        .into_iter()
        .filter_map(|device| {
            let words = alert(device.account_id, device.language)?;
            let payload = Payload {
                title: &words.title,
                body: &words.body,
                url: to.url,
                tag: to.tag,
            };
            // Four strings always serialise.
            let json = serde_json::to_string(&payload).unwrap_or_default();
            let mut message = NewOutboxMessage::push(device.subscription_id, json, to.urgency);
            message.dedupe_key = Some(format!("{}:{}", to.dedupe, device.subscription_id));
            message.discard_after = to.until;
            Some(message)
        })
        .collect())
}

/// The alerts to professionals that a request (`request_id`, of `service`) they quoted on,
/// or were hired for, was closed: the customer cancelled it (`cancelled`) or hired another.
/// They replace the request's own alert on each device.
pub async fn request_closed(
    db: impl PgExecutor<'_>,
    request_id: Uuid,
    professionals: &[Uuid],
    service: &ServiceNames,
    cancelled: bool,
    link: &str,
) -> sqlx::Result<Vec<NewOutboxMessage>> {
    let tag = format!("repair-request:{request_id}");
    let key = format!("closed:{request_id}");
    let to = Alerting::new(AccountKind::Professional, professionals, link, &tag).keyed(&key);
    alerts(db, to, |_, language| {
        Some(crate::words::of(language).quote_closed_alert(service.of(language), cancelled))
    })
    .await
}

fn owner(caller: &Caller) -> ApiResult<Owner> {
    Ok(Owner {
        kind: super::account_kind(caller.role)?,
        id: caller.account_id,
    })
}

fn invalid(reason: ErrorReason, field: &str, text: &str) -> ApiError {
    ApiError::InvalidArgument {
        reason,
        violations: vec![FieldViolation::new(field, text)],
    }
}

fn not_configured() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::PushNotConfigured,
        message: "this server sends no push alerts".to_owned(),
    }
}
