//! One repair request from placing to its end: the old create and edit forms read into a
//! draft, placing (once per double submit), reading, editing, completing and cancelling.

use axum::Json;
use axum::extract::Path;
use http::StatusCode;
use repairs_proto::marketplace as pb;
use repairs_proto::types::Address;
use serde::Deserialize;
use serde_json::json;

use crate::legacy::body::{LegacyJson, text};
use crate::legacy::catalogue::Catalogue;
use crate::legacy::error::{ApiError, Reply};
use crate::legacy::keys;
use crate::legacy::rpc::Rpc;
use crate::legacy::shapes::{LegacyRequest, country_code, province_code, urgency_from_text};

/// What the old create and edit forms send. `status` and `user_id` are read past: the server
/// sets the state, and the customer is the token's.
#[derive(Debug, Deserialize)]
pub(super) struct RequestBody {
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

/// The old form's default province.
const DEFAULT_PROVINCE: &str = "AB";

/// A record with the `msg` the old screens show.
fn record_reply(request: Option<pb::RepairRequest>, catalogue: &Catalogue, msg: &str) -> Reply {
    let mut body = json!(LegacyRequest::new(&request.unwrap_or_default(), catalogue));
    body["msg"] = json!(msg);
    Ok(Json(body))
}

/// `POST /api/requests/place` -> CreateRepairRequest -> the placed record with `msg`. The
/// server matches the request and notifies the professionals itself.
pub(super) async fn place(rpc: Rpc, LegacyJson(body): LegacyJson<RequestBody>) -> Reply {
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
            // The old app sends no photos.
            photos_to_follow: 0,
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
pub(super) async fn get_request(rpc: Rpc, Path(id): Path<String>) -> Reply {
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
pub(super) async fn update(
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

/// `GET /api/requests/mark-completed/{id}` -> CompleteRepairRequest (the hold is captured
/// at once) -> the record with `msg`. Not hired: 412 with the server's reason.
pub(super) async fn mark_completed(rpc: Rpc, Path(id): Path<String>) -> Reply {
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

/// `GET /api/requests/delete-request/{id}` -> CancelRepairRequest: the request is cancelled
/// (status 4), not erased, and the professionals who quoted are told.
pub(super) async fn cancel(rpc: Rpc, Path(id): Path<String>) -> Reply {
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
