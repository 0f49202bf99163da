//! When a hire goes wrong: the hired professional cannot come ("I can't make it"), or the
//! customer says they did not ("they didn't come", from
//! [`customer_release_from`] on). The request goes back to its quotes, not back to the start:
//! the hold is released, the request is OPEN again with every quote the hire had set aside,
//! and the customer may hire another at once. The released quote ends RELEASED and its
//! professional may not quote on the request again.
//!
//! The steps, so that a race or a killed process leaves one outcome and no orphaned hold:
//! 1. the release is written ([`hire_releases::start`]) under the request's lock, naming the
//!    hire's order (one release per order); from then on the hire cannot be authorised again
//!    (`hire::claim`) nor completed (`finish::complete`);
//! 2. the card hold is released through the ledger; a completion's capture and this release
//!    meet on the payment there, and the ledger lets one of them through: a release that finds
//!    the money taken is dropped and refused (JOB_ALREADY_PAID);
//! 3. one transaction under the request's lock closes the order, reopens the request, ends
//!    the quote RELEASED, brings back the set-aside quotes, queues who is told and marks the
//!    release finished ([`finish`]).
//!
//! A release left between 1 and 3 (the process was killed) is finished by the housekeeping
//! pass ([`finish_unfinished`]), which takes the same steps 2 and 3.
//!
//! A professional's third released hire in 30 days (whoever released it) pauses their alerts
//! for 7 days, as their own pause would, and tells them and the admins.

mod notice;

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use super::apply::{self, ledger};
use crate::{
    accounts::availability,
    auth::Caller,
    billing::{LedgerError, PaymentState},
    domain::{RepairRequestState, Role, customer_release_from},
    error::{ApiError, ApiResult, ErrorReason, not_found},
    outbox,
    providers::payments::IdempotencyKey,
    state::AppState,
    store::{
        hire_releases::{self, NewRelease, ReleaseRow, ReleasedBy},
        orders, quotes,
        repair_requests::{self, RepairRequestRow},
    },
};

/// Released hires that pause a professional, within [`RELEASES_WINDOW`].
pub const RELEASES_BEFORE_PAUSE: i64 = 3;
pub const RELEASES_WINDOW: Duration = Duration::days(30);
/// How long that pause lasts.
pub const PAUSE_AFTER_RELEASES: Duration = Duration::days(7);
/// A release unfinished this long was cut short (its process stopped): the ledger's own lease
/// on an attempt is shorter.
const UNFINISHED_AFTER: Duration = Duration::seconds(150);
/// Releases finished per housekeeping pass.
const BATCH: i64 = 50;

/// What the caller sends.
#[derive(Debug, Clone, Copy)]
pub struct ReleaseForm<'a> {
    pub repair_request_id: Uuid,
    pub reason: &'a str,
    pub request_id: &'a str,
}

/// Releases the hire on a request (see the module's comment). The caller reads the request
/// after it as the one visibility rule shows it to them (`requests::get`).
pub async fn release_hire(
    state: &AppState,
    caller: &Caller,
    form: ReleaseForm<'_>,
) -> ApiResult<()> {
    let key = IdempotencyKey::parse(form.request_id)?;
    let reason = form.reason.trim();
    if reason.is_empty() {
        return Err(ApiError::invalid("reason", "say in a few words why"));
    }
    let id = form.repair_request_id;
    if let Some(earlier) =
        hire_releases::find_by_key(&state.db, caller.account_id, key.uuid()).await?
    {
        if earlier.repair_request_id != id {
            return Err(LedgerError::RequestIdReused.into());
        }
        return complete_steps(state, &earlier).await;
    }
    let request = repair_requests::get(&state.db, id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    let released_by = releaser(caller, &request).ok_or_else(|| not_found("request"))?;
    let started = start(state, caller, released_by, id, reason, key).await?;
    complete_steps(state, &started).await
}

/// Who the caller releases as: the request's customer or its hired professional.
fn releaser(caller: &Caller, request: &RepairRequestRow) -> Option<ReleasedBy> {
    match caller.role {
        Role::Customer if request.customer_id == caller.account_id => Some(ReleasedBy::Customer),
        Role::Professional if request.hired_professional_id == Some(caller.account_id) => {
            Some(ReleasedBy::Professional)
        }
        _ => None,
    }
}

fn not_hired() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::RepairRequestNotHired,
        message: "this request has no hire to release: it was released, completed or cancelled"
            .to_owned(),
    }
}

/// Step 1: the release written under the request's lock.
async fn start(
    state: &AppState,
    caller: &Caller,
    released_by: ReleasedBy,
    id: Uuid,
    reason: &str,
    key: IdempotencyKey,
) -> ApiResult<ReleaseRow> {
    let now = Utc::now();
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    if quotes::lock_request_state(&mut tx, id).await? != Some(RepairRequestState::Hired) {
        return Err(not_hired());
    }
    let order = orders::lock_live(&mut tx, id)
        .await?
        .filter(|order| order.payment_id.is_some())
        .ok_or_else(not_hired)?;
    if released_by == ReleasedBy::Customer
        && now < customer_release_from(order.hired_at.unwrap_or(order.created_at))
    {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::ReleaseTooEarly,
            message: "you can say the professional didn't come once two hours have passed \
                      since the hire; until then, contact them in the conversation"
                .to_owned(),
        });
    }
    let release = hire_releases::start(
        &mut tx,
        &NewRelease {
            order_id: order.id,
            repair_request_id: id,
            quote_id: order.quote_id,
            professional_id: order.professional_id,
            released_by,
            actor_id: caller.account_id,
            request_id: key.uuid(),
            reason,
        },
        now,
    )
    .await?;
    tx.commit().await?;
    if release.actor_id != caller.account_id || release.request_id != key.uuid() {
        // Another release of this hire: it is running, or it ended it.
        return Err(match release.finished_at {
            Some(_) => not_hired(),
            None => LedgerError::InProgress.into(),
        });
    }
    Ok(release)
}

/// Steps 2 and 3 of a started release (again, for a retry or the housekeeping pass).
async fn complete_steps(state: &AppState, release: &ReleaseRow) -> ApiResult<()> {
    if release.finished_at.is_some() {
        return Ok(());
    }
    release_hold(state, release).await?;
    finish(state, release).await
}

/// Step 2: the hold released; a release whose job was paid meanwhile is dropped.
async fn release_hold(state: &AppState, release: &ReleaseRow) -> ApiResult<()> {
    let order = orders::get(&state.db, release.order_id)
        .await?
        .ok_or_else(|| not_found("order"))?;
    let Some(payment_id) = order.payment_id else {
        return Ok(());
    };
    let payment = ledger(state).find(payment_id).await?;
    apply::release(state, &order, &payment).await?;
    let after = ledger(state).find(payment_id).await?;
    if matches!(after.state, PaymentState::Captured | PaymentState::Refunded) {
        hire_releases::abandon(&state.db, release.id).await?;
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::JobAlreadyPaid,
            message: "this job was marked done and paid, so its hire can no longer be released"
                .to_owned(),
        });
    }
    Ok(())
}

/// Step 3: the request back to its quotes, in one transaction under its lock.
async fn finish(state: &AppState, release: &ReleaseRow) -> ApiResult<()> {
    let now = Utc::now();
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let request_state = quotes::lock_request_state(&mut tx, release.repair_request_id).await?;
    if !hire_releases::finish(&mut tx, release.id, now).await? {
        // Finished by a concurrent retry or the housekeeping pass.
        return Ok(());
    }
    let live = orders::lock_live(&mut tx, release.repair_request_id).await?;
    let still_hired = request_state == Some(RepairRequestState::Hired)
        && live
            .as_ref()
            .is_some_and(|order| order.id == release.order_id);
    if !still_hired {
        // Cancelled (its own cancel released the hold) while the release ran: nothing to reopen.
        tx.commit().await?;
        return Ok(());
    }
    orders::close(&mut *tx, release.order_id, now).await?;
    if !repair_requests::release(&mut tx, release.repair_request_id).await?
        || !quotes::release(&mut tx, release.quote_id, now).await?
    {
        return Err(ApiError::Internal(anyhow::anyhow!(
            "hire {} moved under the request's lock",
            release.order_id
        )));
    }
    let revived = quotes::revive_set_aside(&mut tx, release.order_id, now).await?;
    let mut told = notice::released(&mut tx, state, release, &revived).await?;
    let since = now - RELEASES_WINDOW;
    let released = hire_releases::count_since(&mut tx, release.professional_id, since).await?;
    if released >= RELEASES_BEFORE_PAUSE {
        let until = now + PAUSE_AFTER_RELEASES;
        availability::pause_after_releases(&mut tx, release.professional_id, until, released)
            .await?;
        told.extend(notice::paused(&mut tx, release.professional_id, released, until).await?);
    }
    outbox::enqueue_many(&mut *tx, &told).await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok(())
}

/// What one housekeeping pass finished.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Finished {
    pub releases: usize,
}

/// The housekeeping step: finishes the releases a stopped process left between their steps.
pub async fn finish_unfinished(state: &AppState, now: DateTime<Utc>) -> ApiResult<Finished> {
    let mut finished = Finished::default();
    for release in hire_releases::unfinished(&state.db, now - UNFINISHED_AFTER, BATCH).await? {
        match complete_steps(state, &release).await {
            Ok(()) => finished.releases += 1,
            // Paid meanwhile: the release was dropped, the job stands.
            Err(ApiError::FailedPrecondition { .. }) => {}
            Err(other) => return Err(other),
        }
    }
    Ok(finished)
}
