//! What reaches a person, through the RPCs on the real server, Postgres and Redis: choices
//! per kind and channel, kept by the fan-out (a professional who turned new requests off
//! leaves their place to the next, one who turned texts off costs no text); the email's
//! unsubscribe link and one-click header, which work without a session and only for their
//! own person and kind; receipts and security messages that cannot be turned off.

use crate::helpers::{
    TestServer, emails_to,
    market::{self, CALGARY_PRO, Pro, customer, db, in_calgary, place, professional},
    outbox, reason, wait_for_message, with_token,
};
use repairs_proto::accounts::{
    self as pb, NotificationChannel as Channel, NotificationTopic as Topic,
    accounts_service_client::AccountsServiceClient,
};
use repairs_server::domain::Role;
use tonic::{Code, transport::Channel as Transport};
use uuid::Uuid;

type Accounts = AccountsServiceClient<Transport>;

fn choice(topic: Topic, channel: Channel, enabled: bool) -> pb::NotificationPreference {
    pb::NotificationPreference {
        topic: topic as i32,
        channel: channel as i32,
        enabled,
        may_turn_off: false,
    }
}

async fn choose(
    accounts: &mut Accounts,
    token: &str,
    choices: Vec<pb::NotificationPreference>,
) -> Result<Vec<pb::NotificationPreference>, tonic::Status> {
    let request = pb::UpdateNotificationPreferencesRequest {
        preferences: choices,
    };
    Ok(accounts
        .update_notification_preferences(with_token(request, token))
        .await?
        .into_inner()
        .preferences)
}

async fn preferences(accounts: &mut Accounts, token: &str) -> Vec<pb::NotificationPreference> {
    accounts
        .get_notification_preferences(with_token(pb::GetNotificationPreferencesRequest {}, token))
        .await
        .unwrap()
        .into_inner()
        .preferences
}

fn is_on(preferences: &[pb::NotificationPreference], topic: Topic, channel: Channel) -> bool {
    preferences
        .iter()
        .find(|p| p.topic == topic as i32 && p.channel == channel as i32)
        .unwrap_or_else(|| panic!("{topic:?} on {channel:?} is listed"))
        .enabled
}

#[tokio::test]
async fn each_role_lists_what_it_receives_and_receipts_cannot_be_turned_off() {
    let server = TestServer::start().await;
    let mut accounts = AccountsServiceClient::new(server.channel().await);
    let (_, customer) = server.account_token(Role::Customer).await;
    let (_, pro) = server.account_token(Role::Professional).await;

    let theirs = preferences(&mut accounts, &customer).await;
    // Updates on their requests on three channels, then receipts and security, always on.
    assert_eq!(theirs.len(), 9);
    assert!(theirs.iter().all(|p| p.enabled));
    assert!(!theirs.iter().any(|p| p.topic == Topic::NewRequests as i32));
    let fixed: Vec<_> = theirs.iter().filter(|p| !p.may_turn_off).collect();
    assert_eq!(fixed.len(), 6);
    assert!(
        fixed
            .iter()
            .all(|p| p.topic == Topic::Receipts as i32 || p.topic == Topic::Security as i32)
    );
    assert_eq!(preferences(&mut accounts, &pro).await.len(), 15);

    let refused = choose(
        &mut accounts,
        &customer,
        vec![choice(Topic::Receipts, Channel::Email, false)],
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(reason(&refused), "NOTIFICATION_ALWAYS_SENT");
    let refused = choose(
        &mut accounts,
        &customer,
        vec![choice(Topic::NewRequests, Channel::Email, false)],
    )
    .await
    .unwrap_err();
    assert_eq!(
        refused.code(),
        Code::InvalidArgument,
        "customers get no alerts"
    );
    let twice = vec![
        choice(Topic::RequestUpdates, Channel::Sms, false),
        choice(Topic::RequestUpdates, Channel::Sms, true),
    ];
    assert_eq!(
        choose(&mut accounts, &customer, twice)
            .await
            .unwrap_err()
            .code(),
        Code::InvalidArgument
    );
    let unspecified = pb::NotificationPreference::default();
    assert_eq!(
        choose(&mut accounts, &customer, vec![unspecified])
            .await
            .unwrap_err()
            .code(),
        Code::InvalidArgument
    );

    // A change keeps the others; turning it on again is the default once more.
    let after = choose(
        &mut accounts,
        &customer,
        vec![choice(Topic::RequestUpdates, Channel::Sms, false)],
    )
    .await
    .unwrap();
    assert!(!is_on(&after, Topic::RequestUpdates, Channel::Sms));
    assert!(is_on(&after, Topic::RequestUpdates, Channel::Email));
    assert_eq!(after, preferences(&mut accounts, &customer).await);
    // An admin chooses nothing here.
    let (_, admin) = server.account_token(Role::Admin).await;
    let status = accounts
        .get_notification_preferences(with_token(pb::GetNotificationPreferencesRequest {}, &admin))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    server.stop().await;
}

#[tokio::test]
async fn the_fan_out_keeps_to_what_each_professional_chose() {
    let server = TestServer::start_with(|config| config.repair_request_max_notified = 1).await;
    let mut accounts = AccountsServiceClient::new(server.channel().await);
    let mut market = market::market(&server).await;
    let (_, customer) = customer(&server).await;
    let texts = || Pro {
        sms: true,
        ..CALGARY_PRO
    };
    // The nearest (Calgary downtown) turned alerts off everywhere; the next one texts off.
    let (_, nearest, nearest_email) = professional(&server, texts()).await;
    let (next_id, next, next_email) = professional(
        &server,
        Pro {
            area: "T3A",
            ..texts()
        },
    )
    .await;
    let all_off = [Channel::Email, Channel::Sms, Channel::Push]
        .map(|channel| choice(Topic::NewRequests, channel, false))
        .to_vec();
    choose(&mut accounts, &nearest, all_off).await.unwrap();
    choose(
        &mut accounts,
        &next,
        vec![choice(Topic::NewRequests, Channel::Sms, false)],
    )
    .await
    .unwrap();

    let request = place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();

    // The one slot went to the next professional, by email only: no text, no budget spent.
    let (told,): (Vec<String>,) = sqlx::query_as(
        "select array_agg(professional_id::text || ':' || channel order by channel)
         from request_notifications where repair_request_id = $1",
    )
    .bind(Uuid::parse_str(&request.id).unwrap())
    .fetch_one(db(&server))
    .await
    .unwrap();
    assert_eq!(told, [format!("{next_id}:email")]);
    assert!(emails_to(db(&server), &nearest_email, "").await.is_empty());
    assert_eq!(emails_to(db(&server), &next_email, "").await.len(), 1);
    let texts: (i64,) =
        sqlx::query_as("select count(*) from outbox_messages where channel = 'sms'")
            .fetch_one(db(&server))
            .await
            .unwrap();
    assert_eq!(texts.0, 0);
    server.stop().await;
}

#[tokio::test]
async fn an_email_s_link_turns_its_kind_off_without_a_session_and_for_its_person_alone() {
    let server = TestServer::start().await;
    let mut accounts = AccountsServiceClient::new(server.channel().await);
    let mut market = market::market(&server).await;
    let (_, customer) = customer(&server).await;
    let (_, pro, pro_email) = professional(
        &server,
        Pro {
            language: "fr",
            ..CALGARY_PRO
        },
    )
    .await;
    let (_, other, other_email) = professional(
        &server,
        Pro {
            area: "T3A",
            ..CALGARY_PRO
        },
    )
    .await;
    place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();

    let alert = wait_for_message(server.data_dir(), "email.jsonl", &pro_email, "", 1).await;
    let link = alert["list_unsubscribe"]
        .as_str()
        .expect("the one-click header")
        .to_owned();
    assert!(link.contains("/fr/unsubscribe/"), "{link}");
    let body = alert["body"].as_str().unwrap();
    assert!(body.contains(&link), "the footer gives the link: {body}");
    assert!(
        body.contains("Pour ne plus recevoir ces courriels"),
        "{body}"
    );
    assert!(
        body.contains("Repairs"),
        "the footer names the sender: {body}"
    );
    let token = link.rsplit('/').next().unwrap().to_owned();

    // An altered link is refused; the right one needs no session, and twice is no error.
    let mut altered = token.clone().into_bytes();
    let last = altered.len() - 1;
    altered[last] = if altered[last] == b'A' { b'B' } else { b'A' };
    let refused = accounts
        .unsubscribe(pb::UnsubscribeRequest {
            token: String::from_utf8(altered).unwrap(),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(reason(&refused), "UNSUBSCRIBE_LINK_INVALID");
    for _ in 0..2 {
        let done = accounts
            .unsubscribe(pb::UnsubscribeRequest {
                token: token.clone(),
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(done.topic, Topic::NewRequests as i32);
        assert_eq!(done.language, repairs_proto::types::Language::Fr as i32);
    }
    let theirs = preferences(&mut accounts, &pro).await;
    assert!(!is_on(&theirs, Topic::NewRequests, Channel::Email));
    assert!(is_on(&theirs, Topic::NewRequests, Channel::Push));
    assert!(is_on(&theirs, Topic::RequestUpdates, Channel::Email));
    let untouched = preferences(&mut accounts, &other).await;
    assert!(untouched.iter().all(|p| p.enabled), "only its own person");

    // The next request's alert goes to the other professional only.
    let second = place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    wait_for_message(server.data_dir(), "email.jsonl", &other_email, "", 2).await;
    let to_pro: Vec<_> = outbox(server.data_dir(), "email.jsonl")
        .into_iter()
        .filter(|m| m["to"] == pro_email.as_str())
        .collect();
    assert_eq!(to_pro.len(), 1, "no alert of {}", second.id);

    // A password reset is a security message: no link, no footer.
    accounts
        .request_password_reset(pb::RequestPasswordResetRequest {
            role: pb::Role::Professional as i32,
            email: pro_email.clone(),
        })
        .await
        .unwrap();
    let reset = wait_for_message(
        server.data_dir(),
        "email.jsonl",
        &pro_email,
        "prof-reset-password/",
        1,
    )
    .await;
    assert!(reset.get("list_unsubscribe").is_none());
    server.stop().await;
}

#[tokio::test]
async fn consents_are_records_of_what_was_agreed_when_and_from_where() {
    let server = TestServer::start().await;
    let mut accounts = AccountsServiceClient::new(server.channel().await);
    let signed = repairs_server::testing::sign_up_as(
        &mut accounts,
        pb::Role::Professional,
        "Élise Gagnon",
        "elise.consents@example.com",
        repairs_proto::types::Language::Fr,
    )
    .await;
    let at_sign_up = consents_of(&mut accounts, &signed.token).await;
    assert_eq!(at_sign_up.len(), 1, "{at_sign_up:?}");
    let terms = &at_sign_up[0];
    assert_eq!(
        (terms.subject.as_str(), terms.version.as_str(), terms.given),
        ("terms", "terms-fr-0", true)
    );
    assert_eq!(terms.source, "sign_up");
    assert_eq!(terms.client_address, "127.0.0.1");
    assert!(terms.time.is_some());

    // One text kind off while another stays on: the consent to texts stands.
    let sms_kinds = [Topic::NewRequests, Topic::RequestUpdates, Topic::Reminders];
    choose(
        &mut accounts,
        &signed.token,
        vec![choice(Topic::NewRequests, Channel::Sms, false)],
    )
    .await
    .unwrap();
    assert_eq!(consents_of(&mut accounts, &signed.token).await.len(), 1);
    // Every text off: withdrawn; one back on: given again.
    let all_off = sms_kinds.map(|t| choice(t, Channel::Sms, false)).to_vec();
    choose(&mut accounts, &signed.token, all_off).await.unwrap();
    choose(
        &mut accounts,
        &signed.token,
        vec![choice(Topic::Reminders, Channel::Sms, true)],
    )
    .await
    .unwrap();
    let now = consents_of(&mut accounts, &signed.token).await;
    let texts: Vec<(&str, bool, &str)> = now[1..]
        .iter()
        .map(|c| (c.subject.as_str(), c.given, c.source.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            ("sms_alerts", false, "notification_preferences"),
            ("sms_alerts", true, "notification_preferences")
        ]
    );
    assert!(now[1..].iter().all(|c| c.version == "sms-alerts-2026-12"));
    server.stop().await;
}

async fn consents_of(accounts: &mut Accounts, token: &str) -> Vec<pb::Consent> {
    accounts
        .get_notification_preferences(with_token(pb::GetNotificationPreferencesRequest {}, token))
        .await
        .unwrap()
        .into_inner()
        .consents
}

/// A form as Twilio posts a text sent back to our number, and its signature.
fn text_reply(auth_token: &str, from: &str, body: &str) -> pb::HandleSmsReplyRequest {
    let fields: Vec<(String, String)> = [
        ("MessageSid", "SM0123456789abcdef0123456789abcdef"),
        ("From", from),
        ("To", "+15875550000"),
        ("Body", body),
    ]
    .map(|(n, v)| (n.to_owned(), v.to_owned()))
    .to_vec();
    let payload = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(&fields)
        .finish();
    // The test server's PUBLIC_URL.
    let url = "http://127.0.0.1:8080/webhooks/sms";
    pb::HandleSmsReplyRequest {
        payload: payload.into_bytes(),
        signature: repairs_server::accounts::sms_replies::sign(auth_token, url, &fields),
    }
}

#[tokio::test]
async fn a_text_answered_stop_or_arret_turns_texts_off_and_start_turns_them_on() {
    const TOKEN: &str = "twilio-auth-token-for-tests";
    let server = TestServer::with_twilio(TOKEN).await;
    let mut accounts = AccountsServiceClient::new(server.channel().await);
    let (pro_id, pro, _) = professional(&server, CALGARY_PRO).await;
    let phone: String = sqlx::query_scalar("select phone from professionals where id = $1")
        .bind(pro_id)
        .fetch_one(db(&server))
        .await
        .unwrap();
    let texts = |preferences: &[pb::NotificationPreference]| {
        preferences
            .iter()
            .filter(|p| p.channel == Channel::Sms as i32 && p.may_turn_off)
            .map(|p| p.enabled)
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(&preferences(&mut accounts, &pro).await), [true; 3]);

    // Not signed by Twilio: refused, nothing changed.
    let mut forged = text_reply("another-token", &phone, "STOP");
    let refused = accounts.handle_sms_reply(forged.clone()).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(reason(&refused), "WEBHOOK_SIGNATURE");
    forged.payload = text_reply(TOKEN, &phone, "START").payload;
    assert!(
        accounts.handle_sms_reply(forged).await.is_err(),
        "a form changed after signing"
    );
    // A text that is no keyword is left alone.
    let chat = accounts
        .handle_sms_reply(text_reply(TOKEN, &phone, "Je serai là à midi"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((chat.keyword.as_str(), chat.accounts), ("", 0));
    assert_eq!(texts(&preferences(&mut accounts, &pro).await), [true; 3]);

    let stopped = accounts
        .handle_sms_reply(text_reply(TOKEN, &phone, "Arrêt"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((stopped.keyword.as_str(), stopped.accounts), ("stop", 1));
    assert_eq!(texts(&preferences(&mut accounts, &pro).await), [false; 3]);
    let started = accounts
        .handle_sms_reply(text_reply(TOKEN, &phone, "START"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((started.keyword.as_str(), started.accounts), ("start", 1));
    assert_eq!(texts(&preferences(&mut accounts, &pro).await), [true; 3]);
    let on_record: Vec<(bool, String)> = consents_of(&mut accounts, &pro)
        .await
        .into_iter()
        .filter(|c| c.subject == "sms_alerts")
        .map(|c| (c.given, c.source))
        .collect();
    assert_eq!(
        on_record,
        [
            (false, "sms_reply".to_owned()),
            (true, "sms_reply".to_owned())
        ]
    );
    server.stop().await;
}

#[tokio::test]
async fn text_replies_are_refused_where_twilio_does_not_send_the_texts() {
    let server = TestServer::start().await;
    let mut accounts = AccountsServiceClient::new(server.channel().await);
    let refused = accounts
        .handle_sms_reply(text_reply("any", "+14035550100", "STOP"))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "WEBHOOKS_NOT_CONFIGURED");
    server.stop().await;
}
