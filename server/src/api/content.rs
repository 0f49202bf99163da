//! ContentService: the service catalogue (read and edited), the landing and legal pages'
//! texts, the contact form and translation.

use repairs_proto::{
    content::{self as pb, content_service_server::ContentService},
    types::{self, LocalizedText},
};
use tonic::{Request, Response, Status};

use std::collections::BTreeMap;

use super::{
    client_addr::client_addr,
    convert::{caller, editor, language_from_proto, language_to_proto, timestamp},
};
use crate::{
    auth::access,
    content::{
        contact,
        pages::{self, Page, PageTexts},
        services::{self as catalogue, Removed, ServiceForm},
    },
    domain::{Language, text::bounded_text},
    error::{ApiError, ApiResult, ErrorReason, Violations, parse_id},
    providers::translation::service::{Payer, Texts},
    state::AppState,
    store::{contact_messages::ContactMessageRow, page::PageRequest, services::ServiceRow},
};

pub struct ContentApi {
    state: AppState,
}

impl ContentApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

fn service_to_proto(state: &AppState, row: ServiceRow) -> pb::Service {
    let etag = row.etag();
    pb::Service {
        id: row.id.to_string(),
        name: Some(LocalizedText {
            en: row.name_en,
            fr: row.name_fr,
        }),
        description: Some(LocalizedText {
            en: row.description_en,
            fr: row.description_fr,
        }),
        icon_url: row
            .icon_key
            .as_deref()
            .map(|key| super::professional_view::file_link(state, key, chrono::Duration::hours(24)))
            .unwrap_or_default(),
        position: row.position,
        create_time: Some(timestamp(row.created_at)),
        etag,
        active: row.active,
        update_time: Some(timestamp(row.updated_at)),
    }
}

/// A create or update request's service fields.
fn service_form(
    name: Option<LocalizedText>,
    description: Option<LocalizedText>,
    (icon_content_type, icon): (String, Vec<u8>),
    active: bool,
) -> ServiceForm {
    let (name, description) = (name.unwrap_or_default(), description.unwrap_or_default());
    ServiceForm {
        name_en: name.en,
        name_fr: name.fr,
        description_en: description.en,
        description_fr: description.fr,
        icon_content_type,
        icon,
        active,
    }
}

fn guide_step(texts: &PageTexts, step: &str) -> Option<pb::GuideStep> {
    Some(pb::GuideStep {
        heading: texts.get(&format!("{step}.heading")),
        description: texts.get(&format!("{step}.description")),
    })
}

fn home_to_proto(texts: &PageTexts) -> pb::HomePage {
    pb::HomePage {
        banner_h1: texts.get("banner_h1"),
        banner_h2: texts.get("banner_h2"),
        banner_h3: texts.get("banner_h3"),
        banner_link: texts.get("banner_link"),
        how_heading: texts.get("how_heading"),
        how_description: texts.get("how_description"),
        how_1: guide_step(texts, "how_1"),
        how_2: guide_step(texts, "how_2"),
        how_3: guide_step(texts, "how_3"),
        services_heading: texts.get("services_heading"),
        services_description: texts.get("services_description"),
        section_1_heading: texts.get("section_1_heading"),
        section_1_description: texts.get("section_1_description"),
        section_1_link: texts.get("section_1_link"),
    }
}

/// A home page field's text in an update, by its path in [`Page::fields`].
fn home_field(page: &pb::HomePage, field: &str) -> String {
    let step = |step: &Option<pb::GuideStep>, heading: bool| {
        step.as_ref()
            .map(|s| if heading { &s.heading } else { &s.description })
            .cloned()
            .unwrap_or_default()
    };
    match field {
        "banner_h1" => page.banner_h1.clone(),
        "banner_h2" => page.banner_h2.clone(),
        "banner_h3" => page.banner_h3.clone(),
        "banner_link" => page.banner_link.clone(),
        "how_heading" => page.how_heading.clone(),
        "how_description" => page.how_description.clone(),
        "how_1.heading" => step(&page.how_1, true),
        "how_1.description" => step(&page.how_1, false),
        "how_2.heading" => step(&page.how_2, true),
        "how_2.description" => step(&page.how_2, false),
        "how_3.heading" => step(&page.how_3, true),
        "how_3.description" => step(&page.how_3, false),
        "services_heading" => page.services_heading.clone(),
        "services_description" => page.services_description.clone(),
        "section_1_heading" => page.section_1_heading.clone(),
        "section_1_description" => page.section_1_description.clone(),
        _ => page.section_1_link.clone(),
    }
}

fn professional_to_proto(texts: &PageTexts) -> pb::ProfessionalPage {
    pb::ProfessionalPage {
        banner_h1: texts.get("banner_h1"),
        banner_h3: texts.get("banner_h3"),
        banner_link: texts.get("banner_link"),
        banner_bottom_heading: texts.get("banner_bottom_heading"),
        banner_bottom_link: texts.get("banner_bottom_link"),
        services_heading: texts.get("services_heading"),
        services_description: texts.get("services_description"),
        section_1_heading: texts.get("section_1_heading"),
        section_1_description: texts.get("section_1_description"),
        section_1_link: texts.get("section_1_link"),
    }
}

/// A professional page field's text in an update, by its path in [`Page::fields`].
fn professional_field(page: &pb::ProfessionalPage, field: &str) -> String {
    match field {
        "banner_h1" => &page.banner_h1,
        "banner_h3" => &page.banner_h3,
        "banner_link" => &page.banner_link,
        "banner_bottom_heading" => &page.banner_bottom_heading,
        "banner_bottom_link" => &page.banner_bottom_link,
        "services_heading" => &page.services_heading,
        "services_description" => &page.services_description,
        "section_1_heading" => &page.section_1_heading,
        "section_1_description" => &page.section_1_description,
        _ => &page.section_1_link,
    }
    .clone()
}

/// The language a page is read in: unspecified reads English.
fn read_language(value: i32) -> Language {
    language_from_proto(value).unwrap_or_default()
}

/// The language a page is edited in: it must be named.
fn edit_language(value: i32) -> ApiResult<Language> {
    language_from_proto(value)
        .ok_or_else(|| ApiError::invalid("language", "choose English or French"))
}

/// An admin's page update: the masked fields of `page` in one language, under `etag`.
async fn update_page<P>(
    state: &AppState,
    request: &Request<P>,
    which: Page,
    (language, etag, mask): (i32, &str, Option<&prost_types::FieldMask>),
    field: impl Fn(&str) -> String,
) -> ApiResult<PageTexts> {
    let editor = editor(request)?;
    let language = edit_language(language)?;
    let paths = mask.map(|m| m.paths.as_slice()).unwrap_or_default();
    let changes: BTreeMap<&'static str, String> = pages::masked_fields(which, paths)?
        .into_iter()
        .map(|name| (name, field(name)))
        .collect();
    pages::update(state, editor, which, language, etag, changes).await
}

fn contact_message_to_proto(row: ContactMessageRow) -> pb::ContactMessage {
    pb::ContactMessage {
        id: row.id.to_string(),
        name: row.name,
        email: row.email,
        message: row.message,
        create_time: Some(timestamp(row.created_at)),
        read: row.read_at.is_some(),
        read_time: row.read_at.map(timestamp),
        sender_account_id: row
            .sender_account_id
            .map(|id| id.to_string())
            .unwrap_or_default(),
    }
}

/// Which legal page a call names.
fn legal_page(kind: i32) -> ApiResult<Page> {
    match pb::LegalPageKind::try_from(kind) {
        Ok(pb::LegalPageKind::Terms) => Ok(Page::Terms),
        Ok(pb::LegalPageKind::Privacy) => Ok(Page::Privacy),
        _ => Err(ApiError::invalid(
            "kind",
            "choose the terms or the privacy policy",
        )),
    }
}

fn legal_to_proto(kind: i32, texts: &PageTexts) -> pb::LegalPage {
    pb::LegalPage {
        kind,
        title: texts.get("title"),
        body: texts.get("body"),
        person_in_charge: texts.get("person_in_charge"),
    }
}

#[tonic::async_trait]
impl ContentService for ContentApi {
    async fn list_services(
        &self,
        request: Request<pb::ListServicesRequest>,
    ) -> Result<Response<pb::ListServicesResponse>, Status> {
        let include_archived = request.get_ref().include_archived;
        let caller = request.extensions().get::<crate::auth::Caller>();
        if include_archived && !access::may_see_archived_services(caller) {
            return Err(ApiError::PermissionDenied {
                reason: ErrorReason::RoleNotAllowed,
                message: "only admins see archived services".to_owned(),
            }
            .into());
        }
        let rows = catalogue::list(&self.state, include_archived).await?;
        Ok(Response::new(pb::ListServicesResponse {
            services: rows
                .into_iter()
                .map(|row| service_to_proto(&self.state, row))
                .collect(),
        }))
    }

    async fn get_service(
        &self,
        request: Request<pb::GetServiceRequest>,
    ) -> Result<Response<pb::GetServiceResponse>, Status> {
        let id = parse_id("id", &request.get_ref().id)?;
        let row = catalogue::get(&self.state, id).await?;
        Ok(Response::new(pb::GetServiceResponse {
            service: Some(service_to_proto(&self.state, row)),
        }))
    }

    async fn get_home_page(
        &self,
        request: Request<pb::GetHomePageRequest>,
    ) -> Result<Response<pb::GetHomePageResponse>, Status> {
        let language = read_language(request.get_ref().language);
        let texts = pages::read(&self.state, Page::Home, language).await?;
        Ok(Response::new(pb::GetHomePageResponse {
            page: Some(home_to_proto(&texts)),
            etag: texts.etag,
            update_time: texts.updated_at.map(timestamp),
        }))
    }

    async fn update_home_page(
        &self,
        request: Request<pb::UpdateHomePageRequest>,
    ) -> Result<Response<pb::UpdateHomePageResponse>, Status> {
        let r = request.get_ref();
        let page = r.page.clone().unwrap_or_default();
        let texts = update_page(
            &self.state,
            &request,
            Page::Home,
            (r.language, &r.etag, r.update_mask.as_ref()),
            |field| home_field(&page, field),
        )
        .await?;
        Ok(Response::new(pb::UpdateHomePageResponse {
            page: Some(home_to_proto(&texts)),
            etag: texts.etag,
            update_time: texts.updated_at.map(timestamp),
        }))
    }

    async fn get_professional_page(
        &self,
        request: Request<pb::GetProfessionalPageRequest>,
    ) -> Result<Response<pb::GetProfessionalPageResponse>, Status> {
        let language = read_language(request.get_ref().language);
        let texts = pages::read(&self.state, Page::Professional, language).await?;
        Ok(Response::new(pb::GetProfessionalPageResponse {
            page: Some(professional_to_proto(&texts)),
            etag: texts.etag,
            update_time: texts.updated_at.map(timestamp),
        }))
    }

    async fn update_professional_page(
        &self,
        request: Request<pb::UpdateProfessionalPageRequest>,
    ) -> Result<Response<pb::UpdateProfessionalPageResponse>, Status> {
        let r = request.get_ref();
        let page = r.page.clone().unwrap_or_default();
        let texts = update_page(
            &self.state,
            &request,
            Page::Professional,
            (r.language, &r.etag, r.update_mask.as_ref()),
            |field| professional_field(&page, field),
        )
        .await?;
        Ok(Response::new(pb::UpdateProfessionalPageResponse {
            page: Some(professional_to_proto(&texts)),
            etag: texts.etag,
            update_time: texts.updated_at.map(timestamp),
        }))
    }

    async fn send_contact_message(
        &self,
        request: Request<pb::SendContactMessageRequest>,
    ) -> Result<Response<pb::SendContactMessageResponse>, Status> {
        let sender = request.extensions().get::<crate::auth::Caller>().copied();
        let client = client_addr(&request, &self.state.config.trusted_proxies);
        let r = request.get_ref();
        let id =
            contact::send(&self.state, sender, client, (&r.name, &r.email, &r.message)).await?;
        Ok(Response::new(pb::SendContactMessageResponse {
            id: id.to_string(),
        }))
    }

    async fn list_contact_messages(
        &self,
        request: Request<pb::ListContactMessagesRequest>,
    ) -> Result<Response<pb::ListContactMessagesResponse>, Status> {
        let r = request.into_inner();
        let page = PageRequest::parse(r.page_size, &r.page_token)?;
        let (rows, unread) = contact::list(&self.state, &page, r.unread_only).await?;
        let (rows, next_page_token) = page.finish(rows, |m| (m.created_at, m.id));
        Ok(Response::new(pb::ListContactMessagesResponse {
            messages: rows.into_iter().map(contact_message_to_proto).collect(),
            next_page_token,
            unread_count: i32::try_from(unread).unwrap_or(i32::MAX),
        }))
    }

    async fn mark_contact_message_read(
        &self,
        request: Request<pb::MarkContactMessageReadRequest>,
    ) -> Result<Response<pb::MarkContactMessageReadResponse>, Status> {
        let admin = caller(&request)?;
        let r = request.get_ref();
        let id = parse_id("id", &r.id)?;
        let row = contact::mark_read(&self.state, admin.account_id, id, r.read).await?;
        Ok(Response::new(pb::MarkContactMessageReadResponse {
            message: Some(contact_message_to_proto(row)),
        }))
    }

    async fn get_legal_page(
        &self,
        request: Request<pb::GetLegalPageRequest>,
    ) -> Result<Response<pb::GetLegalPageResponse>, Status> {
        let r = request.get_ref();
        let page = legal_page(r.kind)?;
        let texts = pages::read(&self.state, page, read_language(r.language)).await?;
        Ok(Response::new(pb::GetLegalPageResponse {
            page: Some(legal_to_proto(r.kind, &texts)),
            etag: texts.etag,
            update_time: texts.updated_at.map(timestamp),
        }))
    }

    async fn update_legal_page(
        &self,
        request: Request<pb::UpdateLegalPageRequest>,
    ) -> Result<Response<pb::UpdateLegalPageResponse>, Status> {
        let admin = editor(&request)?;
        let r = request.get_ref();
        let language = edit_language(r.language)?;
        let new = r.page.clone().unwrap_or_default();
        let page = legal_page(new.kind)?;
        let mut v = Violations::default();
        let title = v.check("page.title", bounded_text(&new.title, "a title", 200));
        let body = v.check("page.body", bounded_text(&new.body, "the text", 20_000));
        let person_in_charge = match (page, new.person_in_charge.trim()) {
            (_, "") => None,
            (Page::Privacy, _) => v.check(
                "page.person_in_charge",
                bounded_text(&new.person_in_charge, "the person in charge", 500),
            ),
            (_, _) => v.check(
                "page.person_in_charge",
                Err("only the privacy page names a person in charge".to_owned()),
            ),
        };
        let (Some(title), Some(body), true) = (title, body, v.0.is_empty()) else {
            return Err(ApiError::invalid_fields(v.0).into());
        };
        let mut changes = BTreeMap::from([("title", title), ("body", body)]);
        if let Some(person) = person_in_charge {
            changes.insert("person_in_charge", person);
        }
        let texts = pages::update(&self.state, admin, page, language, &r.etag, changes).await?;
        Ok(Response::new(pb::UpdateLegalPageResponse {
            page: Some(legal_to_proto(new.kind, &texts)),
            etag: texts.etag,
            update_time: texts.updated_at.map(timestamp),
        }))
    }

    async fn delete_service(
        &self,
        request: Request<pb::DeleteServiceRequest>,
    ) -> Result<Response<pb::DeleteServiceResponse>, Status> {
        let admin = editor(&request)?;
        let r = request.get_ref();
        let id = parse_id("id", &r.id)?;
        let reply = match catalogue::remove(&self.state, admin, id, &r.etag).await? {
            Removed::Archived(row) => pb::DeleteServiceResponse {
                archived: true,
                service: Some(service_to_proto(&self.state, row)),
            },
            Removed::Deleted => pb::DeleteServiceResponse::default(),
        };
        Ok(Response::new(reply))
    }

    async fn create_service(
        &self,
        request: Request<pb::CreateServiceRequest>,
    ) -> Result<Response<pb::CreateServiceResponse>, Status> {
        let admin = editor(&request)?;
        let r = request.into_inner();
        let icon = (r.icon_content_type, r.icon);
        let form = service_form(r.name, r.description, icon, true);
        let row = catalogue::create(&self.state, admin, form).await?;
        Ok(Response::new(pb::CreateServiceResponse {
            service: Some(service_to_proto(&self.state, row)),
        }))
    }

    async fn update_service(
        &self,
        request: Request<pb::UpdateServiceRequest>,
    ) -> Result<Response<pb::UpdateServiceResponse>, Status> {
        let admin = editor(&request)?;
        let r = request.into_inner();
        let id = parse_id("id", &r.id)?;
        let icon = (r.icon_content_type, r.icon);
        let form = service_form(r.name, r.description, icon, r.active);
        let paths = r.update_mask.map(|mask| mask.paths).unwrap_or_default();
        let row = catalogue::update(&self.state, admin, (id, &r.etag), &paths, form).await?;
        Ok(Response::new(pb::UpdateServiceResponse {
            service: Some(service_to_proto(&self.state, row)),
        }))
    }

    async fn reorder_services(
        &self,
        request: Request<pb::ReorderServicesRequest>,
    ) -> Result<Response<pb::ReorderServicesResponse>, Status> {
        let admin = editor(&request)?;
        catalogue::reorder(&self.state, admin, &request.get_ref().service_ids).await?;
        let rows = catalogue::list(&self.state, false).await?;
        Ok(Response::new(pb::ReorderServicesResponse {
            services: rows
                .into_iter()
                .map(|row| service_to_proto(&self.state, row))
                .collect(),
        }))
    }

    async fn translate_text(
        &self,
        request: Request<pb::TranslateTextRequest>,
    ) -> Result<Response<pb::TranslateTextResponse>, Status> {
        let caller = caller(&request)?;
        let r = request.into_inner();
        let target = language_from_proto(r.target_language)
            .ok_or_else(|| ApiError::invalid("target_language", "choose English or French"))?;
        let texts = Texts::parse(r.texts)?;
        let source = language_from_proto(r.source_language);
        let translated = self
            .state
            .translation
            .translate(Payer::Account(caller.account_id), &texts, source, target)
            .await?;
        Ok(Response::new(pb::TranslateTextResponse {
            translations: translated
                .into_iter()
                .map(|t| pb::Translation {
                    text: t.text,
                    detected_source_language: t
                        .source
                        .map_or(types::Language::Unspecified, language_to_proto)
                        as i32,
                })
                .collect(),
        }))
    }
}
