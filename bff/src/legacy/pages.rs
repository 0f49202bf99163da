//! Landing-page texts in English and French, and the contact form (`/api/pages`, `/api/fr/pages`).
//!
//! A page reads as one JSON object of the spec's field names (`banner_h1`, ...; the guide's
//! steps as `how_1: {heading, description}`), plus its `etag`. An update changes only the
//! fields the body sends (the steps' halves also as `how_1_heading`, `how_1_description`),
//! in the path's language, and passes `etag` on when the body has one.

use axum::Json;
use axum::routing;
use prost_types::FieldMask;
use repairs_proto::content as pb;
use repairs_proto::types::Language;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::body::{LegacyJson, text};
use super::error::Reply;
use super::rpc::Rpc;
use super::table::{Call, Translation, get, post};

const HOME: Call = get("/api/pages", "ContentService.GetHomePage");
const PRO: Call = get(
    "/api/pages/professional-page",
    "ContentService.GetProfessionalPage",
);
const UPDATE_HOME: Call = post("/api/pages/update-detail", "ContentService.UpdateHomePage");
const UPDATE_PRO: Call = post(
    "/api/pages/update-professional-page-detail",
    "ContentService.UpdateProfessionalPage",
);
const HOME_FR: Call = get("/api/fr/pages", "ContentService.GetHomePage");
const PRO_FR: Call = get(
    "/api/fr/pages/professional-page",
    "ContentService.GetProfessionalPage",
);
const UPDATE_HOME_FR: Call = post(
    "/api/fr/pages/update-detail",
    "ContentService.UpdateHomePage",
);
const UPDATE_PRO_FR: Call = post(
    "/api/fr/pages/update-professional-page-detail",
    "ContentService.UpdateProfessionalPage",
);

const CONTACT: Call = post("/api/pages/contact", "ContentService.SendContactMessage");

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    CONTACT,
    HOME,
    PRO,
    UPDATE_HOME,
    UPDATE_PRO,
    HOME_FR,
    PRO_FR,
    UPDATE_HOME_FR,
    UPDATE_PRO_FR,
];

pub fn translations() -> Vec<Translation> {
    use Language::{En, Fr};
    vec![
        (CONTACT, routing::post(contact)),
        (HOME, routing::get(|rpc: Rpc| home(rpc, En))),
        (HOME_FR, routing::get(|rpc: Rpc| home(rpc, Fr))),
        (PRO, routing::get(|rpc: Rpc| professional(rpc, En))),
        (PRO_FR, routing::get(|rpc: Rpc| professional(rpc, Fr))),
        (
            UPDATE_HOME,
            routing::post(|rpc: Rpc, body: LegacyJson<Map<String, Value>>| {
                update_home(rpc, En, body)
            }),
        ),
        (
            UPDATE_HOME_FR,
            routing::post(|rpc: Rpc, body: LegacyJson<Map<String, Value>>| {
                update_home(rpc, Fr, body)
            }),
        ),
        (
            UPDATE_PRO,
            routing::post(|rpc: Rpc, body: LegacyJson<Map<String, Value>>| {
                update_professional(rpc, En, body)
            }),
        ),
        (
            UPDATE_PRO_FR,
            routing::post(|rpc: Rpc, body: LegacyJson<Map<String, Value>>| {
                update_professional(rpc, Fr, body)
            }),
        ),
    ]
}

#[derive(Debug, Deserialize)]
struct ContactBody {
    #[serde(default, deserialize_with = "text")]
    name: String,
    #[serde(default, deserialize_with = "text")]
    email: String,
    #[serde(default, deserialize_with = "text")]
    message: String,
}

/// `POST /api/pages/contact` {name, email, message} -> `{msg, id}`.
async fn contact(rpc: Rpc, LegacyJson(body): LegacyJson<ContactBody>) -> Reply {
    let sent = rpc
        .content()
        .send_contact_message(rpc.request(pb::SendContactMessageRequest {
            name: body.name,
            email: body.email,
            message: body.message,
        }))
        .await?
        .into_inner();
    Ok(Json(json!({ "msg": "Message sent", "id": sent.id })))
}

const STEPS: [&str; 3] = ["how_1", "how_2", "how_3"];

fn step_json(step: Option<&pb::GuideStep>) -> Value {
    let step = step.cloned().unwrap_or_default();
    json!({ "heading": step.heading, "description": step.description })
}

pub(crate) fn home_json(page: &pb::HomePage, etag: String) -> Value {
    json!({
        "banner_h1": page.banner_h1,
        "banner_h2": page.banner_h2,
        "banner_h3": page.banner_h3,
        "banner_link": page.banner_link,
        "how_heading": page.how_heading,
        "how_description": page.how_description,
        "how_1": step_json(page.how_1.as_ref()),
        "how_2": step_json(page.how_2.as_ref()),
        "how_3": step_json(page.how_3.as_ref()),
        "services_heading": page.services_heading,
        "services_description": page.services_description,
        "section_1_heading": page.section_1_heading,
        "section_1_description": page.section_1_description,
        "section_1_link": page.section_1_link,
        "etag": etag,
    })
}

pub(crate) fn professional_json(page: &pb::ProfessionalPage, etag: String) -> Value {
    json!({
        "banner_h1": page.banner_h1,
        "banner_h3": page.banner_h3,
        "banner_link": page.banner_link,
        "banner_bottom_heading": page.banner_bottom_heading,
        "banner_bottom_link": page.banner_bottom_link,
        "services_heading": page.services_heading,
        "services_description": page.services_description,
        "section_1_heading": page.section_1_heading,
        "section_1_description": page.section_1_description,
        "section_1_link": page.section_1_link,
        "etag": etag,
    })
}

/// `GET /api/pages` and `/api/fr/pages`.
async fn home(rpc: Rpc, language: Language) -> Reply {
    let reply = rpc
        .content()
        .get_home_page(rpc.request(pb::GetHomePageRequest {
            language: language as i32,
        }))
        .await?
        .into_inner();
    Ok(Json(home_json(&reply.page.unwrap_or_default(), reply.etag)))
}

/// `GET /api/pages/professional-page` and `/api/fr/pages/professional-page`.
async fn professional(rpc: Rpc, language: Language) -> Reply {
    let reply = rpc
        .content()
        .get_professional_page(rpc.request(pb::GetProfessionalPageRequest {
            language: language as i32,
        }))
        .await?
        .into_inner();
    Ok(Json(professional_json(
        &reply.page.unwrap_or_default(),
        reply.etag,
    )))
}

/// Keys of a legacy page record that are not texts: sent back by old editors, never changed.
const NOT_TEXTS: &[&str] = &["_id", "__v", "id", "etag", "lang", "createdAt", "updatedAt"];

/// What an update body changes: the mask paths and a reader of their texts. `how_1` as an
/// object names its halves; `how_1_heading` is `how_1.heading`.
struct Changes {
    paths: Vec<String>,
    body: Map<String, Value>,
}

impl Changes {
    fn new(body: Map<String, Value>) -> Self {
        let mut paths = Vec::new();
        for (key, value) in &body {
            if NOT_TEXTS.contains(&key.as_str()) {
                continue;
            }
            match value {
                Value::Object(step) => {
                    paths.extend(step.keys().map(|half| format!("{key}.{half}")));
                }
                _ => paths.push(Self::path(key)),
            }
        }
        Self { paths, body }
    }

    /// `how_1_heading` -> `how_1.heading`; other keys as they are.
    fn path(key: &str) -> String {
        STEPS
            .iter()
            .find_map(|step| {
                key.strip_prefix(step)
                    .and_then(|rest| rest.strip_prefix('_'))
                    .map(|half| format!("{step}.{half}"))
            })
            .unwrap_or_else(|| key.to_owned())
    }

    fn text(&self, key: &str) -> String {
        match self.body.get(key) {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        }
    }

    fn step(&self, step: &str) -> Option<pb::GuideStep> {
        let half = |name: &str| match self.body.get(step).and_then(|s| s.get(name)) {
            Some(Value::String(text)) => text.clone(),
            _ => self.text(&format!("{step}_{name}")),
        };
        Some(pb::GuideStep {
            heading: half("heading"),
            description: half("description"),
        })
    }

    fn mask(&self) -> Option<FieldMask> {
        Some(FieldMask {
            paths: self.paths.clone(),
        })
    }

    fn etag(&self) -> String {
        self.text("etag")
    }
}

/// `POST /api/pages/update-detail` and `/api/fr/pages/update-detail` -> `{msg, page}`.
async fn update_home(
    rpc: Rpc,
    language: Language,
    LegacyJson(body): LegacyJson<Map<String, Value>>,
) -> Reply {
    let changes = Changes::new(body);
    let page = pb::HomePage {
        banner_h1: changes.text("banner_h1"),
        banner_h2: changes.text("banner_h2"),
        banner_h3: changes.text("banner_h3"),
        banner_link: changes.text("banner_link"),
        how_heading: changes.text("how_heading"),
        how_description: changes.text("how_description"),
        how_1: changes.step("how_1"),
        how_2: changes.step("how_2"),
        how_3: changes.step("how_3"),
        services_heading: changes.text("services_heading"),
        services_description: changes.text("services_description"),
        section_1_heading: changes.text("section_1_heading"),
        section_1_description: changes.text("section_1_description"),
        section_1_link: changes.text("section_1_link"),
    };
    let reply = rpc
        .content()
        .update_home_page(rpc.request(pb::UpdateHomePageRequest {
            language: language as i32,
            page: Some(page),
            etag: changes.etag(),
            update_mask: changes.mask(),
        }))
        .await?
        .into_inner();
    Ok(Json(json!({
        "msg": "Details updated",
        "page": home_json(&reply.page.unwrap_or_default(), reply.etag),
    })))
}

/// `POST /api/pages/update-professional-page-detail` and the French one -> `{msg, page}`.
async fn update_professional(
    rpc: Rpc,
    language: Language,
    LegacyJson(body): LegacyJson<Map<String, Value>>,
) -> Reply {
    let changes = Changes::new(body);
    let page = pb::ProfessionalPage {
        banner_h1: changes.text("banner_h1"),
        banner_h3: changes.text("banner_h3"),
        banner_link: changes.text("banner_link"),
        banner_bottom_heading: changes.text("banner_bottom_heading"),
        banner_bottom_link: changes.text("banner_bottom_link"),
        services_heading: changes.text("services_heading"),
        services_description: changes.text("services_description"),
        section_1_heading: changes.text("section_1_heading"),
        section_1_description: changes.text("section_1_description"),
        section_1_link: changes.text("section_1_link"),
    };
    let reply = rpc
        .content()
        .update_professional_page(rpc.request(pb::UpdateProfessionalPageRequest {
            language: language as i32,
            page: Some(page),
            etag: changes.etag(),
            update_mask: changes.mask(),
        }))
        .await?
        .into_inner();
    Ok(Json(json!({
        "msg": "Details updated",
        "page": professional_json(&reply.page.unwrap_or_default(), reply.etag),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_update_names_only_the_fields_sent() {
        let body = json!({
            "_id": "x",
            "banner_h1": "Hello",
            "how_1": {"heading": "One"},
            "how_2_description": "Two",
            "etag": "3",
        });
        let changes = Changes::new(body.as_object().unwrap().clone());
        let mut paths = changes.paths.clone();
        paths.sort();
        assert_eq!(paths, ["banner_h1", "how_1.heading", "how_2.description"]);
        assert_eq!(changes.etag(), "3");
        assert_eq!(changes.step("how_2").unwrap().description, "Two");
        assert_eq!(changes.step("how_1").unwrap().heading, "One");
    }
}
