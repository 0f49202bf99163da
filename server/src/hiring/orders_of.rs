//! Orders as their parties and the admins list them, each with its payment.

use uuid::Uuid;

use super::ledger;
use crate::{
    accounts::not_found,
    billing::Payment,
    error::{ApiError, ApiResult, ErrorReason},
    state::AppState,
    store::orders::{self, OrderRecord},
};

/// Whose orders to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    Customer(Uuid),
    Professional(Uuid),
    All,
}

/// A page of orders with their payments, newest first: the customer's or the
/// professional's own (NOT_FOUND for anyone else's), or every order for an admin.
pub async fn list_orders(
    state: &AppState,
    caller: &crate::auth::Caller,
    whose: Whose,
    page: &crate::store::page::PageRequest,
) -> ApiResult<(Vec<(orders::OrderView, Payment)>, String)> {
    use crate::domain::Role;
    let admin = caller.role == Role::Admin;
    let party = match whose {
        Whose::Customer(id)
            if admin || (caller.role == Role::Customer && caller.account_id == id) =>
        {
            orders::Party {
                customer_id: Some(id),
                professional_id: None,
            }
        }
        Whose::Professional(id)
            if admin || (caller.role == Role::Professional && caller.account_id == id) =>
        {
            orders::Party {
                customer_id: None,
                professional_id: Some(id),
            }
        }
        Whose::All if admin => orders::Party::default(),
        Whose::All => {
            return Err(ApiError::PermissionDenied {
                reason: ErrorReason::AdminOnly,
                message: "only an admin can list every order".to_owned(),
            });
        }
        _ => return Err(not_found("account")),
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
