//! MarketplaceService's photos of the damage (AddRepairRequestPhoto,
//! RemoveRepairRequestPhoto): decode, call `crate::requests::photos`, encode. The request's
//! customer only (the role table lets customers call; the rules find the request among the
//! caller's own, anyone else's is NOT_FOUND).

use repairs_proto::marketplace as pb;
use tonic::{Request, Response};

use super::{
    convert::{Reply, caller},
    photo_view::photo_to_proto,
};
use crate::{error::parse_id, requests, state::AppState};

pub(super) async fn add(
    state: &AppState,
    request: Request<pb::AddRepairRequestPhotoRequest>,
) -> Reply<pb::AddRepairRequestPhotoResponse> {
    let caller = caller(&request)?;
    let message = request.into_inner();
    let id = parse_id("repair_request_id", &message.repair_request_id)?;
    let photo = requests::photos::add(state, caller.account_id, id, message.content).await?;
    Ok(Response::new(pb::AddRepairRequestPhotoResponse {
        photo: Some(photo_to_proto(state, &photo)),
    }))
}

pub(super) async fn remove(
    state: &AppState,
    request: Request<pb::RemoveRepairRequestPhotoRequest>,
) -> Reply<pb::RemoveRepairRequestPhotoResponse> {
    let caller = caller(&request)?;
    let message = request.get_ref();
    let id = parse_id("repair_request_id", &message.repair_request_id)?;
    let photo_id = parse_id("photo_id", &message.photo_id)?;
    requests::photos::remove(state, caller.account_id, id, photo_id).await?;
    Ok(Response::new(pb::RemoveRepairRequestPhotoResponse {}))
}
