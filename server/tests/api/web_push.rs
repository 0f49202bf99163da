//! Web Push against the real server, Postgres, Redis and a local push service that checks
//! the VAPID token and decrypts each message as a browser would: subscribing through the
//! RPCs (several devices, idempotent per endpoint, only one's own), the allowlist of push
//! services and the keys' sizes, the alert of a new request in each device's language, and
//! a subscription the push service no longer knows (410) removed, and a sign-out forgetting
//! the browser's subscription.

use std::time::{Duration, Instant};

use crate::helpers::{
    self, TestServer, admin_token,
    market::{
        CALGARY_PRO, Pro, STREET, VISA, billing, cancel, complete, customer, db, hire, in_calgary,
        market, place, professional, quote,
    },
    push_service::{Device, PushService},
    reason, scrape, violated_fields, wait_until_outbox_idle, with_token,
};
use repairs_proto::{
    accounts::{self as pb, accounts_service_client::AccountsServiceClient},
    marketplace::RepairRequest,
    types::Language,
};
use repairs_server::config::Config;
use tonic::{Code, transport::Channel};
use uuid::Uuid;

type Accounts = AccountsServiceClient<Channel>;

async fn accounts(server: &TestServer) -> Accounts {
    AccountsServiceClient::new(server.channel().await)
}

async fn public_key(client: &mut Accounts, token: &str) -> String {
    client
        .get_push_public_key(with_token(pb::GetPushPublicKeyRequest {}, token))
        .await
        .unwrap()
        .into_inner()
        .public_key
}

fn subscription(
    endpoint: &str,
    p256dh: &str,
    auth: &str,
    language: Language,
) -> pb::AddPushSubscriptionRequest {
    pb::AddPushSubscriptionRequest {
        endpoint: endpoint.to_owned(),
        keys: Some(pb::PushSubscriptionKeys {
            p256dh: p256dh.to_owned(),
            auth: auth.to_owned(),
        }),
        language: language as i32,
        ..Default::default()
    }
}

async fn subscribe(client: &mut Accounts, token: &str, device: &Device, language: Language) {
    try_subscribe(client, token, device, language)
        .await
        .unwrap();
}

async fn try_subscribe(
    client: &mut Accounts,
    token: &str,
    device: &Device,
    language: Language,
) -> Result<(), tonic::Status> {
    let request = subscription(&device.endpoint, &device.p256dh, &device.auth, language);
    client
        .add_push_subscription(with_token(request, token))
        .await
        .map(|_| ())
}

async fn unsubscribe(
    client: &mut Accounts,
    token: &str,
    endpoint: &str,
) -> Result<(), tonic::Status> {
    let request = pb::RemovePushSubscriptionRequest {
        endpoint: endpoint.to_owned(),
        ..Default::default()
    };
    client
        .remove_push_subscription(with_token(request, token))
        .await
        .map(|_| ())
}

/// A new customer and their emergency request in Calgary: their token and the request.
async fn placed(server: &TestServer) -> (String, RepairRequest) {
    let (_, token) = customer(server).await;
    let request = place(
        &mut market(server).await,
        &token,
        Uuid::now_v7(),
        in_calgary(),
    )
    .await
    .unwrap();
    (token, request)
}

/// Waits (up to 5 s) for a push that failed: its state and error.
async fn failed_push(server: &TestServer) -> (String, String) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let failed: Option<(String, String)> = sqlx::query_as(
            "select state, last_error from outbox_messages
             where channel = 'push' and last_error <> ''",
        )
        .fetch_optional(db(server))
        .await
        .unwrap();
        if let Some(failed) = failed {
            return failed;
        }
        assert!(Instant::now() < deadline, "no push failed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn subscriptions(server: &TestServer) -> i64 {
    sqlx::query_scalar("select count(*) from push_subscriptions")
        .fetch_one(db(server))
        .await
        .unwrap()
}

/// The server, a local push service that trusts its VAPID key, and an accounts client.
async fn start() -> (TestServer, PushService, Accounts) {
    start_with(|_| {}).await
}

async fn start_with(adjust: impl FnOnce(&mut Config)) -> (TestServer, PushService, Accounts) {
    let server = TestServer::start_with(adjust).await;
    let mut client = accounts(&server).await;
    let (_, token) = customer(&server).await;
    let key = public_key(&mut client, &token).await;
    (server, PushService::start(&key).await, client)
}

#[tokio::test]
async fn a_professional_s_devices_get_a_new_request_in_their_languages_within_5_s() {
    let (server, push, mut client) = start().await;
    let french = Pro {
        language: "fr",
        ..CALGARY_PRO
    };
    let (_, token, email) = professional(&server, french).await;
    let (phone, laptop) = (push.device(), push.device());
    subscribe(&mut client, &token, &phone, Language::Fr).await;
    // The same endpoint again is the same subscription.
    subscribe(&mut client, &token, &phone, Language::Fr).await;
    subscribe(&mut client, &token, &laptop, Language::En).await;
    assert_eq!(subscriptions(&server).await, 2);

    let (_, request) = placed(&server).await;
    let placed = Instant::now();

    let got = push.wait_for(&phone, 1, 5).await;
    let alert = &got[0];
    let took = alert.at - placed;
    assert!(took < Duration::from_secs(5), "{took:?}");
    let (title, body) = (
        alert.payload["title"].as_str().unwrap(),
        alert.payload["body"].as_str().unwrap(),
    );
    assert_eq!(title, "Urgence\u{a0}: Services de plomberie à Calgary");
    assert!(body.contains("soumission"), "{body}");
    // The French device opens the French page.
    assert_eq!(
        alert.payload["url"],
        format!("http://127.0.0.1:8080/fr/view-request/{}", request.id)
    );
    assert!(!alert.payload.to_string().contains(STREET));
    assert_eq!(alert.urgency, "high");
    assert!((1..=24 * 3600).contains(&alert.ttl), "{}", alert.ttl);
    let english = &push.wait_for(&laptop, 1, 5).await[0];
    assert_eq!(
        english.payload["title"],
        "Emergency: Plumbing Services in Calgary"
    );
    assert_eq!(
        english.payload["url"],
        format!("http://127.0.0.1:8080/view-request/{}", request.id)
    );

    // The email goes out as before, and each device is alerted once.
    helpers::wait_for_message(server.data_dir(), "email.jsonl", &email, &request.id, 1).await;
    wait_until_outbox_idle(db(&server)).await;
    assert_eq!(push.received(&phone).len(), 1);
    assert_eq!(push.received(&laptop).len(), 1);
    assert!(push.refused().is_empty(), "{:?}", push.refused());
    push.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn a_new_request_s_pushes_are_timed_from_its_placing_in_the_metrics() {
    let (server, push, mut client) = start().await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let (phone, laptop) = (push.device(), push.device());
    subscribe(&mut client, &pro_token, &phone, Language::En).await;
    subscribe(&mut client, &pro_token, &laptop, Language::Fr).await;
    let (customer_token, request) = placed(&server).await;
    push.wait_for(&phone, 1, 5).await;
    push.wait_for(&laptop, 1, 5).await;
    // A push about something else (the customer's new quote) is not a request's notification.
    let customer_phone = push.device();
    subscribe(&mut client, &customer_token, &customer_phone, Language::En).await;
    helpers::send_quote(&server, &pro_token, &request.id, 15_000).await;
    push.wait_for(&customer_phone, 1, 5).await;
    wait_until_outbox_idle(db(&server)).await;

    let url = format!("http://{}/metrics", server.server.http_addr);
    let text = scrape::scrape(&url).await;
    let push_channel = [("channel", "push")];
    let name = "repairs_notification_delay_seconds";
    let count = scrape::metric(&text, &format!("{name}_count"), &push_channel);
    assert_eq!(count, Some(2.0), "{text}");
    let seconds = scrape::metric(&text, &format!("{name}_sum"), &push_channel).unwrap();
    assert!((0.0..10.0).contains(&seconds), "{seconds}");
    // Finer than a second: what an alert's delay is measured in.
    let mut under_a_second = push_channel.to_vec();
    under_a_second.push(("le", "0.5"));
    let bucket = scrape::metric(&text, &format!("{name}_bucket"), &under_a_second);
    assert!(bucket.is_some(), "{text}");
    push.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn a_customer_is_alerted_of_quotes_and_payment_steps_the_professional_of_hire_and_pay() {
    let (server, push, mut client) = start().await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let (_, customer_token) = customer(&server).await;
    let (customer_phone, pro_phone) = (push.device(), push.device());
    subscribe(&mut client, &customer_token, &customer_phone, Language::Fr).await;
    subscribe(&mut client, &pro_token, &pro_phone, Language::En).await;
    let mut market = market(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    push.wait_for(&pro_phone, 1, 5).await;

    let sent = quote(&mut market, &pro_token, &request.id).await;
    let alert = &push.wait_for(&customer_phone, 1, 5).await[0];
    assert_eq!(
        alert.payload["title"],
        "Nouvelle soumission\u{a0}: Services de plomberie"
    );
    let body = alert.payload["body"].as_str().unwrap();
    assert!(body.contains("90,00\u{a0}$"), "{body}");
    assert!(alert.payload["url"].as_str().unwrap().contains(&request.id));
    assert_eq!(alert.urgency, "normal");

    let billing = billing(&server).await;
    let key = Uuid::now_v7();
    hire(&billing, &customer_token, &sent.id, VISA, key)
        .await
        .unwrap();
    let hired = &push.wait_for(&pro_phone, 2, 5).await[1];
    assert_eq!(hired.payload["title"], "You are hired: Plumbing Services");
    assert!(
        !hired.payload.to_string().contains(STREET),
        "{:?}",
        hired.payload
    );
    assert_eq!(hired.urgency, "high");
    let held = &push.wait_for(&customer_phone, 2, 5).await[1];
    assert_eq!(
        held.payload["title"],
        "Préautorisation sur votre carte\u{a0}: Services de plomberie"
    );

    complete(&mut market, &customer_token, &request.id)
        .await
        .unwrap();
    let receipt = &push.wait_for(&customer_phone, 3, 5).await[2];
    assert_eq!(
        receipt.payload["title"],
        "Votre reçu\u{a0}: Services de plomberie"
    );
    let paid = &push.wait_for(&pro_phone, 3, 5).await[2];
    assert_eq!(paid.payload["title"], "Job paid: Plumbing Services");
    assert!(paid.payload["body"].as_str().unwrap().contains("$90.00"));
    wait_until_outbox_idle(db(&server)).await;
    assert_eq!(push.received(&customer_phone).len(), 3);
    assert_eq!(push.received(&pro_phone).len(), 3);
    push.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn a_push_service_that_fails_is_tried_again_and_the_email_goes_out_anyway() {
    let (server, push, mut client) = start_with(|config| config.outbox_retry_base_ms = 300).await;
    let (_, token, email) = professional(&server, CALGARY_PRO).await;
    let device = push.device();
    subscribe(&mut client, &token, &device, Language::En).await;
    push.answer(&device, 500);
    let (_, request) = placed(&server).await;
    helpers::wait_for_message(server.data_dir(), "email.jsonl", &email, &request.id, 1).await;
    let (state, error) = failed_push(&server).await;
    assert_eq!(state, "pending");
    assert!(error.contains("500"), "{error}");
    assert!(push.received(&device).is_empty());
    push.answer(&device, 201);
    push.wait_for(&device, 1, 5).await;
    wait_until_outbox_idle(db(&server)).await;
    assert_eq!(subscriptions(&server).await, 1);
    push.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn a_subscription_its_push_service_no_longer_knows_is_removed() {
    let (server, push, mut client) = start().await;
    let (_, token, email) = professional(&server, CALGARY_PRO).await;
    let (gone, kept) = (push.device(), push.device());
    subscribe(&mut client, &token, &gone, Language::En).await;
    subscribe(&mut client, &token, &kept, Language::En).await;
    push.answer(&gone, 410);

    let (_, request) = placed(&server).await;
    push.wait_for(&kept, 1, 5).await;
    helpers::wait_for_message(server.data_dir(), "email.jsonl", &email, &request.id, 1).await;
    wait_until_outbox_idle(db(&server)).await;
    let left: Vec<String> = sqlx::query_scalar("select endpoint from push_subscriptions")
        .fetch_all(db(&server))
        .await
        .unwrap();
    assert_eq!(left, std::slice::from_ref(&kept.endpoint));
    let dropped: Vec<(String, String)> = sqlx::query_as(
        "select state, last_error from outbox_messages where channel = 'push' and state <> 'sent'",
    )
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(dropped.len(), 1, "{dropped:?}");
    assert_eq!(dropped[0].0, "expired", "{dropped:?}");
    push.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn endpoints_off_the_list_and_bad_keys_are_refused_with_their_reason() {
    let (server, push, client) = start().await;
    let (_, token, _) = professional(&server, CALGARY_PRO).await;
    let device = push.device();
    let refused = |endpoint: &str, p256dh: &str, auth: &str| {
        let request = subscription(endpoint, p256dh, auth, Language::En);
        let mut client = client.clone();
        let token = token.clone();
        async move {
            let status = client
                .add_push_subscription(with_token(request, &token))
                .await
                .unwrap_err();
            assert_eq!(status.code(), Code::InvalidArgument);
            (reason(&status), violated_fields(&status))
        }
    };
    let (key, auth) = (device.p256dh.as_str(), device.auth.as_str());
    for endpoint in [
        "https://169.254.169.254/latest/meta-data",
        "https://internal.example.ca/push/1",
        "http://10.0.0.1/push/1",
        "https://fcm.googleapis.com/fcm/send/1",
    ] {
        assert_eq!(
            refused(endpoint, key, auth).await,
            ("PUSH_ENDPOINT_NOT_ALLOWED".into(), vec!["endpoint".into()]),
            "{endpoint}"
        );
    }
    for endpoint in ["", "not an address", "ftp://127.0.0.1/x"] {
        assert_eq!(
            refused(endpoint, key, auth).await,
            ("PUSH_ENDPOINT_INVALID".into(), vec!["endpoint".into()]),
            "{endpoint}"
        );
    }
    // Over 1,000 characters the request's bounds refuse it before it is read.
    let long = format!("{}{}", device.endpoint, "a".repeat(1000));
    assert_eq!(
        refused(&long, key, auth).await,
        ("INVALID_ARGUMENT".into(), vec!["endpoint".into()])
    );
    let on = device.endpoint.as_str();
    for bad_key in ["", "AAAA", auth, &format!("{key}AA")] {
        assert_eq!(
            refused(on, bad_key, auth).await,
            ("PUSH_KEYS_INVALID".into(), vec!["keys.p256dh".into()]),
            "{bad_key}"
        );
    }
    for bad_auth in ["", "AAAAAAAAAAA", key] {
        assert_eq!(
            refused(on, key, bad_auth).await,
            ("PUSH_KEYS_INVALID".into(), vec!["keys.auth".into()]),
            "{bad_auth}"
        );
    }
    assert_eq!(subscriptions(&server).await, 0);
    push.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn a_subscription_is_its_account_s_only() {
    let (server, push, mut client) = start().await;
    let (_, owner, _) = professional(&server, CALGARY_PRO).await;
    let (_, other, _) = professional(&server, CALGARY_PRO).await;
    let (_, a_customer) = customer(&server).await;
    let device = push.device();
    subscribe(&mut client, &owner, &device, Language::En).await;

    for stranger in [&other, &a_customer] {
        let status = unsubscribe(&mut client, stranger, &device.endpoint)
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::NotFound);
    }
    let admin = admin_token(&server, &mut client).await;
    let status = unsubscribe(&mut client, &admin, &device.endpoint)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    let status = try_subscribe(&mut client, &admin, &device, Language::En)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    let unsigned = client
        .add_push_subscription(subscription(
            &device.endpoint,
            &device.p256dh,
            &device.auth,
            Language::En,
        ))
        .await
        .unwrap_err();
    assert_eq!(unsigned.code(), Code::Unauthenticated);
    assert_eq!(subscriptions(&server).await, 1);

    unsubscribe(&mut client, &owner, &device.endpoint)
        .await
        .unwrap();
    assert_eq!(subscriptions(&server).await, 0);
    let again = unsubscribe(&mut client, &owner, &device.endpoint)
        .await
        .unwrap_err();
    assert_eq!(again.code(), Code::NotFound);
    push.stop().await;
    server.stop().await;
}

async fn sign_out(
    client: &mut Accounts,
    refresh_token: &str,
    push_endpoint: &str,
) -> Result<(), tonic::Status> {
    let request = pb::SignOutRequest {
        refresh_token: refresh_token.to_owned(),
        push_endpoint: push_endpoint.to_owned(),
    };
    client.sign_out(request).await.map(|_| ())
}

async fn endpoints(server: &TestServer) -> Vec<String> {
    sqlx::query_scalar("select endpoint from push_subscriptions order by endpoint")
        .fetch_all(db(server))
        .await
        .unwrap()
}

#[tokio::test]
async fn signing_out_forgets_the_browser_s_subscription_of_that_account_only() {
    let (server, push, mut client) = start().await;
    let email = "leaving@example.ca";
    let first = helpers::sign_up(&mut client, pb::Role::Customer, email).await;
    let second = helpers::sessions::sign_in(&mut client, pb::Role::Customer, email).await;
    let (this_browser, their_other_browser, someone_else_s) =
        (push.device(), push.device(), push.device());
    subscribe(&mut client, &first.token, &this_browser, Language::En).await;
    subscribe(
        &mut client,
        &first.token,
        &their_other_browser,
        Language::En,
    )
    .await;
    let (_, stranger) = customer(&server).await;
    subscribe(&mut client, &stranger, &someone_else_s, Language::En).await;

    let too_long = format!("{}/{}", this_browser.endpoint, "a".repeat(1000));
    let status = sign_out(&mut client, &first.refresh, &too_long)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&status), ["push_endpoint"]);

    // Another account's endpoint is not this sign-out's to forget.
    sign_out(&mut client, &first.refresh, &someone_else_s.endpoint)
        .await
        .unwrap();
    assert_eq!(subscriptions(&server).await, 3);
    sign_out(&mut client, &second.refresh_token, &this_browser.endpoint)
        .await
        .unwrap();
    let mut left = vec![
        their_other_browser.endpoint.clone(),
        someone_else_s.endpoint.clone(),
    ];
    left.sort();
    assert_eq!(endpoints(&server).await, left);
    // Signing out without a device, or again, forgets nothing more.
    sign_out(&mut client, &second.refresh_token, "")
        .await
        .unwrap();
    assert_eq!(endpoints(&server).await, left);
    push.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn without_a_vapid_key_the_server_offers_no_push() {
    let server = TestServer::start_with(|config| config.vapid_private_key = None).await;
    let mut client = accounts(&server).await;
    let (_, token) = customer(&server).await;
    let status = client
        .get_push_public_key(with_token(pb::GetPushPublicKeyRequest {}, &token))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(reason(&status), "PUSH_NOT_CONFIGURED");
    server.stop().await;
}

#[tokio::test]
async fn a_cancelled_request_s_waiting_pushes_are_dropped() {
    let (server, push, mut client) = start_with(|config| config.outbox_retry_base_ms = 300).await;
    let (_, token, _) = professional(&server, CALGARY_PRO).await;
    let device = push.device();
    subscribe(&mut client, &token, &device, Language::En).await;
    push.answer(&device, 500);
    let (customer_token, request) = placed(&server).await;
    failed_push(&server).await;
    cancel(&mut market(&server).await, &customer_token, &request.id)
        .await
        .unwrap();
    push.answer(&device, 201);
    // Past the retry's wait: the push stays dropped.
    tokio::time::sleep(Duration::from_millis(800)).await;
    wait_until_outbox_idle(db(&server)).await;
    assert!(push.received(&device).is_empty());
    let (state, _) = failed_push(&server).await;
    assert_eq!(state, "expired");
    push.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn a_deleted_customer_s_devices_are_forgotten() {
    let (server, push, mut client) = start().await;
    let (customer_id, token) = customer(&server).await;
    subscribe(&mut client, &token, &push.device(), Language::En).await;
    let admin = admin_token(&server, &mut client).await;
    let deletion = pb::DeleteCustomerRequest {
        id: customer_id.to_string(),
    };
    client
        .delete_customer(with_token(deletion, &admin))
        .await
        .unwrap();
    assert_eq!(subscriptions(&server).await, 0);
    push.stop().await;
    server.stop().await;
}

fn titles(push: &PushService, device: &Device) -> Vec<String> {
    push.received(device)
        .iter()
        .map(|m| m.payload["title"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn professionals_are_alerted_when_their_quote_or_job_is_closed() {
    let (server, push, mut client) = start().await;
    let (_, hired_token, _) = professional(&server, CALGARY_PRO).await;
    let (_, other_token, _) = professional(&server, CALGARY_PRO).await;
    let (hired_phone, other_phone) = (push.device(), push.device());
    subscribe(&mut client, &hired_token, &hired_phone, Language::En).await;
    subscribe(&mut client, &other_token, &other_phone, Language::En).await;
    let (customer_token, request) = placed(&server).await;
    let mut market = market(&server).await;
    let chosen = quote(&mut market, &hired_token, &request.id).await;
    quote(&mut market, &other_token, &request.id).await;
    let billing = billing(&server).await;
    let key = Uuid::now_v7();
    hire(&billing, &customer_token, &chosen.id, VISA, key)
        .await
        .unwrap();
    push.wait_for(&other_phone, 2, 5).await;
    assert_eq!(
        titles(&push, &other_phone)[1],
        "Quote not selected: Plumbing Services"
    );

    // The hired job cancelled, then an open request the professional quoted on.
    cancel(&mut market, &customer_token, &request.id)
        .await
        .unwrap();
    let second = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    quote(&mut market, &hired_token, &second.id).await;
    cancel(&mut market, &customer_token, &second.id)
        .await
        .unwrap();
    push.wait_for(&hired_phone, 5, 5).await;
    wait_until_outbox_idle(db(&server)).await;
    let cancelled = "Request cancelled: Plumbing Services";
    let seen = titles(&push, &hired_phone);
    assert_eq!(
        seen.iter().filter(|t| *t == cancelled).count(),
        2,
        "{seen:?}"
    );
    assert_eq!(titles(&push, &other_phone).len(), 3);
    push.stop().await;
    server.stop().await;
}
