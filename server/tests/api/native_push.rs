//! Native apps' push against the real server, Postgres, Redis and a local APNs and FCM
//! (`repairs_server::testing::native_push`) that speak HTTP/2 and check every token: APNs'
//! ES256 provider token (the team's key, key id, issuer, made within the hour), FCM's access
//! token issued for a grant signed with the service account's key (issuer, audience,
//! scope, expiry). Subscribing a device through `AddPushSubscription`, the alert of an
//! emergency in each device's language without the street at the highest priority, tokens
//! kept between sends, devices the services say are gone removed, throttling and failures
//! retried, and no native device taken without the platform's key.

use crate::helpers::{
    TestServer,
    market::{
        CALGARY_PRO, Pro, STREET, customer, db, in_calgary, market, place, professional, quote,
    },
    native_push::{self as service, NativePushService},
    reason, violated_fields, wait_until_outbox_idle, with_token,
};
use repairs_proto::{
    accounts::{self as pb, PushPlatform, accounts_service_client::AccountsServiceClient},
    marketplace::RepairRequest,
    types::Language,
};
use repairs_server::config::Config;
use tonic::{Code, transport::Channel};
use uuid::Uuid;

type Accounts = AccountsServiceClient<Channel>;

fn device(
    platform: PushPlatform,
    token: &str,
    language: Language,
) -> pb::AddPushSubscriptionRequest {
    pb::AddPushSubscriptionRequest {
        platform: platform as i32,
        device_token: token.to_owned(),
        language: language as i32,
        ..Default::default()
    }
}

async fn subscribe(
    client: &mut Accounts,
    token: &str,
    request: pb::AddPushSubscriptionRequest,
) -> Result<(), tonic::Status> {
    client
        .add_push_subscription(with_token(request, token))
        .await
        .map(|_| ())
}

/// Subscribes the device, which must be taken.
async fn subscribed(
    client: &mut Accounts,
    token: &str,
    platform: PushPlatform,
    device_token: &str,
    language: Language,
) {
    let request = device(platform, device_token, language);
    subscribe(client, token, request).await.unwrap();
}

/// A professional in Calgary, English, with these devices subscribed: their token.
async fn professional_with(
    server: &TestServer,
    client: &mut Accounts,
    devices: &[(PushPlatform, &str)],
) -> String {
    let (_, pro, _) = professional(server, CALGARY_PRO).await;
    for (platform, token) in devices {
        subscribed(client, &pro, *platform, token, Language::En).await;
    }
    pro
}

async fn unsubscribe(
    client: &mut Accounts,
    token: &str,
    platform: PushPlatform,
    device_token: &str,
) -> Result<(), tonic::Status> {
    let request = pb::RemovePushSubscriptionRequest {
        platform: platform as i32,
        device_token: device_token.to_owned(),
        ..Default::default()
    };
    client
        .remove_push_subscription(with_token(request, token))
        .await
        .map(|_| ())
}

/// The device tokens kept, oldest first.
async fn devices(server: &TestServer) -> Vec<String> {
    sqlx::query_scalar(
        "select device_token from push_subscriptions where device_token is not null
         order by created_at, id",
    )
    .fetch_all(db(server))
    .await
    .unwrap()
}

/// A new customer's emergency in Calgary.
async fn emergency(server: &TestServer) -> RepairRequest {
    let (_, token) = customer(server).await;
    place(
        &mut market(server).await,
        &token,
        Uuid::now_v7(),
        in_calgary(),
    )
    .await
    .unwrap()
}

/// The server pointed at a local APNs and FCM, and an accounts client.
async fn start_with(adjust: impl FnOnce(&mut Config)) -> (TestServer, NativePushService, Accounts) {
    let native = NativePushService::start().await;
    let server = TestServer::start_with(|config| {
        native.configure(config);
        adjust(config);
    })
    .await;
    let client = AccountsServiceClient::new(server.channel().await);
    (server, native, client)
}

#[tokio::test]
async fn ios_and_android_devices_get_an_emergency_in_their_language_at_the_highest_priority() {
    let (server, native, mut client) = start_with(|_| {}).await;
    let french = Pro {
        language: "fr",
        ..CALGARY_PRO
    };
    let (_, pro, _) = professional(&server, french).await;
    let (iphone, android) = (native.ios_device(), native.android_device());
    let ios = |token: &str| device(PushPlatform::Ios, token, Language::Fr);
    subscribe(&mut client, &pro, ios(&iphone)).await.unwrap();
    // The same token again (APNs' hexadecimal in any case) is the same device.
    subscribe(&mut client, &pro, ios(&iphone.to_uppercase()))
        .await
        .unwrap();
    subscribed(
        &mut client,
        &pro,
        PushPlatform::Android,
        &android,
        Language::En,
    )
    .await;
    assert_eq!(devices(&server).await, [iphone.clone(), android.clone()]);

    let request = emergency(&server).await;
    // Each device opens the page in its language (the French pages live under /fr).
    let link = format!("http://127.0.0.1:8080/view-request/{}", request.id);
    let french_link = format!("http://127.0.0.1:8080/fr/view-request/{}", request.id);
    let apple = &native.wait_for(&iphone, 1, 5).await[0];
    assert_eq!(
        apple.title,
        "Urgence\u{a0}: Services de plomberie à Calgary"
    );
    assert!(apple.body.contains("soumission"), "{}", apple.body);
    assert_eq!(apple.url, french_link);
    assert_eq!(apple.tag, format!("repair-request:{}", request.id));
    assert_eq!(apple.priority, "10");
    assert!(
        (60..=24 * 3600).contains(&apple.keep_secs),
        "{}",
        apple.keep_secs
    );
    assert_eq!(apple.raw["aps"]["sound"], "default");
    assert!(!apple.raw.to_string().contains(STREET), "{}", apple.raw);
    let google = &native.wait_for(&android, 1, 5).await[0];
    assert_eq!(google.title, "Emergency: Plumbing Services in Calgary");
    assert_eq!(google.url, link);
    assert_eq!(google.priority, "HIGH");
    assert!(
        (60..=24 * 3600).contains(&google.keep_secs),
        "{}",
        google.keep_secs
    );
    assert!(!google.raw.to_string().contains(STREET), "{}", google.raw);

    // A second alert reuses both tokens: one grant, one provider token.
    let second = emergency(&server).await;
    native.wait_for(&iphone, 2, 5).await;
    let again = &native.wait_for(&android, 2, 5).await[1];
    assert!(again.url.ends_with(&second.id));
    let grants = native.grants();
    assert_eq!(grants.len(), 1, "{grants:?}");
    assert_eq!(grants[0].iss, service::CLIENT_EMAIL);
    assert_eq!(grants[0].exp - grants[0].iat, 3600);
    assert_eq!(native.provider_tokens(), 1);

    // Each device is alerted once per event, whatever the worker does next.
    wait_until_outbox_idle(db(&server)).await;
    assert_eq!(native.received(&iphone).len(), 2);
    assert_eq!(native.received(&android).len(), 2);
    assert!(native.refused().is_empty(), "{:?}", native.refused());
    native.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn a_quote_reaches_the_customer_s_phone_at_normal_priority() {
    let (server, native, mut client) = start_with(|_| {}).await;
    let (_, pro, _) = professional(&server, CALGARY_PRO).await;
    let (_, customer_token) = customer(&server).await;
    let phone = native.android_device();
    subscribed(
        &mut client,
        &customer_token,
        PushPlatform::Android,
        &phone,
        Language::Fr,
    )
    .await;
    let mut market = market(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    quote(&mut market, &pro, &request.id).await;
    let alert = &native.wait_for(&phone, 1, 5).await[0];
    assert_eq!(
        alert.title,
        "Nouvelle soumission\u{a0}: Services de plomberie"
    );
    assert_eq!(alert.priority, "NORMAL");
    native.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn devices_the_services_say_are_gone_are_removed() {
    let (server, native, mut client) = start_with(|_| {}).await;
    let unregistered_ios = native.ios_device();
    let bad_ios = native.ios_device();
    let unregistered_android = native.android_device();
    let bad_android = native.android_device();
    let kept = native.ios_device();
    native.answer(&unregistered_ios, &[410]);
    native.answer(&bad_ios, &[400]);
    native.answer(&unregistered_android, &[404]);
    native.answer(&bad_android, &[400]);
    let phones = [
        (PushPlatform::Ios, &*unregistered_ios),
        (PushPlatform::Ios, &*bad_ios),
        (PushPlatform::Android, &*unregistered_android),
        (PushPlatform::Android, &*bad_android),
        (PushPlatform::Ios, &*kept),
    ];
    professional_with(&server, &mut client, &phones).await;
    emergency(&server).await;
    native.wait_for(&kept, 1, 5).await;
    wait_until_outbox_idle(db(&server)).await;
    assert_eq!(devices(&server).await, std::slice::from_ref(&kept));
    let dropped: Vec<String> = sqlx::query_scalar(
        "select last_error from outbox_messages where channel = 'push' and state = 'expired'",
    )
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(dropped.len(), 4, "{dropped:?}");
    for gone in [
        &unregistered_ios,
        &bad_ios,
        &unregistered_android,
        &bad_android,
    ] {
        assert_eq!(native.tries(gone), 1);
    }
    native.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn throttling_and_failures_are_retried_until_the_alert_goes() {
    let (server, native, mut client) = start_with(|config| config.outbox_retry_base_ms = 200).await;
    let (iphone, android) = (native.ios_device(), native.android_device());
    native.answer(&iphone, &[429, 503]);
    native.answer(&android, &[429, 500]);
    let phones = [
        (PushPlatform::Ios, &*iphone),
        (PushPlatform::Android, &*android),
    ];
    professional_with(&server, &mut client, &phones).await;
    emergency(&server).await;
    native.wait_for(&iphone, 1, 10).await;
    native.wait_for(&android, 1, 10).await;
    wait_until_outbox_idle(db(&server)).await;
    assert_eq!(native.tries(&iphone), 3);
    assert_eq!(native.tries(&android), 3);
    let attempts: Vec<(String, i32)> = sqlx::query_as(
        "select state, attempts from outbox_messages where channel = 'push' order by id",
    )
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(attempts, [("sent".to_owned(), 3), ("sent".to_owned(), 3)]);
    assert_eq!(devices(&server).await.len(), 2);
    native.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn without_a_platform_s_key_its_devices_are_refused_and_nothing_is_kept_or_queued() {
    // APNs configured, FCM not.
    let (server, native, mut client) =
        start_with(|config| config.fcm_service_account_file = None).await;
    let (_, pro, _) = professional(&server, CALGARY_PRO).await;
    let android = native.android_device();
    let status = subscribe(
        &mut client,
        &pro,
        device(PushPlatform::Android, &android, Language::En),
    )
    .await
    .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(reason(&status), "NATIVE_PUSH_NOT_CONFIGURED");
    assert!(status.message().contains("Android"), "{}", status.message());
    subscribed(
        &mut client,
        &pro,
        PushPlatform::Ios,
        &native.ios_device(),
        Language::En,
    )
    .await;
    native.stop().await;
    server.stop().await;

    // Neither.
    let server = TestServer::start().await;
    let mut client = AccountsServiceClient::new(server.channel().await);
    let (_, pro, _) = professional(&server, CALGARY_PRO).await;
    for (platform, token) in [
        (PushPlatform::Ios, "ab".repeat(32)),
        (PushPlatform::Android, "fcm-token:1".to_owned()),
    ] {
        let status = subscribe(&mut client, &pro, device(platform, &token, Language::En))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::FailedPrecondition);
        assert_eq!(reason(&status), "NATIVE_PUSH_NOT_CONFIGURED");
    }
    emergency(&server).await;
    wait_until_outbox_idle(db(&server)).await;
    let (subscriptions, pushes): (i64, i64) = sqlx::query_as(
        "select (select count(*) from push_subscriptions),
                (select count(*) from outbox_messages where channel = 'push')",
    )
    .fetch_one(db(&server))
    .await
    .unwrap();
    assert_eq!((subscriptions, pushes), (0, 0));
    server.stop().await;
}

#[tokio::test]
async fn malformed_tokens_and_mixed_fields_are_refused_with_their_field() {
    let (server, native, mut client) = start_with(|_| {}).await;
    let (_, pro, _) = professional(&server, CALGARY_PRO).await;
    let mut refused = async |request: pb::AddPushSubscriptionRequest| {
        let status = subscribe(&mut client, &pro, request).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        (reason(&status), violated_fields(&status))
    };
    let bad_token = |reason: &str| (reason.to_owned(), vec!["device_token".to_owned()]);
    for token in [
        "",
        "abc",
        &"g".repeat(64),
        &"a".repeat(63),
        "../../3/device/x",
    ] {
        assert_eq!(
            refused(device(PushPlatform::Ios, token, Language::En)).await,
            bad_token("DEVICE_TOKEN_INVALID"),
            "{token}"
        );
    }
    for token in ["", "a b", "token/../x", "tok\u{e9}n"] {
        assert_eq!(
            refused(device(PushPlatform::Android, token, Language::En)).await,
            bad_token("DEVICE_TOKEN_INVALID"),
            "{token}"
        );
    }
    let with_endpoint = pb::AddPushSubscriptionRequest {
        endpoint: "https://fcm.googleapis.com/fcm/send/1".into(),
        ..device(PushPlatform::Ios, &native.ios_device(), Language::En)
    };
    assert_eq!(
        refused(with_endpoint).await,
        ("INVALID_ARGUMENT".to_owned(), vec!["endpoint".to_owned()])
    );
    let without_platform = device(
        PushPlatform::Unspecified,
        &native.ios_device(),
        Language::En,
    );
    assert_eq!(
        refused(without_platform).await,
        ("INVALID_ARGUMENT".to_owned(), vec!["platform".to_owned()])
    );
    let unknown = pb::AddPushSubscriptionRequest {
        platform: 7,
        ..device(PushPlatform::Ios, &native.ios_device(), Language::En)
    };
    assert_eq!(
        refused(unknown).await,
        ("INVALID_ARGUMENT".to_owned(), vec!["platform".to_owned()])
    );
    assert!(devices(&server).await.is_empty());
    native.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn native_devices_count_with_browsers_and_are_their_account_s_only() {
    let (server, native, mut client) = start_with(|_| {}).await;
    let (_, owner, _) = professional(&server, CALGARY_PRO).await;
    let (_, other, _) = professional(&server, CALGARY_PRO).await;
    let tokens: Vec<(PushPlatform, String)> = (0..11)
        .map(|n| {
            if n % 2 == 0 {
                (PushPlatform::Ios, native.ios_device())
            } else {
                (PushPlatform::Android, native.android_device())
            }
        })
        .collect();
    for (platform, token) in &tokens {
        subscribed(&mut client, &owner, *platform, token, Language::En).await;
    }
    // Ten per account: the eleventh forgot the oldest.
    let kept: Vec<String> = tokens[1..].iter().map(|(_, t)| t.clone()).collect();
    assert_eq!(devices(&server).await, kept);

    let (platform, token) = &tokens[1];
    let status = unsubscribe(&mut client, &other, *platform, token)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    // The phone changed hands: it is the other professional's now.
    subscribed(&mut client, &other, *platform, token, Language::Fr).await;
    let status = unsubscribe(&mut client, &owner, *platform, token)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    unsubscribe(&mut client, &other, *platform, token)
        .await
        .unwrap();
    let (platform, token) = &tokens[2];
    unsubscribe(&mut client, &owner, *platform, &token.to_uppercase())
        .await
        .unwrap();
    assert_eq!(devices(&server).await, kept[2..]);
    native.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn an_emergency_alerts_the_nearest_professional_s_devices_first() {
    let (server, native, mut client) = start_with(|_| {}).await;
    // The farther professional (north-west Calgary) set up their devices first.
    let far_devices = [
        (PushPlatform::Ios, native.ios_device()),
        (PushPlatform::Android, native.android_device()),
    ];
    let far_pro = Pro {
        area: "T3A",
        ..CALGARY_PRO
    };
    let (far, far_token, _) = professional(&server, far_pro).await;
    for (platform, device) in &far_devices {
        subscribed(&mut client, &far_token, *platform, device, Language::En).await;
    }
    let near_devices = [
        (PushPlatform::Android, native.android_device()),
        (PushPlatform::Ios, native.ios_device()),
    ];
    let (near, near_token, _) = professional(&server, CALGARY_PRO).await;
    for (platform, device) in &near_devices {
        subscribed(&mut client, &near_token, *platform, device, Language::En).await;
    }

    emergency(&server).await;
    // The order the outbox worker claims the alerts in.
    let owners: Vec<Uuid> = sqlx::query_scalar(
        "select s.professional_id from outbox_messages m
         join push_subscriptions s on m.recipient = s.id::text
         where m.channel = 'push'
         order by m.urgent desc, m.next_attempt_at, m.id",
    )
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(owners, [near, near, far, far]);
    for (_, device) in near_devices.iter().chain(&far_devices) {
        native.wait_for(device, 1, 5).await;
    }
    native.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn a_refused_access_token_is_renewed_at_once() {
    let (server, native, mut client) = start_with(|_| {}).await;
    let android = native.android_device();
    professional_with(&server, &mut client, &[(PushPlatform::Android, &android)]).await;
    emergency(&server).await;
    native.wait_for(&android, 1, 5).await;
    native.revoke_access_tokens();
    emergency(&server).await;
    native.wait_for(&android, 2, 5).await;
    assert_eq!(native.grants().len(), 2);
    // The refusal is the service's check at work, not a lost alert.
    assert_eq!(native.refused().len(), 1, "{:?}", native.refused());
    native.stop().await;
    server.stop().await;
}
