//! Service accounts against the running server: an admin makes one with scopes and its key,
//! the service calls with `authorization: Bearer <key>` and reaches exactly what its scopes
//! open; a revoked key is refused at once by every replica; a rotated key works through its
//! grace period and not after; calls are limited per account and counted under it.

use std::time::{Duration, Instant};

use repairs_proto::{
    accounts::{self as acc, accounts_service_client::AccountsServiceClient},
    billing::{self as bill, billing_service_client::BillingServiceClient},
    content::{self as cms, content_service_client::ContentServiceClient},
    marketplace::{self as mkt, marketplace_service_client::MarketplaceServiceClient},
    types::Language,
};
use repairs_server::testing::scrape::{metric, scrape};
use tonic::{Code, Status, transport::Channel};
use uuid::Uuid;

use crate::helpers::{
    self, AccountsClient, TestServer, admin_token,
    market::{CALGARY_PRO, Stage, customer, db, job_at, professional},
    reason, violated_fields, with_token,
};

/// An admin's new service account: its id and its key.
async fn service_account(
    accounts: &mut AccountsClient,
    admin: &str,
    name: &str,
    scopes: &[&str],
) -> (String, String) {
    let made = accounts
        .create_service_account(with_token(
            acc::CreateServiceAccountRequest {
                name: name.into(),
                scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
            },
            admin,
        ))
        .await
        .unwrap()
        .into_inner();
    let account = made.service_account.unwrap();
    assert_eq!(account.name, name);
    assert!(made.key.starts_with("rsk_"), "{}", made.key);
    (account.id, made.key)
}

async fn list_orders(channel: Channel, key: &str) -> Result<Vec<bill::Order>, Status> {
    BillingServiceClient::new(channel)
        .list_orders(with_token(bill::ListOrdersRequest::default(), key))
        .await
        .map(|r| r.into_inner().orders)
}

async fn audit_events(channel: Channel, key: &str) -> Result<Vec<acc::AuditEvent>, Status> {
    AccountsServiceClient::new(channel)
        .list_audit_events(with_token(acc::ListAuditEventsRequest::default(), key))
        .await
        .map(|r| r.into_inner().events)
}

fn home_page_edit(banner: &str) -> cms::UpdateHomePageRequest {
    cms::UpdateHomePageRequest {
        language: Language::En as i32,
        page: Some(cms::HomePage {
            banner_h1: banner.into(),
            ..Default::default()
        }),
        etag: String::new(),
        update_mask: Some(prost_types::FieldMask {
            paths: vec!["banner_h1".into()],
        }),
    }
}

fn refused(result: Result<impl std::fmt::Debug, Status>) -> (Code, String) {
    let status = result.unwrap_err();
    (status.code(), reason(&status))
}

#[tokio::test]
async fn a_reporting_service_reads_orders_and_is_refused_an_edit() {
    let server = TestServer::start().await;
    let channel = server.channel().await;
    let mut accounts = AccountsClient::new(channel.clone());
    let admin = admin_token(&server, &mut accounts).await;
    let (_, customer_token) = customer(&server).await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let (request, order) = job_at(&server, &customer_token, &pro_token, Stage::Hired).await;

    let (report_id, report) = service_account(
        &mut accounts,
        &admin,
        "Monthly report",
        &["orders.read", "requests.read"],
    )
    .await;
    // Every order, though the service is party to none.
    let orders = list_orders(channel.clone(), &report).await.unwrap();
    assert_eq!(
        orders.iter().map(|o| o.id.as_str()).collect::<Vec<_>>(),
        [order.id.as_str()]
    );
    let requests = MarketplaceServiceClient::new(channel.clone())
        .list_repair_requests(with_token(
            mkt::ListRepairRequestsRequest::default(),
            &report,
        ))
        .await
        .unwrap()
        .into_inner()
        .repair_requests;
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].id, request.id);

    // An edit, an admin's list without a scope, a customer's record: refused by the table.
    let mut content = ContentServiceClient::new(channel.clone());
    let edit = content
        .update_home_page(with_token(home_page_edit("Reported"), &report))
        .await;
    assert_eq!(
        refused(edit),
        (Code::PermissionDenied, "SERVICE_SCOPE_MISSING".into())
    );
    let customers = accounts
        .list_customers(with_token(acc::ListCustomersRequest::default(), &report))
        .await;
    assert_eq!(
        refused(customers),
        (Code::PermissionDenied, "SERVICE_SCOPE_MISSING".into())
    );
    assert_eq!(
        refused(audit_events(channel.clone(), &report).await),
        (Code::PermissionDenied, "SERVICE_SCOPE_MISSING".into())
    );
    let creating = accounts
        .create_service_account(with_token(
            acc::CreateServiceAccountRequest {
                name: "Escalated".into(),
                scopes: vec!["content.write".into()],
            },
            &report,
        ))
        .await;
    assert_eq!(
        refused(creating),
        (Code::PermissionDenied, "SERVICE_SCOPE_MISSING".into())
    );

    // A key that is not one, or a wrong secret behind a real id, is no key at all.
    let wrong_secret = format!("{}{}", &report[..report.len() - 4], "AAAA");
    for key in ["rsk_nothing", wrong_secret.as_str()] {
        assert_eq!(
            refused(list_orders(channel.clone(), key).await),
            (Code::Unauthenticated, "SERVICE_KEY_INVALID".into()),
            "{key}"
        );
    }

    // The content service edits pages, audited under its own name; audit.read reads it.
    let (editor_id, editor) = service_account(
        &mut accounts,
        &admin,
        "Content sync",
        &["content.write", "audit.read"],
    )
    .await;
    content
        .update_home_page(with_token(home_page_edit("Synced"), &editor))
        .await
        .unwrap();
    let events = audit_events(channel.clone(), &editor).await.unwrap();
    let edit = events
        .iter()
        .find(|e| e.action == "home_page.update")
        .unwrap();
    assert_eq!(edit.service_account_id, editor_id);
    assert_eq!(edit.service_account_name, "Content sync");
    assert_eq!(edit.admin_id, "");
    // Creating each account is audited, under the admin, without the key.
    let created: Vec<&acc::AuditEvent> = events
        .iter()
        .filter(|e| e.action == "service_account.create")
        .collect();
    assert_eq!(created.len(), 2);
    for key in [&report, &editor] {
        let secret = key.rsplit('_').next().unwrap();
        assert!(created.iter().all(|e| !e.after_json.contains(secret)));
    }

    // Every use is attributable: the keys' last use, and the metrics under each account.
    let listed = accounts
        .list_service_accounts(with_token(
            acc::ListServiceAccountsRequest::default(),
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .service_accounts;
    assert_eq!(listed.len(), 2);
    assert!(listed.iter().all(|a| a.last_used_time.is_some()));
    let text = scrape(&format!("http://{}/metrics", server.server.http_addr)).await;
    let calls = |account: &str, method: &str, outcome: &str| {
        metric(
            &text,
            "repairs_service_account_calls_total",
            &[
                ("service_account", account),
                ("grpc_method", method),
                ("outcome", outcome),
            ],
        )
    };
    assert_eq!(calls(&report_id, "ListOrders", "admitted"), Some(1.0));
    assert_eq!(
        calls(&report_id, "UpdateHomePage", "scope_missing"),
        Some(1.0)
    );
    assert_eq!(calls(&editor_id, "UpdateHomePage", "admitted"), Some(1.0));
    server.stop().await;
}

#[tokio::test]
async fn a_revoked_key_is_refused_within_a_second_on_every_replica() {
    let server = TestServer::start().await;
    // A second server process on the same database and Redis.
    let other_dir = tempfile::tempdir().unwrap();
    let mut other_config = (*server.server.state.config).clone();
    other_config.data_dir = other_dir.path().to_path_buf();
    let other = repairs_server::start(other_config).await.unwrap();
    let replicas = [
        server.channel().await,
        helpers::channel_to(other.grpc_addr).await,
    ];

    let mut accounts = AccountsClient::new(replicas[0].clone());
    let admin = admin_token(&server, &mut accounts).await;
    let (id, key) = service_account(&mut accounts, &admin, "Audit export", &["audit.read"]).await;
    // Both replicas know the key (and hold it in their cache).
    for channel in &replicas {
        audit_events(channel.clone(), &key).await.unwrap();
    }

    let revoked = accounts
        .revoke_service_account(with_token(
            acc::RevokeServiceAccountRequest { id: id.clone() },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .service_account
        .unwrap();
    let since = Instant::now();
    assert!(revoked.revoke_time.is_some());
    for channel in replicas.iter().rev() {
        assert_eq!(
            refused(audit_events(channel.clone(), &key).await),
            (Code::Unauthenticated, "SERVICE_ACCOUNT_REVOKED".into())
        );
    }
    assert!(
        since.elapsed() < Duration::from_secs(1),
        "{:?}",
        since.elapsed()
    );

    // A revoked account stays revoked: neither rotated nor revoked again.
    let again = accounts
        .revoke_service_account(with_token(
            acc::RevokeServiceAccountRequest { id: id.clone() },
            &admin,
        ))
        .await;
    assert_eq!(
        refused(again),
        (Code::FailedPrecondition, "SERVICE_ACCOUNT_REVOKED".into())
    );
    let rotated = accounts
        .rotate_service_account_key(with_token(
            acc::RotateServiceAccountKeyRequest { id: id.clone() },
            &admin,
        ))
        .await;
    assert_eq!(
        refused(rotated),
        (Code::FailedPrecondition, "SERVICE_ACCOUNT_REVOKED".into())
    );
    let unknown = accounts
        .revoke_service_account(with_token(
            acc::RevokeServiceAccountRequest {
                id: Uuid::now_v7().to_string(),
            },
            &admin,
        ))
        .await;
    assert_eq!(refused(unknown).0, Code::NotFound);
    let actions: Vec<String> = sqlx::query_scalar(
        "select action from audit_events where target_id = $1 order by created_at, id",
    )
    .bind(&id)
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(
        actions,
        ["service_account.create", "service_account.revoke"]
    );
    other.stop().await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn a_rotated_key_works_during_the_grace_period_and_not_after() {
    let server = TestServer::start_with(|config| {
        config.service_key_grace = Duration::from_secs(2);
    })
    .await;
    let channel = server.channel().await;
    let mut accounts = AccountsClient::new(channel.clone());
    let admin = admin_token(&server, &mut accounts).await;
    let (id, old) = service_account(&mut accounts, &admin, "Reporting", &["orders.read"]).await;
    list_orders(channel.clone(), &old).await.unwrap();

    let rotated = accounts
        .rotate_service_account_key(with_token(
            acc::RotateServiceAccountKeyRequest { id: id.clone() },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner();
    let new = rotated.key;
    assert_ne!(new, old);
    let keys = rotated.service_account.unwrap().keys;
    assert_eq!(keys.len(), 2);
    assert!(keys[0].expire_time.is_none(), "the new key is current");
    let grace_end = keys[1].expire_time.unwrap();
    assert!(old.starts_with(&keys[1].key_prefix));

    // Both work during the grace period...
    list_orders(channel.clone(), &old).await.unwrap();
    list_orders(channel.clone(), &new).await.unwrap();
    // ...and the old one not after it.
    let end =
        std::time::UNIX_EPOCH + Duration::from_secs(u64::try_from(grace_end.seconds).unwrap() + 1);
    if let Ok(wait) = end.duration_since(std::time::SystemTime::now()) {
        tokio::time::sleep(wait).await;
    }
    assert_eq!(
        refused(list_orders(channel.clone(), &old).await),
        (Code::Unauthenticated, "SERVICE_KEY_EXPIRED".into())
    );
    list_orders(channel.clone(), &new).await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn calls_are_limited_per_service_account_and_bad_forms_refused() {
    let server = TestServer::start_with(|config| {
        config.service_account_calls_per_minute = 3;
    })
    .await;
    let channel = server.channel().await;
    let mut accounts = AccountsClient::new(channel.clone());
    let admin = admin_token(&server, &mut accounts).await;
    let (_, busy) = service_account(&mut accounts, &admin, "Busy", &["orders.read"]).await;
    let (_, calm) = service_account(&mut accounts, &admin, "Calm", &["orders.read"]).await;

    // Five at once: the counter is taken before the check, so exactly three pass.
    let calls = (0..5).map(|_| list_orders(channel.clone(), &busy));
    let results = futures::future::join_all(calls).await;
    let passed = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(passed, 3, "{results:?}");
    for result in results.into_iter().filter(Result::is_err) {
        let status = result.unwrap_err();
        assert_eq!(
            (status.code(), reason(&status).as_str()),
            (Code::ResourceExhausted, "SERVICE_ACCOUNT_RATE_LIMITED")
        );
    }
    // Another account has its own limit.
    list_orders(channel.clone(), &calm).await.unwrap();

    let bad = accounts
        .create_service_account(with_token(
            acc::CreateServiceAccountRequest {
                name: " ".into(),
                scopes: vec!["orders.write".into()],
            },
            &admin,
        ))
        .await
        .unwrap_err();
    assert_eq!(bad.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&bad), ["name", "scopes"]);
    server.stop().await;
}

#[tokio::test]
async fn orders_read_shows_no_one_s_contacts_and_contacts_read_is_audited_at_each_use() {
    let server = TestServer::start().await;
    let channel = server.channel().await;
    let mut accounts = AccountsClient::new(channel.clone());
    let admin = admin_token(&server, &mut accounts).await;
    let (_, customer_token) = customer(&server).await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let (_, order) = job_at(&server, &customer_token, &pro_token, Stage::Hired).await;
    let full = order.contacts.clone().unwrap();
    assert!(!full.customer.as_ref().unwrap().email.is_empty());

    let (_, report) = service_account(&mut accounts, &admin, "Report", &["orders.read"]).await;
    let (support_id, support) = service_account(
        &mut accounts,
        &admin,
        "Support desk",
        &["orders.read", "contacts.read"],
    )
    .await;

    // orders.read: the order, its amounts and city, nobody's name, contacts or street.
    let lean = list_orders(channel.clone(), &report).await.unwrap();
    let lean = &lean[0];
    assert_eq!(lean.id, order.id);
    assert!(lean.payment.is_some());
    assert_eq!(
        (lean.customer_name.as_str(), lean.professional_name.as_str()),
        ("", "")
    );
    let contacts = lean.contacts.clone().unwrap();
    assert_eq!((contacts.customer, contacts.professional), (None, None));
    let address = contacts.address.unwrap();
    let expected = full.address.clone().unwrap();
    assert_eq!(
        (address.city, address.province),
        (expected.city, expected.province)
    );
    assert_eq!(
        (
            address.line1.as_str(),
            address.line2.as_str(),
            address.postal_code.as_str()
        ),
        ("", "", "")
    );
    let contacts_reads = || async {
        let events = audit_events(server.channel().await, &admin).await.unwrap();
        events
            .into_iter()
            .filter(|e| e.action == "orders.contacts_read")
            .collect::<Vec<_>>()
    };
    assert!(
        contacts_reads().await.is_empty(),
        "nothing read, nothing recorded"
    );

    // contacts.read too: everything, and each call recorded under the service account.
    for _ in 0..2 {
        let read = list_orders(channel.clone(), &support).await.unwrap();
        assert_eq!(read[0].contacts, Some(full.clone()));
        assert_eq!(read[0].customer_name, order.customer_name);
    }
    let recorded = contacts_reads().await;
    assert_eq!(recorded.len(), 2);
    assert!(recorded.iter().all(|e| e.service_account_id == support_id
        && e.target_id == "all"
        && e.after_json.contains(&order.id)));
    server.stop().await;
}
