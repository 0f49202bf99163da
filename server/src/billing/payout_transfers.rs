//! Sending payouts through Stripe Connect, a housekeeping pass: each owed entry (a captured
//! hire, not refunded, not paid) of a professional whose Connect account can receive
//! transfers is transferred, then written paid in the transaction that claimed it.
//!
//! - Never twice: the entry is claimed with `for update skip locked`, so a second server
//!   process passes it by; the transfer's idempotency key is the order's (`payout-{order}`),
//!   so a crash between Stripe's answer and the write makes the next pass get the same
//!   transfer back (Stripe keeps keys for 24 hours: the retry waits below stay far shorter).
//! - Never lost: a failed transfer stays owed, counted, with its error, and is tried again
//!   after a wait that doubles from a minute up to six hours; it is logged and its entry
//!   shows TRANSFER_FAILED to admins and the professional.
//! - Refunds: a refund before the transfer removes the debt (only captured payments are
//!   claimed). A refund after it is shown (REFUNDED_AFTER_PAYOUT) and not clawed back: an
//!   admin settles it with the professional by hand, or reverses the transfer at Stripe.

use std::{collections::HashSet, time::Duration};

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::payouts::{self, Entry};
use crate::{
    domain::Cents,
    providers::payments::{PaymentError, stripe::StripeGateway},
    state::AppState,
    store::{
        payout_transfers::{self as store, Claim, DueTransfer},
        payouts::lock_entries,
    },
};

/// The wait before the first retry; it doubles after each failure.
const FIRST_RETRY: Duration = Duration::from_secs(60);
/// The longest wait between two tries.
const LONGEST_RETRY: Duration = Duration::from_secs(6 * 3600);
/// The longest error kept with an entry.
const ERROR_CHARS: usize = 500;

/// What one pass did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Sent {
    pub paid: usize,
    pub failed: usize,
}

/// How long to wait after the `attempts`-th failure.
pub fn retry_delay(attempts: i32) -> chrono::Duration {
    let wait = crate::backoff::doubling(attempts, FIRST_RETRY, LONGEST_RETRY);
    chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::MAX)
}

/// Transfers every entry due at `now`. Does nothing in test mode (no Stripe).
pub async fn send_due(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<Sent> {
    let Some(stripe) = &state.connect else {
        return Ok(Sent::default());
    };
    let fee_percent = state.config.platform_fee_percent;
    let seller = state.config.registrations();
    // Professionals whose account cannot receive transfers now (left for a later pass), and
    // those whose account can (asked of Stripe once a pass).
    let mut not_enabled: Vec<Uuid> = Vec::new();
    let mut enabled: HashSet<Uuid> = HashSet::new();
    let mut sent = Sent::default();
    loop {
        let mut tx = crate::store::transaction::begin(&state.db).await?;
        let due = match store::claim_due(&mut tx, now, fee_percent, &not_enabled).await? {
            Claim::Due(due) => due,
            Claim::Taken => continue,
            Claim::Empty => break,
        };
        if !enabled.contains(&due.professional_id) {
            match stripe.transfers_enabled(&due.stripe_account_id).await {
                Ok(true) => {
                    enabled.insert(due.professional_id);
                }
                Ok(false) => {
                    not_enabled.push(due.professional_id);
                    continue;
                }
                Err(error) => {
                    tracing::warn!(%error, professional = %due.professional_id,
                        "could not read a Connect account; its payouts wait for the next pass");
                    not_enabled.push(due.professional_id);
                    continue;
                }
            }
        }
        // The entry as the ledger reads it (its payment is locked already), with the fee's
        // taxes, kept with the payout record this pass writes.
        let rows = lock_entries(&mut tx, due.professional_id, fee_percent, &[due.order_id]).await?;
        let entries = payouts::priced_all(&seller, rows)?;
        let [entry] = entries.as_slice() else {
            anyhow::bail!("order {} is not an entry of its professional", due.order_id);
        };
        match transfer(stripe, &due, entry).await {
            Ok(transfer_id) => {
                store::record_paid(&mut tx, &due, transfer_id.as_deref(), now).await?;
                sent.paid += 1;
            }
            Err(error) => {
                let attempts = due.attempts.saturating_add(1);
                let retry_at = now + retry_delay(attempts);
                tracing::error!(error = ?error, order = %due.order_id, attempts, %retry_at,
                    "payout transfer failed; it will be tried again");
                let reason: String = error.to_string().chars().take(ERROR_CHARS).collect();
                store::record_failure(&mut tx, &due, &reason, retry_at).await?;
                sent.failed += 1;
            }
        }
        payouts::record_fee_taxes(&mut tx, std::slice::from_ref(entry)).await?;
        tx.commit().await?;
    }
    Ok(sent)
}

/// The transfer of the entry's net (less the fee and its taxes); none when they took it all.
async fn transfer(
    stripe: &StripeGateway,
    due: &DueTransfer,
    entry: &Entry,
) -> Result<Option<String>, PaymentError> {
    let net = entry.net_cents();
    if net <= 0 {
        return Ok(None);
    }
    let net = Cents::new(net)
        .map_err(|e| PaymentError::Unavailable(anyhow::anyhow!("order {}: {e}", due.order_id)))?;
    stripe
        .transfer(&due.stripe_account_id, net, due.order_id)
        .await
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_from_a_minute_up_to_six_hours() {
        assert_eq!(retry_delay(1).num_seconds(), 60);
        assert_eq!(retry_delay(2).num_seconds(), 120);
        assert_eq!(retry_delay(5).num_seconds(), 960);
        assert_eq!(retry_delay(9).num_seconds(), 256 * 60);
        assert_eq!(retry_delay(10).num_seconds(), 6 * 3600);
        assert_eq!(retry_delay(i32::MAX).num_seconds(), 6 * 3600);
        assert_eq!(retry_delay(0).num_seconds(), 60);
    }
}
