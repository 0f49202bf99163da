//! The contact form through ContentService on the running server, against a real Postgres and
//! Redis: checked fields, stored messages emailed to CONTACT_EMAIL through the outbox, the
//! hourly limits (per address for senders without a session, per account for those with
//! one, given back by a message that could not be stored), and the admins' inbox with read
//! marks (audited).

use crate::helpers::{
    Content, TestServer, admin_token, break_inserts, content_client, reason, repair_inserts,
    violated_fields, wait_for_message, with_token,
};
use repairs_proto::{
    accounts::{ListAuditEventsRequest, accounts_service_client::AccountsServiceClient},
    content as pb,
};
use repairs_server::domain::Role;
use tonic::Code;

fn message(name: &str, email: &str, text: &str) -> pb::SendContactMessageRequest {
    pb::SendContactMessageRequest {
        name: name.to_owned(),
        email: email.to_owned(),
        message: text.to_owned(),
    }
}

/// A request from a client address, as the BFF forwards it.
fn from(
    address: &str,
    body: pb::SendContactMessageRequest,
) -> tonic::Request<pb::SendContactMessageRequest> {
    let mut request = tonic::Request::new(body);
    request
        .metadata_mut()
        .insert("x-forwarded-for", address.parse().unwrap());
    request
}

async fn unread_messages(content: &mut Content, admin: &str) -> pb::ListContactMessagesResponse {
    let request = pb::ListContactMessagesRequest {
        unread_only: true,
        ..Default::default()
    };
    content
        .list_contact_messages(with_token(request, admin))
        .await
        .unwrap()
        .into_inner()
}

#[tokio::test]
async fn a_message_is_stored_emailed_and_read_by_admins() {
    let server = TestServer::start_with(|c| c.contact_email = Some("team@example.ca".into())).await;
    let mut content = content_client(&server).await;
    let sent = content
        .send_contact_message(message(
            " Élise ",
            "elise@example.ca",
            "My quote never arrived.",
        ))
        .await
        .unwrap()
        .into_inner();
    let email = wait_for_message(
        server.data_dir(),
        "email.jsonl",
        "team@example.ca",
        "My quote never arrived.",
        1,
    )
    .await;
    assert!(email["body"].as_str().unwrap().contains("elise@example.ca"));

    let mut accounts = AccountsServiceClient::new(server.channel().await);
    let admin = admin_token(&server, &mut accounts).await;
    let inbox = unread_messages(&mut content, &admin).await;
    assert_eq!(inbox.unread_count, 1);
    assert_eq!(inbox.messages[0].id, sent.id);
    assert_eq!(inbox.messages[0].name, "Élise");
    assert!(!inbox.messages[0].read);

    let marked = content
        .mark_contact_message_read(with_token(
            pb::MarkContactMessageReadRequest {
                id: sent.id.clone(),
                read: true,
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .message
        .unwrap();
    assert!(marked.read && marked.read_time.is_some());
    let unread = unread_messages(&mut content, &admin).await;
    assert_eq!((unread.messages.len(), unread.unread_count), (0, 0));
    let events = accounts
        .list_audit_events(with_token(ListAuditEventsRequest::default(), &admin))
        .await
        .unwrap()
        .into_inner()
        .events;
    assert!(
        events
            .iter()
            .any(|e| e.action == "contact_message.mark_read" && e.target_id == sent.id)
    );

    // Only admins read the inbox.
    let (_, customer) = server.account_token(Role::Customer).await;
    let status = content
        .list_contact_messages(with_token(
            pb::ListContactMessagesRequest::default(),
            &customer,
        ))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    server.stop().await;
}

#[tokio::test]
async fn bad_fields_are_named_and_nothing_is_stored() {
    let server = TestServer::start().await;
    let mut content = content_client(&server).await;
    let status = content
        .send_contact_message(message("", "not an email", "   "))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    let mut fields = violated_fields(&status);
    fields.sort();
    assert_eq!(fields, ["email", "message", "name"]);
    let stored: i64 = sqlx::query_scalar("select count(*) from contact_messages")
        .fetch_one(&server.server.state.db)
        .await
        .unwrap();
    assert_eq!(stored, 0);
    server.stop().await;
}

#[tokio::test]
async fn anonymous_senders_are_limited_per_address_and_signed_in_ones_are_not_counted_there() {
    let server = TestServer::start_with(|c| c.contact_messages_per_address_per_hour = 2).await;
    let mut content = content_client(&server).await;
    let body = || message("Ana", "ana@example.ca", "Hello");
    for _ in 0..2 {
        content
            .send_contact_message(from("203.0.113.7", body()))
            .await
            .unwrap();
    }
    let status = content
        .send_contact_message(from("203.0.113.7", body()))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert_eq!(reason(&status), "CONTACT_ADDRESS_LIMIT");
    // Another address still may.
    content
        .send_contact_message(from("198.51.100.2", body()))
        .await
        .unwrap();
    // A signed-in sender from the spent address is not counted against it.
    let (_, customer) = server.account_token(Role::Customer).await;
    content
        .send_contact_message(signed_in("203.0.113.7", &customer, body()))
        .await
        .unwrap();
    server.stop().await;
}

#[tokio::test]
async fn a_message_that_could_not_be_stored_gives_its_budget_back() {
    let server = TestServer::start_with(|c| c.contact_messages_per_address_per_hour = 1).await;
    let db = &server.server.state.db;
    let mut content = content_client(&server).await;
    let body = || message("Ana", "ana@example.ca", "Hello");
    break_inserts(db, "contact_messages").await;
    let failed = content
        .send_contact_message(from("203.0.113.7", body()))
        .await
        .unwrap_err();
    assert_eq!(failed.code(), Code::Internal, "{failed:?}");
    repair_inserts(db, "contact_messages").await;

    content
        .send_contact_message(from("203.0.113.7", body()))
        .await
        .unwrap();
    let refused = content
        .send_contact_message(from("203.0.113.7", body()))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "CONTACT_ADDRESS_LIMIT");
    server.stop().await;
}

/// A request from a client address with a session.
fn signed_in(
    address: &str,
    token: &str,
    body: pb::SendContactMessageRequest,
) -> tonic::Request<pb::SendContactMessageRequest> {
    let mut request = from(address, body);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

#[tokio::test]
async fn signed_in_senders_have_an_hourly_budget_of_their_own_wherever_they_write_from() {
    let server = TestServer::start_with(|c| c.contact_messages_per_account_per_hour = 2).await;
    let mut content = content_client(&server).await;
    let long = || message("Ana", "ana@example.ca", &"x".repeat(5_000));
    let (_, customer) = server.account_token(Role::Customer).await;
    for address in ["203.0.113.7", "198.51.100.2"] {
        content
            .send_contact_message(signed_in(address, &customer, long()))
            .await
            .unwrap();
    }
    let status = content
        .send_contact_message(signed_in("192.0.2.9", &customer, long()))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert_eq!(reason(&status), "CONTACT_ACCOUNT_LIMIT");
    assert!(status.message().contains("hour"), "{}", status.message());
    // Another account has its own budget, and so has the address without a session.
    let (_, professional) = server.account_token(Role::Professional).await;
    content
        .send_contact_message(signed_in("192.0.2.9", &professional, long()))
        .await
        .unwrap();
    content
        .send_contact_message(from("192.0.2.9", long()))
        .await
        .unwrap();
    let stored: i64 = sqlx::query_scalar("select count(*) from contact_messages")
        .fetch_one(&server.server.state.db)
        .await
        .unwrap();
    assert_eq!(stored, 4);
    server.stop().await;
}
