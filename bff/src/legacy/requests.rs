//! Repair requests, for customers, professionals and the admin (`/api/requests`).
//!
//! Records go out as [`LegacyRequest`] (legacy status numbers, 'Yes'/'No', English names).
//! Who may read or change which request is the server's to decide: an id in the path is
//! passed on as it is, and another customer's request answers 404 or 403, never its data.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query};
use axum::response::Response;
use axum::routing;
use http::StatusCode;
use repairs_proto::content::TranslateTextRequest;
use repairs_proto::marketplace as pb;
use repairs_proto::matching::ListOpenRequestsRequest;
use repairs_proto::types::{Address, Language};
use serde::Deserialize;
use serde_json::json;

use super::body::{LegacyJson, text};
use super::catalogue::Catalogue;
use super::error::{ApiError, Reply};
use super::keys;
use super::paging::{self, PAGE_SIZE, Page};
use super::rpc::Rpc;
use super::shapes::{
    LegacyApplication, LegacyQuotedRequest, LegacyRequest, cad, country_code, fee_cents,
    minutes_from_hours, province_code, request_state_from_status, urgency_from_text,
};
use super::table::{Call, Handler, Translation, get, post};

const PLACE: Call = post(
    "/api/requests/place",
    "MarketplaceService.CreateRepairRequest",
);
const PENDING: Call = get(
    "/api/requests/pending-requests/{userId}",
    "MarketplaceService.ListCustomerRepairRequests",
);
const WITH_APPLICATIONS: Call = get(
    "/api/requests/request-applications/{userId}",
    "MarketplaceService.ListCustomerRepairRequests",
);
const ACTIVE: Call = get(
    "/api/requests/active-requests/{userId}",
    "MarketplaceService.ListCustomerRepairRequests",
);
const COMPLETED: Call = get(
    "/api/requests/user-completed-requests/{userId}",
    "MarketplaceService.ListCustomerRepairRequests",
);
const GET: Call = get("/api/requests/{id}", "MarketplaceService.GetRepairRequest");
const UPDATE: Call = post(
    "/api/requests/update/{id}",
    "MarketplaceService.UpdateRepairRequest",
);
const CANCEL: Call = get(
    "/api/requests/delete-request/{id}",
    "MarketplaceService.CancelRepairRequest",
);
const OPEN_LIST: Call = get(
    "/api/requests/request-list/{professionalId}",
    "MatchingService.ListOpenRequests",
);
const ALL: Call = get("/api/requests", "MarketplaceService.ListRepairRequests");
const MARK_COMPLETED: Call = get(
    "/api/requests/mark-completed/{id}",
    "MarketplaceService.CompleteRepairRequest",
);
const APPLIED: Call = get(
    "/api/requests/applied-requests/{professionalId}",
    "MarketplaceService.ListProfessionalRepairRequests",
);
const PRO_COMPLETED: Call = get(
    "/api/requests/completed-requests/{professionalId}",
    "MarketplaceService.ListProfessionalRepairRequests",
);
const PRO_ACTIVE: Call = get(
    "/api/requests/professional-active-requests",
    "MarketplaceService.ListProfessionalRepairRequests",
);
const APPLY: Call = post("/api/requests/apply", "MarketplaceService.CreateQuote");
const TRANSLATE_FR: Call = post("/api/requests/translate", "ContentService.TranslateText");
const TRANSLATE_EN: Call = post("/api/requests/translate1", "ContentService.TranslateText");

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    PLACE,
    PENDING,
    WITH_APPLICATIONS,
    ACTIVE,
    COMPLETED,
    GET,
    UPDATE,
    CANCEL,
    MARK_COMPLETED,
    TRANSLATE_FR,
    TRANSLATE_EN,
    OPEN_LIST,
    APPLIED,
    PRO_COMPLETED,
    PRO_ACTIVE,
    ALL,
    APPLY,
];

/// Placing, reading, editing, completing and cancelling requests, the customer's four lists,
/// the open requests of a professional and the admin's list, quoting, the professional's own
/// lists, and translation.
pub fn translations() -> Vec<Translation> {
    use pb::CustomerRepairRequestView as View;
    use pb::ProfessionalRepairRequestView as ProView;
    vec![
        (PLACE, routing::post(place)),
        (PENDING, customer_list(View::Pending)),
        (WITH_APPLICATIONS, customer_list(View::WithQuotes)),
        (ACTIVE, customer_list(View::Active)),
        (COMPLETED, customer_list(View::Completed)),
        (GET, routing::get(get_request)),
        (UPDATE, routing::post(update)),
        (CANCEL, routing::get(cancel)),
        (MARK_COMPLETED, routing::get(mark_completed)),
        (OPEN_LIST, routing::get(open_requests)),
        (ALL, routing::get(list_all)),
        (APPLY, routing::post(apply)),
        (
            TRANSLATE_FR,
            routing::post(|rpc: Rpc, body| translate(rpc, Language::Fr, body)),
        ),
        (
            TRANSLATE_EN,
            routing::post(|rpc: Rpc, body| translate(rpc, Language::En, body)),
        ),
        (APPLIED, professional_list(ProView::Applied)),
        (PRO_COMPLETED, professional_list(ProView::Completed)),
        (
            PRO_ACTIVE,
            routing::get(move |rpc: Rpc, query| {
                let own = rpc.token().unverified_subject().unwrap_or_default();
                professional_requests(rpc, own, ProView::Active, query)
            }),
        ),
    ]
}

#[derive(Debug, Deserialize)]
struct TranslateBody {
    #[serde(default, deserialize_with = "text")]
    content: String,
}

/// `POST /api/requests/translate` (into French) and `/api/requests/translate1` (into
/// English) {content} -> `{data}`, the translation; the source language is detected.
async fn translate(
    rpc: Rpc,
    target: Language,
    LegacyJson(body): LegacyJson<TranslateBody>,
) -> Reply {
    let reply = rpc
        .content()
        .translate_text(rpc.request(TranslateTextRequest {
            texts: vec![body.content],
            target_language: target as i32,
            source_language: Language::Unspecified as i32,
        }))
        .await?
        .into_inner();
    let data = reply
        .translations
        .into_iter()
        .next()
        .map(|t| t.text)
        .unwrap_or_default();
    Ok(Json(json!({ "data": data })))
}

/// What the old create and edit forms send. `status` and `user_id` are read past: the server
/// sets the state, and the customer is the token's.
#[derive(Debug, Deserialize)]
struct RequestBody {
    #[serde(default, deserialize_with = "text", alias = "specialization")]
    specialisation: String,
    #[serde(default, deserialize_with = "text")]
    repair_explanation: String,
    #[serde(default, deserialize_with = "text")]
    repair_immediately: String,
    #[serde(default, deserialize_with = "text")]
    address_1: String,
    #[serde(default, deserialize_with = "text")]
    address_2: String,
    #[serde(default, deserialize_with = "text")]
    country: String,
    #[serde(default, deserialize_with = "text")]
    state_or_province: String,
    #[serde(default, deserialize_with = "text")]
    city: String,
    #[serde(default, deserialize_with = "text")]
    zipcode: String,
    /// An idempotency key, from a caller that makes its own (the old app sends none).
    #[serde(default, deserialize_with = "text")]
    request_id: String,
}

/// The old form's default province.
const DEFAULT_PROVINCE: &str = "AB";

impl RequestBody {
    /// The draft in the server's terms: the service named through the catalogue, 'Yes'/'No'
    /// as urgency, the province as its code (Alberta when left out, the old form's default).
    fn draft(&self, catalogue: &Catalogue) -> pb::RepairRequestDraft {
        let service = self.specialisation.trim();
        let province = match self.state_or_province.trim() {
            "" => DEFAULT_PROVINCE.to_owned(),
            given => province_code(given),
        };
        pb::RepairRequestDraft {
            service_id: catalogue.id_of(service).unwrap_or(service).to_owned(),
            description: self.repair_explanation.trim().to_owned(),
            urgency: urgency_from_text(&self.repair_immediately) as i32,
            address: Some(Address {
                line1: self.address_1.trim().to_owned(),
                line2: self.address_2.trim().to_owned(),
                city: self.city.trim().to_owned(),
                province,
                postal_code: self.zipcode.trim().to_owned(),
                country: country_code(&self.country),
            }),
        }
    }
}

/// A record with the `msg` the old screens show.
fn record_reply(request: Option<pb::RepairRequest>, catalogue: &Catalogue, msg: &str) -> Reply {
    let mut body = json!(LegacyRequest::new(&request.unwrap_or_default(), catalogue));
    body["msg"] = json!(msg);
    Ok(Json(body))
}

/// `POST /api/requests/place` -> CreateRepairRequest -> the placed record with `msg`. The
/// server matches the request and notifies the professionals itself.
async fn place(rpc: Rpc, LegacyJson(body): LegacyJson<RequestBody>) -> Reply {
    let catalogue = Catalogue::load(&rpc).await?;
    let draft = body.draft(&catalogue);
    let placed = match body.request_id.trim() {
        "" => place_under_derived_key(&rpc, draft).await?,
        given => create(&rpc, given.to_owned(), draft).await?,
    };
    record_reply(
        Some(placed),
        &catalogue,
        "Your Request is Successfully Created!",
    )
}

async fn create(
    rpc: &Rpc,
    request_id: String,
    draft: pb::RepairRequestDraft,
) -> Result<pb::RepairRequest, ApiError> {
    Ok(rpc
        .marketplace()
        .create_repair_request(rpc.request(pb::CreateRepairRequestRequest {
            request_id,
            draft: Some(draft),
        }))
        .await?
        .into_inner()
        .repair_request
        .unwrap_or_default())
}

/// How many times the same request may be placed again after the earlier ones closed.
const GENERATIONS: u32 = 16;

/// Places a legacy request under a key named from the customer and the draft (see
/// [`keys::request_id`]), so a double submit places one request and notifies once. The
/// same draft placed again once its request is no longer open (cancelled, expired, hired,
/// completed) is a new request: the key then also names the generation, the first one whose
/// request is still open or not placed yet.
async fn place_under_derived_key(
    rpc: &Rpc,
    draft: pb::RepairRequestDraft,
) -> Result<pb::RepairRequest, ApiError> {
    let address = draft.address.clone().unwrap_or_default();
    let urgency = draft.urgency.to_string();
    let content = [
        draft.service_id.as_str(),
        draft.description.as_str(),
        urgency.as_str(),
        address.line1.as_str(),
        address.line2.as_str(),
        address.city.as_str(),
        address.province.as_str(),
        address.postal_code.as_str(),
        address.country.as_str(),
    ];
    for generation in 0..GENERATIONS {
        let generation = generation.to_string();
        let mut parts = vec![generation.as_str()];
        parts.extend(content);
        let key = keys::request_id("repair_request", rpc, &parts);
        let placed = create(rpc, key, draft.clone()).await?;
        if placed.state() == pb::RepairRequestState::Open {
            return Ok(placed);
        }
    }
    Err(ApiError::new(
        StatusCode::CONFLICT,
        "This request was placed many times already: change its description to place it again",
    ))
}

/// `GET /api/requests/{id}` -> GetRepairRequest: the full address for its customer, an admin
/// and the hired professional; the approximate location for another professional it
/// matches; 404 for anyone else.
async fn get_request(rpc: Rpc, Path(id): Path<String>) -> Reply {
    let request = rpc
        .marketplace()
        .get_repair_request(rpc.request(pb::GetRepairRequestRequest { id }))
        .await?
        .into_inner()
        .repair_request
        .unwrap_or_default();
    let catalogue = Catalogue::load(&rpc).await?;
    Ok(Json(json!(LegacyRequest::new(&request, &catalogue))))
}

/// `POST /api/requests/update/{id}` (the place fields) -> UpdateRepairRequest -> the record
/// with `msg`. 409 once the request is no longer open.
async fn update(
    rpc: Rpc,
    Path(id): Path<String>,
    LegacyJson(body): LegacyJson<RequestBody>,
) -> Reply {
    let catalogue = Catalogue::load(&rpc).await?;
    let updated = rpc
        .marketplace()
        .update_repair_request(rpc.request(pb::UpdateRepairRequestRequest {
            id,
            draft: Some(body.draft(&catalogue)),
        }))
        .await?
        .into_inner()
        .repair_request;
    record_reply(updated, &catalogue, "Request Updated")
}

/// `GET /api/requests/delete-request/{id}` -> CancelRepairRequest: the request is cancelled
/// (status 4), not erased, and the professionals who quoted are told.
/// `GET /api/requests/mark-completed/{id}` -> CompleteRepairRequest (the hold is captured
/// at once) -> the record with `msg`. Not hired: 412 with the server's reason.
async fn mark_completed(rpc: Rpc, Path(id): Path<String>) -> Reply {
    let completed = rpc
        .marketplace()
        .complete_repair_request(rpc.request(pb::CompleteRepairRequestRequest { id }))
        .await?
        .into_inner()
        .repair_request;
    record_reply(
        completed,
        &Catalogue::load(&rpc).await?,
        "Marked as completed",
    )
}

async fn cancel(rpc: Rpc, Path(id): Path<String>) -> Reply {
    let cancelled = rpc
        .marketplace()
        .cancel_repair_request(rpc.request(pb::CancelRepairRequestRequest { id }))
        .await?
        .into_inner()
        .repair_request;
    record_reply(
        cancelled,
        &Catalogue::load(&rpc).await?,
        "Deleted Successfully",
    )
}

/// The query string of the legacy lists: where to go on (see [`paging`]), and for the admin's
/// list a legacy status number and a service (name or id).
#[derive(Debug, Default, Deserialize)]
struct ListQuery {
    #[serde(default)]
    page_token: String,
    #[serde(default)]
    status: String,
    #[serde(default, alias = "specialisation")]
    service: String,
}

/// One of the customer's lists, `GET /api/requests/<list>/{userId}` ->
/// ListCustomerRepairRequests in `view`, newest first. The customer themself or an admin.
fn customer_list(view: pb::CustomerRepairRequestView) -> Handler {
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
async fn list_all(
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
async fn open_requests(
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

/// What the old apply form sends: the estimate in hours, the fee as text (empty: the
/// professional's minimum fee) and the request. `professional_id` is read past: the
/// professional is the token's.
#[derive(Debug, Deserialize)]
struct ApplyBody {
    #[serde(default, deserialize_with = "text")]
    request_applied: String,
    #[serde(default, deserialize_with = "text")]
    time_of_service: String,
    #[serde(default, deserialize_with = "text")]
    fees: String,
    #[serde(default, alias = "surge")]
    surge_cost: Option<serde_json::Value>,
}

impl ApplyBody {
    fn quote(&self) -> pb::CreateQuoteRequest {
        let fee = match self.fees.trim() {
            "" => None,
            // A fee that is not an amount goes as zero, which the server refuses with its
            // own message on `fee.amount_cents`.
            typed => Some(cad(fee_cents(typed).unwrap_or(0))),
        };
        let surge = match &self.surge_cost {
            Some(serde_json::Value::Bool(on)) => *on,
            Some(serde_json::Value::String(text)) => {
                urgency_from_text(text) == pb::Urgency::Immediate
            }
            Some(serde_json::Value::Number(n)) => n.as_i64() == Some(1),
            _ => false,
        };
        pb::CreateQuoteRequest {
            repair_request_id: self.request_applied.trim().to_owned(),
            estimated_minutes: minutes_from_hours(&self.time_of_service),
            fee,
            surge,
        }
    }
}

/// `POST /api/requests/apply` -> CreateQuote -> the quote with `msg`. 404 for a request
/// that does not match the professional or is no longer open, 409 for a second live quote
/// or a lapsed membership.
async fn apply(rpc: Rpc, LegacyJson(body): LegacyJson<ApplyBody>) -> Reply {
    let quote = rpc
        .marketplace()
        .create_quote(rpc.request(body.quote()))
        .await?
        .into_inner()
        .quote
        .unwrap_or_default();
    let mut reply = json!(LegacyApplication::new(&quote));
    reply["msg"] = json!("Applied Successfully");
    Ok(Json(reply))
}

/// One of the professional's own lists -> ListProfessionalRepairRequests in `view`, newest
/// first: each request (the street only where they were hired) with their `application`.
fn professional_list(view: pb::ProfessionalRepairRequestView) -> Handler {
    routing::get(
        move |rpc: Rpc, Path(professional_id): Path<String>, query| {
            professional_requests(rpc, professional_id, view, query)
        },
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legacy::catalogue::tests::catalogue;

    fn body(json: serde_json::Value) -> RequestBody {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn the_old_form_becomes_a_draft() {
        let draft = body(json!({
            "specialisation": "Plumber",
            "repair_explanation": " The sink leaks ",
            "repair_immediately": "Yes",
            "address_1": "100 8 Ave SW",
            "address_2": "",
            "country": "Canada",
            "state_or_province": "Alberta",
            "city": "Calgary",
            "zipcode": "T2P 1J9",
            "status": 1,
            "user_id": "someone-else",
        }))
        .draft(&catalogue());
        assert_eq!(
            draft,
            pb::RepairRequestDraft {
                service_id: "id-1".to_owned(),
                description: "The sink leaks".to_owned(),
                urgency: pb::Urgency::Immediate as i32,
                address: Some(Address {
                    line1: "100 8 Ave SW".to_owned(),
                    line2: String::new(),
                    city: "Calgary".to_owned(),
                    province: "AB".to_owned(),
                    postal_code: "T2P 1J9".to_owned(),
                    country: "CA".to_owned(),
                }),
            }
        );
    }

    #[test]
    fn what_the_bff_cannot_read_is_passed_on_for_the_server_to_refuse() {
        let draft = body(json!({
            "specialization": "Gardening",
            "repair_immediately": "maybe",
            "country": "France",
            "state_or_province": "Texas",
        }))
        .draft(&catalogue());
        assert_eq!(draft.service_id, "Gardening");
        assert_eq!(draft.urgency, pb::Urgency::Unspecified as i32);
        let address = draft.address.unwrap();
        assert_eq!(address.country, "France");
        assert_eq!(address.province, "Texas");
        // Left out, the province is the old form's default.
        let draft = body(json!({ "repair_immediately": false })).draft(&catalogue());
        assert_eq!(draft.address.unwrap().province, "AB");
        assert_eq!(draft.urgency, pb::Urgency::CanWait as i32);
    }
}
