//! Matching: which professionals a request reaches and which open requests a professional
//! sees. The rule itself is in [`crate::store::match_rule`] (SQL, one set of fragments); this module runs it
//! and shapes the answers. Every caller that decides a match comes here: the fan-out on a
//! new request ([`professionals_to_notify`]), the open-requests list
//! ([`open_requests_for`]), a professional viewing or quoting one request ([`matches`]).

mod matches_of;
mod page;
pub mod places;
pub mod watch;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

pub use crate::providers::distance::{Distance, DistanceService, Drive};

use crate::domain::Coordinates;
pub use matches_of::{MatchesPage, matches_of};
pub use page::OpenRequestsPageRequest;

use crate::store::match_rule as rule;

use crate::{domain::Language, error::ApiResult};

/// One open request in a professional's list.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenRequestMatch {
    pub request_id: Uuid,
    pub created_at: DateTime<Utc>,
    pub distance: Distance,
    /// The list's order (straight-line distance in earthdistance's units), for page tokens.
    pub rank: f64,
}

/// A page of open requests, nearest first.
#[derive(Debug, Clone)]
pub struct OpenRequestsPage {
    pub matches: Vec<OpenRequestMatch>,
    /// Empty on the last page.
    pub next_page_token: String,
}

/// The open requests professional `professional_id` may see now: nearest first, stable
/// keyset pages (see [`OpenRequestsPageRequest`]). Empty when the professional may not be
/// matched at all (the membership gate tells the caller why, before this).
pub async fn open_requests_for(
    db: &PgPool,
    professional_id: Uuid,
    page: &OpenRequestsPageRequest,
) -> ApiResult<OpenRequestsPage> {
    open_requests_at(db, professional_id, page, Utc::now()).await
}

/// [`open_requests_for`] at a given instant.
pub async fn open_requests_at(
    db: &PgPool,
    professional_id: Uuid,
    page: &OpenRequestsPageRequest,
    now: DateTime<Utc>,
) -> ApiResult<OpenRequestsPage> {
    let as_of = page.as_of.unwrap_or(now);
    let mut tx = crate::store::transaction::begin(db).await?;
    // Postgres cannot tell how many open requests a reach holds (cube keeps no statistics)
    // and, guessing few, reads a whole city's with a bitmap scan before sorting them; read
    // nearest first from the index instead, which stops after a page.
    sqlx::query("set local enable_bitmapscan = off")
        .execute(&mut *tx)
        .await?;
    let rows: Vec<(Uuid, DateTime<Utc>, f64, f64)> = sqlx::query_as(rule::OPEN_REQUESTS.as_str())
        .bind(professional_id)
        .bind(now)
        .bind(as_of)
        .bind(page.after.map(|key| key.rank))
        .bind(page.after.map(|key| key.created_at))
        .bind(page.after.map(|key| key.request_id))
        .bind(page.fetch_limit())
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    let matches = rows
        .into_iter()
        .map(|(request_id, created_at, meters, rank)| OpenRequestMatch {
            request_id,
            created_at,
            distance: Distance { meters },
            rank,
        })
        .collect();
    let (matches, next_page_token) = page.finish(matches, as_of);
    Ok(OpenRequestsPage {
        matches,
        next_page_token,
    })
}

/// The newest `limit` open requests that match professional `professional_id` at `now`
/// (the listing rule), newest first, with their distance: the dashboard's latest list.
pub async fn latest_open_for(
    db: &PgPool,
    professional_id: Uuid,
    limit: i64,
    now: DateTime<Utc>,
) -> sqlx::Result<Vec<(Uuid, Distance)>> {
    let rows: Vec<(Uuid, f64)> = sqlx::query_as(rule::LATEST_OPEN.as_str())
        .bind(professional_id)
        .bind(now)
        .bind(limit)
        .fetch_all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, meters)| (id, Distance { meters }))
        .collect())
}

/// One professional to notify of a new request.
#[derive(Debug, Clone)]
pub struct Notify {
    pub professional_id: Uuid,
    pub distance: Distance,
    /// Their home base, where the drive is reckoned from.
    pub home: Coordinates,
    /// The drive from their home base, once reckoned ([`soonest_by_road`]).
    pub drive: Option<Drive>,
    pub name: String,
    pub email: String,
    /// Verified, E.164.
    pub phone: Option<String>,
    pub sms_opt_in: bool,
    pub language: Language,
}

#[derive(sqlx::FromRow)]
struct NotifyRow {
    id: Uuid,
    meters: f64,
    name: String,
    email: String,
    phone: Option<String>,
    sms_opt_in: bool,
    language: Language,
    home_latitude: f64,
    home_longitude: f64,
}

/// The professionals to notify of request `request_id` now, the nearest `limit` of them,
/// nearest first: the listing rule, and now is one of their days and within their hours in
/// their own time zone. Run inside the transaction that inserts the request, so the request
/// and its notifications are written together.
pub async fn professionals_to_notify(
    tx: &mut PgConnection,
    request_id: Uuid,
    limit: usize,
) -> sqlx::Result<Vec<Notify>> {
    professionals_to_notify_at(tx, request_id, Utc::now(), limit).await
}

/// [`professionals_to_notify`] at a given instant.
pub async fn professionals_to_notify_at(
    tx: &mut PgConnection,
    request_id: Uuid,
    now: DateTime<Utc>,
    limit: usize,
) -> sqlx::Result<Vec<Notify>> {
    to_tell(tx, rule::TO_NOTIFY.as_str(), request_id, now, limit).await
}

/// The next ring of emergency `request_id` at `now`, nearest first: the professionals it
/// matches who were not told of it yet, at most `limit` of those on duty and at most `limit`
/// of those off duty who chose to receive emergencies at any hour (`crate::requests`'
/// escalation). In the transaction that marks it escalated.
pub async fn professionals_to_escalate_at(
    tx: &mut PgConnection,
    request_id: Uuid,
    now: DateTime<Utc>,
    limit: usize,
) -> sqlx::Result<Vec<Notify>> {
    to_tell(tx, rule::TO_ESCALATE.as_str(), request_id, now, limit).await
}

/// Runs `query`, one of the rule's statements naming whom to tell of request $1 at $2 ($3
/// at most).
async fn to_tell(
    tx: &mut PgConnection,
    query: &'static str,
    request_id: Uuid,
    now: DateTime<Utc>,
    limit: usize,
) -> sqlx::Result<Vec<Notify>> {
    // As for the list: cube keeps no statistics, so Postgres guesses few candidates and
    // reads every one with a bitmap scan, then sorts (2 339 rows for 200 in the benchmark);
    // read nearest first from the index instead, which stops after `limit`. For this
    // statement only: the caller's transaction goes on.
    sqlx::query("set local enable_bitmapscan = off")
        .execute(&mut *tx)
        .await?;
    let rows: Vec<NotifyRow> = sqlx::query_as(query)
        .bind(request_id)
        .bind(now)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&mut *tx)
        .await?;
    sqlx::query("set local enable_bitmapscan = on")
        .execute(&mut *tx)
        .await?;
    Ok(rows
        .into_iter()
        .map(|row| Notify {
            professional_id: row.id,
            distance: Distance { meters: row.meters },
            home: Coordinates {
                latitude: row.home_latitude,
                longitude: row.home_longitude,
            },
            drive: None,
            name: row.name,
            email: row.email,
            phone: row.phone,
            sms_opt_in: row.sms_opt_in,
            language: row.language,
        })
        .collect())
}

/// How many matching professionals, nearest first in a straight line, are weighed by road
/// for each one alerted: enough that one across a river loses its place to one farther
/// away by a straight road, few enough that one look-up answers for all.
pub const CANDIDATES_PER_ALERT: usize = 2;

/// The `keep` of `candidates` soonest at `to` by road from their home bases, soonest first
/// (then nearest, then by id), each with its drive. The router answers in one look-up per
/// hundred; when it cannot, the straight-line estimate orders them as the distance does.
pub async fn soonest_by_road(
    distances: &DistanceService,
    to: Coordinates,
    candidates: Vec<Notify>,
    keep: usize,
) -> Vec<Notify> {
    let homes: Vec<Coordinates> = candidates.iter().map(|c| c.home).collect();
    let drives = distances.drives_to(&homes, to).await;
    let mut ranked: Vec<Notify> = candidates
        .into_iter()
        .zip(drives)
        .map(|(candidate, drive)| Notify {
            drive: Some(drive),
            ..candidate
        })
        .collect();
    ranked.sort_by(|a, b| {
        let seconds = |n: &Notify| n.drive.map_or(f64::INFINITY, |d| d.seconds);
        seconds(a)
            .total_cmp(&seconds(b))
            .then(a.distance.meters.total_cmp(&b.distance.meters))
            .then(a.professional_id.cmp(&b.professional_id))
    });
    ranked.truncate(keep);
    ranked
}

/// Brings the fan-out index's `eligible` flags in line with eligibility at `now`
/// (`professional_may_be_matched`): drops the professionals whose membership ran out since
/// their row was last written (and adds back any the triggers missed). The housekeeping
/// pass runs it; the rule checks eligibility exactly in between. Answers how many
/// professionals' rows changed.
pub async fn refresh_eligibility(db: &PgPool, now: DateTime<Utc>) -> sqlx::Result<u64> {
    let changed: i64 = sqlx::query_scalar(
        "with changed as (
             update professional_services s set eligible = professional_may_be_matched(p, $1)
             from professionals p
             where p.id = s.professional_id
               and s.eligible is distinct from professional_may_be_matched(p, $1)
             returning s.professional_id)
         select count(distinct professional_id) from changed",
    )
    .bind(now)
    .fetch_one(db)
    .await?;
    Ok(u64::try_from(changed).unwrap_or(0))
}

/// The distance when professional `professional_id` matches request `request_id` now (the
/// listing rule: open, in reach, their service, approved, verified, member); `None` when not.
pub async fn matches(
    db: &PgPool,
    professional_id: Uuid,
    request_id: Uuid,
) -> sqlx::Result<Option<Distance>> {
    let meters: Option<f64> = sqlx::query_scalar(rule::ONE_MATCH.as_str())
        .bind(professional_id)
        .bind(request_id)
        .bind(Utc::now())
        .fetch_optional(db)
        .await?;
    Ok(meters.map(|meters| Distance { meters }))
}
