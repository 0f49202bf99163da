//! Refunds, in full or in part, through the ledger: the same request_id rules as every step
//! (the amount is part of the payload), then
//! 1. under the payment's row lock: what is left (the charge less every refund not failed,
//!    pending ones included), the refund refused if it asks more, else split in proportion
//!    ([`crate::billing::proportion`]) and written pending;
//! 2. the gateway asked for that amount under the request's key;
//! 3. the refund settled with the gateway's id, and the payment REFUNDED once its refunds
//!    add up to the charge (CAPTURED until then).
//!
//! Two refunds racing on one payment are split one after the other: the second sees the
//! first pending and is refused if together they exceed the charge.

use sqlx::PgConnection;
use uuid::Uuid;

use super::{Ledger, LedgerError, Outcome, Payment, PaymentState, find_in, fingerprint, store};
use crate::{
    billing::proportion,
    domain::Money,
    providers::payments::{IdempotencyKey, PaymentError},
    store::{
        payments::TaxRow,
        refunds::{self as refunds, NewRefund, RefundRow},
    },
};

/// A refund an admin asks for.
#[derive(Debug, Clone)]
pub struct RefundAsk {
    /// `None`: everything left.
    pub amount: Option<Money>,
    /// Required, bounded by the caller.
    pub reason: String,
    /// Who gives the payment back, as the caller reckons it now (see [`RefundBasis`]).
    pub basis: RefundBasis,
}

/// Who gives back a payment's amount, in whole: on a hire the professional (their share,
/// the job's taxes included), the platform (its fee) and the fee's taxes; on a payment the
/// platform sold, the platform alone (`fee` the whole amount, the rest 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefundBasis {
    pub professional_cents: i64,
    pub fee_cents: i64,
    pub fee_tax_cents: i64,
}

impl RefundBasis {
    /// The platform keeps all of a payment it sold.
    pub fn platform(amount: Money) -> Self {
        Self {
            professional_cents: 0,
            fee_cents: amount.cents().get(),
            fee_tax_cents: 0,
        }
    }

    fn parts(self) -> [i64; 3] {
        [self.professional_cents, self.fee_cents, self.fee_tax_cents]
    }
}

impl Ledger {
    /// Refunds `ask` of payment `payment_id` by `actor_id` (an admin) under `request_id`.
    pub async fn refund(
        &self,
        actor_id: Uuid,
        payment_id: Uuid,
        ask: &RefundAsk,
        request_id: IdempotencyKey,
    ) -> Result<Payment, LedgerError> {
        let amount = ask.amount.map_or_else(
            || "rest".to_owned(),
            |a| format!("{} {}", a.cents().get(), a.currency().code()),
        );
        let fingerprint = fingerprint(&["refund", &payment_id.to_string(), &amount]);
        let attempt = store::NewAttempt {
            actor_id,
            request_id: request_id.uuid(),
            operation: "refund",
            fingerprint: &fingerprint,
            amount_cents: ask.amount.map(|a| a.cents().get()),
            currency: ask.amount.map(|a| a.currency().code()),
            gateway: self.gateway.kind().as_str(),
            payment_id: Some(payment_id),
        };
        let Some(attempt_id) =
            store::claim_attempt(&self.db, &attempt, super::ABANDONED_AFTER_SECS).await?
        else {
            return self.replay(&attempt).await;
        };
        let outcome = self
            .apply_refund(actor_id, payment_id, ask, request_id)
            .await;
        self.finish(attempt_id, outcome).await
    }

    async fn apply_refund(
        &self,
        actor_id: Uuid,
        payment_id: Uuid,
        ask: &RefundAsk,
        request_id: IdempotencyKey,
    ) -> Outcome {
        let payment = self.find(payment_id).await.map_err(|e| (e, None))?;
        let refused =
            |error: LedgerError, payment: &Payment| Err((error, Some(Box::new(payment.clone()))));
        // Written pending (or found, when this request_id was cut short before).
        let asked = (actor_id, request_id.uuid());
        let pending = match refunds::asked(&self.db, actor_id, request_id.uuid()).await {
            Ok(Some(row)) => row,
            Ok(None) => match self.reserve(&payment, ask, asked).await {
                Ok(row) => row,
                Err(error) => return refused(error, &payment),
            },
            Err(error) => return Err((error.into(), None)),
        };
        if pending.state != "pending" {
            // Settled by an earlier call under this key that stopped before recording it.
            return self.after_refund(&payment).await.map_err(|e| (e, None));
        }
        let amount = Money::parse(pending.amount_cents, &pending.currency).map_err(|e| {
            (
                LedgerError::Internal(anyhow::anyhow!("stored refund: {e}")),
                None,
            )
        })?;
        let key = request_id.scoped_to(actor_id);
        match self.gateway.refund(&payment.charge_id, amount, &key).await {
            Ok(made) => {
                refunds::settle(&self.db, pending.id, Some(&made.id))
                    .await
                    .map_err(|e| (e.into(), None))?;
                self.after_refund(&payment).await.map_err(|e| (e, None))
            }
            Err(PaymentError::Unavailable(cause)) => {
                // The gateway may have made it: the refund stays pending (counted against
                // what is left) until a retry under the same request_id settles it.
                refused(LedgerError::GatewayUnavailable(cause), &payment)
            }
            Err(other) => {
                refunds::settle(&self.db, pending.id, None)
                    .await
                    .map_err(|e| (e.into(), None))?;
                refused(super::refusal(other, "refunded"), &payment)
            }
        }
    }

    /// Checks what is left under the payment's lock and writes the refund pending.
    async fn reserve(
        &self,
        payment: &Payment,
        ask: &RefundAsk,
        (admin, request): (Uuid, Uuid),
    ) -> Result<RefundRow, LedgerError> {
        let mut tx = crate::store::transaction::begin(&self.db).await?;
        let Some((state, total, currency)) = refunds::lock_payment(&mut tx, payment.id).await?
        else {
            return Err(LedgerError::NotFound);
        };
        if state != PaymentState::Captured.as_str() {
            return Err(LedgerError::State("refunded"));
        }
        let before = refunds::of_payment(&mut *tx, payment.id).await?;
        let counted: Vec<&RefundRow> = before.iter().filter(|r| r.state != "failed").collect();
        let left = total - counted.iter().map(|r| r.amount_cents).sum::<i64>();
        let cents = match ask.amount {
            None if left <= 0 => return Err(LedgerError::State("refunded")),
            None => left,
            Some(amount) if amount.currency().code() != currency => {
                return Err(LedgerError::RefundCurrency);
            }
            Some(amount) => amount.cents().get(),
        };
        if cents > left {
            let left = Money::parse(left.max(0), &currency).map_err(anyhow::Error::from)?;
            return Err(LedgerError::RefundExceedsRemaining(left));
        }
        let row = refunds::insert(
            &mut tx,
            &split(payment, ask, &counted, cents, (admin, request), &currency),
        )
        .await?;
        tx.commit().await?;
        Ok(row)
    }

    /// The payment after a refund settled: REFUNDED once its refunds add up to the charge.
    async fn after_refund(&self, payment: &Payment) -> Result<Payment, LedgerError> {
        let mut tx = crate::store::transaction::begin(&self.db).await?;
        close_if_refunded(&mut tx, payment.id).await?;
        let after = find_in(&mut *tx, payment.id).await?;
        tx.commit().await?;
        Ok(after)
    }
}

/// Moves the payment to REFUNDED, through `tx`, when its refunds that succeeded add up to
/// its amount; whether it moved.
pub async fn close_if_refunded(
    tx: &mut PgConnection,
    payment_id: Uuid,
) -> Result<bool, LedgerError> {
    let Some((_, total, _)) = refunds::lock_payment(&mut *tx, payment_id).await? else {
        return Err(LedgerError::NotFound);
    };
    let done: i64 = refunds::of_payment(&mut *tx, payment_id)
        .await?
        .iter()
        .filter(|r| r.state == "succeeded")
        .map(|r| r.amount_cents)
        .sum();
    if done < total {
        return Ok(false);
    }
    Ok(refunds::mark_refunded(tx, payment_id).await?)
}

/// The refund of `cents` split in proportion, after the refunds `before` (not failed).
pub fn split<'a>(
    payment: &Payment,
    ask: &'a RefundAsk,
    before: &[&RefundRow],
    cents: i64,
    asked_by: (Uuid, Uuid),
    currency: &'a str,
) -> NewRefund<'a> {
    let mut refund = split_reported(payment, ask.basis, before, cents, currency, &ask.reason);
    refund.asked_by = Some(asked_by);
    refund
}

/// A refund of `cents` split in proportion after `before`, pending and asked by nobody yet.
pub fn split_reported<'a>(
    payment: &Payment,
    basis: RefundBasis,
    before: &[&RefundRow],
    cents: i64,
    currency: &'a str,
    reason: &'a str,
) -> NewRefund<'a> {
    // Who gives it back. A basis reckoned differently from an earlier refund's (the fee
    // percent changed between them) is kept within what each part has left.
    let parts = basis.parts();
    let given = [
        before.iter().map(|r| r.professional_cents).sum::<i64>(),
        before.iter().map(|r| r.fee_cents).sum(),
        before.iter().map(|r| r.fee_tax_cents).sum(),
    ];
    let who = proportion::split(&fit(&parts, &given, cents), &given, cents);
    // What it was: the amount before tax and each tax.
    let taxes = &payment.sale.taxes;
    let mut what_parts = vec![payment.sale.subtotal.cents().get()];
    what_parts.extend(taxes.iter().map(|t| t.line.amount.cents().get()));
    let mut what_given = vec![0; what_parts.len()];
    for row in before {
        let back: i64 = row.taxes.0.iter().map(|t| t.amount_cents).sum();
        what_given[0] += row.amount_cents - back;
        for tax in &row.taxes.0 {
            if let Some(i) = taxes.iter().position(|t| t.line.name.as_str() == tax.tax) {
                what_given[i + 1] += tax.amount_cents;
            }
        }
    }
    let what = proportion::split(&fit(&what_parts, &what_given, cents), &what_given, cents);
    NewRefund {
        payment_id: payment.id,
        amount_cents: cents,
        currency,
        professional_cents: who[0],
        fee_cents: who[1],
        fee_tax_cents: who[2],
        taxes: taxes
            .iter()
            .zip(&what[1..])
            .filter(|(_, back)| **back > 0)
            .map(|(tax, back)| TaxRow {
                tax: tax.line.name.as_str().to_owned(),
                rate_thousandths_percent: i32::try_from(tax.line.rate.thousandths_percent())
                    .unwrap_or(i32::MAX),
                amount_cents: *back,
                registration_number: tax.registration_number.clone(),
            })
            .collect(),
        reason,
        asked_by: None,
        state: "pending",
        gateway_refund_id: None,
    }
}

/// `parts` raised where needed so each holds what was `given` of it and the whole holds
/// `given` plus `cents` (the first part takes any shortfall): only a basis reckoned
/// differently from the refunds before it needs this.
fn fit(parts: &[i64], given: &[i64], cents: i64) -> Vec<i64> {
    let mut fitted: Vec<i64> = parts.iter().zip(given).map(|(p, g)| (*p).max(*g)).collect();
    let room: i64 = fitted.iter().sum::<i64>() - given.iter().sum::<i64>();
    if room < cents {
        fitted[0] += cents - room;
    }
    fitted
}
