//! What a hire cut short leaves behind, put right. A hire claims its request, has the card
//! authorised, then writes the hire; a process killed (or a database lost) in between leaves
//! a claim with no payment, or a hold that no order holds. Both are put right here: by the
//! housekeeping pass ([`reconcile`]), and by a new hire that meets such a claim on its quote
//! ([`resume`]), so a retry under a new key never authorises a second hold.
//! - A claim whose hire never finished is resumed under its own key: the payment its attempt
//!   made is applied (the hire goes through, or the hold is released when the request or the
//!   professional is no longer hireable); an attempt cut short mid-call is run again with the
//!   card reference the claim kept (the gateway answers the same hold under the same key);
//!   a claim with nothing to resume is removed, so the request is not left claimed.
//! - A hire payment still held that no order holds is released, and the release written to
//!   the audit log (no admin: the server did it) for the admins to see.
//! - What a hired order's payment came to and nobody told (the process stopped between the
//!   payment's move and the telling) is told, once ([`super::receipts`]).

use chrono::{DateTime, Utc};
use serde_json::json;
use uuid::Uuid;

use super::{
    apply::{apply, ledger, unclaim},
    receipts,
};
use crate::{
    billing::{
        LedgerError, Payment, Purpose, StartPayment, Step, Timing, ledger::AttemptSeen,
        sale::quote_sale,
    },
    error::ApiResult,
    providers::payments::{IdempotencyKey, PaymentMethodRef},
    state::AppState,
    store::{
        audit,
        orders::{self, OrderRecord},
        quotes,
    },
};

/// A claim younger than this may still be finishing in the process that made it (the
/// ledger's own lease on an attempt).
pub const UNFINISHED_AFTER_SECS: i64 = 120;
/// A hold younger than this may be about to be attached by the hire that made it.
const UNATTACHED_AFTER_SECS: i64 = 600;
/// Rows handled per pass.
const BATCH: i64 = 100;

/// What became of an unfinished claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resumed {
    /// Its payment was applied: the hire went through, or its hold was released.
    Applied,
    /// Nothing to resume: the claim was removed.
    Removed,
    /// Its attempt is still running somewhere: left for now.
    Busy,
}

/// What one pass did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reconciled {
    pub resumed: usize,
    pub removed: usize,
    pub released: usize,
    pub told: usize,
}

pub async fn reconcile(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<Reconciled> {
    let mut done = Reconciled::default();
    let unfinished = now - chrono::Duration::seconds(UNFINISHED_AFTER_SECS);
    for claim in orders::unfinished_claims(&state.db, unfinished, BATCH).await? {
        match resume(state, &claim).await {
            Ok(Resumed::Applied) => done.resumed += 1,
            Ok(Resumed::Removed) => done.removed += 1,
            Ok(Resumed::Busy) => {}
            Err(error) => tracing::warn!(%error, order = %claim.id, "could not resume a hire"),
        }
    }
    let unattached = now - chrono::Duration::seconds(UNATTACHED_AFTER_SECS);
    for payment in ledger(state).unattached_holds(unattached, BATCH).await? {
        match release_unattached(state, &payment).await {
            Ok(()) => done.released += 1,
            Err(error) => tracing::warn!(%error, payment = %payment.id, "could not release a hold"),
        }
    }
    // Left a moment to the call that moved the payment, which tells it in its own
    // transaction.
    done.told = receipts::tell_untold(state, unfinished, BATCH).await?;
    done.told += crate::billing::refunds::tell_untold(state, unfinished, BATCH).await?;
    Ok(done)
}

/// Finishes claim `claim`, whose hire was cut short (see the module's comment).
pub async fn resume(state: &AppState, claim: &OrderRecord) -> ApiResult<Resumed> {
    let ledger = ledger(state);
    let payment = match ledger.made_by(claim.customer_id, claim.request_id).await? {
        AttemptSeen::Made(payment) => Some(*payment),
        AttemptSeen::Running => match rerun(state, claim).await {
            Ok(payment) => payment,
            Err(LedgerError::InProgress) => return Ok(Resumed::Busy),
            // Refused now (a declined card, say): nothing is held under the key.
            Err(
                LedgerError::Declined(_)
                | LedgerError::InvalidPaymentMethod
                | LedgerError::AmountTooSmall,
            ) => None,
            Err(other) => return Err(other.into()),
        },
        AttemptSeen::None => None,
    };
    let Some(payment) = payment else {
        orders::delete_claim(&state.db, claim.id).await?;
        return Ok(Resumed::Removed);
    };
    if let Err(error) = apply(state, claim.id, &payment).await {
        // Not hireable any more: apply released the hold. Otherwise make sure of it.
        tracing::info!(%error, order = %claim.id, "a resumed hire did not go through");
        unclaim(state, claim, &payment).await;
    }
    Ok(Resumed::Applied)
}

/// Runs a claim's attempt again under its own key with the card reference it kept, so the
/// gateway answers the hold it may have made: the same sale (the quote's fee and the taxes
/// fixed with it), so the same total. `None` when the claim kept no reference.
async fn rerun(state: &AppState, claim: &OrderRecord) -> Result<Option<Payment>, LedgerError> {
    let Some(method) = claim.payment_method.as_deref() else {
        return Ok(None);
    };
    let Ok(payment_method) = PaymentMethodRef::parse(method) else {
        return Ok(None);
    };
    let Some(quote) = quotes::get(&state.db, claim.quote_id).await? else {
        return Ok(None);
    };
    ledger(state)
        .start(&StartPayment {
            purpose: Purpose::Hire,
            payer_id: claim.customer_id,
            sale: quote_sale(&quote),
            payment_method,
            timing: Timing::Hold,
            request_id: IdempotencyKey::new(claim.request_id),
        })
        .await
        .map(Some)
}

/// Releases a hold no order holds, and writes it to the audit log.
async fn release_unattached(state: &AppState, payment: &Payment) -> ApiResult<()> {
    let key = IdempotencyKey::new(Uuid::new_v5(&payment.id, b"release-unattached"));
    let released = match ledger(state)
        .step(payment.payer_id, payment.id, Step::Void, key)
        .await
    {
        Ok(released) => released,
        // Lapsed or moved meanwhile: nothing is held any more.
        Err(LedgerError::State(_) | LedgerError::AuthorizationExpired) => return Ok(()),
        Err(other) => return Err(other.into()),
    };
    audit::record_by_server(
        &state.db,
        "payment.release_unattached",
        ("payment", &payment.id.to_string()),
        "a card hold that no hire held, left by a hire cut short: released",
        Some(&json!({ "state": payment.state.as_str(), "amount_cents": payment.amount.cents().get() })),
        Some(&json!({ "state": released.state.as_str() })),
    )
    .await?;
    Ok(())
}
