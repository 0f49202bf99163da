//! MarketplaceService's trips ("on my way"): StartTrip, ShareTripPosition and ArriveAtJob,
//! the hired professional's alone (`crate::trips` checks it). The position's bounds are the
//! contract's (`buf.validate`, checked before these run).

use repairs_proto::marketplace as pb;
use tonic::{Request, Response};

use super::{
    convert::{Reply, caller},
    trip_view::trip_to_proto,
};
use crate::{error::parse_id, state::AppState, store::trips::Position, trips};

pub(super) async fn start(
    state: &AppState,
    request: Request<pb::StartTripRequest>,
) -> Reply<pb::StartTripResponse> {
    let caller = caller(&request)?;
    let id = parse_id("repair_request_id", &request.get_ref().repair_request_id)?;
    let (trip, viewed) = trips::start(state, &caller, id).await?;
    Ok(Response::new(pb::StartTripResponse {
        trip: Some(trip_to_proto(&trip, &viewed)),
    }))
}

pub(super) async fn share_position(
    state: &AppState,
    request: Request<pb::ShareTripPositionRequest>,
) -> Reply<pb::ShareTripPositionResponse> {
    let caller = caller(&request)?;
    let message = request.into_inner();
    let id = parse_id("repair_request_id", &message.repair_request_id)?;
    let position = Position {
        latitude: message.latitude,
        longitude: message.longitude,
        accuracy_m: message.accuracy_m,
    };
    let (trip, viewed) = trips::share_position(state, &caller, id, position).await?;
    Ok(Response::new(pb::ShareTripPositionResponse {
        trip: Some(trip_to_proto(&trip, &viewed)),
    }))
}

pub(super) async fn arrive(
    state: &AppState,
    request: Request<pb::ArriveAtJobRequest>,
) -> Reply<pb::ArriveAtJobResponse> {
    let caller = caller(&request)?;
    let id = parse_id("repair_request_id", &request.get_ref().repair_request_id)?;
    let (trip, viewed) = trips::arrive(state, &caller, id).await?;
    Ok(Response::new(pb::ArriveAtJobResponse {
        trip: Some(trip_to_proto(&trip, &viewed)),
    }))
}
