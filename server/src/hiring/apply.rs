//! A hire payment's effect: its state applied to the order and the request (the hire itself
//! once the card is authorised), and the hold released or the claim removed when the hire
//! cannot stand. Shared by the hire, its end (complete, cancel) and the housekeeping pass.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::{
    alerts::{self, Alerting},
    billing::{Ledger, LedgerError, Payment, PaymentState, Purpose, Step},
    domain::{RepairRequestState, RequestChange},
    error::{ApiError, ApiResult, ErrorReason, not_found},
    outbox::{self, NewOutboxMessage},
    providers::payments::IdempotencyKey,
    requests,
    state::AppState,
    store::{
        accounts::{self as account_store, AccountKind},
        orders::{self, OrderRecord},
        professionals,
        quotes::{self},
        repair_requests::{self},
    },
};

use super::{notice, receipts};

pub fn ledger(state: &AppState) -> Ledger {
    Ledger::new(state.db.clone(), state.payments.clone())
}

/// The key of a step the server takes on an order's payment by itself (capture on
/// completion, release on a cancel or a lost race): derived from the order, so a retried
/// completion or cancel never captures or releases twice.
pub(super) fn derived_key(order_id: Uuid, step: &str) -> IdempotencyKey {
    IdempotencyKey::new(Uuid::new_v5(&order_id, step.as_bytes()))
}

/// After the card was authorised but the hire could not be written (the database failed
/// meanwhile): unless the order did get its payment, the hold is released and the claim
/// removed, so no hold is left that no order holds and the request is not left claimed.
/// What cannot be done now (the database is still down) the housekeeping pass does later
/// ([`reconcile`]).
pub(super) async fn unclaim(state: &AppState, order: &OrderRecord, payment: &Payment) {
    let attached = match orders::get(&state.db, order.id).await {
        Ok(now) => now.is_some_and(|now| now.payment_id.is_some()),
        Err(error) => {
            tracing::warn!(%error, order = %order.id, "hire not written; the housekeeping pass will release its hold");
            return;
        }
    };
    if attached {
        return;
    }
    if let Err(error) = release(state, order, payment).await {
        tracing::warn!(error = %error, order = %order.id, "hire not written; the housekeeping pass will release its hold");
        return;
    }
    if let Err(error) = orders::delete_claim(&state.db, order.id).await {
        tracing::warn!(%error, order = %order.id, "could not remove a claim whose hold was released");
    }
}

/// Brings a hire payment's order and request in line with the payment, after ConfirmPayment,
/// Stripe's webhook, an admin's step or the sweeper, and tells a hired order's parties what
/// the payment came to (once). Payments of other purposes are left alone.
pub async fn settle(state: &AppState, payment: &Payment) -> ApiResult<()> {
    if payment.purpose != Purpose::Hire {
        return Ok(());
    }
    match orders::find_by_payment(&state.db, payment.id).await? {
        Some(order) => apply(state, order.id, payment).await.map(drop),
        None => Ok(()),
    }
}

/// What applying a payment to its order came to.
enum Applied {
    Done,
    /// The request (or its professional) stopped being hireable meanwhile: the hold must be
    /// released, and the caller told why.
    Lost(ApiError),
}

/// Applies the payment's state to order `order_id` and its request, in one transaction
/// under the request's lock. A hold that arrives for a request no longer hireable is
/// released and the hire refused (REPAIR_REQUEST_NOT_OPEN).
pub(super) async fn apply(
    state: &AppState,
    order_id: Uuid,
    payment: &Payment,
) -> ApiResult<OrderRecord> {
    let now = Utc::now();
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let order = orders::get(&mut *tx, order_id)
        .await?
        .ok_or_else(|| not_found("order"))?;
    let request_state = quotes::lock_request_state(&mut tx, order.repair_request_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    orders::attach_payment(&mut tx, order.id, payment.id).await?;
    let settled = order.hired_at.is_some() || order.closed_at.is_some();
    let applied = match payment.state {
        // Hired already: only what its payment came to is left to tell.
        _ if settled => {
            receipts::tell(&mut tx, state, order.id).await?;
            Applied::Done
        }
        // A disputed or charged back payment was captured first: hired already, above.
        PaymentState::Authorized
        | PaymentState::Captured
        | PaymentState::Disputed
        | PaymentState::ChargedBack => hire_on(&mut tx, state, &order, request_state, now).await?,
        PaymentState::RequiresAction => match request_state {
            RepairRequestState::Open => {
                let change = RequestChange::AwaitPayment;
                repair_requests::move_state(&mut tx, order.repair_request_id, change).await?;
                Applied::Done
            }
            RepairRequestState::PendingPayment | RepairRequestState::Hired => Applied::Done,
            _ => Applied::Lost(requests::not_open()),
        },
        PaymentState::Failed
        | PaymentState::Canceled
        | PaymentState::Expired
        | PaymentState::Refunded => {
            orders::close(&mut *tx, order.id, now).await?;
            let change = RequestChange::Reopen;
            repair_requests::move_state(&mut tx, order.repair_request_id, change).await?;
            Applied::Done
        }
    };
    if let Applied::Lost(_) = applied {
        orders::close(&mut *tx, order.id, now).await?;
    }
    let after = orders::get(&mut *tx, order.id)
        .await?
        .ok_or_else(|| not_found("order"))?;
    tx.commit().await?;
    state.outbox.wake();
    if let Applied::Lost(why) = applied {
        release(state, &order, payment).await?;
        return Err(why);
    }
    Ok(after)
}

/// The hire itself, once the card is authorised: request and quote HIRED, the other
/// submitted quotes NOT_SELECTED, everyone concerned told (the customer of the hold on
/// their card).
async fn hire_on(
    tx: &mut sqlx::PgConnection,
    state: &AppState,
    order: &OrderRecord,
    request_state: RepairRequestState,
    now: DateTime<Utc>,
) -> ApiResult<Applied> {
    if !professionals::lock_hireable(tx, order.professional_id).await? {
        return Ok(Applied::Lost(professional_unavailable()));
    }
    if !RequestChange::Hire.may_start_from(request_state)
        || !quotes::hire(tx, order.quote_id, now).await?
    {
        return Ok(Applied::Lost(requests::not_open()));
    }
    repair_requests::hire(
        tx,
        order.repair_request_id,
        order.quote_id,
        order.professional_id,
    )
    .await?;
    orders::mark_hired(tx, order.id, now).await?;
    let hire = quotes::SetAside {
        quote_id: order.quote_id,
        order_id: order.id,
    };
    let lost = quotes::close_submitted(tx, order.repair_request_id, Some(hire), now).await?;
    let mut told: Vec<NewOutboxMessage> = lost.iter().map(notice::not_selected).collect();
    if let Some(first) = lost.first() {
        let quoted: Vec<Uuid> = lost.iter().map(|q| q.professional_id).collect();
        let link = state.config.links().professional_jobs();
        let (request, service) = (order.repair_request_id, &first.service_name);
        let alerts = alerts::request_closed(&mut *tx, request, &quoted, service, false, &link);
        told.extend(alerts.await?);
    }
    if request_state != RepairRequestState::Hired {
        told.extend(hired_notice(tx, state, order).await?);
    }
    outbox::enqueue_many(&mut *tx, &told).await?;
    receipts::tell(tx, state, order.id).await?;
    Ok(Applied::Done)
}

/// The email (and text, when asked for) telling the hired professional where the job is and
/// how to reach the customer, read through the hire's transaction `tx`, and a push to each device they asked to be
/// alerted on.
async fn hired_notice(
    tx: &mut sqlx::PgConnection,
    state: &AppState,
    order: &OrderRecord,
) -> ApiResult<Vec<NewOutboxMessage>> {
    let request = repair_requests::get(&mut *tx, order.repair_request_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    let pro = account_store::contact(&mut *tx, AccountKind::Professional, order.professional_id)
        .await?
        .ok_or_else(|| not_found("professional"))?;
    let customer = account_store::contact(&mut *tx, AccountKind::Customer, order.customer_id)
        .await?
        .ok_or_else(|| not_found("account"))?;
    let link = state.config.links().professional_jobs();
    let mut messages = notice::hired(&pro, &customer, &request, &link);
    let tag = format!("hire:{}", order.id);
    let professional_id = [order.professional_id];
    let to = Alerting::new(AccountKind::Professional, &professional_id, &link, &tag).urgent(true);
    messages.extend(
        alerts::to_devices(&mut *tx, to, |_, language| {
            Some(notice::hired_alert(&customer, &request, language))
        })
        .await?,
    );
    Ok(messages)
}

/// Releases the order's hold (a lost race, a cancel), once: a payment no longer held is
/// left as it is.
pub(super) async fn release(
    state: &AppState,
    order: &OrderRecord,
    payment: &Payment,
) -> ApiResult<()> {
    if !matches!(
        payment.state,
        PaymentState::Authorized | PaymentState::RequiresAction
    ) {
        return Ok(());
    }
    match ledger(state)
        .step(
            order.customer_id,
            payment.id,
            Step::Void,
            derived_key(order.id, "void"),
        )
        .await
    {
        Ok(_) | Err(LedgerError::State(_) | LedgerError::AuthorizationExpired) => Ok(()),
        Err(other) => Err(other.into()),
    }
}

pub(super) fn professional_unavailable() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::ProfessionalUnavailable,
        message: "this professional can no longer take jobs here; choose another quote".to_owned(),
    }
}
