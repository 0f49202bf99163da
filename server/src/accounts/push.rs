//! Push subscriptions ("Alert me on this device"): a customer's or professional's
//! browsers, checked before they are kept (an endpoint on a listed push service, keys of
//! the sizes RFC 8291 gives), and their native apps' devices (a token of the shape APNs or
//! FCM gives, on a platform this server has keys for). What is pushed to them is written
//! by `crate::alerts`.

use crate::{
    auth::Caller,
    domain::{
        DeviceToken, Language, NativePlatform, PushEndpoint, PushKeys,
        push::{EndpointProblem, KeyProblem},
    },
    error::{ApiError, ApiResult, ErrorReason, FieldViolation},
    state::AppState,
    store::push_subscriptions::{self, Owner},
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
