//! ContentService. Built: the service catalogue (read). Editing the catalogue, the page
//! texts, the contact form and translation answer UNIMPLEMENTED until their issue.

use repairs_proto::{
    content::{self as pb, content_service_server::ContentService},
    types::LocalizedText,
};
use tonic::{Request, Response, Status};

use super::convert::timestamp;
use crate::{
    accounts::{not_found, parse_id},
    error::ApiError,
    state::AppState,
    store::services::{self, ServiceRow},
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
        etag: row.updated_at.timestamp_micros().to_string(),
        // Every service is offered until services can be archived.
        active: true,
        update_time: Some(timestamp(row.updated_at)),
    }
}

#[tonic::async_trait]
impl ContentService for ContentApi {
    async fn list_services(
        &self,
        _request: Request<pb::ListServicesRequest>,
    ) -> Result<Response<pb::ListServicesResponse>, Status> {
        let rows = services::list(&self.state.db)
            .await
            .map_err(ApiError::from)?;
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
        let row = services::get(&self.state.db, id)
            .await
            .map_err(ApiError::from)?
            .ok_or_else(|| not_found("service"))?;
        Ok(Response::new(pb::GetServiceResponse {
            service: Some(service_to_proto(&self.state, row)),
        }))
    }
}
