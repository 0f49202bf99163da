//! The customer's hire: the booking summary, the claim on the request and the card's
//! authorisation (the rules are in the module's comment of [`super`]).

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::{
    billing::{
        LedgerError, PaymentState, Purpose, StartPayment, Timing, ledger,
        sale::{Sale, quote_sale},
    },
    domain::{QuoteState, RepairRequestState},
    error::{ApiError, ApiResult, ErrorReason, not_found, parse_id},
    providers::payments::{IdempotencyKey, PaymentMethodRef},
    requests,
    state::AppState,
    store::{
        hire_releases,
        orders::{self, NewClaim, OrderRecord},
        professionals,
        quotes::{self, QuoteRow},
    },
};

use super::{
    apply::{apply, ledger, professional_unavailable, unclaim},
    reconcile,
};

/// A claim older than this whose card answer was never recorded was left by a process that
/// stopped mid-call; it is resumed before another hire may take its place.
const ABANDONED_AFTER_SECS: i64 = reconcile::UNFINISHED_AFTER_SECS;

/// What the hire page shows before the card is taken: the quote, and its fee and taxes
/// (the sale whose total the hire holds).
#[derive(Debug, Clone)]
pub struct Preview {
    pub quote: QuoteRow,
    pub sale: Sale,
}

/// The customer's quote, or NOT_FOUND for anyone else's.
async fn own_quote(state: &AppState, customer_id: Uuid, raw_id: &str) -> ApiResult<QuoteRow> {
    let id = parse_id("quote_id", raw_id)?;
    quotes::get(&state.db, id)
        .await?
        .filter(|quote| quote.customer_id == customer_id)
        .ok_or_else(|| not_found("quote"))
}

/// The booking summary of a quote: its total (the fee and the taxes fixed with the quote) is
/// what the hire authorises.
pub async fn preview(state: &AppState, customer_id: Uuid, quote_id: &str) -> ApiResult<Preview> {
    let quote = own_quote(state, customer_id, quote_id).await?;
    let sale = quote_sale(&quote);
    Ok(Preview { quote, sale })
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
    authorize(state, order, quote_sale(&quote), payment_method, request_id).await
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
        if hire_releases::of_order(&mut *tx, live.id).await?.is_some() {
            // Being released: the request reopens in a moment.
            return Err(requests::not_open());
        }
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
            // What the hold is for: the quote's fee and its taxes.
            amount_cents: quote_sale(quote).total().cents().get(),
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

/// Authorises the claimed order's quote, `sale` (its fee and taxes; the order's amount is
/// its total), and applies the answer. A refused card removes the claim, so the request
/// stays open for another try.
async fn authorize(
    state: &AppState,
    order: OrderRecord,
    sale: Sale,
    payment_method: PaymentMethodRef,
    request_id: IdempotencyKey,
) -> ApiResult<OrderRecord> {
    let started = ledger(state)
        .start(&StartPayment {
            purpose: Purpose::Hire,
            payer_id: order.customer_id,
            sale,
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
