//! Hiring: the customer chooses a quote, the quote's fee is authorised on their card (a
//! hold), and the request becomes hired; marking the job done captures the hold; cancelling
//! a hired job releases it; the sweeper ([`sweep`]) warns before a hold lapses.
//!
//! Who wins a race. A hire first claims its request: with the request row locked it checks
//! the request is open and the quote submitted, and inserts the request's live order with
//! no payment yet (`orders_one_live_idx` allows one). Only then is the card authorised, so
//! the loser of two racing hires is refused (REPAIR_REQUEST_NOT_OPEN) before anything is
//! authorised for it. A request that stopped being hireable while the card was being
//! authorised (cancelled, expired, the quote withdrawn) gets the hold released at once.
//!
//! Replays. The customer's `request_id` keys both the order and the ledger's attempt: the
//! same key answers the same order (another quote under it is REQUEST_ID_REUSED). A new key
//! on a quote whose hold is live answers the existing order: one hold per quote. A claim
//! whose card was refused is removed, so the customer can try another card.
//!
//! States (request / order's payment): an AUTHORIZED payment hires (OPEN or PENDING_PAYMENT
//! -> HIRED, the quote HIRED, the other submitted quotes NOT_SELECTED and told, the hired
//! professional told); REQUIRES_ACTION leaves the request PENDING_PAYMENT until
//! ConfirmPayment or Stripe's webhook settles it ([`settle`]); FAILED or CANCELED before the
//! hire closes the order and reopens the request with its quotes intact. After a hold lapsed
//! (EXPIRED) or an admin released it (CANCELED) on a HIRED request, a new hire of the hired
//! quote authorises it again as a new order.

mod finish;
mod notice;
mod orders_of;
pub mod reconcile;
pub mod sweep;

pub use finish::{cancel, complete};
pub use orders_of::{list_orders, order_with_payment};

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::{
    billing::{
        Ledger, LedgerError, Payment, PaymentState, Purpose, StartPayment, Step, Timing, ledger,
    },
    domain::{Cents, Currency, Money, QuoteState, RepairRequestState, RequestChange},
    error::{ApiError, ApiResult, ErrorReason, not_found, parse_id},
    outbox::{self, NewOutboxMessage},
    providers::payments::{IdempotencyKey, PaymentMethodRef},
    requests,
    state::AppState,
    store::{
        accounts::{self as account_store, AccountKind},
        orders::{self, NewClaim, OrderRecord},
        professionals,
        quotes::{self, QuoteRow},
        repair_requests::{self},
    },
};

/// A claim older than this whose card answer was never recorded was left by a process that
/// stopped mid-call; it is resumed before another hire may take its place.
const ABANDONED_AFTER_SECS: i64 = reconcile::UNFINISHED_AFTER_SECS;

pub fn ledger(state: &AppState) -> Ledger {
    Ledger::new(state.db.clone(), state.payments.clone())
}

/// The key of a step the server takes on an order's payment by itself (capture on
/// completion, release on a cancel or a lost race): derived from the order, so a retried
/// completion or cancel never captures or releases twice.
fn derived_key(order_id: Uuid, step: &str) -> IdempotencyKey {
    IdempotencyKey::new(Uuid::new_v5(&order_id, step.as_bytes()))
}

/// What the hire page shows before the card is taken.
#[derive(Debug, Clone)]
pub struct Preview {
    pub quote: QuoteRow,
    pub fee: Money,
    pub amount_payable: Money,
}

/// The customer's quote, or NOT_FOUND for anyone else's.
async fn own_quote(state: &AppState, customer_id: Uuid, raw_id: &str) -> ApiResult<QuoteRow> {
    let id = parse_id("application_id", raw_id)?;
    quotes::get(&state.db, id)
        .await?
        .filter(|quote| quote.customer_id == customer_id)
        .ok_or_else(|| not_found("quote"))
}

/// The booking summary of a quote: its fee is what the hire authorises.
pub async fn preview(state: &AppState, customer_id: Uuid, quote_id: &str) -> ApiResult<Preview> {
    let quote = own_quote(state, customer_id, quote_id).await?;
    let fee = quote.fee();
    Ok(Preview {
        quote,
        fee,
        amount_payable: fee,
    })
}

/// What the customer sends to hire.
#[derive(Debug, Clone, Copy)]
pub struct HireForm<'a> {
    pub quote_id: &'a str,
    pub payment_method: &'a str,
    pub request_id: &'a str,
}

/// Hires the professional of a quote (see the module's comment for the rules).
pub async fn hire(
    state: &AppState,
    customer_id: Uuid,
    form: HireForm<'_>,
) -> ApiResult<OrderRecord> {
    let request_id = IdempotencyKey::parse(form.request_id)?;
    let payment_method = PaymentMethodRef::parse(form.payment_method)?;
    let quote = own_quote(state, customer_id, form.quote_id).await?;
    let order = match orders::find_by_key(&state.db, customer_id, request_id.uuid()).await? {
        Some(order) if order.quote_id != quote.id => {
            return Err(LedgerError::RequestIdReused.into());
        }
        Some(order) if order.payment_id.is_some() => return Ok(order),
        Some(order) if !abandoned(&order, Utc::now()) => {
            return Err(LedgerError::InProgress.into());
        }
        // Left by a process that stopped mid-call: the ledger resumes its attempt.
        Some(order) => order,
        None => match claim(state, &quote, customer_id, request_id, &payment_method).await? {
            Claim::New(order) => order,
            Claim::Existing(order) => return Ok(order),
            // Resumed under its own key first: if it held the card, the quote is hired on
            // that hold and this hire answers it; otherwise this one claims afresh.
            Claim::Unfinished(other) => {
                if reconcile::resume(state, &other).await? == reconcile::Resumed::Busy {
                    return Err(LedgerError::InProgress.into());
                }
                match claim(state, &quote, customer_id, request_id, &payment_method).await? {
                    Claim::New(order) => order,
                    Claim::Existing(order) => return Ok(order),
                    Claim::Unfinished(_) => return Err(LedgerError::InProgress.into()),
                }
            }
        },
    };
    authorize(state, order, payment_method, request_id).await
}

fn abandoned(order: &OrderRecord, now: DateTime<Utc>) -> bool {
    order.payment_id.is_none()
        && now - order.created_at > chrono::Duration::seconds(ABANDONED_AFTER_SECS)
}

enum Claim {
    New(OrderRecord),
    /// The quote's hold is live already: its order.
    Existing(OrderRecord),
    /// Another hire's claim on the request was cut short: to resume before claiming.
    Unfinished(OrderRecord),
}

/// Claims the request for `quote` (see the module's comment), or says why not.
async fn claim(
    state: &AppState,
    quote: &QuoteRow,
    customer_id: Uuid,
    request_id: IdempotencyKey,
    payment_method: &PaymentMethodRef,
) -> ApiResult<Claim> {
    let now = Utc::now();
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let request_state = quotes::lock_request_state(&mut tx, quote.repair_request_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    if !professionals::lock_hireable(&mut tx, quote.professional_id).await? {
        return Err(professional_unavailable());
    }
    if let Some(live) = orders::lock_live(&mut tx, quote.repair_request_id).await? {
        let payment = match live.payment_id {
            Some(id) => Some(ledger::find_in(&mut *tx, id).await?.state),
            None => None,
        };
        let same_quote = live.quote_id == quote.id;
        match payment {
            Some(
                PaymentState::RequiresAction | PaymentState::Authorized | PaymentState::Captured,
            ) if same_quote => {
                return Ok(Claim::Existing(live));
            }
            None if abandoned(&live, now) => return Ok(Claim::Unfinished(live)),
            None if same_quote => return Err(LedgerError::InProgress.into()),
            // A lapsed or released hold on the hired quote: it may be authorised again.
            Some(PaymentState::Expired | PaymentState::Canceled)
                if same_quote && request_state == RepairRequestState::Hired =>
            {
                orders::close(&mut *tx, live.id, now).await?;
            }
            _ => return Err(requests::not_open()),
        }
    }
    match (request_state, quote.state()) {
        (RepairRequestState::Open, QuoteState::Submitted)
        | (RepairRequestState::Hired, QuoteState::Hired) => {}
        (RepairRequestState::Open, _) => {
            return Err(ApiError::FailedPrecondition {
                reason: ErrorReason::QuoteNotSubmitted,
                message: "this quote was withdrawn or closed; choose another one".to_owned(),
            });
        }
        _ => return Err(requests::not_open()),
    }
    let claimed = orders::insert_claim(
        &mut tx,
        &NewClaim {
            repair_request_id: quote.repair_request_id,
            quote_id: quote.id,
            customer_id,
            professional_id: quote.professional_id,
            request_id: request_id.uuid(),
            amount_cents: quote.fee_cents,
            currency: quote.currency.clone(),
            payment_method: payment_method.keepable().map(str::to_owned),
        },
        now,
    )
    .await?;
    let Some(order) = claimed else {
        // The key was used a moment ago on another request (the request's own row is locked).
        drop(tx);
        return Err(
            match orders::find_by_key(&state.db, customer_id, request_id.uuid()).await? {
                Some(other) if other.quote_id == quote.id => LedgerError::InProgress,
                _ => LedgerError::RequestIdReused,
            }
            .into(),
        );
    };
    tx.commit().await?;
    Ok(Claim::New(order))
}

/// Authorises the claimed order's amount and applies the answer. A refused card removes the
/// claim, so the request stays open for another try.
async fn authorize(
    state: &AppState,
    order: OrderRecord,
    payment_method: PaymentMethodRef,
    request_id: IdempotencyKey,
) -> ApiResult<OrderRecord> {
    let amount = Money::parse(order.amount_cents, &order.currency)
        .unwrap_or_else(|_| Money::new(Cents::ZERO, Currency::Cad));
    let started = ledger(state)
        .start(&StartPayment {
            purpose: Purpose::Hire,
            payer_id: order.customer_id,
            amount,
            payment_method,
            timing: Timing::Hold,
            request_id,
        })
        .await;
    match started {
        Ok(payment) => match apply(state, order.id, &payment).await {
            Ok(hired) => Ok(hired),
            Err(error) => {
                unclaim(state, &order, &payment).await;
                Err(error)
            }
        },
        // Another call holds the same attempt: leave the claim to it.
        Err(error @ LedgerError::InProgress) => Err(error.into()),
        Err(error) => {
            orders::delete_claim(&state.db, order.id).await?;
            Err(error.into())
        }
    }
}

/// After the card was authorised but the hire could not be written (the database failed
/// meanwhile): unless the order did get its payment, the hold is released and the claim
/// removed, so no hold is left that no order holds and the request is not left claimed.
/// What cannot be done now (the database is still down) the housekeeping pass does later
/// ([`reconcile`]).
async fn unclaim(state: &AppState, order: &OrderRecord, payment: &Payment) {
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
/// Stripe's webhook or an admin's step. Payments of other purposes are left alone.
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
async fn apply(state: &AppState, order_id: Uuid, payment: &Payment) -> ApiResult<OrderRecord> {
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
        _ if settled => Applied::Done,
        PaymentState::Authorized | PaymentState::Captured => {
            hire_on(&mut tx, state, &order, request_state, now).await?
        }
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
/// submitted quotes NOT_SELECTED, everyone concerned told.
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
    let lost =
        quotes::close_submitted(tx, order.repair_request_id, Some(order.quote_id), now).await?;
    let mut told: Vec<NewOutboxMessage> = lost.iter().map(notice::not_selected).collect();
    if request_state != RepairRequestState::Hired {
        told.push(hired_notice(tx, state, order).await?);
    }
    outbox::enqueue_many(&mut *tx, &told).await?;
    Ok(Applied::Done)
}

/// The email telling the hired professional where the job is and how to reach the customer,
/// read through the hire's transaction `tx`.
async fn hired_notice(
    tx: &mut sqlx::PgConnection,
    state: &AppState,
    order: &OrderRecord,
) -> ApiResult<NewOutboxMessage> {
    let request = repair_requests::get(&mut *tx, order.repair_request_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    let pro = account_store::contact(&mut *tx, AccountKind::Professional, order.professional_id)
        .await?
        .ok_or_else(|| not_found("professional"))?;
    let customer = account_store::contact(&mut *tx, AccountKind::Customer, order.customer_id)
        .await?
        .ok_or_else(|| not_found("account"))?;
    let link = format!(
        "{}/professional-active-requests",
        state.config.public_url.trim_end_matches('/')
    );
    Ok(notice::hired(&pro, &customer, &request, &link))
}

/// Releases the order's hold (a lost race, a cancel), once: a payment no longer held is
/// left as it is.
async fn release(state: &AppState, order: &OrderRecord, payment: &Payment) -> ApiResult<()> {
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

fn professional_unavailable() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::ProfessionalUnavailable,
        message: "this professional can no longer take jobs here; choose another quote".to_owned(),
    }
}
