//! Order histories (`/api/orders`): one legacy order per hire payment, newest first. Each
//! id is checked by the server (a customer or professional reads only their own; the whole
//! list is an admin's).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query};
use axum::response::Response;
use axum::routing;
use repairs_proto::billing::{self as pb, list_orders_request::Party};
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::paging::{self, PAGE_SIZE};
use super::rpc::Rpc;
use super::table::{Call, Handler, Translation, get};

const USER: Call = get(
    "/api/orders/user-orders/{userId}",
    "BillingService.ListOrders",
);
const PROFESSIONAL: Call = get(
    "/api/orders/professional-orders/{professionalId}",
    "BillingService.ListOrders",
);
const ALL: Call = get("/api/orders/view-orders/", "BillingService.ListOrders");

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[USER, PROFESSIONAL, ALL];

pub fn translations() -> Vec<Translation> {
    vec![
        (USER, party_list(Party::CustomerId)),
        (PROFESSIONAL, party_list(Party::ProfessionalId)),
        (
            ALL,
            routing::get(|rpc: Rpc, query| orders(rpc, None, query)),
        ),
    ]
}

fn party_list(party: fn(String) -> Party) -> Handler {
    routing::get(move |rpc: Rpc, Path(id): Path<String>, query| orders(rpc, Some(party(id)), query))
}

#[derive(Debug, Default, Deserialize)]
struct ListQuery {
    #[serde(default)]
    page_token: String,
}

/// A party of an order as the old history tables show it.
#[derive(Debug, Serialize)]
struct LegacyParty {
    #[serde(rename = "_id")]
    id: String,
    name: String,
}

/// The quote hired, as the old `applicationdetails`.
#[derive(Debug, Serialize)]
struct LegacyApplication {
    #[serde(rename = "_id")]
    id: String,
    /// Hours, as the old form asked.
    time_of_service: f64,
    /// The repair request.
    request_applied: String,
}

/// The old order record: amount in cents (what was held or charged: the quote's total, sales
/// taxes included), the charge and its validity in epoch seconds,
/// and `captured` for the admin's 'Capture' / 'Captured Already'.
#[derive(Debug, Serialize)]
struct LegacyOrder {
    #[serde(rename = "_id")]
    id: String,
    amount: i64,
    currency: String,
    charge_id: String,
    charge_validity: Option<i64>,
    /// The payment's state in lower case: authorized, captured, expired, ...
    status: String,
    captured: bool,
    userdetails: LegacyParty,
    professionaldetails: LegacyParty,
    applicationdetails: LegacyApplication,
}

impl LegacyOrder {
    fn new(order: pb::Order) -> Self {
        let payment = order.payment.unwrap_or_default();
        let amount = payment.amount.clone().unwrap_or_default();
        let status = payment.state().as_str_name();
        Self {
            id: order.id,
            amount: amount.amount_cents,
            currency: amount.currency,
            captured: payment.state() == pb::PaymentState::Captured,
            status: status
                .trim_start_matches("PAYMENT_STATE_")
                .to_ascii_lowercase(),
            charge_validity: payment.authorization_expire_time.map(|t| t.seconds),
            charge_id: payment.charge_id,
            userdetails: LegacyParty {
                id: order.customer_id,
                name: order.customer_name,
            },
            professionaldetails: LegacyParty {
                id: order.professional_id,
                name: order.professional_name,
            },
            applicationdetails: LegacyApplication {
                id: order.quote_id,
                time_of_service: f64::from(order.estimated_minutes) / 60.0,
                request_applied: order.repair_request_id,
            },
        }
    }
}

/// `GET /api/orders/...` -> ListOrders of the party (or all, for an admin) -> array of
/// legacy orders, following the server's pages (see [`paging`]).
async fn orders(
    rpc: Rpc,
    party: Option<Party>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let ListQuery { page_token } = paging::query(query)?;
    let (orders, next) = paging::collect(page_token, |page_token| {
        let request = rpc.request(pb::ListOrdersRequest {
            party: party.clone(),
            page_size: PAGE_SIZE,
            page_token,
        });
        let mut client = rpc.billing();
        async move {
            let page = client.list_orders(request).await?.into_inner();
            Ok((page.orders, page.next_page_token))
        }
    })
    .await?;
    Ok(paging::reply((
        orders.into_iter().map(LegacyOrder::new).collect::<Vec<_>>(),
        next,
    )))
}
