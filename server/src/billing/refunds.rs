//! Refunds around the ledger: who gives a payment back (the basis of the split: on a hire the
//! professional's share, the platform's fee and the fee's taxes, as the payouts reckon
//! them), the refunds a payment had, and the credit notes: each refund told once to the
//! hire's customer and professional (`refunds.told_at`), in the transaction that claims it.

use uuid::Uuid;

use super::{
    Payment, Purpose,
    ledger::{RefundBasis, close_if_refunded, split_reported},
    payouts,
};
use crate::{
    domain::{Money, Role},
    error::{ApiError, ApiResult},
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::{
        payouts::lock_entries,
        receipts,
        refunds::{self as store, RefundRow},
    },
    words::{self, CreditNote, Moment},
};

/// A payment's refunds that count (pending or made), oldest first.
pub async fn of_payment(
    db: impl sqlx::PgExecutor<'_>,
    payment_id: Uuid,
) -> ApiResult<Vec<RefundRow>> {
    let rows = store::of_payment(db, payment_id).await?;
    Ok(rows.into_iter().filter(|r| r.state != "failed").collect())
}

/// What the refunds made so far add up to.
pub fn refunded(payment: &Payment, refunds: &[RefundRow]) -> ApiResult<Money> {
    let cents = refunds
        .iter()
        .filter(|r| r.state == "succeeded")
        .map(|r| r.amount_cents)
        .sum::<i64>();
    Money::parse(cents, payment.amount.currency().code())
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("refunded amount: {e}")))
}

/// Who gives `payment` back, reckoned now: on a hire, its payout entry's split.
pub async fn basis(state: &AppState, payment: &Payment) -> ApiResult<RefundBasis> {
    if payment.purpose != Purpose::Hire {
        return Ok(RefundBasis::platform(payment.amount));
    }
    let Some((order_id, professional_id)) = store::hire_of(&state.db, payment.id).await? else {
        return Ok(RefundBasis::platform(payment.amount));
    };
    let fee_percent = state.config.platform_fee_percent;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let rows = lock_entries(&mut tx, professional_id, fee_percent, &[order_id]).await?;
    tx.commit().await?;
    let gross = payment.amount.cents().get();
    let Some(row) = rows.into_iter().next() else {
        return Ok(RefundBasis::platform(payment.amount));
    };
    let entry = payouts::priced(&state.config.registrations(), row)?;
    let fee = entry.row.fee_cents.clamp(0, gross);
    let fee_tax = entry.fee_tax_cents().clamp(0, gross - fee);
    Ok(RefundBasis {
        professional_cents: gross - fee - fee_tax,
        fee_cents: fee,
        fee_tax_cents: fee_tax,
    })
}

/// A reported refund of everything left (an event that says only "refunded in full").
pub const ALL_LEFT: i64 = i64::MAX;

/// Records the refunds the gateway made on its own (Stripe's dashboard), from a
/// `charge.refunded` event: each refund id not recorded yet, as long as the gateway's total
/// refunded exceeds what the ledger counts (a refund of the platform's own, still pending
/// without its id, is not counted twice). The payment becomes REFUNDED once they add up.
/// The refunds recorded.
pub async fn record_reported(
    state: &AppState,
    payment: &Payment,
    reported: &[(String, i64)],
    total_refunded: i64,
) -> ApiResult<Vec<Uuid>> {
    let basis = basis(state, payment).await?;
    let currency = payment.amount.currency().code();
    let reason = "Refunded at the payment gateway";
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let Some((_, total, _)) = store::lock_payment(&mut tx, payment.id).await? else {
        return Ok(Vec::new());
    };
    let mut before = of_payment(&mut *tx, payment.id).await?;
    let mut recorded = Vec::new();
    for (id, cents) in reported {
        let counted: i64 = before.iter().map(|r| r.amount_cents).sum();
        let room = total_refunded.min(total) - counted;
        let cents = if *cents == ALL_LEFT { room } else { *cents };
        if cents <= 0 || cents > room || store::known(&mut *tx, id).await? {
            continue;
        }
        // One of the platform's own, made but not settled yet: the same amount, pending.
        if before
            .iter()
            .any(|r| r.state == "pending" && r.amount_cents == cents)
        {
            continue;
        }
        let refs: Vec<&RefundRow> = before.iter().collect();
        let mut refund = split_reported(payment, basis, &refs, cents, currency, reason);
        refund.state = "succeeded";
        refund.gateway_refund_id = Some(id);
        let row = store::insert(&mut tx, &refund).await?;
        recorded.push(row.id);
        before.push(row);
    }
    close_if_refunded(&mut tx, payment.id).await?;
    tx.commit().await?;
    Ok(recorded)
}

/// Emails the credit note of every made refund of `payment` not told yet to the hire's
/// customer and professional; whether any was told.
pub async fn tell(state: &AppState, payment: &Payment) -> ApiResult<bool> {
    let Some((order_id, _)) = store::hire_of(&state.db, payment.id).await? else {
        return Ok(false);
    };
    let mut told_any = false;
    for refund in of_payment(&state.db, payment.id).await? {
        if refund.state != "succeeded" {
            continue;
        }
        let mut tx = crate::store::transaction::begin(&state.db).await?;
        if !claim_telling(&mut tx, refund.id).await? {
            continue;
        }
        let fee_percent = state.config.platform_fee_percent;
        let Some(facts) = receipts::hired_order(&mut tx, order_id, fee_percent).await? else {
            continue;
        };
        let after = super::ledger::find_in(&mut *tx, payment.id).await?;
        let notes = credit_notes(state, &facts, &after, &refund)?;
        outbox::enqueue_many(&mut *tx, &notes).await?;
        tx.commit().await?;
        told_any = true;
    }
    if told_any {
        state.outbox.wake();
    }
    Ok(told_any)
}

/// Tells the credit notes of refunds made before `before` that nobody told (a process
/// stopped between the refund and the telling), up to `limit` payments; how many refunds.
pub async fn tell_untold(
    state: &AppState,
    before: chrono::DateTime<chrono::Utc>,
    limit: i64,
) -> ApiResult<usize> {
    let mut told = 0;
    for payment_id in store::untold(&state.db, before, limit).await? {
        let payment = super::ledger::find_in(&state.db, payment_id).await?;
        if tell(state, &payment).await? {
            told += 1;
        }
    }
    Ok(told)
}

async fn claim_telling(tx: &mut sqlx::PgConnection, refund_id: Uuid) -> sqlx::Result<bool> {
    let claimed =
        sqlx::query("update refunds set told_at = now() where id = $1 and told_at is null")
            .bind(refund_id)
            .execute(tx)
            .await?;
    Ok(claimed.rows_affected() == 1)
}

/// The two emails of one refund: the customer's (unless deleted) and the professional's.
fn credit_notes(
    state: &AppState,
    facts: &receipts::HireFacts,
    payment: &Payment,
    refund: &RefundRow,
) -> ApiResult<Vec<NewOutboxMessage>> {
    let money = |cents: i64| {
        Money::parse(cents, &refund.currency)
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("refund amount: {e}")))
    };
    let order_id = facts.order_id.to_string();
    let links = state.config.links();
    let in_full = payment.state == super::PaymentState::Refunded;
    let mut notes = Vec::new();
    let mut write = |role: Role, share: Option<Money>| -> ApiResult<()> {
        let (name, email, language, zone) = match role {
            Role::Customer => (
                &facts.customer_name,
                &facts.customer_email,
                facts.customer_language,
                &facts.request_time_zone,
            ),
            _ => (
                &facts.professional_name,
                &facts.professional_email,
                facts.professional_language,
                &facts.professional_time_zone,
            ),
        };
        let link = links.credit_note(payment.id, refund.id, role);
        let note = CreditNote {
            service: facts.service_name.of(language),
            order_id: &order_id,
            amount: money(refund.amount_cents)?,
            taxes: money(refund.tax_cents)?,
            original: payment.amount,
            in_full,
            professional_share: share,
            reason: &refund.reason,
            refunded: Moment::new(refund.created_at, zone),
            link: link.of(language),
        };
        let mail = words::of(language).credit_note(name, &note);
        notes.push(NewOutboxMessage::email(email, mail.subject, mail.body));
        Ok(())
    };
    if !facts.customer_deleted {
        write(Role::Customer, None)?;
    }
    write(Role::Professional, Some(money(refund.professional_cents)?))?;
    Ok(notes)
}
