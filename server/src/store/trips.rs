//! Trips to jobs (`trips`, one per hire): the route reckoned when the professional set out,
//! the latest position and the route from it while on the way, and the arrival. A position
//! is never kept after the trip ends (the table's `trips_position_only_on_the_way`).

use chrono::{DateTime, Utc};
use serde::Deserialize;
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

/// A trip as stored. Read as a row, and as JSON inside a request's row (`to_jsonb`).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow, Deserialize)]
pub struct TripRow {
    pub quote_id: Uuid,
    pub repair_request_id: Uuid,
    pub professional_id: Uuid,
    pub started_at: DateTime<Utc>,
    pub route_seconds: i32,
    pub route_meters: i32,
    pub route_by_road: bool,
    pub left_seconds: Option<i32>,
    pub left_meters: Option<i32>,
    pub left_by_road: Option<bool>,
    pub position_at: Option<DateTime<Utc>>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub accuracy_m: Option<f64>,
    pub arrived_at: Option<DateTime<Utc>>,
}

/// A drive as the table keeps it: whole seconds and metres, and whether a road router
/// reckoned it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leg {
    pub seconds: i32,
    pub meters: i32,
    pub by_road: bool,
}

/// The trip of hire `quote_id`, if it started.
pub async fn get(db: impl PgExecutor<'_>, quote_id: Uuid) -> sqlx::Result<Option<TripRow>> {
    sqlx::query_as("select * from trips where quote_id = $1")
        .bind(quote_id)
        .fetch_optional(db)
        .await
}

/// Who a trip starts for, and the route from their home base.
pub struct NewTrip {
    pub quote_id: Uuid,
    pub repair_request_id: Uuid,
    pub professional_id: Uuid,
    pub route: Leg,
}

/// Starts the trip unless it started already; `None` then (the caller reads it).
pub async fn start(
    tx: &mut PgConnection,
    trip: &NewTrip,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<TripRow>> {
    sqlx::query_as(
        "insert into trips (quote_id, repair_request_id, professional_id, started_at,
            route_seconds, route_meters, route_by_road)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (quote_id) do nothing
         returning *",
    )
    .bind(trip.quote_id)
    .bind(trip.repair_request_id)
    .bind(trip.professional_id)
    .bind(now)
    .bind(trip.route.seconds)
    .bind(trip.route.meters)
    .bind(trip.route.by_road)
    .fetch_optional(tx)
    .await
}

/// Where the professional is, as their phone said.
#[derive(Debug, Clone, Copy)]
pub struct Position {
    pub latitude: f64,
    pub longitude: f64,
    pub accuracy_m: f64,
}

/// Records the latest position and the route left from it, while on the way (ON_THE_WAY ->
/// ON_THE_WAY); `None` when the trip is not on the way (not started, or arrived).
pub async fn record_position(
    db: &PgPool,
    quote_id: Uuid,
    position: Position,
    left: Leg,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<TripRow>> {
    sqlx::query_as(
        "update trips set position_at = $2, latitude = $3, longitude = $4, accuracy_m = $5,
            left_seconds = $6, left_meters = $7, left_by_road = $8
         where quote_id = $1 and arrived_at is null
         returning *",
    )
    .bind(quote_id)
    .bind(now)
    .bind(position.latitude)
    .bind(position.longitude)
    .bind(position.accuracy_m)
    .bind(left.seconds)
    .bind(left.meters)
    .bind(left.by_road)
    .fetch_optional(db)
    .await
}

/// Ends the trip (ON_THE_WAY -> ARRIVED) and deletes its position; `None` when it was not on
/// the way.
pub async fn arrive(
    tx: &mut PgConnection,
    quote_id: Uuid,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<TripRow>> {
    sqlx::query_as(
        "update trips set arrived_at = $2, position_at = null, latitude = null,
            longitude = null, accuracy_m = null
         where quote_id = $1 and arrived_at is null
         returning *",
    )
    .bind(quote_id)
    .bind(now)
    .fetch_optional(tx)
    .await
}

/// Deletes the positions of trips whose hire ended without an arrival (the job was done,
/// cancelled or released while on the way) or that set out before `stale_before`; how many.
pub async fn clear_ended_positions(db: &PgPool, stale_before: DateTime<Utc>) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "update trips t set position_at = null, latitude = null, longitude = null,
            accuracy_m = null
         where t.arrived_at is null and t.latitude is not null
           and (t.started_at < $1
                or not exists (select 1 from repair_requests r
                               where r.id = t.repair_request_id and r.state = 'hired'
                                 and r.hired_application_id = t.quote_id))",
    )
    .bind(stale_before)
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}
