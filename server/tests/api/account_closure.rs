//! A person closing their own account, through the RPCs on the real server, Postgres and
//! Redis: proved by password (or, without one, the account's email); closed at once (sessions
//! ended, sign-in refused, open requests cancelled, live quotes withdrawn, no more matching);
//! kept by the emailed link; erased once the grace has run out (the housekeeping step run
//! with a clock moved forward), unless an open hire holds it; the books keep their rows,
//! naming no one.

use crate::helpers::{
    AccountsClient, TEST_PASSWORD, TestServer, log_in,
    market::{
        self, CALGARY_PRO, VISA, billing, customer, db, hire, in_calgary, place, professional,
    },
    reason, send_quote, sign_up, wait_for_message, with_token,
};
use repairs_proto::accounts as pb;
use repairs_server::accounts::closure;
use tonic::Code;
use uuid::Uuid;

async fn close(
    accounts: &mut AccountsClient,
    token: &str,
    password: &str,
    confirm_email: &str,
) -> Result<pb::RequestAccountDeletionResponse, tonic::Status> {
    let request = pb::RequestAccountDeletionRequest {
        password: password.into(),
        confirm_email: confirm_email.into(),
    };
    Ok(accounts
        .request_account_deletion(with_token(request, token))
        .await?
        .into_inner())
}

async fn keep(accounts: &mut AccountsClient, token: &str) -> Result<pb::Role, tonic::Status> {
    let request = pb::CancelAccountDeletionRequest {
        token: token.into(),
    };
    Ok(accounts
        .cancel_account_deletion(request)
        .await?
        .into_inner()
        .role())
}

/// The token of the keep link in the closing email sent to `email`.
async fn keep_token(server: &TestServer, email: &str) -> String {
    let mail = wait_for_message(server.data_dir(), "email.jsonl", email, "/keep-account/", 1).await;
    let body = mail["body"].as_str().unwrap();
    let link = body
        .split_whitespace()
        .find(|word| word.contains("/keep-account/"))
        .unwrap();
    assert!(mail.get("list_unsubscribe").is_none(), "a security message");
    link.rsplit('/').next().unwrap().to_owned()
}

fn email_of(id: Uuid) -> String {
    format!("{}@example.ca", id.simple())
}

#[tokio::test]
async fn a_closed_account_cannot_sign_in_until_its_link_keeps_it() {
    let server = TestServer::start().await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let mut market = market::market(&server).await;
    let email = "closing@example.ca";
    let signed = sign_up(&mut accounts, pb::Role::Customer, email).await;
    sqlx::query(
        "update customers set phone = '+14035550100', phone_verified = true where id = $1::uuid",
    )
    .bind(&signed.id)
    .execute(db(&server))
    .await
    .unwrap();
    let open = place(&mut market, &signed.token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();

    let wrong = close(&mut accounts, &signed.token, "wrong horse", "")
        .await
        .unwrap_err();
    assert_eq!(wrong.code(), Code::InvalidArgument);
    assert!(wrong.message().contains("password"), "{}", wrong.message());
    let before = chrono::Utc::now();
    let closed = close(&mut accounts, &signed.token, TEST_PASSWORD, "")
        .await
        .unwrap();
    let erase_after = closed.erase_after.unwrap().seconds;
    let in_14_days = (before + chrono::Duration::days(14)).timestamp();
    assert!((in_14_days..in_14_days + 60).contains(&erase_after));
    assert!(closed.held_by_repair_request_ids.is_empty());

    // Closed at once: the open request cancelled, the session over, sign-in refused.
    let (state,): (String,) =
        sqlx::query_as("select state from repair_requests where id = $1::uuid")
            .bind(&open.id)
            .fetch_one(db(&server))
            .await
            .unwrap();
    assert_eq!(state, "cancelled");
    let ended = accounts
        .get_notification_preferences(with_token(
            pb::GetNotificationPreferencesRequest {},
            &signed.token,
        ))
        .await
        .unwrap_err();
    assert_eq!(ended.code(), Code::Unauthenticated);
    let refused = log_in(&mut accounts, pb::Role::Customer, email, TEST_PASSWORD)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "ACCOUNT_CLOSED");

    // The emailed link keeps it, once; an altered one keeps nothing.
    let token = keep_token(&server, email).await;
    let altered = keep(&mut accounts, &format!("{}x", &token[..token.len() - 1]))
        .await
        .unwrap_err();
    assert_eq!(reason(&altered), "ACCOUNT_DELETION_LINK_INVALID");
    assert_eq!(
        keep(&mut accounts, &token).await.unwrap(),
        pb::Role::Customer
    );
    log_in(&mut accounts, pb::Role::Customer, email, TEST_PASSWORD)
        .await
        .expect("sign-in restored");
    let again = keep(&mut accounts, &token).await.unwrap_err();
    assert_eq!(again.code(), Code::InvalidArgument);
    assert_eq!(reason(&again), "ACCOUNT_DELETION_LINK_INVALID");
    // Kept, it is not erased when the grace would have ended.
    let erased = closure::erase_due(
        &server.server.state,
        chrono::Utc::now() + chrono::Duration::days(30),
    )
    .await
    .unwrap();
    assert_eq!(erased, 0);
    server.stop().await;
}

#[tokio::test]
async fn an_open_hire_holds_the_erasure_and_the_books_keep_their_rows_naming_no_one() {
    let server = TestServer::start().await;
    let state = &server.server.state;
    let mut accounts = AccountsClient::new(server.channel().await);
    let mut market = market::market(&server).await;
    let (customer_id, customer) = customer(&server).await;
    let (pro_id, pro, _) = professional(&server, CALGARY_PRO).await;
    let request = place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quote = send_quote(&server, &pro, &request.id, 9_000).await;
    hire(
        &billing(&server).await,
        &customer,
        &quote.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();

    // No password on this account (as with Google): its email proves it.
    let refused = close(&mut accounts, &customer, "", "someone@example.ca")
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    let closed = close(&mut accounts, &customer, "", &email_of(customer_id))
        .await
        .unwrap();
    assert_eq!(closed.held_by_repair_request_ids, vec![request.id.clone()]);

    let past_grace = || chrono::Utc::now() + chrono::Duration::days(15);
    assert_eq!(
        closure::erase_due(state, past_grace()).await.unwrap(),
        0,
        "held"
    );
    // The job done (as the hired professional's customer would; here straight in the
    // database, since the customer can no longer sign in), the erasure goes ahead.
    sqlx::query("update repair_requests set state = 'completed' where id = $1::uuid")
        .bind(&request.id)
        .execute(db(&server))
        .await
        .unwrap();
    let later = past_grace() + chrono::Duration::hours(7);
    assert_eq!(closure::erase_due(state, later).await.unwrap(), 1);
    assert_eq!(closure::erase_due(state, later).await.unwrap(), 0, "once");

    let (name, email, phone): (String, String, Option<String>) =
        sqlx::query_as("select name, email::text, phone from customers where id = $1")
            .bind(customer_id)
            .fetch_one(db(&server))
            .await
            .unwrap();
    assert_eq!(name, "Deleted customer");
    assert!(email.ends_with("@deleted.invalid"));
    assert_eq!(phone, None);
    let (payments,): (i64,) = sqlx::query_as("select count(*) from payments where payer_id = $1")
        .bind(customer_id)
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(
        payments, 1,
        "the books keep the payment, under the id alone"
    );
    let (by, action): (Option<Uuid>, String) = sqlx::query_as(
        "select admin_id, action from audit_events where target_id = $1 order by created_at desc limit 1",
    )
    .bind(customer_id.to_string())
    .fetch_one(db(&server))
    .await
    .unwrap();
    assert_eq!((by, action.as_str()), (None, "customer.delete"));

    // The professional the books hold closes too: anonymised, not deleted, never matched.
    close(&mut accounts, &pro, "", &email_of(pro_id))
        .await
        .unwrap();
    assert_eq!(closure::erase_due(state, past_grace()).await.unwrap(), 1);
    let (name, licences): (String, i64) = sqlx::query_as(
        "select p.name, (select count(*) from licences l where l.professional_id = p.id)
         from professionals p where p.id = $1",
    )
    .bind(pro_id)
    .fetch_one(db(&server))
    .await
    .unwrap();
    assert_eq!((name.as_str(), licences), ("Deleted professional", 0));
    server.stop().await;
}

#[tokio::test]
async fn a_closing_professional_s_quotes_are_withdrawn_and_new_requests_pass_them_by() {
    let server = TestServer::start().await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let mut market = market::market(&server).await;
    let (_, customer) = customer(&server).await;
    let (pro_id, pro, pro_email) = professional(&server, CALGARY_PRO).await;
    let (other_id, _, _) = professional(&server, CALGARY_PRO).await;
    let first = place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quote = send_quote(&server, &pro, &first.id, 9_000).await;

    close(&mut accounts, &pro, "", &pro_email).await.unwrap();
    let (quote_state,): (String,) = sqlx::query_as("select state from quotes where id = $1::uuid")
        .bind(&quote.id)
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(quote_state, "withdrawn");

    let second = place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let told: Vec<Uuid> = sqlx::query_scalar(
        "select distinct professional_id from request_notifications where repair_request_id = $1::uuid",
    )
    .bind(&second.id)
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(told, [other_id]);
    assert!(!told.contains(&pro_id));
    let refused = accounts
        .get_notification_preferences(with_token(pb::GetNotificationPreferencesRequest {}, &pro))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    server.stop().await;
}
