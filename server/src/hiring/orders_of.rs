//! Orders as their parties and the admins list them, each with its payment.

use serde_json::json;

use super::apply::ledger;
use crate::{
    auth::{
        access::{self, Whose},
        service::{Scope, ServiceCaller},
    },
    billing::Payment,
    error::{ApiResult, not_found},
    state::AppState,
    store::{
        audit::{self, Actor},
        orders::{self, OrderRecord},
    },
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

/// What a service account reads of the orders it lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disclosure {
    /// Ids, amounts, states, times and the job's city: `orders.read` alone.
    WithoutContacts,
    /// Also the parties' names and contacts and the street: `contacts.read` too, audited.
    WithContacts,
}

/// Orders for a service account's report: every order, or one party's, with the scope
/// `orders.read` (`access::service_may`); their contacts only with `contacts.read` too,
/// each such call written in the audit log under the service account.
pub async fn list_orders_for_service(
    state: &AppState,
    service: &ServiceCaller,
    whose: Whose,
    page: &crate::store::page::PageRequest,
) -> ApiResult<(Vec<(orders::OrderView, Payment)>, String, Disclosure)> {
    access::service_may(service, Scope::OrdersRead)?;
    let (rows, next_page_token) = orders_of(state, whose, page).await?;
    if !service.scopes.contains(Scope::ContactsRead) {
        return Ok((rows, next_page_token, Disclosure::WithoutContacts));
    }
    let party = match whose {
        Whose::Customer(id) => format!("customer:{id}"),
        Whose::Professional(id) => format!("professional:{id}"),
        Whose::All => "all".to_owned(),
    };
    let read: Vec<String> = rows
        .iter()
        .map(|(row, _)| row.order.id.to_string())
        .collect();
    audit::record_change(
        &state.db,
        Actor::Service(service.account_id),
        "orders.contacts_read",
        ("orders", &party),
        None,
        Some(&json!({ "orders": read })),
    )
    .await?;
    Ok((rows, next_page_token, Disclosure::WithContacts))
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
