//! Quotes on a request (`/api/applications`). Who may read them is the server's to decide:
//! the request's customer (or an admin) lists them; the customer or the quoting
//! professional reads one; anyone else gets 404.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query};
use axum::response::Response;
use axum::routing;
use repairs_proto::marketplace as pb;
use serde::Deserialize;
use serde_json::json;

use super::catalogue::Catalogue;
use super::error::{ApiError, Reply};
use super::paging::{self, PAGE_SIZE};
use super::rpc::Rpc;
use super::shapes::{LegacyApplication, LegacyRequest};
use super::table::{Call, Translation, get};

const REQUEST_APPLICATIONS: Call = get(
    "/api/applications/request-applications/{requestId}",
    "MarketplaceService.ListRepairRequestQuotes",
);
const VIEW_APPLICATION: Call = get(
    "/api/applications/view-application/{id}",
    "MarketplaceService.GetQuote",
);

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[REQUEST_APPLICATIONS, VIEW_APPLICATION];

pub fn translations() -> Vec<Translation> {
    vec![
        (REQUEST_APPLICATIONS, routing::get(request_applications)),
        (VIEW_APPLICATION, routing::get(view_application)),
    ]
}

#[derive(Debug, Default, Deserialize)]
struct ListQuery {
    #[serde(default)]
    page_token: String,
}

/// `GET /api/applications/request-applications/{requestId}` -> GetRepairRequest and
/// ListRepairRequestQuotes: the quotes, oldest first, each with `professionaldetails` (name
/// and reviews in short) and `requestdetails`.
async fn request_applications(
    rpc: Rpc,
    Path(request_id): Path<String>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let ListQuery { page_token } = paging::query(query)?;
    let request = rpc
        .marketplace()
        .get_repair_request(rpc.request(pb::GetRepairRequestRequest {
            id: request_id.clone(),
        }))
        .await?
        .into_inner()
        .repair_request
        .unwrap_or_default();
    let (quotes, next) = paging::collect(page_token, |page_token| {
        let call = rpc.request(pb::ListRepairRequestQuotesRequest {
            repair_request_id: request_id.clone(),
            page_size: PAGE_SIZE,
            page_token,
        });
        let mut client = rpc.marketplace();
        async move {
            let page = client.list_repair_request_quotes(call).await?.into_inner();
            Ok((page.quotes, page.next_page_token))
        }
    })
    .await?;
    let details = LegacyRequest::new(&request, &Catalogue::load(&rpc).await?);
    let records: Vec<LegacyApplication> = quotes
        .iter()
        .map(|quote| LegacyApplication {
            requestdetails: Some(details.clone()),
            ..LegacyApplication::new(quote)
        })
        .collect();
    Ok(paging::reply((records, next)))
}

/// `GET /api/applications/view-application/{id}` -> GetQuote: a list of the one quote with
/// `appdetails` (its request, the street only for its customer) and `professionaldetails`.
async fn view_application(rpc: Rpc, Path(id): Path<String>) -> Reply {
    let answer = rpc
        .marketplace()
        .get_quote(rpc.request(pb::GetQuoteRequest { id }))
        .await?
        .into_inner();
    let request = answer.repair_request.unwrap_or_default();
    let record = LegacyApplication {
        appdetails: Some(LegacyRequest::new(&request, &Catalogue::load(&rpc).await?)),
        ..LegacyApplication::new(&answer.quote.unwrap_or_default())
    };
    Ok(Json(json!([record])))
}
