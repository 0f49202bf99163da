//! The payments ledger: every call that moves money goes through here. It records each
//! attempt under the caller's `request_id` before calling the gateway, so
//! - the same key with the same payload answers the first result (the same payment, or the
//!   same refusal) and never reaches the gateway twice;
//! - the same key with another payload is refused ([`LedgerError::RequestIdReused`]);
//! - a second call while the first is running is refused ([`LedgerError::InProgress`]).
//!
//! It keeps each payment's state, changed only by the named transitions below.

use std::sync::Arc;

use anyhow::Context;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use uuid::Uuid;

use super::sale::Sale;
use crate::{
    domain::{Money, Province},
    providers::payments::{
        Decline, GatewayKind, GatewayPayment, IdempotencyKey, NewCharge, PaymentError,
        PaymentGateway,
    },
    store::payments::{self as store, AttemptEnd, GatewayState, NewAttempt, PaymentRow},
};

/// After this long a running attempt counts as abandoned (the process died mid-call) and a
/// retry with the same key and payload may take it over.
const ABANDONED_AFTER_SECS: i64 = 120;

mod payment;
mod refund;
mod refusal;

pub use payment::*;
pub use refund::{RefundAsk, RefundBasis, close_if_refunded, split_reported};
pub use refusal::{LedgerError, refusal};
use refusal::{from_refusal_code, refusal_code};

/// What one attempt came to: the payment, or the refusal and the payment it concerns.
type Outcome = Result<Payment, (LedgerError, Option<Box<Payment>>)>;

pub struct Ledger {
    db: PgPool,
    gateway: Arc<dyn PaymentGateway>,
}

impl Ledger {
    pub fn new(db: PgPool, gateway: Arc<dyn PaymentGateway>) -> Self {
        Self { db, gateway }
    }

    /// Authorises or charges a new payment (start transition).
    pub async fn start(&self, payment: &StartPayment) -> Result<Payment, LedgerError> {
        let operation = match payment.timing {
            Timing::Hold => "authorize",
            Timing::Now => "charge",
        };
        let amount = payment.amount();
        let payer = payment.payer_id.to_string();
        let cents = amount.cents().get().to_string();
        let mut parts = vec![
            operation,
            payment.purpose.as_str(),
            &payer,
            &cents,
            amount.currency().code(),
            payment.payment_method.as_str(),
        ];
        // A taxed payment's breakdown is part of its payload (an untaxed one's reads as
        // before taxes were kept, so its retries still match).
        let taxed = sale_parts(&payment.sale);
        parts.extend(taxed.iter().map(String::as_str));
        let fingerprint = fingerprint(&parts);
        let attempt = NewAttempt {
            actor_id: payment.payer_id,
            request_id: payment.request_id.uuid(),
            operation,
            fingerprint: &fingerprint,
            amount_cents: Some(amount.cents().get()),
            currency: Some(amount.currency().code()),
            gateway: self.gateway.kind().as_str(),
            payment_id: None,
        };
        let Some(attempt_id) =
            store::claim_attempt(&self.db, &attempt, ABANDONED_AFTER_SECS).await?
        else {
            return self.replay(&attempt).await;
        };
        let charge = NewCharge {
            amount,
            payment_method: payment.payment_method.clone(),
            key: payment.request_id.scoped_to(payment.payer_id),
        };
        let answer = match payment.timing {
            Timing::Hold => self.gateway.authorize(&charge).await,
            Timing::Now => self.gateway.charge(&charge).await,
        };
        let recorded = match answer {
            Ok(made) => self.record(payment, &made).await.map_err(|e| (e, None)),
            Err(PaymentError::Declined {
                decline,
                payment: Some(made),
            }) => match self.record(payment, &made).await {
                Ok(failed) => Err((LedgerError::Declined(decline), Some(Box::new(failed)))),
                Err(error) => Err((error, None)),
            },
            Err(other) => Err((refusal(other, "started"), None)),
        };
        self.finish(attempt_id, recorded).await
    }

    /// Capture or void of an existing payment, by `actor_id` (an admin) under their
    /// `request_id`.
    pub async fn step(
        &self,
        actor_id: Uuid,
        payment_id: Uuid,
        step: Step,
        request_id: IdempotencyKey,
    ) -> Result<Payment, LedgerError> {
        let fingerprint = fingerprint(&[step.name(), &payment_id.to_string()]);
        let attempt = NewAttempt {
            actor_id,
            request_id: request_id.uuid(),
            operation: step.name(),
            fingerprint: &fingerprint,
            amount_cents: None,
            currency: None,
            gateway: self.gateway.kind().as_str(),
            payment_id: Some(payment_id),
        };
        let Some(attempt_id) =
            store::claim_attempt(&self.db, &attempt, ABANDONED_AFTER_SECS).await?
        else {
            return self.replay(&attempt).await;
        };
        let outcome = self
            .apply_step(payment_id, step, request_id.scoped_to(actor_id))
            .await;
        self.finish(attempt_id, outcome).await
    }

    /// Reads a payment back from the gateway and applies what happened to it since (the
    /// cardholder's authentication, a lapsed hold).
    pub async fn confirm(&self, payment_id: Uuid) -> Result<Payment, LedgerError> {
        let payment = self.find(payment_id).await?;
        if !matches!(
            payment.state,
            PaymentState::RequiresAction | PaymentState::Authorized
        ) {
            return Ok(payment);
        }
        let seen = self
            .gateway
            .retrieve(&payment.charge_id)
            .await
            .map_err(|e| refusal(e, "confirmed"))?;
        self.sync(&payment, &seen).await
    }

    /// The cardholder's answer on the test-mode authentication step, then [`Self::confirm`].
    /// Refused outside test mode, where the gateway asks the cardholder itself. A payment no
    /// longer waiting for the answer (answered before, or moved by a webhook) is confirmed
    /// as it is, so a retried answer is harmless.
    pub async fn answer_and_confirm(
        &self,
        payment_id: Uuid,
        answer: TestAuthentication,
    ) -> Result<Payment, LedgerError> {
        if self.gateway.kind() != GatewayKind::Test {
            return Err(LedgerError::TestModeOnly);
        }
        let payment = self.find(payment_id).await?;
        if payment.state == PaymentState::RequiresAction {
            let approved = answer == TestAuthentication::Approve;
            match self
                .gateway
                .answer_authentication(&payment.charge_id, approved)
                .await
            {
                Ok(_) | Err(PaymentError::State { .. }) => {}
                Err(other) => return Err(refusal(other, "confirmed")),
            }
        }
        self.confirm(payment_id).await
    }

    /// Applies a transition the gateway reported on its own (a webhook event): the payment
    /// moves only if it is in one of the states the transition starts from. `None` when no
    /// payment has that charge id or it was elsewhere.
    pub async fn apply_reported(
        &self,
        reported: &Reported,
    ) -> Result<Option<Payment>, LedgerError> {
        let from: Vec<&str> = reported.from.iter().map(|s| s.as_str()).collect();
        let Some(payment) = store::find_by_charge_id(&self.db, &reported.charge_id).await? else {
            return Ok(None);
        };
        let moved = store::transition(
            &self.db,
            payment.id,
            &from,
            &GatewayState {
                state: reported.to.as_str(),
                client_secret: None,
                failure_code: reported.decline.map(Decline::code),
                authorization_expires_at: None,
            },
        )
        .await?;
        moved.map(to_payment).transpose()
    }

    /// The hold lapsing: AUTHORIZED -> EXPIRED once its authorisation ran out by `now` (the
    /// housekeeping's clock). `None` when the payment was not authorised or has time left.
    pub async fn lapse(
        &self,
        payment_id: Uuid,
        now: DateTime<Utc>,
    ) -> Result<Option<Payment>, LedgerError> {
        let payment = self.find(payment_id).await?;
        if payment.state != PaymentState::Authorized
            || payment.authorization_expires_at.is_none_or(|at| at > now)
        {
            return Ok(None);
        }
        let moved = store::transition(
            &self.db,
            payment.id,
            &[PaymentState::Authorized.as_str()],
            &GatewayState {
                state: PaymentState::Expired.as_str(),
                client_secret: None,
                failure_code: None,
                authorization_expires_at: None,
            },
        )
        .await?;
        moved.map(to_payment).transpose()
    }

    /// Hire payments still held that no order holds, made before `before` (oldest first).
    pub async fn unattached_holds(
        &self,
        before: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<Payment>, LedgerError> {
        store::unattached_holds(&self.db, before, limit)
            .await?
            .into_iter()
            .map(to_payment)
            .collect()
    }

    /// The payment the attempt under `(actor_id, request_id)` made, if it ended with one.
    pub async fn made_by(
        &self,
        actor_id: Uuid,
        request_id: Uuid,
    ) -> Result<AttemptSeen, LedgerError> {
        let Some(attempt) = store::find_attempt(&self.db, actor_id, request_id).await? else {
            return Ok(AttemptSeen::None);
        };
        Ok(match (attempt.outcome.as_str(), attempt.payment_id) {
            ("running", _) => AttemptSeen::Running,
            ("succeeded", Some(payment_id)) => {
                AttemptSeen::Made(Box::new(self.find(payment_id).await?))
            }
            _ => AttemptSeen::None,
        })
    }

    /// The database the ledger keeps its records in.
    pub fn db(&self) -> &PgPool {
        &self.db
    }

    pub async fn find(&self, payment_id: Uuid) -> Result<Payment, LedgerError> {
        find_in(&self.db, payment_id).await
    }

    pub async fn find_by_charge_id(&self, charge_id: &str) -> Result<Payment, LedgerError> {
        store::find_by_charge_id(&self.db, charge_id)
            .await?
            .ok_or(LedgerError::NotFound)
            .and_then(to_payment)
    }

    async fn apply_step(&self, payment_id: Uuid, step: Step, key: IdempotencyKey) -> Outcome {
        let payment = self.find(payment_id).await.map_err(|e| (e, None))?;
        let refused = |error: LedgerError| Err((error, Some(Box::new(payment.clone()))));
        if payment.state == PaymentState::Expired && step == Step::Capture {
            return refused(LedgerError::AuthorizationExpired);
        }
        if !step.allowed_from().contains(&payment.state) {
            return refused(LedgerError::State(step.done()));
        }
        let answer = match step {
            Step::Capture => self.gateway.capture(&payment.charge_id, &key).await,
            Step::Void => self.gateway.void(&payment.charge_id, &key).await,
        };
        // Only the call whose gateway request took the step has taken it: of two captures
        // racing on one hold (under two keys) the gateway refuses the second, which then
        // answers PAYMENT_STATE even though the payment ends captured.
        let (seen, taken_here) = match answer {
            Ok(seen) => (seen, true),
            // The gateway knows better (a lapsed hold, a step taken meanwhile): bring the
            // ledger up to date below.
            Err(PaymentError::State { .. }) => (
                self.gateway
                    .retrieve(&payment.charge_id)
                    .await
                    .map_err(|e| (refusal(e, step.done()), Some(Box::new(payment.clone()))))?,
                false,
            ),
            Err(other) => return refused(refusal(other, step.done())),
        };
        let after = self
            .sync(&payment, &seen)
            .await
            .map_err(|e| (e, Some(Box::new(payment.clone()))))?;
        match after.state {
            state if state == step.leads_to() && taken_here => Ok(after),
            PaymentState::Expired => {
                Err((LedgerError::AuthorizationExpired, Some(Box::new(after))))
            }
            _ => Err((LedgerError::State(step.done()), Some(Box::new(after)))),
        }
    }

    /// Applies the gateway's view of a payment to its ledger row, if it moved.
    async fn sync(&self, payment: &Payment, seen: &GatewayPayment) -> Result<Payment, LedgerError> {
        if PaymentState::of(seen.status) == payment.state {
            return Ok(payment.clone());
        }
        let updated = store::transition(
            &self.db,
            payment.id,
            &[payment.state.as_str()],
            &gateway_state(seen),
        )
        .await?;
        match updated {
            Some(updated) => to_payment(updated),
            // Someone else moved it first: answer what is there now.
            None => self.find(payment.id).await,
        }
    }

    async fn record(
        &self,
        payment: &StartPayment,
        made: &GatewayPayment,
    ) -> Result<Payment, LedgerError> {
        let amount = payment.amount();
        if made.amount != amount {
            return Err(LedgerError::Internal(anyhow::anyhow!(
                "the gateway answered {} for a payment of {}",
                made.amount,
                amount
            )));
        }
        let sale = &payment.sale;
        let taxes = super::sale::to_store(&sale.taxes);
        let row = store::insert(
            &self.db,
            &store::NewPayment {
                purpose: payment.purpose.as_str(),
                payer_id: payment.payer_id,
                amount_cents: amount.cents().get(),
                currency: amount.currency().code(),
                gateway: self.gateway.kind().as_str(),
                charge_id: &made.id,
                gateway_state: gateway_state(made),
                subtotal_cents: sale.subtotal.cents().get(),
                tax_province: sale.place.map(Province::code),
                tax_date: sale.date,
                taxes: &taxes,
            },
        )
        .await?;
        // The gateway answered a payment the ledger already holds: it must be this one.
        if row.payer_id != payment.payer_id || row.purpose != payment.purpose.as_str() {
            return Err(LedgerError::Internal(anyhow::anyhow!(
                "the gateway answered payment {} of another call",
                row.charge_id
            )));
        }
        to_payment(row)
    }

    /// Records how the attempt ended and answers it.
    async fn finish(&self, attempt_id: Uuid, outcome: Outcome) -> Result<Payment, LedgerError> {
        let end = match &outcome {
            Ok(payment) => AttemptEnd::Succeeded {
                payment: attempt_payment(payment),
            },
            Err((error, payment)) => match refusal_code(error) {
                Some(code) => {
                    store::finish_attempt(
                        &self.db,
                        attempt_id,
                        AttemptEnd::Refused {
                            payment: payment.as_deref().map(attempt_payment),
                            code: &code,
                            message: &error.to_string(),
                        },
                    )
                    .await?;
                    return outcome.map_err(|(error, _)| error);
                }
                None => AttemptEnd::Abandoned,
            },
        };
        store::finish_attempt(&self.db, attempt_id, end).await?;
        outcome.map_err(|(error, _)| error)
    }

    /// Answers a key seen before: its first result, or why not.
    async fn replay(&self, attempt: &NewAttempt<'_>) -> Result<Payment, LedgerError> {
        let seen = store::find_attempt(&self.db, attempt.actor_id, attempt.request_id)
            .await?
            .context("an attempt that conflicted is gone")?;
        if seen.fingerprint != attempt.fingerprint {
            return Err(LedgerError::RequestIdReused);
        }
        match (seen.outcome.as_str(), seen.payment_id) {
            ("running", _) => Err(LedgerError::InProgress),
            ("succeeded", Some(payment_id)) => self.find(payment_id).await,
            ("refused", _) => Err(from_refusal_code(seen.error_code.as_deref().unwrap_or(""))),
            (outcome, _) => Err(LedgerError::Internal(anyhow::anyhow!(
                "attempt {} ended {outcome} without a payment",
                seen.id
            ))),
        }
    }
}

/// A payment read through `db`: inside a caller's transaction, that transaction.
pub async fn find_in(
    db: impl sqlx::PgExecutor<'_>,
    payment_id: Uuid,
) -> Result<Payment, LedgerError> {
    store::find(db, payment_id)
        .await?
        .ok_or(LedgerError::NotFound)
        .and_then(to_payment)
}

/// The parts of a taxed sale a payment's fingerprint adds: its subtotal, place and each tax;
/// none for an untaxed one.
fn sale_parts(sale: &Sale) -> Vec<String> {
    if sale.taxes.is_empty() {
        return Vec::new();
    }
    let mut parts = vec![
        sale.subtotal.cents().get().to_string(),
        sale.place.map_or("", Province::code).to_owned(),
    ];
    for tax in &sale.taxes {
        parts.extend([
            tax.line.name.as_str().to_owned(),
            tax.line.rate.thousandths_percent().to_string(),
            tax.line.amount.cents().get().to_string(),
            tax.registration_number.clone(),
        ]);
    }
    parts
}

fn attempt_payment(payment: &Payment) -> store::AttemptPayment<'_> {
    store::AttemptPayment {
        id: payment.id,
        charge_id: &payment.charge_id,
        state: payment.state.as_str(),
    }
}

fn gateway_state(seen: &GatewayPayment) -> GatewayState<'_> {
    GatewayState {
        state: PaymentState::of(seen.status).as_str(),
        client_secret: seen.client_secret.as_deref(),
        failure_code: seen.decline.map(Decline::code),
        authorization_expires_at: seen.capture_before,
    }
}

/// SHA-256 of the parts, each length-prefixed so no two payloads hash alike.
fn fingerprint(parts: &[&str]) -> Vec<u8> {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part.as_bytes());
    }
    hash.finalize().to_vec()
}

fn parse_state(text: &str) -> Result<PaymentState, LedgerError> {
    PaymentState::parse(text)
        .ok_or_else(|| LedgerError::Internal(anyhow::anyhow!("unknown payment state {text:?}")))
}

fn to_payment(row: PaymentRow) -> Result<Payment, LedgerError> {
    let amount = Money::parse(row.amount_cents, &row.currency).context("stored payment amount")?;
    let purpose = Purpose::parse(&row.purpose)
        .with_context(|| format!("unknown payment purpose {:?}", row.purpose))?;
    let place = match row.tax_province.as_deref() {
        None => None,
        Some(code) => {
            Some(Province::from_code(code).with_context(|| format!("stored province {code:?}"))?)
        }
    };
    let sale = Sale {
        subtotal: Money::parse(row.subtotal_cents, &row.currency)
            .context("stored payment subtotal")?,
        taxes: row.taxes.0,
        place,
        date: row.tax_date,
    };
    Ok(Payment {
        id: row.id,
        purpose,
        payer_id: row.payer_id,
        amount,
        state: parse_state(&row.state)?,
        client_secret: row.client_secret,
        decline: row.failure_code.as_deref().map(Decline::from_code),
        authorization_expires_at: row.authorization_expires_at,
        captured_at: row.captured_at,
        created_at: row.created_at,
        updated_at: row.updated_at,
        test_mode: row.gateway == "test",
        refunded: Money::parse(row.refunded_cents, &row.currency)
            .context("stored refunded amount")?,
        charge_id: row.charge_id,
        sale,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_tell_payloads_apart() {
        assert_ne!(fingerprint(&["ab", "c"]), fingerprint(&["a", "bc"]));
        assert_eq!(fingerprint(&["a", "b"]), fingerprint(&["a", "b"]));
    }
}
