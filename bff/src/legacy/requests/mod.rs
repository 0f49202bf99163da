//! Repair requests, for customers, professionals and the admin (`/api/requests`).
//!
//! Records go out as [`LegacyRequest`](super::shapes::LegacyRequest) (legacy status numbers,
//! 'Yes'/'No', English names). Who may read or change which request is the server's to decide:
//! an id in the path is passed on as it is, and another customer's request answers 404 or 403,
//! never its data.

use axum::Json;
use axum::routing;
use repairs_proto::content::TranslateTextRequest;
use repairs_proto::marketplace as pb;
use repairs_proto::types::Language;
use serde::Deserialize;
use serde_json::json;

use super::body::{LegacyJson, text};
use super::error::Reply;
use super::rpc::Rpc;
use super::table::{Call, Translation, get, post};

mod lifecycle;
mod lists;
mod quoting;

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
        (PLACE, routing::post(lifecycle::place)),
        (PENDING, lists::customer_list(View::Pending)),
        (WITH_APPLICATIONS, lists::customer_list(View::WithQuotes)),
        (ACTIVE, lists::customer_list(View::Active)),
        (COMPLETED, lists::customer_list(View::Completed)),
        (GET, routing::get(lifecycle::get_request)),
        (UPDATE, routing::post(lifecycle::update)),
        (CANCEL, routing::get(lifecycle::cancel)),
        (MARK_COMPLETED, routing::get(lifecycle::mark_completed)),
        (OPEN_LIST, routing::get(lists::open_requests)),
        (ALL, routing::get(lists::list_all)),
        (APPLY, routing::post(quoting::apply)),
        (
            TRANSLATE_FR,
            routing::post(|rpc: Rpc, body| translate(rpc, Language::Fr, body)),
        ),
        (
            TRANSLATE_EN,
            routing::post(|rpc: Rpc, body| translate(rpc, Language::En, body)),
        ),
        (APPLIED, lists::professional_list(ProView::Applied)),
        (PRO_COMPLETED, lists::professional_list(ProView::Completed)),
        (PRO_ACTIVE, lists::own_professional_list(ProView::Active)),
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
