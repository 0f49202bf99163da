//! Editing the service catalogue through ContentService on the running server, against a
//! real Postgres and Redis: creating (one language fills the other, names unique among the
//! active services), per-language updates under etags and update masks, icons checked against
//! their bytes and served through signed links, reordering (also under concurrency: the
//! active services always hold 1..n), archiving and bringing back, admins only, each change
//! audited. Removing: an unused service is deleted, one a professional offers is archived
//! (gone from the catalogue, listed for admins on request), a stale etag changes nothing.

use crate::helpers::{
    PDF, PNG, TestServer, admin_token,
    content::{Setup, mask, setup},
    reason, violated_fields, with_token,
};
use repairs_proto::{
    accounts::{ListAuditEventsRequest, accounts_service_client::AccountsServiceClient},
    content::{self as pb, content_service_client::ContentServiceClient},
    types::LocalizedText,
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

/// The catalogue as anyone sees it: the active services, in order.
async fn listed(content: &mut ContentServiceClient<Channel>) -> Vec<pb::Service> {
    catalogue(content, tonic::Request::new(Default::default())).await
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
    let services = listed(&mut content).await;
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
    assert_eq!(listed(&mut content).await.len(), services.len());

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
    let now = listed(&mut content).await;
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

fn texts(en: &str, fr: &str) -> Option<LocalizedText> {
    Some(LocalizedText {
        en: en.to_owned(),
        fr: fr.to_owned(),
    })
}

fn new_service(name_en: &str, name_fr: &str) -> pb::CreateServiceRequest {
    pb::CreateServiceRequest {
        name: texts(name_en, name_fr),
        description: texts("Locks opened and changed.", ""),
        ..Default::default()
    }
}

async fn create(
    content: &mut ContentServiceClient<Channel>,
    admin: &str,
    request: pb::CreateServiceRequest,
) -> Result<pb::Service, tonic::Status> {
    content
        .create_service(with_token(request, admin))
        .await
        .map(|reply| reply.into_inner().service.unwrap())
}

async fn update(
    content: &mut ContentServiceClient<Channel>,
    admin: &str,
    request: pb::UpdateServiceRequest,
) -> Result<pb::Service, tonic::Status> {
    content
        .update_service(with_token(request, admin))
        .await
        .map(|reply| reply.into_inner().service.unwrap())
}

async fn get(content: &mut ContentServiceClient<Channel>, id: &str) -> pb::Service {
    content
        .get_service(pb::GetServiceRequest { id: id.to_owned() })
        .await
        .unwrap()
        .into_inner()
        .service
        .unwrap()
}

/// The audit rows of `action`, oldest first.
async fn audit_rows(
    accounts: &mut AccountsServiceClient<Channel>,
    admin: &str,
    action: &str,
) -> Vec<repairs_proto::accounts::AuditEvent> {
    let mut events: Vec<_> = accounts
        .list_audit_events(with_token(ListAuditEventsRequest::default(), admin))
        .await
        .unwrap()
        .into_inner()
        .events
        .into_iter()
        .filter(|e| e.action == action)
        .collect();
    events.reverse();
    events
}

/// The active services' positions, in catalogue order.
async fn positions(content: &mut ContentServiceClient<Channel>) -> Vec<i32> {
    listed(content).await.iter().map(|s| s.position).collect()
}

#[tokio::test]
async fn a_new_service_comes_last_and_one_language_fills_the_other() {
    let Setup {
        server,
        mut content,
        mut accounts,
        admin,
    } = setup().await;
    let before = listed(&mut content).await;
    let created = create(&mut content, &admin, new_service("Locksmith", ""))
        .await
        .unwrap();
    assert_eq!(created.name, texts("Locksmith", "Locksmith"));
    assert_eq!(
        created.description,
        texts("Locks opened and changed.", "Locks opened and changed.")
    );
    assert!(created.active && created.icon_url.is_empty());
    assert_eq!(created.position, before.len() as i32 + 1);
    let after = listed(&mut content).await;
    assert_eq!(after.last().unwrap().id, created.id);

    // Names are unique among the active services in each language, whatever the case.
    let taken = create(
        &mut content,
        &admin,
        new_service("PLUMBING services", "Plomberie"),
    )
    .await
    .unwrap_err();
    assert_eq!(
        (taken.code(), reason(&taken).as_str()),
        (Code::AlreadyExists, "SERVICE_NAME_TAKEN")
    );
    let taken = create(&mut content, &admin, new_service("Locks", "locksmith"))
        .await
        .unwrap_err();
    assert_eq!(reason(&taken), "SERVICE_NAME_TAKEN");
    // No name at all, or too long a one: field violations.
    let nameless = create(&mut content, &admin, new_service(" ", ""))
        .await
        .unwrap_err();
    assert_eq!(nameless.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&nameless), ["name.en", "name.fr"]);
    let long = create(&mut content, &admin, new_service(&"a".repeat(101), "Long"))
        .await
        .unwrap_err();
    assert_eq!(violated_fields(&long), ["name.en"]);
    assert_eq!(listed(&mut content).await.len(), after.len());

    let rows = audit_rows(&mut accounts, &admin, "service.create").await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].target_id, created.id);
    assert!(rows[0].before_json.is_empty());
    let after_json: serde_json::Value = serde_json::from_str(&rows[0].after_json).unwrap();
    assert_eq!(after_json["name_fr"], "Locksmith");
    server.stop().await;
}

#[tokio::test]
async fn french_names_are_stored_typeset_the_shipped_ones_too() {
    let Setup {
        server,
        mut content,
        admin,
        ..
    } = setup().await;
    // The shipped catalogue's, brought in line by its migration.
    let shipped = listed(&mut content).await;
    let french: Vec<&str> = shipped
        .iter()
        .filter_map(|service| service.name.as_ref().map(|name| name.fr.as_str()))
        .collect();
    assert!(french.contains(&"Services d’extermination"), "{french:?}");
    assert!(!french.iter().any(|name| name.contains('\'')), "{french:?}");
    // An admin's, as typed: the French one typeset, the English one as it is.
    let created = create(
        &mut content,
        &admin,
        new_service("Mike's Locksmiths", "Serrurerie d'urgence"),
    )
    .await
    .unwrap();
    assert_eq!(
        created.name,
        texts("Mike's Locksmiths", "Serrurerie d’urgence")
    );
    server.stop().await;
}

#[tokio::test]
async fn a_french_name_update_leaves_english_alone_and_a_stale_etag_changes_nothing() {
    let Setup {
        server,
        mut content,
        mut accounts,
        admin,
    } = setup().await;
    let plumbing = listed(&mut content).await[0].clone();
    let request = |paths: &[&str], etag: &str| pb::UpdateServiceRequest {
        id: plumbing.id.clone(),
        // Both languages sent; only what the mask names is read.
        name: texts("Ignored", "Plomberie d'urgence"),
        description: texts("Ignored too", "Ignorée"),
        etag: etag.to_owned(),
        update_mask: mask(paths),
        ..Default::default()
    };
    let updated = update(&mut content, &admin, request(&["name.fr"], &plumbing.etag))
        .await
        .unwrap();
    // Stored typeset, as every French name.
    assert_eq!(
        updated.name,
        texts("Plumbing Services", "Plomberie d’urgence")
    );
    assert_eq!(updated.description, plumbing.description);
    assert_eq!(updated.position, plumbing.position);
    assert_ne!(updated.etag, plumbing.etag);

    // The etag read before that change is stale now: refused, nothing changed.
    let stale = update(
        &mut content,
        &admin,
        request(&["description"], &plumbing.etag),
    )
    .await
    .unwrap_err();
    assert_eq!(
        (stale.code(), reason(&stale).as_str()),
        (Code::FailedPrecondition, "ETAG_MISMATCH")
    );
    assert_eq!(get(&mut content, &plumbing.id).await, updated);

    // Masks: empty or unknown paths are refused; an emptied name is refused, not copied.
    for paths in [&[][..], &["position"], &["name.de"], &["name", "etag"]] {
        let status = update(&mut content, &admin, request(paths, ""))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{paths:?}");
        assert_eq!(violated_fields(&status), ["update_mask"], "{paths:?}");
    }
    let emptied = update(
        &mut content,
        &admin,
        pb::UpdateServiceRequest {
            name: texts("", "Plomberie"),
            ..request(&["name.en"], "")
        },
    )
    .await
    .unwrap_err();
    assert_eq!(violated_fields(&emptied), ["name.en"]);
    // Another active service's name, in any case, is taken.
    let carpenter = update(
        &mut content,
        &admin,
        pb::UpdateServiceRequest {
            name: texts("carpenter SERVICES", ""),
            ..request(&["name.en"], "")
        },
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&carpenter), "SERVICE_NAME_TAKEN");
    assert_eq!(get(&mut content, &plumbing.id).await, updated);

    let rows = audit_rows(&mut accounts, &admin, "service.update").await;
    assert_eq!(rows.len(), 1);
    let before: serde_json::Value = serde_json::from_str(&rows[0].before_json).unwrap();
    let after: serde_json::Value = serde_json::from_str(&rows[0].after_json).unwrap();
    assert_eq!(before["name_fr"], "Services de plomberie");
    assert_eq!(after["name_fr"], "Plomberie d’urgence");
    assert_eq!(after["name_en"], "Plumbing Services");
    server.stop().await;
}

/// The bytes and content type behind a service's icon link (under the default PUBLIC_URL),
/// through the server's file route.
async fn download(server: &TestServer, icon_url: &str) -> (u16, String, Vec<u8>) {
    let path = icon_url
        .strip_prefix("http://127.0.0.1:8080")
        .unwrap_or_else(|| panic!("{icon_url} is not under PUBLIC_URL"));
    let response = reqwest::get(format!("http://{}{path}", server.server.http_addr))
        .await
        .unwrap();
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (
        status,
        content_type,
        response.bytes().await.unwrap().to_vec(),
    )
}

#[tokio::test]
async fn icons_are_checked_against_their_bytes_and_served_through_signed_links() {
    let Setup {
        server,
        mut content,
        admin,
        ..
    } = setup().await;
    let with_icon = |content_type: &str, icon: &[u8]| pb::CreateServiceRequest {
        icon_content_type: content_type.to_owned(),
        icon: icon.to_vec(),
        ..new_service("Glazier", "Vitrier")
    };
    // A PDF said to be a PNG, a PDF, a PNG over 1 MiB: refused, nothing created.
    let liar = create(&mut content, &admin, with_icon("image/png", PDF))
        .await
        .unwrap_err();
    assert_eq!(
        (liar.code(), reason(&liar).as_str()),
        (Code::InvalidArgument, "FILE_TYPE_MISMATCH")
    );
    assert_eq!(violated_fields(&liar), ["icon"]);
    let pdf = create(&mut content, &admin, with_icon("application/pdf", PDF))
        .await
        .unwrap_err();
    assert_eq!(reason(&pdf), "FILE_TYPE_NOT_ALLOWED");
    let mut big = PNG.to_vec();
    big.resize(1024 * 1024 + 1, 0);
    let too_large = create(&mut content, &admin, with_icon("image/png", &big))
        .await
        .unwrap_err();
    assert_eq!(
        (too_large.code(), reason(&too_large).as_str()),
        (Code::ResourceExhausted, "FILE_TOO_LARGE")
    );
    assert!(
        !listed(&mut content)
            .await
            .iter()
            .any(|s| s.name.as_ref().unwrap().en == "Glazier")
    );

    // Exactly 1 MiB is fine; the icon is served through its signed link.
    big.truncate(1024 * 1024);
    let glazier = create(&mut content, &admin, with_icon("image/png", &big))
        .await
        .unwrap();
    assert!(
        glazier
            .icon_url
            .starts_with("http://127.0.0.1:8080/files/services/"),
        "{}",
        glazier.icon_url
    );
    assert_eq!(
        download(&server, &glazier.icon_url).await,
        (200, "image/png".to_owned(), big.clone())
    );
    // A link whose signature was tampered with is refused.
    let forged = glazier.icon_url.replace("sig=", "sig=0");
    assert_eq!(download(&server, &forged).await.0, 403);

    // A new icon replaces the old one (whose file goes); empty bytes remove it.
    let new_icon = update(
        &mut content,
        &admin,
        pb::UpdateServiceRequest {
            id: glazier.id.clone(),
            icon_content_type: "image/png".to_owned(),
            icon: PNG.to_vec(),
            update_mask: mask(&["icon"]),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_ne!(new_icon.icon_url, glazier.icon_url);
    assert_eq!(download(&server, &new_icon.icon_url).await.2, PNG);
    assert_eq!(download(&server, &glazier.icon_url).await.0, 404);
    assert_eq!(new_icon.name, glazier.name);
    let removed = update(
        &mut content,
        &admin,
        pb::UpdateServiceRequest {
            id: glazier.id.clone(),
            update_mask: mask(&["icon"]),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert!(removed.icon_url.is_empty());
    assert_eq!(download(&server, &new_icon.icon_url).await.0, 404);
    server.stop().await;
}

#[tokio::test]
async fn a_new_order_names_every_active_service_once() {
    let Setup {
        server,
        mut content,
        mut accounts,
        admin,
    } = setup().await;
    let services = listed(&mut content).await;
    let ids: Vec<String> = services.iter().map(|s| s.id.clone()).collect();
    // One archived through an update: it may not be named in the order any more.
    let archived = update(
        &mut content,
        &admin,
        pb::UpdateServiceRequest {
            id: ids[2].clone(),
            active: false,
            update_mask: mask(&["active"]),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert!(!archived.active);
    assert_eq!(
        positions(&mut content).await,
        (1..ids.len() as i32).collect::<Vec<_>>()
    );
    let active: Vec<String> = ids.iter().filter(|id| **id != ids[2]).cloned().collect();
    let reorder =
        |service_ids: Vec<String>| with_token(pb::ReorderServicesRequest { service_ids }, &admin);
    let missing = active[1..].to_vec();
    let repeated = [&active[..], &active[..1]].concat();
    let with_archived = [&active[..], &[ids[2].clone()]].concat();
    let unknown = [&active[1..], &[Uuid::now_v7().to_string()]].concat();
    for wrong in [missing, repeated, with_archived, unknown] {
        let status = content.reorder_services(reorder(wrong)).await.unwrap_err();
        assert_eq!(
            (status.code(), reason(&status).as_str()),
            (Code::InvalidArgument, "SERVICE_ORDER_INCOMPLETE")
        );
    }
    let reversed: Vec<String> = active.iter().rev().cloned().collect();
    let reply = content
        .reorder_services(reorder(reversed.clone()))
        .await
        .unwrap()
        .into_inner();
    let listed: Vec<(String, i32)> = reply
        .services
        .iter()
        .map(|s| (s.id.clone(), s.position))
        .collect();
    let expected: Vec<(String, i32)> = reversed.iter().cloned().zip(1..).collect();
    assert_eq!(listed, expected);
    let all = catalogue(
        &mut content,
        with_token(
            pb::ListServicesRequest {
                include_archived: true,
            },
            &admin,
        ),
    )
    .await;
    assert_eq!(all.last().unwrap().id, ids[2]);
    assert_eq!(all.last().unwrap().position, ids.len() as i32);

    let rows = audit_rows(&mut accounts, &admin, "service.reorder").await;
    assert_eq!(rows.len(), 1);
    let after: Vec<String> = serde_json::from_str(&rows[0].after_json).unwrap();
    assert_eq!(after, reversed);
    server.stop().await;
}

#[tokio::test]
async fn concurrent_reorders_and_creates_leave_positions_one_to_n() {
    let Setup {
        server,
        content,
        admin,
        ..
    } = setup().await;
    let mut reader = content.clone();
    let ids: Vec<String> = listed(&mut reader)
        .await
        .into_iter()
        .map(|s| s.id)
        .collect();
    let mut calls = tokio::task::JoinSet::new();
    for round in 0..12 {
        let mut content = content.clone();
        let admin = admin.clone();
        let mut order = ids.clone();
        order.rotate_left(round % ids.len());
        calls.spawn(async move {
            if round % 4 == 3 {
                let name = format!("Service {round}");
                create(&mut content, &admin, new_service(&name, ""))
                    .await
                    .map(|_| ())
            } else {
                content
                    .reorder_services(with_token(
                        pb::ReorderServicesRequest { service_ids: order },
                        &admin,
                    ))
                    .await
                    .map(|_| ())
            }
        });
    }
    let mut done = 0;
    while let Some(result) = calls.join_next().await {
        match result.unwrap() {
            Ok(()) => done += 1,
            // A reorder that started before a create committed no longer names every service.
            Err(status) => assert_eq!(reason(&status), "SERVICE_ORDER_INCOMPLETE", "{status:?}"),
        }
    }
    assert!(done >= 3, "at least the creates succeed");
    let now = positions(&mut reader).await;
    assert_eq!(now, (1..=now.len() as i32).collect::<Vec<_>>());
    assert_eq!(now.len(), ids.len() + 3);
    server.stop().await;
}

#[tokio::test]
async fn an_archived_service_brought_back_comes_last() {
    let Setup {
        server,
        mut content,
        admin,
        ..
    } = setup().await;
    let services = listed(&mut content).await;
    let first = services[0].clone();
    let (professional, _) = server.account_token(Role::Professional).await;
    sqlx::query(
        "insert into professional_services (professional_id, service_id) values ($1, $2::uuid)",
    )
    .bind(professional)
    .bind(&first.id)
    .execute(&server.server.state.db)
    .await
    .unwrap();
    let archived = content
        .delete_service(with_token(
            pb::DeleteServiceRequest {
                id: first.id.clone(),
                etag: first.etag.clone(),
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(archived.archived);
    // The others close the gap.
    assert_eq!(
        positions(&mut content).await,
        (1..services.len() as i32).collect::<Vec<_>>()
    );
    let back = update(
        &mut content,
        &admin,
        pb::UpdateServiceRequest {
            id: first.id.clone(),
            etag: archived.service.unwrap().etag,
            active: true,
            update_mask: mask(&["active"]),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert!(back.active);
    assert_eq!(back.position, services.len() as i32);
    let now = listed(&mut content).await;
    assert_eq!(now.last().unwrap().id, first.id);
    assert_eq!(now.len(), services.len());
    server.stop().await;
}

#[tokio::test]
async fn only_admins_edit_the_catalogue() {
    let Setup {
        server,
        mut content,
        ..
    } = setup().await;
    let (_, customer) = server.account_token(Role::Customer).await;
    let (_, professional) = server.account_token(Role::Professional).await;
    let id = listed(&mut content).await[0].id.clone();
    let edit = pb::UpdateServiceRequest {
        id: id.clone(),
        name: texts("Mine", ""),
        update_mask: mask(&["name.en"]),
        ..Default::default()
    };
    let order = pb::ReorderServicesRequest {
        service_ids: vec![id.clone()],
    };
    for token in [&customer, &professional] {
        let refused = [
            content
                .create_service(with_token(new_service("Mine", ""), token))
                .await
                .unwrap_err(),
            content
                .update_service(with_token(edit.clone(), token))
                .await
                .unwrap_err(),
            content
                .reorder_services(with_token(order.clone(), token))
                .await
                .unwrap_err(),
        ];
        assert!(refused.iter().all(|s| s.code() == Code::PermissionDenied));
    }
    let anonymous = [
        content
            .create_service(new_service("Mine", ""))
            .await
            .unwrap_err(),
        content.update_service(edit).await.unwrap_err(),
        content.reorder_services(order).await.unwrap_err(),
    ];
    assert!(anonymous.iter().all(|s| s.code() == Code::Unauthenticated));
    assert_eq!(
        get(&mut content, &id).await.name.unwrap().en,
        "Plumbing Services"
    );
    server.stop().await;
}
