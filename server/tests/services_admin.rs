//! Removing services through ContentService on the running server, against a real Postgres
//! and Redis: an unused service is deleted, one a professional offers is archived (gone from
//! the catalogue, listed for admins on request, refused for new requests' drafts), a stale
//! etag changes nothing, and both are audited.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test crate: failures should panic"
)]

mod common;

use common::{TestServer, admin_token, reason, with_token};
use repairs_proto::{
    accounts::{ListAuditEventsRequest, accounts_service_client::AccountsServiceClient},
    content::{self as pb, content_service_client::ContentServiceClient},
};
use repairs_server::domain::Role;
use tonic::{Code, transport::Channel};
use uuid::Uuid;

async fn catalogue(
    content: &mut ContentServiceClient<Channel>,
    request: tonic::Request<pb::ListServicesRequest>,
) -> Vec<pb::Service> {
    content
        .list_services(request)
        .await
        .unwrap()
        .into_inner()
        .services
}

#[tokio::test]
async fn a_used_service_is_archived_and_an_unused_one_deleted() {
    let server = TestServer::start().await;
    let db = &server.server.state.db;
    let channel = server.channel().await;
    let mut content = ContentServiceClient::new(channel.clone());
    let mut accounts = AccountsServiceClient::new(channel);
    let admin = admin_token(&server, &mut accounts).await;

    let unused = Uuid::now_v7();
    sqlx::query(
        "insert into services (id, position, name_en, name_fr) values ($1, 99, 'Locksmith', 'Serrurier')",
    )
    .bind(unused)
    .execute(db)
    .await
    .unwrap();
    let services = catalogue(&mut content, tonic::Request::new(Default::default())).await;
    let used = services[0].clone();
    let (professional, _) = server.account_token(Role::Professional).await;
    sqlx::query(
        "insert into professional_services (professional_id, service_id) values ($1, $2::uuid)",
    )
    .bind(professional)
    .bind(&used.id)
    .execute(db)
    .await
    .unwrap();

    let delete = |id: &str, etag: &str| {
        with_token(
            pb::DeleteServiceRequest {
                id: id.to_owned(),
                etag: etag.to_owned(),
            },
            &admin,
        )
    };
    // A stale etag: refused, nothing changes.
    let status = content
        .delete_service(delete(&used.id, "1"))
        .await
        .unwrap_err();
    assert_eq!(reason(&status), "ETAG_MISMATCH");
    assert_eq!(
        catalogue(&mut content, tonic::Request::new(Default::default()))
            .await
            .len(),
        services.len()
    );

    let archived = content
        .delete_service(delete(&used.id, &used.etag))
        .await
        .unwrap()
        .into_inner();
    assert!(archived.archived);
    assert!(!archived.service.unwrap().active);
    let deleted = content
        .delete_service(delete(&unused.to_string(), ""))
        .await
        .unwrap()
        .into_inner();
    assert!(!deleted.archived && deleted.service.is_none());

    // The catalogue: neither, for everyone; the archived one for admins on request.
    let now = catalogue(&mut content, tonic::Request::new(Default::default())).await;
    assert_eq!(now.len(), services.len() - 2);
    assert!(now.iter().all(|s| s.id != used.id && s.active));
    let request = pb::ListServicesRequest {
        include_archived: true,
    };
    let all = catalogue(&mut content, with_token(request, &admin)).await;
    assert_eq!(all.last().unwrap().id, used.id);
    assert!(!all.iter().any(|s| s.id == unused.to_string()));
    let status = content.list_services(request).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    // The archived service is still readable by id; the deleted one is gone.
    content
        .get_service(pb::GetServiceRequest {
            id: used.id.clone(),
        })
        .await
        .unwrap();
    let status = content
        .get_service(pb::GetServiceRequest {
            id: unused.to_string(),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);

    let events = accounts
        .list_audit_events(with_token(ListAuditEventsRequest::default(), &admin))
        .await
        .unwrap()
        .into_inner()
        .events;
    let archive = events
        .iter()
        .find(|e| e.action == "service.archive")
        .unwrap();
    assert_eq!(archive.target_id, used.id);
    let after: serde_json::Value = serde_json::from_str(&archive.after_json).unwrap();
    assert_eq!(after["active"], false);
    let removal = events
        .iter()
        .find(|e| e.action == "service.delete")
        .unwrap();
    assert!(removal.before_json.contains("Locksmith") && removal.after_json.is_empty());
    server.stop().await;
}
