//! The service catalogue, English and French names (`/api/services`, `/api/fr/services`),
//! and the admin's calls that edit it. The old admin screens were English: `name` and
//! `description` are the English texts (a new service's French ones take them until someone
//! translates them; `name_fr` and `description_fr` may be sent too), and an update changes
//! only what its body sends. An edit that succeeds drops this BFF's copy of the catalogue, so
//! the admin's next list shows it.

use axum::Json;
use axum::extract::{Path, Request};
use axum::routing;
use prost_types::FieldMask;
use repairs_proto::content as pb;
use repairs_proto::types::LocalizedText;
use serde_json::json;

use super::body::LegacyForm;
use super::catalogue::Catalogue;
use super::error::{ApiError, Reply};
use super::rpc::Rpc;
use super::shapes::{LegacyService, ServiceLanguage, upload_content_type};
use super::table::{Call, Translation, delete, get, post};

const LIST: Call = get("/api/services", "ContentService.ListServices");
const LIST_FRENCH: Call = get("/api/fr/services", "ContentService.ListServices");
const GET: Call = get(
    "/api/services/get-service/{id}",
    "ContentService.GetService",
);

const CREATE: Call = post("/api/services/create", "ContentService.CreateService");
const UPDATE: Call = post(
    "/api/services/update-service",
    "ContentService.UpdateService",
);
const DELETE: Call = delete(
    "/api/services/delete-service/{id}",
    "ContentService.DeleteService",
);

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[LIST, LIST_FRENCH, GET, CREATE, UPDATE, DELETE];

/// Every call of the area.
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
        (CREATE, routing::post(create)),
        (UPDATE, routing::post(update)),
        (DELETE, routing::delete(delete_service)),
    ]
}

/// `GET /api/services` and `/api/fr/services`: `[{_id, name, description, photo, createdAt}]`,
/// written straight from the records (no JSON tree built first: the busiest legacy read).
async fn list(rpc: Rpc, language: ServiceLanguage) -> Result<Json<Vec<LegacyService>>, ApiError> {
    let records = Catalogue::load(&rpc)
        .await?
        .services()
        .iter()
        .map(|service| LegacyService::new(service, language))
        .collect();
    Ok(Json(records))
}

/// `GET /api/services/get-service/{id}`: one service, in English.
async fn get_service(rpc: Rpc, Path(id): Path<String>) -> Reply<LegacyService> {
    let service = rpc
        .content()
        .get_service(rpc.request(pb::GetServiceRequest { id }))
        .await?
        .into_inner()
        .service
        .unwrap_or_default();
    Ok(Json(LegacyService::new(&service, ServiceLanguage::English)))
}

/// The form's names for each field of a service: the English text under the old names.
const NAME_EN: &[&str] = &["name", "name_en"];
const NAME_FR: &[&str] = &["name_fr"];
const DESCRIPTION_EN: &[&str] = &["description", "description_en"];
const DESCRIPTION_FR: &[&str] = &["description_fr"];
const ICON: &[&str] = &["photo", "icon"];

/// The fields of a service a form sends, each under its update mask path.
const FIELDS: [(&str, &[&str]); 4] = [
    ("name.en", NAME_EN),
    ("name.fr", NAME_FR),
    ("description.en", DESCRIPTION_EN),
    ("description.fr", DESCRIPTION_FR),
];

fn localized(form: &LegacyForm, en: &[&str], fr: &[&str]) -> Option<LocalizedText> {
    Some(LocalizedText {
        en: form.text(en),
        fr: form.text(fr),
    })
}

/// The form's icon, if a file was chosen: its type and bytes.
fn icon(form: &LegacyForm) -> Option<(String, Vec<u8>)> {
    form.files(ICON)
        .into_iter()
        .find(|file| !file.is_empty())
        .map(|file| {
            let content_type = upload_content_type(&file.content_type, &file.file_name);
            (content_type, file.bytes.to_vec())
        })
}

/// `{msg, service}`: the old screens read `msg`; `service` is the record as `/api/services`
/// lists it.
fn saved(msg: &str, service: Option<pb::Service>) -> Reply {
    let service = service.unwrap_or_default();
    Ok(Json(json!({
        "msg": msg,
        "service": LegacyService::new(&service, ServiceLanguage::English),
    })))
}

/// `POST /api/services/create` (multipart or JSON: name, description, photo) ->
/// CreateService, at the end of the catalogue.
async fn create(rpc: Rpc, request: Request) -> Reply {
    let form = LegacyForm::read(request, &[]).await?;
    let (icon_content_type, icon) = icon(&form).unwrap_or_default();
    let request = pb::CreateServiceRequest {
        name: localized(&form, NAME_EN, NAME_FR),
        description: localized(&form, DESCRIPTION_EN, DESCRIPTION_FR),
        icon_content_type,
        icon,
    };
    let reply = rpc
        .content()
        .create_service(rpc.request(request))
        .await?
        .into_inner();
    Catalogue::changed(&rpc);
    saved("Service Successfully Created", reply.service)
}

/// `POST /api/services/update-service` (JSON or multipart: id, and any of name, description,
/// photo, name_fr, description_fr, etag) -> UpdateService naming only the fields sent.
async fn update(rpc: Rpc, request: Request) -> Reply {
    let form = LegacyForm::read(request, &[]).await?;
    let mut paths: Vec<String> = FIELDS
        .iter()
        .filter(|(_, names)| form.has(names))
        .map(|(path, _)| (*path).to_owned())
        .collect();
    let icon = icon(&form);
    if icon.is_some() {
        paths.push("icon".to_owned());
    }
    let (icon_content_type, icon) = icon.unwrap_or_default();
    let request = pb::UpdateServiceRequest {
        id: form.text(&["id", "_id"]),
        name: localized(&form, NAME_EN, NAME_FR),
        description: localized(&form, DESCRIPTION_EN, DESCRIPTION_FR),
        etag: form.text(&["etag"]),
        update_mask: Some(FieldMask { paths }),
        icon_content_type,
        icon,
        active: false,
    };
    let reply = rpc
        .content()
        .update_service(rpc.request(request))
        .await?
        .into_inner();
    Catalogue::changed(&rpc);
    saved("Service Successfully Updated", reply.service)
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
    Catalogue::changed(&rpc);
    let msg = if reply.archived {
        "Service archived: requests or professionals still use it"
    } else {
        "Deleted Successfully"
    };
    Ok(Json(json!({ "msg": msg })))
}
