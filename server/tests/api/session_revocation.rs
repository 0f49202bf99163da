//! Sessions end before they expire when the account changes under them: the access and
//! refresh tokens issued before a password reset, an admin's denial or the account's deletion
//! are refused with UNAUTHENTICATED / SESSION_REVOKED afterwards, while a new sign-in works.
//! An admin's approval ends nothing.

use crate::helpers::{
    self, AccountsClient, TestServer, reset_password, session_token as log_in,
    sessions::{assert_refused, read_customer, read_professional, refresh, sign_in},
    with_token,
};
use repairs_proto::accounts as pb;
use repairs_server::domain::Role;
use tonic::Code;

/// Signs up and returns (account id, access token).
async fn sign_up(client: &mut AccountsClient, role: pb::Role, email: &str) -> (String, String) {
    let account = helpers::sign_up(client, role, email).await;
    (account.id, account.token)
}

fn assert_revoked<T: std::fmt::Debug>(result: Result<T, tonic::Status>) {
    assert_refused(result, "SESSION_REVOKED");
}

#[tokio::test]
async fn a_password_reset_ends_the_sessions_issued_before_it() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let (id, before) = sign_up(&mut client, pb::Role::Customer, "rae@example.ca").await;
    let other_device = sign_in(&mut client, pb::Role::Customer, "rae@example.ca").await;
    read_customer(&mut client, &id, &before).await.unwrap();

    let customer = pb::Role::Customer;
    let account = (id.as_str(), "rae@example.ca");
    reset_password(
        &server,
        &mut client,
        customer,
        account,
        "a brand new password",
    )
    .await;

    assert_revoked(read_customer(&mut client, &id, &before).await);
    let other_access = &other_device.access_token;
    assert_revoked(read_customer(&mut client, &id, other_access).await);
    assert_revoked(refresh(&mut client, &other_device.refresh_token).await);
    let after = log_in(
        &mut client,
        pb::Role::Customer,
        "rae@example.ca",
        "a brand new password",
    )
    .await;
    read_customer(&mut client, &id, &after).await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn a_denial_ends_the_professionals_sessions() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let (id, _) = sign_up(&mut client, pb::Role::Professional, "pro@example.ca").await;
    let before = sign_in(&mut client, pb::Role::Professional, "pro@example.ca").await;
    let (_, admin) = server.account_token(Role::Admin).await;

    client
        .deny_professional(with_token(
            pb::DenyProfessionalRequest {
                id: id.clone(),
                reason: "No licence".into(),
            },
            &admin,
        ))
        .await
        .unwrap();
    assert_revoked(read_professional(&mut client, &id, &before.access_token).await);
    assert_revoked(refresh(&mut client, &before.refresh_token).await);
    // A refused decision changes nothing, so it ends nothing.
    let after = sign_in(&mut client, pb::Role::Professional, "pro@example.ca").await;
    let again = client
        .deny_professional(with_token(
            pb::DenyProfessionalRequest {
                id: id.clone(),
                reason: "Still no licence".into(),
            },
            &admin,
        ))
        .await
        .unwrap_err();
    assert_eq!(again.code(), Code::FailedPrecondition);
    read_professional(&mut client, &id, &after.access_token)
        .await
        .unwrap();
    refresh(&mut client, &after.refresh_token).await.unwrap();
    // The admin's own session goes on.
    client
        .list_professionals(with_token(pb::ListProfessionalsRequest::default(), &admin))
        .await
        .unwrap();
    server.stop().await;
}

#[tokio::test]
async fn an_approval_ends_no_session_and_the_approved_state_shows_at_once() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let (id, _) = sign_up(&mut client, pb::Role::Professional, "ok@example.ca").await;
    let session = sign_in(&mut client, pb::Role::Professional, "ok@example.ca").await;
    let (_, admin) = server.account_token(Role::Admin).await;
    // Used once, so the token version is in the cache when the decision comes.
    read_professional(&mut client, &id, &session.access_token)
        .await
        .unwrap();

    client
        .approve_professional(with_token(
            pb::ApproveProfessionalRequest { id: id.clone() },
            &admin,
        ))
        .await
        .unwrap();
    // The same access token reads the new state: nothing of it is in the token.
    let read = client
        .get_professional(with_token(
            pb::GetProfessionalRequest { id: id.clone() },
            &session.access_token,
        ))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(read.state, pb::ProfessionalState::Approved as i32);
    refresh(&mut client, &session.refresh_token).await.unwrap();
    // The email says so, with a link to sign in.
    let mail = helpers::wait_for_message(
        server.data_dir(),
        "email.jsonl",
        "ok@example.ca",
        "approved",
        1,
    )
    .await;
    assert!(
        mail["body"]
            .as_str()
            .unwrap()
            .contains("http://127.0.0.1:8080/login-as-professional"),
        "{mail}"
    );
    server.stop().await;
}

#[tokio::test]
async fn deleting_an_account_ends_its_sessions_at_once() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let customer_account = helpers::sign_up(&mut client, pb::Role::Customer, "c@example.ca").await;
    let pro_account = helpers::sign_up(&mut client, pb::Role::Professional, "p@example.ca").await;
    let (customer, customer_token) = (customer_account.id, customer_account.token);
    let (pro, pro_token) = (pro_account.id, pro_account.token);
    let (_, admin) = server.account_token(Role::Admin).await;
    // Both sessions were used, so their versions are in the cache when the accounts go.
    read_customer(&mut client, &customer, &customer_token)
        .await
        .unwrap();
    read_professional(&mut client, &pro, &pro_token)
        .await
        .unwrap();

    client
        .delete_customer(with_token(
            pb::DeleteCustomerRequest {
                id: customer.clone(),
            },
            &admin,
        ))
        .await
        .unwrap();
    client
        .delete_professional(with_token(
            pb::DeleteProfessionalRequest { id: pro.clone() },
            &admin,
        ))
        .await
        .unwrap();
    assert_revoked(read_customer(&mut client, &customer, &customer_token).await);
    assert_revoked(read_professional(&mut client, &pro, &pro_token).await);
    assert_revoked(refresh(&mut client, &customer_account.refresh).await);
    assert_revoked(refresh(&mut client, &pro_account.refresh).await);
    // A public call with an ended session is an anonymous call, not an error.
    let public = client
        .get_sign_in_options(with_token(
            pb::GetSignInOptionsRequest::default(),
            &pro_token,
        ))
        .await;
    assert!(public.is_ok(), "{public:?}");
    server.stop().await;
}
