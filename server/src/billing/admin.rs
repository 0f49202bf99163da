//! What admins do with payments: capture, release (void) and refund, each under the admin's
//! request_id. Each is written to the audit log before the gateway is called, pending, and
//! settled (succeeded or failed, with the payment after or the reason) once it answers: an
//! action cut short mid-way still shows.

use serde_json::json;
use uuid::Uuid;

use super::{Ledger, LedgerError, Payment, ledger::Step};
use crate::{
    domain::text::bounded_text,
    error::{ApiError, ApiResult},
    providers::payments::IdempotencyKey,
    store::audit,
};

/// An admin who answers a payment's authentication (their own test charge's, or a payer's)
/// acts on it like any other step: audited pending before the gateway is asked, settled after.
pub async fn confirm(
    ledger: &Ledger,
    admin_id: Uuid,
    before: &Payment,
    confirming: impl Future<Output = Result<Payment, LedgerError>>,
) -> ApiResult<Payment> {
    let payment_id = before.id.to_string();
    let attempt = audit::Attempt {
        admin_id,
        // A confirmation carries no request_id of its own: each is its own entry.
        request_id: Uuid::now_v7(),
        action: "payment.confirm",
        target: ("payment", &payment_id),
    };
    audited(ledger, &attempt, "", before, confirming).await
}

/// How the admin names the payment.
pub enum Target {
    Order(String),
    Payment(String),
    Charge(String),
}

async fn resolve(ledger: &Ledger, target: &Target) -> ApiResult<Payment> {
    let payment = match target {
        Target::Payment(id) => {
            let id = crate::error::parse_id("target.payment_id", id)?;
            ledger.find(id).await?
        }
        Target::Charge(charge_id) => {
            let charge_id = charge_id.trim();
            // Gateways' ids are letters, digits and underscores (`pi_...`).
            let shaped = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
            if charge_id.is_empty() || charge_id.len() > 255 || !charge_id.bytes().all(shaped) {
                return Err(ApiError::invalid(
                    "target.charge_id",
                    "this charge id is not valid",
                ));
            }
            ledger.find_by_charge_id(charge_id).await?
        }
        Target::Order(id) => {
            let id = crate::error::parse_id("target.order_id", id)?;
            let payment_id = crate::store::orders::get(ledger.db(), id)
                .await?
                .and_then(|order| order.payment_id)
                .ok_or(LedgerError::NotFound)?;
            ledger.find(payment_id).await?
        }
    };
    Ok(payment)
}

/// What the audit log keeps of a payment.
pub fn audit_view(payment: &Payment) -> serde_json::Value {
    json!({
        "state": payment.state.as_str(),
        "amount_cents": payment.amount.cents().get(),
        "currency": payment.amount.currency().code(),
    })
}

/// Writes the audit entry of an admin's step on a payment, from `before` to `after`.
pub async fn record(
    ledger: &Ledger,
    admin_id: Uuid,
    action: &str,
    reason: &str,
    before: Option<&Payment>,
    after: &Payment,
) -> ApiResult<()> {
    audit::record(
        ledger.db(),
        admin_id,
        action,
        ("payment", &after.id.to_string()),
        reason,
        before.map(audit_view).as_ref(),
        Some(&audit_view(after)),
    )
    .await?;
    Ok(())
}

pub async fn step(
    ledger: &Ledger,
    admin_id: Uuid,
    target: Option<Target>,
    step: Step,
    request_id: &str,
    reason: &str,
) -> ApiResult<Payment> {
    let request_id = IdempotencyKey::parse(request_id)?;
    let reason = match reason.trim() {
        "" => String::new(),
        given => {
            bounded_text(given, "the reason", 500).map_err(|e| ApiError::invalid("reason", e))?
        }
    };
    let target = target.ok_or_else(|| ApiError::invalid("target", "name the payment"))?;
    let before = resolve(ledger, &target).await?;
    let payment_id = before.id.to_string();
    let attempt = audit::Attempt {
        admin_id,
        request_id: request_id.uuid(),
        action: match step {
            Step::Capture => "payment.capture",
            Step::Void => "payment.void",
        },
        target: ("payment", &payment_id),
    };
    let done = ledger.step(admin_id, before.id, step, request_id);
    audited(ledger, &attempt, &reason, &before, done).await
}

/// A refund by an admin: `amount` (none: everything left) of the payment `target` names,
/// for `reason` (required), under their `request_id`, audited like every step.
pub async fn refund(
    state: &crate::state::AppState,
    ledger: &Ledger,
    admin_id: Uuid,
    target: Option<Target>,
    amount: Option<repairs_proto::types::Money>,
    request_id: &str,
    reason: &str,
) -> ApiResult<Payment> {
    let request_id = IdempotencyKey::parse(request_id)?;
    let reason = match reason.trim() {
        "" => {
            return Err(ApiError::invalid(
                "reason",
                "say why the payment is refunded",
            ));
        }
        given => {
            bounded_text(given, "the reason", 500).map_err(|e| ApiError::invalid("reason", e))?
        }
    };
    let target = target.ok_or_else(|| ApiError::invalid("target", "name the payment"))?;
    let before = resolve(ledger, &target).await?;
    let amount = match amount {
        None => None,
        Some(money) => {
            let currency = if money.currency.is_empty() {
                before.amount.currency().code().to_owned()
            } else {
                money.currency.clone()
            };
            if money.amount_cents <= 0 {
                return Err(ApiError::invalid(
                    "amount.amount_cents",
                    "the amount to refund must be more than 0",
                ));
            }
            let amount = crate::domain::Money::parse(money.amount_cents, &currency)
                .map_err(|e| ApiError::invalid("amount", e.to_string()))?;
            Some(amount)
        }
    };
    let ask = super::ledger::RefundAsk {
        amount,
        reason: reason.clone(),
        basis: super::refunds::basis(state, &before).await?,
    };
    let payment_id = before.id.to_string();
    let attempt = audit::Attempt {
        admin_id,
        request_id: request_id.uuid(),
        action: "payment.refund",
        target: ("payment", &payment_id),
    };
    let done = ledger.refund(admin_id, before.id, &ask, request_id);
    audited(ledger, &attempt, &reason, &before, done).await
}

/// Runs `act`, an admin's step on the payment `before` that calls the gateway, between a
/// pending audit entry and its settlement (the payment after, or why it failed).
async fn audited(
    ledger: &Ledger,
    attempt: &audit::Attempt<'_>,
    reason: &str,
    before: &Payment,
    act: impl Future<Output = Result<Payment, LedgerError>>,
) -> ApiResult<Payment> {
    audit::record_pending(ledger.db(), attempt, reason, &audit_view(before)).await?;
    let done = act.await;
    if let Err(LedgerError::InProgress) = done {
        // Another call under the same request_id is under way: it settles the entry.
        return Err(LedgerError::InProgress.into());
    }
    // A retry settles the entry again with the same answer, which the ledger replays.
    match done.map_err(ApiError::from) {
        Ok(payment) => {
            let after = audit_view(&payment);
            audit::settle(ledger.db(), attempt, audit::Settled::Succeeded(&after)).await?;
            Ok(payment)
        }
        Err(error) => {
            let failure = error.summary();
            audit::settle(ledger.db(), attempt, audit::Settled::Failed(&failure)).await?;
            Err(error)
        }
    }
}
