//! AccountsService's Web Push calls: decode, call `crate::accounts::push` for the caller's
//! own account, encode.

use repairs_proto::accounts as pb;
use tonic::Request;

use super::convert::{Reply, caller, language_from_proto, ok};
use crate::{accounts::push, state::AppState};

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
    let keys = req.keys.unwrap_or_default();
    let language = language_from_proto(req.language).unwrap_or_default();
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
    push::unsubscribe(state, &who, &request.get_ref().endpoint).await?;
    ok(pb::RemovePushSubscriptionResponse {})
}
