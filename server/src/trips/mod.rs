//! "On my way": the hired professional's trip to the job. Starting it reckons the route
//! from their home base and tells the customer; each position their phone shares (at most
//! one every `TRIP_POSITION_EVERY`, 10 s, per trip) reckons the route again from there; arriving ends
//! it and deletes the position. Every change raises the request's revision (a trigger on
//! `trips`), so WatchRepairRequest carries it to the customer as a change of the request.
//!
//! The states a trip moves between name where they start from: [`start`] from none,
//! [`share_position`] from ON_THE_WAY, [`arrive`] from ON_THE_WAY (`store::trips`).

mod notice;
mod progress;

pub use progress::{EstimateSource, POSITION_FRESH_FOR, Progress};

use chrono::Utc;
use uuid::Uuid;

use crate::{
    auth::{
        Caller,
        access::{self, RequestParties},
    },
    domain::{Coordinates, RepairRequestState},
    error::{ApiError, ApiResult, ErrorReason, not_found},
    providers::distance::Drive,
    requests::{self, Viewed},
    state::AppState,
    store::{
        professionals,
        trips::{self, Leg, NewTrip, Position, TripRow},
    },
};

/// The request `id` as its hired professional `caller` sees it, while HIRED: NOT_FOUND for
/// anyone else, REPAIR_REQUEST_NOT_HIRED in another state.
async fn hired_job(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<(Viewed, Uuid)> {
    let viewed = requests::get(state, caller, id).await?;
    let request = &viewed.request;
    let parties = RequestParties {
        customer_id: request.customer_id,
        hired_professional_id: request.hired_professional_id,
    };
    if !access::is_hired_professional(caller, parties) {
        return Err(not_found("request"));
    }
    let quote_id = match (request.state(), request.hired_application_id) {
        (RepairRequestState::Hired, Some(quote_id)) => quote_id,
        _ => {
            return Err(ApiError::FailedPrecondition {
                reason: ErrorReason::RepairRequestNotHired,
                message: "a trip can only be made to a job you are hired for and that is not \
                          done yet"
                    .to_owned(),
            });
        }
    };
    Ok((viewed, quote_id))
}

/// A drive as a trip keeps it: whole seconds and metres.
fn leg(drive: Drive) -> Leg {
    let whole = |value: f64| value.round().clamp(0.0, f64::from(i32::MAX)) as i32;
    Leg {
        seconds: whole(drive.seconds),
        meters: whole(drive.meters),
        by_road: drive.by_road,
    }
}

fn not_started() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::TripNotStarted,
        message: "say you are on your way first".to_owned(),
    }
}

fn ended() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::TripEnded,
        message: "you already arrived at this job; your position is no longer shared".to_owned(),
    }
}

/// Starts the trip to request `id` (none -> ON_THE_WAY), or answers the one on the way.
pub async fn start(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<(TripRow, Viewed)> {
    let (viewed, quote_id) = hired_job(state, caller, id).await?;
    if let Some(trip) = trips::get(&state.db, quote_id).await? {
        return on_the_way(trip).map(|trip| (trip, viewed));
    }
    let home = professionals::home_base(&state.db, caller.account_id)
        .await?
        .ok_or_else(|| not_found("professional"))?;
    // The route is asked before the transaction, which then holds no connection waiting.
    let route = leg(state.distances.route(home, viewed.request.point()).await);
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    // Under the request's lock: a release or a completion either came first (refused
    // here) or waits for this trip.
    let locked = crate::store::quotes::lock_request_state(&mut tx, id).await?;
    let hired_now = crate::store::quotes::hired_quote_id(&mut *tx, id).await?;
    if locked != Some(RepairRequestState::Hired) || hired_now != Some(quote_id) {
        return Err(not_found("request"));
    }
    let new = NewTrip {
        quote_id,
        repair_request_id: id,
        professional_id: caller.account_id,
        route,
    };
    let Some(trip) = trips::start(&mut tx, &new, Utc::now()).await? else {
        // Started meanwhile by another call of the same professional.
        tx.rollback().await?;
        let trip = trips::get(&state.db, quote_id)
            .await?
            .ok_or_else(not_started)?;
        return on_the_way(trip).map(|trip| (trip, viewed));
    };
    notice::started(&mut tx, state, &viewed.request, &trip).await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok((trip, viewed))
}

/// A trip that is still on the way, or TRIP_ENDED.
fn on_the_way(trip: TripRow) -> ApiResult<TripRow> {
    match trip.arrived_at {
        None => Ok(trip),
        Some(_) => Err(ended()),
    }
}

/// Records where the professional is on the way to request `id` (ON_THE_WAY ->
/// ON_THE_WAY) and the route left from there.
pub async fn share_position(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
    position: Position,
) -> ApiResult<(TripRow, Viewed)> {
    let (viewed, quote_id) = hired_job(state, caller, id).await?;
    let trip = trips::get(&state.db, quote_id)
        .await?
        .ok_or_else(not_started)?;
    on_the_way(trip)?;
    // Claimed before the route is asked, so a fast sender costs no router call.
    let key = format!("trip-position:{quote_id}");
    let every = state.config.trip_position_every;
    let first = every.is_zero()
        || state
            .cache
            .set_if_absent(&key, "1", every)
            .await
            .map_err(|e| ApiError::Internal(e.into()))?;
    if !first {
        return Err(ApiError::RetryLater {
            reason: ErrorReason::TripPositionTooSoon,
            message: format!(
                "a position came less than {} seconds ago; send the next one later",
                every.as_secs()
            ),
            retry_after: every,
        });
    }
    let here = Coordinates {
        latitude: position.latitude,
        longitude: position.longitude,
    };
    let left = leg(state.distances.route(here, viewed.request.point()).await);
    let trip = trips::record_position(&state.db, quote_id, position, left, Utc::now())
        .await?
        .ok_or_else(ended)?;
    Ok((trip, viewed))
}

/// Ends the trip to request `id` (ON_THE_WAY -> ARRIVED), deleting its position, and tells
/// the customer; an arrived trip answers as it is.
pub async fn arrive(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<(TripRow, Viewed)> {
    let (viewed, quote_id) = hired_job(state, caller, id).await?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let Some(trip) = trips::arrive(&mut tx, quote_id, Utc::now()).await? else {
        tx.rollback().await?;
        let trip = trips::get(&state.db, quote_id)
            .await?
            .ok_or_else(not_started)?;
        return Ok((trip, viewed));
    };
    notice::arrived(&mut tx, &viewed.request, &trip, state).await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok((trip, viewed))
}

/// How long a trip may stay on the way before its position is deleted anyway: a day's
/// work is done by then.
const LONGEST_TRIP: chrono::Duration = chrono::Duration::hours(12);

/// Deletes the positions of trips whose hire ended (done, cancelled, released) before an
/// arrival, or that set out more than [`LONGEST_TRIP`] before `now`; how many.
pub async fn clear_ended_positions(
    db: &sqlx::PgPool,
    now: chrono::DateTime<Utc>,
) -> sqlx::Result<u64> {
    trips::clear_ended_positions(db, now - LONGEST_TRIP).await
}
