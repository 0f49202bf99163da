//! The hold-expiry sweeper, run by the housekeeping with its clock: a day before a hire's
//! card hold lapses (holds last 7 days) the customer and the admins are warned, once; when
//! it lapses the payment is marked EXPIRED and the customer told. The request stays HIRED:
//! the customer can authorise the card again from the active request (a new hire of the
//! hired quote).

use chrono::{DateTime, Utc};

use super::{
    apply::{ledger, settle},
    notice,
};
use crate::{outbox, state::AppState, store::orders};

/// How long before a hold lapses its customer and the admins are warned.
pub const WARN_BEFORE_HOURS: i64 = 24;
/// Rows handled per batch.
const BATCH: i64 = 100;

/// What one pass did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Swept {
    pub warned: usize,
    pub lapsed: usize,
}

pub async fn sweep(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<Swept> {
    let mut swept = Swept::default();
    let by = now + chrono::Duration::hours(WARN_BEFORE_HOURS);
    let link = state.config.links().customer_jobs();
    let history = state.config.links().admin_orders();
    loop {
        let mut tx = crate::store::transaction::begin(&state.db).await?;
        let due = orders::claim_hold_warnings(&mut tx, now, by, BATCH).await?;
        let admins = if due.is_empty() {
            Vec::new()
        } else {
            orders::admin_recipients(&mut *tx).await?
        };
        let mut messages = Vec::new();
        for hold in &due {
            messages.push(notice::hold_lapsing(hold, &link));
            for admin in &admins {
                messages.push(notice::hold_lapsing_admin(hold, admin, &history));
            }
        }
        outbox::enqueue_many(&mut *tx, &messages).await?;
        tx.commit().await?;
        swept.warned += due.len();
        if (due.len() as i64) < BATCH {
            break;
        }
    }
    let ledger = ledger(state);
    loop {
        let lapsed = orders::lapsed_holds(&state.db, now, BATCH).await?;
        for payment_id in &lapsed {
            let Some(payment) = ledger.lapse(*payment_id, now).await? else {
                continue;
            };
            swept.lapsed += 1;
            // Told now, or by the housekeeping's next pass (`reconcile`).
            if let Err(error) = settle(state, &payment).await {
                tracing::warn!(%error, payment = %payment.id, "a lapsed hold was not told yet");
            }
        }
        if (lapsed.len() as i64) < BATCH {
            break;
        }
    }
    if swept.warned > 0 {
        state.outbox.wake();
    }
    Ok(swept)
}
