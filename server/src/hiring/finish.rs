//! The end of a hired job: marking it done captures its hold; cancelling it releases the
//! hold first, and is refused once the money was taken (the ledger lets one of the two
//! through for a hold, never both).

use chrono::Utc;
use uuid::Uuid;

use super::{
    apply::{derived_key, ledger, release, settle},
    receipts,
};
use crate::{
    alerts,
    billing::{LedgerError, Payment, PaymentState, Step},
    domain::{RepairRequestState, RequestChange},
    error::{ApiError, ApiResult, ErrorReason, not_found},
    outbox::NewOutboxMessage,
    requests,
    state::AppState,
    store::{
        accounts::{self as account_store, AccountKind},
        hire_releases,
        orders::{self, OrderRecord},
        repair_requests::{self, RepairRequestRow},
    },
};

fn not_hired() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::RepairRequestNotHired,
        message: "only a request with a hired professional can be marked completed".to_owned(),
    }
}

/// The customer's request, or NOT_FOUND.
async fn own_request(state: &AppState, customer_id: Uuid, id: Uuid) -> ApiResult<RepairRequestRow> {
    repair_requests::get(&state.db, id)
        .await?
        .filter(|request| request.customer_id == customer_id)
        .ok_or_else(|| not_found("request"))
}

/// The live order of a hired request and its payment.
async fn held(state: &AppState, request_id: Uuid) -> ApiResult<Option<(OrderRecord, Payment)>> {
    let Some(order) = orders::live(&state.db, request_id).await? else {
        return Ok(None);
    };
    let Some(payment_id) = order.payment_id else {
        return Ok(None);
    };
    let payment = ledger(state).find(payment_id).await?;
    Ok(Some((order, payment)))
}

/// Marks a hired job done and captures its hold at once (HIRED -> COMPLETED). Completing a
/// completed request answers it unchanged. A capture that fails leaves the request HIRED
/// with the reason: a lapsed or released hold is AUTHORIZATION_EXPIRED or PAYMENT_STATE
/// (authorise the card again from the active request), a gateway outage UNAVAILABLE.
pub async fn complete(
    state: &AppState,
    customer_id: Uuid,
    id: Uuid,
) -> ApiResult<RepairRequestRow> {
    let request = own_request(state, customer_id, id).await?;
    match request.state() {
        RepairRequestState::Completed => return Ok(request),
        RepairRequestState::Hired => {}
        _ => return Err(not_hired()),
    }
    let (order, payment) = held(state, id).await?.ok_or_else(|| ApiError::FailedPrecondition {
        reason: ErrorReason::PaymentState,
        message: "the card hold of this job is not in place; authorise the card again from the active request".to_owned(),
    })?;
    if hire_releases::of_order(&state.db, order.id)
        .await?
        .is_some()
    {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::RepairRequestNotHired,
            message: "this hire was released, so the job cannot be marked done; hire again from your quotes".to_owned(),
        });
    }
    if payment.state != PaymentState::Captured {
        ledger(state)
            .step(customer_id, payment.id, Step::Capture, derived_key(order.id, "capture"))
            .await
            .map_err(|error| match error {
                LedgerError::State(_) => ApiError::FailedPrecondition {
                    reason: ErrorReason::PaymentState,
                    message: "the card hold of this job was released; authorise the card again from the active request".to_owned(),
                },
                LedgerError::AuthorizationExpired => ApiError::FailedPrecondition {
                    reason: ErrorReason::AuthorizationExpired,
                    message: "the card hold of this job lapsed; authorise the card again from the active request".to_owned(),
                },
                other => other.into(),
            })?;
    }
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    // The order first, so the request read back carries its completion time.
    orders::mark_completed(&mut tx, order.id, Utc::now()).await?;
    match repair_requests::complete(&mut *tx, id, customer_id).await? {
        Some(done) => {
            // The customer's receipt and the professional's share, unless an admin's
            // capture told them already.
            receipts::tell(&mut tx, state, order.id).await?;
            tx.commit().await?;
            state.outbox.wake();
            Ok(done)
        }
        // A concurrent completion committed first.
        None => {
            drop(tx);
            own_request(state, customer_id, id).await
        }
    }
}

/// Cancels the customer's request: an open one as [`requests::cancel`] does; a hired one
/// too, its hold released first and the hired professional told (the notice queued with the
/// state change, so it exists iff the request is cancelled).
pub async fn cancel(state: &AppState, customer_id: Uuid, id: Uuid) -> ApiResult<RepairRequestRow> {
    let mut request = own_request(state, customer_id, id).await?;
    if request.state() != RepairRequestState::Hired {
        let open = RequestChange::CancelOpen;
        match requests::cancel(state, customer_id, id, open, &[]).await {
            // Hired while the cancel was on its way: cancelled as a hired job, below.
            Err(refused) => {
                request = own_request(state, customer_id, id).await?;
                if request.state() != RepairRequestState::Hired {
                    return Err(refused);
                }
            }
            done => return done,
        }
    }
    if let Some((order, payment)) = held(state, id).await? {
        release_before_cancel(state, &order, &payment).await?;
    }
    let told = cancelled_notice(state, &request).await?;
    let hired = RequestChange::CancelHired;
    requests::cancel(state, customer_id, id, hired, told.as_slice()).await
}

/// Releases a hired job's hold before the job is cancelled, and tells the customer. The
/// ledger lets one of a completion's capture and a cancel's release through, never both, so
/// a job whose money was taken is never cancelled: that cancel is refused (a refund is an
/// admin's step). A hold that lapsed or was released already lets the cancel go on.
async fn release_before_cancel(
    state: &AppState,
    order: &OrderRecord,
    payment: &Payment,
) -> ApiResult<()> {
    release(state, order, payment).await?;
    let released = ledger(state).find(payment.id).await?;
    match released.state {
        PaymentState::Canceled
        | PaymentState::Expired
        | PaymentState::Failed
        | PaymentState::Refunded => settle(state, &released).await,
        PaymentState::Captured
        | PaymentState::Disputed
        | PaymentState::ChargedBack
        | PaymentState::Authorized
        | PaymentState::RequiresAction => {
            Err(ApiError::FailedPrecondition {
                reason: ErrorReason::JobAlreadyPaid,
                message: "this job was already paid for, so it can no longer be cancelled; contact us if you need a refund".to_owned(),
            })
        }
    }
}

/// The email telling the hired professional that the customer cancelled the job, and the
/// alerts on their devices.
async fn cancelled_notice(
    state: &AppState,
    request: &RepairRequestRow,
) -> ApiResult<Vec<NewOutboxMessage>> {
    let Some(professional_id) = request.hired_professional_id else {
        return Ok(Vec::new());
    };
    let Some(pro) =
        account_store::contact(&state.db, AccountKind::Professional, professional_id).await?
    else {
        return Ok(Vec::new());
    };
    let to = requests::notice::Recipient {
        email: &pro.email,
        name: &pro.name,
        language: pro.language,
    };
    let mut told = vec![requests::notice::cancelled(to, &request.service_name)];
    let link = state.config.links().professional_jobs();
    let (id, service) = (request.id, &request.service_name);
    told.extend(
        alerts::request_closed(&state.db, id, &[professional_id], service, true, &link).await?,
    );
    Ok(told)
}
