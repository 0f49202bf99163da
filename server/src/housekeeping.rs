//! Periodic clean-up: expired password-reset and email-verification links, old delivered
//! outbox messages, the counters of budget windows that ended, and the refresh tokens of
//! sign-ins that ended a week ago; the membership
//! reminders that have come due; the open repair requests nobody was hired on in time,
//! which expire; the hires' card holds about to lapse (warned a day before) or lapsed
//! (`crate::hiring::sweep`); the hires a crash cut short
//! (`crate::hiring::reconcile`); the professionals whose membership ran out, dropped from the
//! fan-out's index; and, with Stripe, the payouts owed to professionals
//! (`crate::billing::payout_transfers`).
//! Safe to run in every server process at once (plain deletes; reminders and payouts lock
//! their rows).

use std::time::Duration;

use sqlx::PgPool;
use tokio::{sync::watch, task::JoinHandle};

use crate::store::{email_verifications, limit_counters, outbox, password_resets, refresh_tokens};

/// How long the families of ended sign-ins are kept: a token of theirs sent within that time
/// is refused as too old rather than as unknown.
const ENDED_SIGN_INS_KEPT: chrono::Duration = chrono::Duration::days(7);

/// What one pass removed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Purged {
    pub password_resets: u64,
    pub email_verifications: u64,
    pub outbox_messages: u64,
    pub limit_counters: u64,
    pub session_families: u64,
}

/// Removes reset and verification links past their expiry, sent or expired outbox messages
/// finished more than `keep_sent` ago, counters whose window ended and sign-ins (refresh
/// token families) a week past their end. Parked messages stay for an admin to look at.
pub async fn purge(db: &PgPool, keep_sent: Duration) -> sqlx::Result<Purged> {
    let keep = chrono::Duration::from_std(keep_sent).unwrap_or(chrono::Duration::days(7));
    Ok(Purged {
        password_resets: password_resets::purge_expired(db).await?,
        email_verifications: email_verifications::purge_expired(db).await?,
        outbox_messages: outbox::purge_finished(db, chrono::Utc::now() - keep).await?,
        limit_counters: limit_counters::purge_ended(db).await?,
        session_families: refresh_tokens::purge_expired(db, ENDED_SIGN_INS_KEPT).await?,
    })
}

/// Purges every `every` (first right away) until `shutdown` turns true.
pub fn spawn(
    state: crate::state::AppState,
    every: Duration,
    keep_sent: Duration,
    mut shutdown: watch::Receiver<bool>,
) -> JoinHandle<()> {
    tokio::spawn(crate::store::transaction::tracked(async move {
        let db = state.db.clone();
        while !*shutdown.borrow() {
            match purge(&db, keep_sent).await {
                Ok(purged) if purged != Purged::default() => {
                    tracing::info!(?purged, "purged expired rows");
                }
                Ok(_) => {}
                Err(error) => tracing::error!(error = ?error, "purge failed"),
            }
            match crate::requests::expire_due(&db, chrono::Utc::now()).await {
                Ok(0) => {}
                Ok(expired) => tracing::info!(expired, "open repair requests expired"),
                Err(error) => tracing::error!(error = ?error, "repair request expiry failed"),
            }
            match crate::matching::refresh_eligibility(&db, chrono::Utc::now()).await {
                Ok(0) => {}
                Ok(changed) => tracing::info!(changed, "matching eligibility refreshed"),
                Err(error) => tracing::error!(error = ?error, "matching eligibility failed"),
            }
            match crate::billing::membership::send_reminders(&db).await {
                Ok(0) => {}
                Ok(sent) => tracing::info!(sent, "membership reminders written"),
                Err(error) => tracing::error!(error = ?error, "membership reminders failed"),
            }
            match crate::hiring::sweep::sweep(&state, chrono::Utc::now()).await {
                Ok(swept) if swept != crate::hiring::sweep::Swept::default() => {
                    tracing::info!(?swept, "card holds of hires swept");
                }
                Ok(_) => {}
                Err(error) => tracing::error!(error = ?error, "hold sweep failed"),
            }
            match crate::hiring::reconcile::reconcile(&state, chrono::Utc::now()).await {
                Ok(done) if done != crate::hiring::reconcile::Reconciled::default() => {
                    tracing::info!(?done, "hires cut short reconciled");
                }
                Ok(_) => {}
                Err(error) => tracing::error!(error = ?error, "hire reconciliation failed"),
            }
            match crate::billing::payout_transfers::send_due(&state, chrono::Utc::now()).await {
                Ok(sent) if sent != crate::billing::payout_transfers::Sent::default() => {
                    tracing::info!(?sent, "payouts transferred");
                }
                Ok(_) => {}
                Err(error) => tracing::error!(error = ?error, "payout transfers failed"),
            }
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                changed = shutdown.changed() => if changed.is_err() { break },
            }
        }
    }))
}
