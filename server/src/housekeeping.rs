//! Periodic clean-up: expired password-reset and email-verification links, the counters of budget windows that ended, and the refresh tokens of
//! sign-ins that ended a week ago; the membership
//! reminders that have come due; the open repair requests nobody was hired on in time,
//! which expire; the hires' card holds about to lapse (warned a day before) or lapsed
//! (`crate::hiring::sweep`); the hires a crash cut short
//! (`crate::hiring::reconcile`); the professionals whose membership ran out, dropped from the
//! fan-out's index; the professionals' pauses and on-call windows that ended
//! (`crate::accounts::availability`); with Stripe, the payouts owed to professionals
//! (`crate::billing::payout_transfers`); the photos uploaded into conversations that no
//! message took within a day (`crate::conversations::photos`); and the positions of trips
//! whose hire ended without an arrival (`crate::trips::clear_ended_positions`); and the
//! accounts their person closed whose grace has run out, erased (`crate::accounts::closure`);
//! and the archives of data exports past their 7 days (`crate::accounts::export`); and what
//! is past its retention period: old requests' photos and messages, old sent emails and
//! texts (`crate::retention`).
//! Safe to run in every server process at once (plain deletes; reminders and payouts lock
//! their rows).

use std::time::Duration;

use sqlx::PgPool;
use tokio::{sync::watch, task::JoinHandle};

use crate::store::{email_verifications, limit_counters, password_resets, refresh_tokens};

/// How long the families of ended sign-ins are kept: a token of theirs sent within that time
/// is refused as too old rather than as unknown.
const ENDED_SIGN_INS_KEPT: chrono::Duration = chrono::Duration::days(7);

/// What one pass removed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Purged {
    pub password_resets: u64,
    pub email_verifications: u64,
    pub limit_counters: u64,
    pub session_families: u64,
}

/// Removes reset and verification links past their expiry, counters whose window ended and
/// sign-ins (refresh token families) a week past their end.
pub async fn purge(db: &PgPool) -> sqlx::Result<Purged> {
    Ok(Purged {
        password_resets: password_resets::purge_expired(db).await?,
        email_verifications: email_verifications::purge_expired(db).await?,
        limit_counters: limit_counters::purge_ended(db).await?,
        session_families: refresh_tokens::purge_expired(db, ENDED_SIGN_INS_KEPT).await?,
    })
}

/// Purges every `every` (first right away) until `shutdown` turns true.
pub fn spawn(
    state: crate::state::AppState,
    every: Duration,
    mut shutdown: watch::Receiver<bool>,
) -> JoinHandle<()> {
    tokio::spawn(crate::store::transaction::tracked(async move {
        while !*shutdown.borrow() {
            let ok = pass(&state).await;
            state
                .metrics
                .housekeeping_pass_finished(ok, chrono::Utc::now());
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                changed = shutdown.changed() => if changed.is_err() { break },
            }
        }
    }))
}

/// One pass: every step, each logged on its own; `true` when none failed.
async fn pass(state: &crate::state::AppState) -> bool {
    let db = &state.db;
    let now = chrono::Utc::now;
    [
        logged("purge", purge(db).await),
        logged(
            "request expiry",
            crate::requests::expire_due(db, now()).await,
        ),
        logged(
            "matching eligibility",
            crate::matching::refresh_eligibility(db, now()).await,
        ),
        logged(
            "ended pauses and on-call windows",
            crate::accounts::availability::end_due(db, now()).await,
        ),
        logged(
            "membership reminders",
            crate::billing::membership::send_reminders(db).await,
        ),
        logged(
            "hold sweep",
            crate::hiring::sweep::sweep(state, now()).await,
        ),
        logged(
            "hire reconciliation",
            crate::hiring::reconcile::reconcile(state, now()).await,
        ),
        logged(
            "releases cut short",
            crate::hiring::release::finish_unfinished(state, now()).await,
        ),
        logged(
            "disputes the test gateway played",
            crate::billing::disputes::apply_played(state).await,
        ),
        logged(
            "payout transfers",
            crate::billing::payout_transfers::send_due(state, now()).await,
        ),
        logged(
            "unsent message photos",
            crate::conversations::photos::purge_unsent(state, now()).await,
        ),
        logged(
            "positions of ended trips",
            crate::trips::clear_ended_positions(db, now()).await,
        ),
        logged(
            "unattached problem photos",
            crate::problems::purge_unattached(state, now()).await,
        ),
        logged(
            "data exports past their 7 days",
            crate::accounts::export::expire_due(state, now()).await,
        ),
        logged(
            "closed accounts' erasure",
            crate::accounts::closure::erase_due(state, now()).await,
        ),
        logged("retention", crate::retention::erase_due(state, now()).await),
    ]
    .into_iter()
    .all(|ok| ok)
}

/// Logs what a step did (nothing when it had nothing to do) or how it failed; `true` unless
/// it failed. A failed step is the server's own trouble (its database or a provider), so ERROR.
fn logged<T, E>(step: &str, result: Result<T, E>) -> bool
where
    T: std::fmt::Debug + Default + PartialEq,
    E: std::fmt::Debug,
{
    match result {
        Ok(done) if done == T::default() => true,
        Ok(done) => {
            tracing::info!(step, ?done, "housekeeping step done");
            true
        }
        Err(error) => {
            tracing::error!(step, ?error, "housekeeping step failed");
            false
        }
    }
}
