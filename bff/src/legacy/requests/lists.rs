//! The lists of requests: the customer's four, the admin's, the open requests a professional
//! may quote, and the professional's own (each request with their quote). Every list follows
//! the server's pages (see [`paging`]).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query};
use axum::response::Response;
use axum::routing;
use http::StatusCode;
use repairs_proto::marketplace as pb;
use repairs_proto::matching::ListOpenRequestsRequest;
use serde::Deserialize;

use crate::legacy::catalogue::Catalogue;
use crate::legacy::error::ApiError;
use crate::legacy::paging::{self, PAGE_SIZE, Page};
use crate::legacy::rpc::Rpc;
use crate::legacy::shapes::{
    LegacyApplication, LegacyQuotedRequest, LegacyRequest, request_state_from_status,
};
use crate::legacy::table::Handler;

/// The query string of the legacy lists: where to go on (see [`paging`]), and for the admin's
/// list a legacy status number and a service (name or id).
#[derive(Debug, Default, Deserialize)]
pub(super) struct ListQuery {
    #[serde(default)]
    page_token: String,
    #[serde(default)]
    status: String,
    #[serde(default, alias = "specialisation")]
    service: String,
}

/// One of the customer's lists, `GET /api/requests/<list>/{userId}` ->
/// ListCustomerRepairRequests in `view`, newest first. The customer themself or an admin.
pub(super) fn customer_list(view: pb::CustomerRepairRequestView) -> Handler {
    routing::get(move |rpc: Rpc, Path(customer_id): Path<String>, query| {
        customer_requests(rpc, customer_id, view, query)
    })
}

async fn customer_requests(
    rpc: Rpc,
    customer_id: String,
    view: pb::CustomerRepairRequestView,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let ListQuery { page_token, .. } = paging::query(query)?;
    let page = paging::collect(page_token, |page_token| {
        let request = rpc.request(pb::ListCustomerRepairRequestsRequest {
            customer_id: customer_id.clone(),
            view: view as i32,
            page_size: PAGE_SIZE,
            page_token,
        });
        let mut client = rpc.marketplace();
        async move {
            let page = client.list_customer_repair_requests(request).await?;
            let page = page.into_inner();
            Ok((page.repair_requests, page.next_page_token))
        }
    })
    .await?;
    records_reply(&rpc, page).await
}

/// `GET /api/requests` -> ListRepairRequests, newest first (admin). `?status=1..5` keeps one
/// legacy status, `?service=` (or `?specialisation=`) one service by name or id.
pub(super) async fn list_all(
    rpc: Rpc,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let query = paging::query(query)?;
    let state = match query.status.trim() {
        "" => pb::RepairRequestState::Unspecified,
        number => request_state_from_status(number).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "Unknown status: use 1 (open), 2 (hired), 3 (completed), 4 (cancelled) or 5 (expired)",
            )
        })?,
    };
    let service = query.service.trim();
    let service_id = match service {
        "" => String::new(),
        named => Catalogue::load(&rpc)
            .await?
            .id_of(named)
            .unwrap_or(named)
            .to_owned(),
    };
    let page = paging::collect(query.page_token, |page_token| {
        let request = rpc.request(pb::ListRepairRequestsRequest {
            page_size: PAGE_SIZE,
            page_token,
            state: state as i32,
            service_id: service_id.clone(),
        });
        let mut client = rpc.marketplace();
        async move {
            let page = client.list_repair_requests(request).await?.into_inner();
            Ok((page.repair_requests, page.next_page_token))
        }
    })
    .await?;
    records_reply(&rpc, page).await
}

/// A list of requests as the legacy array.
async fn records_reply(
    rpc: &Rpc,
    (requests, next): Page<pb::RepairRequest>,
) -> Result<Response, ApiError> {
    let catalogue = Catalogue::load(rpc).await?;
    let records: Vec<LegacyRequest> = requests
        .iter()
        .map(|request| LegacyRequest::new(request, &catalogue))
        .collect();
    Ok(paging::reply((records, next)))
}

/// `GET /api/requests/request-list/{professionalId}` -> ListOpenRequests: the open requests
/// matching the professional, nearest first, filtered by distance in the server's database,
/// each with `distance` (km), the approximate location and `applied`. The professional
/// themself, approved, with a verified phone and an active membership (409 with the reason
/// otherwise).
pub(super) async fn open_requests(
    rpc: Rpc,
    Path(professional_id): Path<String>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let ListQuery { page_token, .. } = paging::query(query)?;
    let (open, next) = paging::collect(page_token, |page_token| {
        let request = rpc.request(ListOpenRequestsRequest {
            professional_id: professional_id.clone(),
            page_size: PAGE_SIZE,
            page_token,
        });
        let mut client = rpc.matching();
        async move {
            let page = client.list_open_requests(request).await?.into_inner();
            Ok((page.repair_requests, page.next_page_token))
        }
    })
    .await?;
    let catalogue = Catalogue::load(&rpc).await?;
    let records: Vec<LegacyRequest> = open
        .into_iter()
        .map(|open| LegacyRequest {
            applied: Some(open.applied),
            ..LegacyRequest::new(&open.repair_request.unwrap_or_default(), &catalogue)
        })
        .collect();
    Ok(paging::reply((records, next)))
}

/// One of the professional's own lists -> ListProfessionalRepairRequests in `view`, newest
/// first: each request (the street only where they were hired) with their `application`.
pub(super) fn professional_list(view: pb::ProfessionalRepairRequestView) -> Handler {
    routing::get(
        move |rpc: Rpc, Path(professional_id): Path<String>, query| {
            professional_requests(rpc, professional_id, view, query)
        },
    )
}

/// The professional's own list in `view` at a path that names nobody
/// (`professional-active-requests`): the professional is the token's.
pub(super) fn own_professional_list(view: pb::ProfessionalRepairRequestView) -> Handler {
    routing::get(move |rpc: Rpc, query| {
        let own = rpc.token().unverified_subject().unwrap_or_default();
        professional_requests(rpc, own, view, query)
    })
}

async fn professional_requests(
    rpc: Rpc,
    professional_id: String,
    view: pb::ProfessionalRepairRequestView,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let ListQuery { page_token, .. } = paging::query(query)?;
    let (quoted, next) = paging::collect(page_token, |page_token| {
        let request = rpc.request(pb::ListProfessionalRepairRequestsRequest {
            professional_id: professional_id.clone(),
            view: view as i32,
            page_size: PAGE_SIZE,
            page_token,
        });
        let mut client = rpc.marketplace();
        async move {
            let page = client.list_professional_repair_requests(request).await?;
            let page = page.into_inner();
            Ok((page.repair_requests, page.next_page_token))
        }
    })
    .await?;
    let catalogue = Catalogue::load(&rpc).await?;
    let records: Vec<LegacyQuotedRequest> = quoted
        .iter()
        .map(|quoted| LegacyQuotedRequest {
            request: LegacyRequest::new(
                quoted
                    .repair_request
                    .as_ref()
                    .unwrap_or(&pb::RepairRequest::default()),
                &catalogue,
            ),
            application: LegacyApplication::new(
                quoted.quote.as_ref().unwrap_or(&pb::Quote::default()),
            ),
        })
        .collect();
    Ok(paging::reply((records, next)))
}
