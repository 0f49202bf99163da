//! AccountsService's push calls (browsers and native apps' devices): decode, call
//! `crate::accounts::push` for the caller's own account, encode.

use repairs_proto::accounts as pb;
use tonic::Request;

use super::convert::{Reply, caller, language_from_proto, ok};
use crate::{
    accounts::push,
    domain::NativePlatform,
    error::{ApiError, FieldViolation},
    state::AppState,
};

/// The native platform a request names; `None` for a browser.
fn platform(value: i32) -> Result<Option<NativePlatform>, ApiError> {
    match pb::PushPlatform::try_from(value) {
        Ok(pb::PushPlatform::Unspecified) => Ok(None),
        Ok(pb::PushPlatform::Ios) => Ok(Some(NativePlatform::Ios)),
        Ok(pb::PushPlatform::Android) => Ok(Some(NativePlatform::Android)),
        Err(_) => Err(ApiError::invalid(
            "platform",
            "unspecified for a browser, iOS or Android for a native app",
        )),
    }
}

pub(super) fn get_public_key(state: &AppState) -> Reply<pb::GetPushPublicKeyResponse> {
    ok(pb::GetPushPublicKeyResponse {
        public_key: push::public_key(state)?.to_owned(),
    })
}

pub(super) async fn add_subscription(
    state: &AppState,
    request: Request<pb::AddPushSubscriptionRequest>,
) -> Reply<pb::AddPushSubscriptionResponse> {
    let who = caller(&request)?;
    let req = request.into_inner();
    let language = language_from_proto(req.language).unwrap_or_default();
    if let Some(platform) = platform(req.platform)? {
        // A device's alerts go through its platform's service, not to an endpoint.
        let mut stray = Vec::new();
        if !req.endpoint.is_empty() {
            stray.push(FieldViolation::new(
                "endpoint",
                "a native device has no endpoint",
            ));
        }
        if req.keys.is_some() {
            stray.push(FieldViolation::new("keys", "a native device has no keys"));
        }
        if !stray.is_empty() {
            return Err(ApiError::invalid_fields(stray).into());
        }
        push::subscribe_device(state, &who, platform, &req.device_token, language).await?;
        return ok(pb::AddPushSubscriptionResponse {});
    }
    if !req.device_token.is_empty() {
        return Err(ApiError::invalid(
            "platform",
            "a device token needs its platform (iOS or Android)",
        )
        .into());
    }
    let keys = req.keys.unwrap_or_default();
    push::subscribe(
        state,
        &who,
        &req.endpoint,
        &keys.p256dh,
        &keys.auth,
        language,
    )
    .await?;
    ok(pb::AddPushSubscriptionResponse {})
}

pub(super) async fn remove_subscription(
    state: &AppState,
    request: Request<pb::RemovePushSubscriptionRequest>,
) -> Reply<pb::RemovePushSubscriptionResponse> {
    let who = caller(&request)?;
    let req = request.get_ref();
    match platform(req.platform)? {
        Some(platform) => {
            push::unsubscribe_device(state, &who, platform, &req.device_token).await?
        }
        None => push::unsubscribe(state, &who, &req.endpoint).await?,
    }
    ok(pb::RemovePushSubscriptionResponse {})
}
