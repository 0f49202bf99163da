//! What accounts send, through the outbox: password-reset emails (answered at once, limited
//! per email and per client address, expired links purged), phone codes within the SMS
//! budgets, budgets given back by what failed to be sent, and the admins' decisions written
//! as one unit with their audit row and email.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use axum::{
    Form, Json, Router,
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::post,
};

use crate::helpers::{
    AccountsClient, LocalServer, SignedUp, TestServer, admin_token, break_inserts, outbox, reason,
    repair_inserts, sign_up, sign_up_as, wait_for_message, wait_until_outbox_idle, with_token,
};
use repairs_proto::accounts as pb;
use repairs_server::config::{Config, CountryBudget};
use serde_json::json;
use tonic::Code;

/// A call as the BFF passes it on for a browser at `client_ip`.
fn from<T>(client_ip: &str, mut request: tonic::Request<T>) -> tonic::Request<T> {
    request
        .metadata_mut()
        .insert("x-forwarded-for", client_ip.parse().unwrap());
    request
}

fn ask_reset(email: &str) -> tonic::Request<pb::RequestPasswordResetRequest> {
    tonic::Request::new(pb::RequestPasswordResetRequest {
        role: pb::Role::Customer as i32,
        email: email.into(),
    })
}

/// A TCP server that accepts connections and never says a word: a mail server that hangs.
async fn silent_smtp_server() -> (u16, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    (port, task)
}

#[tokio::test]
async fn password_reset_answers_at_once_even_when_the_mail_server_hangs() {
    let (smtp_port, smtp) = silent_smtp_server().await;
    let server = TestServer::start_with(|config| {
        config.smtp_host = Some("127.0.0.1".into());
        config.smtp_port = Some(smtp_port);
    })
    .await;
    let mut client = AccountsClient::new(server.channel().await);
    sign_up(&mut client, pb::Role::Customer, "known@example.ca").await;

    for email in ["known@example.ca", "unknown@example.ca"] {
        let started = Instant::now();
        client
            .request_password_reset(ask_reset(email))
            .await
            .unwrap();
        let took = started.elapsed();
        assert!(
            took < Duration::from_millis(500),
            "{email}: the reply waited {took:?} for the mail server"
        );
    }
    // The known email's message is in the outbox, waiting for the mail server.
    let db = &server.server.state.db;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (count,): (i64,) = sqlx::query_as(
            "select count(*) from outbox_messages
             where recipient = 'known@example.ca' and body like '%/reset-password/%'",
        )
        .fetch_one(db)
        .await
        .unwrap();
        if count == 1 {
            break;
        }
        assert!(Instant::now() < deadline, "no reset email in the outbox");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (unknown,): (i64,) = sqlx::query_as(
        "select count(*) from outbox_messages where recipient = 'unknown@example.ca'",
    )
    .fetch_one(db)
    .await
    .unwrap();
    assert_eq!(unknown, 0);
    smtp.abort();
    server.stop().await;
}

#[tokio::test]
async fn password_reset_is_limited_per_email_and_per_client_address() {
    let server = TestServer::start_with(|config| {
        config.password_reset_per_email_per_hour = 3;
        config.password_reset_per_address_per_hour = 5;
    })
    .await;
    let mut client = AccountsClient::new(server.channel().await);
    sign_up(&mut client, pb::Role::Customer, "flooded@example.ca").await;

    // One inbox: three emails an hour, from anywhere; unknown emails are counted the same.
    for (n, email) in ["flooded@example.ca", "nobody@example.ca"]
        .into_iter()
        .enumerate()
    {
        for attempt in 0..3 {
            let ip = format!("198.51.100.{}", 10 * n + attempt);
            client
                .request_password_reset(from(&ip, ask_reset(email)))
                .await
                .unwrap();
        }
        let refused = client
            .request_password_reset(from("198.51.100.99", ask_reset(email)))
            .await
            .unwrap_err();
        assert_eq!(
            (refused.code(), reason(&refused).as_str()),
            (Code::ResourceExhausted, "PASSWORD_RESET_EMAIL_LIMIT"),
            "{email}"
        );
    }
    wait_for_message(
        server.data_dir(),
        "email.jsonl",
        "flooded@example.ca",
        "/reset-password/",
        3,
    )
    .await;
    wait_until_outbox_idle(&server.server.state.db).await;
    let sent = outbox(server.data_dir(), "email.jsonl")
        .into_iter()
        .filter(|m| m["to"] == "flooded@example.ca")
        .filter(|m| m["body"].as_str().unwrap().contains("/reset-password/"))
        .count();
    assert_eq!(sent, 3);

    // One client address: five requests an hour, whatever the emails.
    for n in 0..5 {
        client
            .request_password_reset(from("203.0.113.7", ask_reset(&format!("a{n}@example.ca"))))
            .await
            .unwrap();
    }
    let refused = client
        .request_password_reset(from("203.0.113.7", ask_reset("a9@example.ca")))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "PASSWORD_RESET_ADDRESS_LIMIT");
    server.stop().await;
}

#[tokio::test]
async fn expired_links_and_old_sent_messages_are_purged() {
    let server = TestServer::start_with(|config| config.purge_interval_secs = 1).await;
    let db = &server.server.state.db;
    let account = uuid::Uuid::now_v7();
    for (token, expires) in [
        ("old", "now() - interval '1 minute'"),
        ("new", "now() + interval '1 hour'"),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "insert into password_resets (token_hash, role, account_id, expires_at)
             values (convert_to($1, 'utf8'), 'customer', $2, {expires})"
        )))
        .bind(token)
        .bind(account)
        .execute(db)
        .await
        .unwrap();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "insert into email_verifications (token_hash, role, account_id, email, expires_at)
             values (convert_to($1, 'utf8'), 'customer', $2, 'a@example.ca', {expires})"
        )))
        .bind(token)
        .bind(account)
        .execute(db)
        .await
        .unwrap();
    }
    // Sent 31 days ago: past RETENTION_OUTBOX_DAYS (30); parked ones stay for an admin.
    for (state, finished) in [
        ("sent", "31 days"),
        ("sent", "1 day"),
        ("parked", "40 days"),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "insert into outbox_messages (id, channel, recipient, body, state, finished_at)
             values ($1, 'email', 'a@example.ca', 'b', '{state}', now() - interval '{finished}')"
        )))
        .bind(uuid::Uuid::now_v7())
        .execute(db)
        .await
        .unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left: (i64, i64, i64) = sqlx::query_as(
            "select (select count(*) from password_resets),
                    (select count(*) from email_verifications),
                    (select count(*) from outbox_messages)",
        )
        .fetch_one(db)
        .await
        .unwrap();
        if left == (1, 1, 2) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not purged: (resets, verifications, messages) = {left:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (left,): (Vec<u8>,) = sqlx::query_as("select token_hash from password_resets")
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!(left, b"new");
    server.stop().await;
}

fn send_code(account: &SignedUp, national: &str) -> tonic::Request<pb::SendPhoneCodeRequest> {
    let (country_code, number) = national.split_once(' ').unwrap();
    with_token(
        pb::SendPhoneCodeRequest {
            account_id: account.id.clone(),
            country_code: country_code.into(),
            phone_number: number.into(),
            sms_updates: 0,
        },
        &account.token,
    )
}

async fn customers(client: &mut AccountsClient, count: usize) -> Vec<SignedUp> {
    let mut accounts = Vec::new();
    for n in 0..count {
        let email = format!("c{n}@example.ca");
        accounts.push(sign_up(client, pb::Role::Customer, &email).await);
    }
    accounts
}

fn budgets(config: &mut Config) {
    config.sms_budget_per_address_per_hour = 2;
    config.sms_budget_per_hour = 3;
    config.sms_country_budgets = vec![CountryBudget {
        calling_code: "91".into(),
        per_hour: 0,
    }];
}

#[tokio::test]
async fn phone_codes_stay_within_the_sms_budgets() {
    let server = TestServer::start_with(budgets).await;
    let mut client = AccountsClient::new(server.channel().await);
    let people = customers(&mut client, 6).await;
    let status = |result: Result<_, tonic::Status>| match result {
        Ok(_) => "sent".to_owned(),
        Err(status) => {
            assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
            assert!(!status.message().is_empty());
            reason(&status)
        }
    };
    let mut outcomes = Vec::new();
    for (person, (ip, phone)) in people.iter().zip([
        ("198.51.100.1", "+1 403 555 0101"),
        ("198.51.100.1", "+1 403 555 0102"),
        ("198.51.100.1", "+1 403 555 0103"),
        ("198.51.100.2", "+91 98765 43210"),
        ("198.51.100.3", "+1 403 555 0105"),
        ("198.51.100.4", "+1 403 555 0106"),
    ]) {
        outcomes.push(status(
            client
                .send_phone_code(from(ip, send_code(person, phone)))
                .await,
        ));
    }
    assert_eq!(
        outcomes,
        [
            "sent",
            "sent",
            "SMS_ADDRESS_LIMIT",
            "SMS_COUNTRY_LIMIT",
            "sent",
            "SMS_BUDGET_SPENT"
        ]
    );
    wait_until_outbox_idle(&server.server.state.db).await;
    assert_eq!(outbox(server.data_dir(), "sms.jsonl").len(), 3);
    server.stop().await;
}

#[tokio::test]
async fn a_send_refused_by_a_budget_starts_no_resend_wait() {
    let server = TestServer::start_with(budgets).await;
    let mut client = AccountsClient::new(server.channel().await);
    let person = &customers(&mut client, 1).await[0];
    let refused = client
        .send_phone_code(from("198.51.100.1", send_code(person, "+91 98765 43210")))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "SMS_COUNTRY_LIMIT");
    // No text went out: another number is tried at once, not after the 30 s wait.
    client
        .send_phone_code(from("198.51.100.1", send_code(person, "+1 403 555 0101")))
        .await
        .unwrap();
    // A code that did go out starts the wait.
    let waiting = client
        .send_phone_code(from("198.51.100.1", send_code(person, "+1 403 555 0102")))
        .await
        .unwrap_err();
    assert_eq!(reason(&waiting), "PHONE_CODE_COOLDOWN");
    server.stop().await;
}

#[tokio::test]
async fn concurrent_phone_codes_cannot_overrun_the_budget() {
    let server = TestServer::start_with(|config| config.sms_budget_per_hour = 5).await;
    let mut client = AccountsClient::new(server.channel().await);
    let people = customers(&mut client, 20).await;
    let sends = people.iter().enumerate().map(|(n, person)| {
        let mut client = client.clone();
        let request = from(
            &format!("198.51.100.{n}"),
            send_code(person, &format!("+1 403 555 01{n:02}")),
        );
        async move { client.send_phone_code(request).await }
    });
    let results = futures::future::join_all(sends).await;
    let sent = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(sent, 5, "{results:?}");
    server.stop().await;
}

/// What is counted under keys starting with `prefix`, now.
async fn counted_under(db: &sqlx::PgPool, prefix: &str) -> i64 {
    sqlx::query_scalar(
        "select coalesce(sum(n), 0)::bigint from limit_counters where starts_with(key, $1)",
    )
    .bind(prefix)
    .fetch_one(db)
    .await
    .unwrap()
}

/// Waits (up to 5 s) until nothing is counted under keys starting with `prefix`.
async fn wait_until_given_back(db: &sqlx::PgPool, prefix: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while counted_under(db, prefix).await > 0 {
        assert!(Instant::now() < deadline, "{prefix} not given back");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_phone_code_that_could_not_be_queued_gives_its_sms_budgets_back() {
    let server = TestServer::start_with(|config| config.sms_budget_per_address_per_hour = 1).await;
    let db = &server.server.state.db;
    let mut client = AccountsClient::new(server.channel().await);
    let people = customers(&mut client, 3).await;
    break_inserts(db, "outbox_messages").await;
    let failed = client
        .send_phone_code(from(
            "198.51.100.1",
            send_code(&people[0], "+1 403 555 0101"),
        ))
        .await
        .unwrap_err();
    assert_eq!(failed.code(), Code::Internal, "{failed:?}");
    repair_inserts(db, "outbox_messages").await;
    assert_eq!(counted_under(db, "sms-budget:").await, 0);

    client
        .send_phone_code(from(
            "198.51.100.1",
            send_code(&people[1], "+1 403 555 0102"),
        ))
        .await
        .unwrap();
    let refused = client
        .send_phone_code(from(
            "198.51.100.1",
            send_code(&people[2], "+1 403 555 0103"),
        ))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "SMS_ADDRESS_LIMIT");
    server.stop().await;
}

#[tokio::test]
async fn a_reset_that_could_not_be_prepared_gives_its_budgets_back() {
    let server =
        TestServer::start_with(|config| config.password_reset_per_email_per_hour = 1).await;
    let db = &server.server.state.db;
    let mut client = AccountsClient::new(server.channel().await);
    sign_up(&mut client, pb::Role::Customer, "ana@example.ca").await;
    // The link cannot be stored: the call has answered already, the budgets come back after.
    break_inserts(db, "password_resets").await;
    client
        .request_password_reset(ask_reset("ana@example.ca"))
        .await
        .unwrap();
    wait_until_given_back(db, "password-reset:").await;
    repair_inserts(db, "password_resets").await;

    client
        .request_password_reset(ask_reset("ana@example.ca"))
        .await
        .unwrap();
    wait_for_message(
        server.data_dir(),
        "email.jsonl",
        "ana@example.ca",
        "/reset-password/",
        1,
    )
    .await;
    let refused = client
        .request_password_reset(ask_reset("ana@example.ca"))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "PASSWORD_RESET_EMAIL_LIMIT");
    server.stop().await;
}

/// The phone number [`refusing_twilio`] refuses, as Twilio does a number that cannot take
/// texts.
const REFUSED_NUMBER: &str = "+14035550101";

/// Twilio's messages endpoint, refusing texts to [`REFUSED_NUMBER`] (a permanent error) and
/// taking the others.
async fn refusing_twilio() -> LocalServer {
    async fn messages(Form(form): Form<HashMap<String, String>>) -> Response {
        if form.get("To").map(String::as_str) == Some(REFUSED_NUMBER) {
            let body =
                json!({ "code": 21211, "message": "not a valid phone number", "status": 400 });
            return (StatusCode::BAD_REQUEST, Json(body)).into_response();
        }
        (
            StatusCode::CREATED,
            Json(json!({ "sid": "SM1", "status": "queued" })),
        )
            .into_response()
    }
    let router = Router::new().route(
        "/2010-04-01/Accounts/{account}/Messages.json",
        post(messages),
    );
    LocalServer::start(router).await
}

#[tokio::test]
async fn a_text_the_provider_refuses_gives_its_sms_budgets_back() {
    let twilio = refusing_twilio().await;
    let twilio_url = twilio.url();
    let server = TestServer::start_with(|config| {
        config.sms_budget_per_address_per_hour = 1;
        config.twilio_account_sid = Some("AC00000000000000000000000000000000".into());
        config.twilio_auth_token = Some("token".into());
        config.twilio_from = Some("+15875550100".into());
        config.twilio_base_url = twilio_url;
        config.outbox_poll_ms = 20;
    })
    .await;
    let db = &server.server.state.db;
    let mut client = AccountsClient::new(server.channel().await);
    let people = customers(&mut client, 3).await;
    client
        .send_phone_code(from(
            "198.51.100.1",
            send_code(&people[0], "+1 403 555 0101"),
        ))
        .await
        .unwrap();
    // Parked at the provider's refusal, then given back by the outbox worker.
    wait_until_given_back(db, "sms-budget:").await;
    let parked: String =
        sqlx::query_scalar("select state from outbox_messages where channel = 'sms'")
            .fetch_one(db)
            .await
            .unwrap();
    assert_eq!(parked, "parked");

    client
        .send_phone_code(from(
            "198.51.100.1",
            send_code(&people[1], "+1 403 555 0102"),
        ))
        .await
        .unwrap();
    wait_until_outbox_idle(db).await;
    let refused = client
        .send_phone_code(from(
            "198.51.100.1",
            send_code(&people[2], "+1 403 555 0103"),
        ))
        .await
        .unwrap_err();
    assert_eq!(
        reason(&refused),
        "SMS_ADDRESS_LIMIT",
        "a text taken stays paid"
    );
    server.stop().await;
    twilio.stop().await;
}

/// The professional's state, their audit rows and their decision emails in the outbox.
async fn decision_trace(db: &sqlx::PgPool, id: &str) -> (String, i64, i64) {
    sqlx::query_as(
        "select (select state from professionals where id = $1::uuid),
                (select count(*) from audit_events where target_id = $1),
                (select count(*) from outbox_messages
                 where recipient = 'pro@example.ca' and body not like '%/verify-email/%')",
    )
    .bind(id)
    .fetch_one(db)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_decision_its_audit_row_and_its_email_are_one_unit() {
    let server = TestServer::start().await;
    let db = server.server.state.db.clone();
    let mut client = AccountsClient::new(server.channel().await);
    let admin = admin_token(&server, &mut client).await;
    let pro = sign_up(&mut client, pb::Role::Professional, "pro@example.ca").await;
    let approve = || {
        with_token(
            pb::ApproveProfessionalRequest { id: pro.id.clone() },
            &admin,
        )
    };

    // The audit log cannot be written: the decision does not happen, nobody is told.
    break_inserts(&db, "audit_events").await;
    client.approve_professional(approve()).await.unwrap_err();
    assert_eq!(
        decision_trace(&db, &pro.id).await,
        ("waiting_for_approval".into(), 0, 0)
    );
    repair_inserts(&db, "audit_events").await;

    // The email cannot be queued: the decision and its audit row are undone too.
    break_inserts(&db, "outbox_messages").await;
    client.approve_professional(approve()).await.unwrap_err();
    assert_eq!(
        decision_trace(&db, &pro.id).await,
        ("waiting_for_approval".into(), 0, 0)
    );
    repair_inserts(&db, "outbox_messages").await;

    client.approve_professional(approve()).await.unwrap();
    assert_eq!(
        decision_trace(&db, &pro.id).await,
        ("approved".into(), 1, 1)
    );
    let mail = wait_for_message(
        server.data_dir(),
        "email.jsonl",
        "pro@example.ca",
        "approved",
        1,
    )
    .await;
    assert_eq!(mail["subject"], "Your profile is approved");
    assert!(mail["delivery_id"].is_string());
    server.stop().await;
}

#[tokio::test]
async fn sign_up_emails_a_confirmation_link_in_the_persons_language() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let french = repairs_proto::types::Language::Fr;
    let elise = sign_up_as(
        &mut client,
        pb::Role::Professional,
        "Élise Roy",
        "elise@example.ca",
        french,
    )
    .await;
    // Nothing waits for the link: the phone code can be asked for at once.
    client
        .send_phone_code(send_code(&elise, "+1 403 555 0199"))
        .await
        .unwrap();

    let mail = wait_for_message(
        server.data_dir(),
        "email.jsonl",
        "elise@example.ca",
        "/verify-email/",
        1,
    )
    .await;
    assert_eq!(mail["subject"], "Confirmez votre adresse courriel");
    let body = mail["body"].as_str().unwrap();
    assert!(body.starts_with("Bonjour Élise Roy,"), "{body}");
    let token = body
        .split_whitespace()
        .find_map(|word| word.split("/verify-email/").nth(1))
        .unwrap()
        .to_owned();
    let verified = || async {
        let (at,): (Option<chrono::DateTime<chrono::Utc>>,) = sqlx::query_as(
            "select email_verified_at from professionals where email = 'elise@example.ca'",
        )
        .fetch_one(&server.server.state.db)
        .await
        .unwrap();
        at.is_some()
    };
    assert!(!verified().await);

    let confirmed = client
        .confirm_email(pb::ConfirmEmailRequest {
            token: token.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(confirmed.account_id, elise.id);
    assert_eq!(confirmed.role, pb::Role::Professional as i32);
    assert!(verified().await);
    for used in [token.as_str(), "made-up", ""] {
        let refused = client
            .confirm_email(pb::ConfirmEmailRequest { token: used.into() })
            .await
            .unwrap_err();
        assert_eq!(
            (refused.code(), reason(&refused).as_str()),
            (Code::FailedPrecondition, "EMAIL_LINK_EXPIRED")
        );
    }
    server.stop().await;
}
