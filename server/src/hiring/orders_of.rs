//! Orders as their parties and the admins list them, each with its payment.

use super::apply::ledger;
use crate::{
    auth::access::{self, Whose},
    billing::Payment,
    error::{ApiResult, not_found},
    state::AppState,
    store::orders::{self, OrderRecord},
};

/// A page of orders with their payments, newest first: the customer's or the
/// professional's own (NOT_FOUND for anyone else's), or every order for an admin.
pub async fn list_orders(
    state: &AppState,
    caller: &crate::auth::Caller,
    whose: Whose,
    page: &crate::store::page::PageRequest,
) -> ApiResult<(Vec<(orders::OrderView, Payment)>, String)> {
    access::may_list_orders(caller, whose)?;
    orders_of(state, whose, page).await
}

/// Orders for a service account's report: every order, or one party's, with the scope
/// `orders.read` (`access::service_may`).
pub async fn list_orders_for_service(
    state: &AppState,
    service: &crate::auth::service::ServiceCaller,
    whose: Whose,
    page: &crate::store::page::PageRequest,
) -> ApiResult<(Vec<(orders::OrderView, Payment)>, String)> {
    access::service_may(service, crate::auth::service::Scope::OrdersRead)?;
    orders_of(state, whose, page).await
}

async fn orders_of(
    state: &AppState,
    whose: Whose,
    page: &crate::store::page::PageRequest,
) -> ApiResult<(Vec<(orders::OrderView, Payment)>, String)> {
    let party = match whose {
        Whose::Customer(id) => orders::Party {
            customer_id: Some(id),
            professional_id: None,
        },
        Whose::Professional(id) => orders::Party {
            customer_id: None,
            professional_id: Some(id),
        },
        Whose::All => orders::Party::default(),
    };
    let rows = orders::list(&state.db, party, page).await?;
    let (rows, next_page_token) = page.finish(rows, |row| (row.order.created_at, row.order.id));
    let ledger = ledger(state);
    let mut listed = Vec::with_capacity(rows.len());
    for row in rows {
        // The list holds only orders with a payment.
        let Some(payment_id) = row.order.payment_id else {
            continue;
        };
        let payment = ledger.find(payment_id).await?;
        listed.push((row, payment));
    }
    Ok((listed, next_page_token))
}

/// One order with its payment, for the reply to a hire.
pub async fn order_with_payment(
    state: &AppState,
    order: &OrderRecord,
) -> ApiResult<(orders::OrderView, Option<Payment>)> {
    let view = orders::view(&state.db, order.id)
        .await?
        .ok_or_else(|| not_found("order"))?;
    let payment = match order.payment_id {
        Some(id) => Some(ledger(state).find(id).await?),
        None => None,
    };
    Ok((view, payment))
}
