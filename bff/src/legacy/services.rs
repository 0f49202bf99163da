//! The service catalogue, English and French names (`/api/services`, `/api/fr/services`).

use axum::Json;
use axum::extract::Path;
use axum::routing;
use repairs_proto::content as pb;
use serde_json::json;

use super::Reply;
use super::catalogue::Catalogue;
use super::error::ApiError;
use super::rpc::Rpc;
use super::shapes::{LegacyService, ServiceLanguage};
use super::table::{Call, Translation, delete, get, post};

const LIST: Call = get("/api/services", "ContentService.ListServices");
const LIST_FRENCH: Call = get("/api/fr/services", "ContentService.ListServices");
const GET: Call = get(
    "/api/services/get-service/{id}",
    "ContentService.GetService",
);

const DELETE: Call = delete(
    "/api/services/delete-service/{id}",
    "ContentService.DeleteService",
);

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    LIST,
    LIST_FRENCH,
    GET,
    post("/api/services/create", "ContentService.CreateService"),
    post(
        "/api/services/update-service",
        "ContentService.UpdateService",
    ),
    DELETE,
];

/// Reading the catalogue and removing a service; creating and editing wait for the server.
pub fn translations() -> Vec<Translation> {
    vec![
        (
            LIST,
            routing::get(|rpc: Rpc| list(rpc, ServiceLanguage::English)),
        ),
        (
            LIST_FRENCH,
            routing::get(|rpc: Rpc| list(rpc, ServiceLanguage::French)),
        ),
        (GET, routing::get(get_service)),
        (DELETE, routing::delete(delete_service)),
    ]
}

/// The whole catalogue (also what turns specialisation names into ids and back).
pub(super) async fn catalogue(rpc: &Rpc) -> Result<Catalogue, ApiError> {
    let services = rpc
        .content()
        .list_services(rpc.request(pb::ListServicesRequest::default()))
        .await?
        .into_inner()
        .services;
    Ok(Catalogue::new(services))
}

/// `GET /api/services` and `/api/fr/services`: `[{_id, name, description, photo, createdAt}]`.
async fn list(rpc: Rpc, language: ServiceLanguage) -> Reply {
    let services = rpc
        .content()
        .list_services(rpc.request(pb::ListServicesRequest::default()))
        .await?
        .into_inner()
        .services;
    let records: Vec<LegacyService> = services
        .iter()
        .map(|service| LegacyService::new(service, language))
        .collect();
    Ok(Json(json!(records)))
}

/// `GET /api/services/get-service/{id}`: one service, in English.
async fn get_service(rpc: Rpc, Path(id): Path<String>) -> Reply {
    let service = rpc
        .content()
        .get_service(rpc.request(pb::GetServiceRequest { id }))
        .await?
        .into_inner()
        .service
        .unwrap_or_default();
    Ok(Json(json!(LegacyService::new(
        &service,
        ServiceLanguage::English
    ))))
}

/// `DELETE /api/services/delete-service/{id}` -> `{msg}`: deleted, or archived when requests
/// or professionals still name it.
async fn delete_service(rpc: Rpc, Path(id): Path<String>) -> Reply {
    let reply = rpc
        .content()
        .delete_service(rpc.request(pb::DeleteServiceRequest {
            id,
            etag: String::new(),
        }))
        .await?
        .into_inner();
    let msg = if reply.archived {
        "Service archived: requests or professionals still use it"
    } else {
        "Deleted Successfully"
    };
    Ok(Json(json!({ "msg": msg })))
}
