//! AccountsService end to end against the real server, Postgres and Redis: sign-up,
//! sign-in, sessions, password reset, phone codes and their limits, the customer's account,
//! the professional's profile and licences, and the admins' review.

use std::time::{Duration, SystemTime};

use crate::helpers::{
    AccountsClient, PDF, TEST_PASSWORD, TestServer, admin_token, last_message_to, log_in, reason,
    session_token, sign_up, valid_profile, violated_fields, wait_for_message, with_token,
};
use repairs_proto::{accounts as pb, types};
use repairs_server::{auth::Caller, domain::Role};
use tonic::Code;

/// The `count`-th reset email to pro@example.ca, once the outbox has sent it.
async fn reset_mail(server: &TestServer, count: usize) -> serde_json::Value {
    let link = "/prof-reset-password/";
    wait_for_message(
        server.data_dir(),
        "email.jsonl",
        "pro@example.ca",
        link,
        count,
    )
    .await
}

#[tokio::test]
async fn sign_up_log_in_and_the_session_rules() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);

    let ana = sign_up(&mut client, pb::Role::Customer, "Ana@Example.ca").await;
    // Emails are unique per role, whatever their case...
    let again = client
        .sign_up(pb::SignUpRequest {
            role: pb::Role::Customer as i32,
            name: "Other".into(),
            email: "ana@example.CA".into(),
            password: "another password".into(),
            language: 0,
        })
        .await
        .unwrap_err();
    assert_eq!(
        (again.code(), reason(&again).as_str()),
        (Code::AlreadyExists, "EMAIL_TAKEN")
    );
    // ...but the same person may also be a professional.
    sign_up(&mut client, pb::Role::Professional, "ana@example.ca").await;

    // Every bad field is reported at once.
    let bad = client
        .sign_up(pb::SignUpRequest {
            role: pb::Role::Customer as i32,
            name: " ".into(),
            email: "not-an-email".into(),
            password: "short".into(),
            language: 0,
        })
        .await
        .unwrap_err();
    assert_eq!(bad.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&bad), ["name", "email", "password"]);

    let logged = log_in(
        &mut client,
        pb::Role::Customer,
        " ANA@example.ca ",
        "correct horse",
    )
    .await
    .unwrap();
    let session = logged.session.unwrap();
    assert_eq!(session.account_id, ana.id);
    let lifetime = session.expire_time.unwrap().seconds - chrono::Utc::now().timestamp();
    assert!(
        (3590..=3600).contains(&lifetime),
        "customer sessions live 3600 s, not {lifetime}"
    );

    // A wrong password and an unknown email read the same.
    let wrong = log_in(
        &mut client,
        pb::Role::Customer,
        "ana@example.ca",
        "wrong horse",
    )
    .await
    .unwrap_err();
    let unknown = log_in(
        &mut client,
        pb::Role::Customer,
        "nobody@example.ca",
        "correct horse",
    )
    .await
    .unwrap_err();
    assert_eq!(wrong.code(), Code::Unauthenticated);
    assert_eq!(
        (wrong.code(), wrong.message(), reason(&wrong)),
        (unknown.code(), unknown.message(), reason(&unknown))
    );
    assert_eq!(reason(&wrong), "INVALID_CREDENTIALS");

    // An expired token and a forged one are refused with different reasons.
    let keys = &server.server.state.tokens;
    let me = Caller {
        account_id: ana.id.parse().unwrap(),
        role: Role::Customer,
    };
    let old = keys
        .issue_at(me, 0, SystemTime::now() - Duration::from_secs(3601))
        .unwrap();
    let get = |token: String| {
        let mut client = client.clone();
        let id = ana.id.clone();
        async move {
            client
                .get_customer(with_token(pb::GetCustomerRequest { id }, &token))
                .await
        }
    };
    let expired = get(old.token).await.unwrap_err();
    assert_eq!(
        (expired.code(), reason(&expired).as_str()),
        (Code::Unauthenticated, "SESSION_EXPIRED")
    );
    let forged = repairs_server::auth::TokenKeys::new(
        b"some-other-secret-some-other-secret",
        Duration::from_secs(3600),
        Duration::from_secs(3600),
    )
    .issue(me, 0)
    .unwrap();
    let refused = get(forged.token).await.unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::Unauthenticated, "SESSION_INVALID")
    );
    assert!(get(ana.token.clone()).await.is_ok());
    server.stop().await;
}

#[tokio::test]
async fn password_reset_by_single_use_link() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let pro = sign_up(&mut client, pb::Role::Professional, "pro@example.ca").await;

    let ask = |email: &str| pb::RequestPasswordResetRequest {
        role: pb::Role::Professional as i32,
        email: email.into(),
    };
    client
        .request_password_reset(ask("PRO@example.ca"))
        .await
        .unwrap();
    // Unknown emails get the same (empty) answer and no email is sent.
    client
        .request_password_reset(ask("ghost@example.ca"))
        .await
        .unwrap();
    let mail = reset_mail(&server, 1).await;
    assert!(last_message_to(server.data_dir(), "email.jsonl", "ghost@example.ca").is_none());

    let body = mail["body"].as_str().unwrap();
    let link = body
        .split_whitespace()
        .find(|w| w.contains("/prof-reset-password/"))
        .expect("link in the email");
    let token = link.rsplit('/').next().unwrap().to_owned();
    assert!(link.contains(&format!("/prof-reset-password/{}/", pro.id)));

    let check = |token: String| pb::CheckPasswordResetTokenRequest {
        role: pb::Role::Professional as i32,
        account_id: pro.id.clone(),
        token,
    };
    assert!(
        client
            .check_password_reset_token(check(token.clone()))
            .await
            .unwrap()
            .into_inner()
            .valid
    );
    assert!(
        !client
            .check_password_reset_token(check("made-up".into()))
            .await
            .unwrap()
            .into_inner()
            .valid
    );

    let reset = |token: String, password: &str| pb::ResetPasswordRequest {
        role: pb::Role::Professional as i32,
        account_id: pro.id.clone(),
        token,
        new_password: password.into(),
    };
    let short = client
        .reset_password(reset(token.clone(), "short"))
        .await
        .unwrap_err();
    assert_eq!(violated_fields(&short), ["new_password"]);
    client
        .reset_password(reset(token.clone(), "brand new password"))
        .await
        .unwrap();
    assert!(
        log_in(
            &mut client,
            pb::Role::Professional,
            "pro@example.ca",
            "brand new password"
        )
        .await
        .is_ok()
    );
    assert!(
        log_in(
            &mut client,
            pb::Role::Professional,
            "pro@example.ca",
            "correct horse"
        )
        .await
        .is_err()
    );
    // The link came by email: the address is proven too.
    let (verified,): (bool,) = sqlx::query_as(
        "select email_verified_at is not null from professionals where email = 'pro@example.ca'",
    )
    .fetch_one(&server.server.state.db)
    .await
    .unwrap();
    assert!(verified);

    // Used up: the same link no longer works.
    assert!(
        !client
            .check_password_reset_token(check(token.clone()))
            .await
            .unwrap()
            .into_inner()
            .valid
    );
    let reused = client
        .reset_password(reset(token, "yet another one"))
        .await
        .unwrap_err();
    assert_eq!(
        (reused.code(), reason(&reused).as_str()),
        (Code::FailedPrecondition, "RESET_LINK_EXPIRED")
    );

    // Links older than an hour are expired.
    client
        .request_password_reset(ask("pro@example.ca"))
        .await
        .unwrap();
    let mail = reset_mail(&server, 2).await;
    let token = mail["body"]
        .as_str()
        .unwrap()
        .trim_end()
        .rsplit('/')
        .next()
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    sqlx::query("update password_resets set expires_at = now() - interval '1 second'")
        .execute(&server.server.state.db)
        .await
        .unwrap();
    assert!(
        !client
            .check_password_reset_token(check(token))
            .await
            .unwrap()
            .into_inner()
            .valid
    );
    server.stop().await;
}

fn code_in(sms: &serde_json::Value) -> String {
    sms["body"]
        .as_str()
        .unwrap()
        .chars()
        .filter(char::is_ascii_digit)
        .take(4)
        .collect()
}

#[tokio::test]
async fn phone_codes_verify_once_within_their_limits() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let ana = sign_up(&mut client, pb::Role::Customer, "ana@example.ca").await;
    let send = |number: &str| {
        with_token(
            pb::SendPhoneCodeRequest {
                account_id: ana.id.clone(),
                country_code: "+1".into(),
                phone_number: number.into(),
                sms_updates: pb::SmsUpdates::Yes as i32,
            },
            &ana.token,
        )
    };
    let verify = |code: &str| {
        with_token(
            pb::VerifyPhoneCodeRequest {
                account_id: ana.id.clone(),
                phone: "+14035550100".into(),
                code: code.into(),
            },
            &ana.token,
        )
    };

    let bad_number = client.send_phone_code(send("555")).await.unwrap_err();
    assert_eq!(violated_fields(&bad_number), ["phone_number"]);

    let sent = client
        .send_phone_code(send("(403) 555-0100"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(sent.phone, "+14035550100");
    let sms = wait_for_message(server.data_dir(), "sms.jsonl", "+14035550100", "", 1).await;
    let code = code_in(&sms);
    assert_eq!(code.len(), 4);
    assert_ne!(&code[..1], "0");

    // The cache holds a keyed hash, not the code.
    let stored = server
        .server
        .state
        .cache
        .get(&format!("phone-code:{}", ana.id))
        .await
        .unwrap()
        .unwrap();
    assert!(!stored.contains(&code) || stored.len() > 64);
    assert!(!stored.ends_with(&code));

    // Resending within 30 s is refused with the wait, in whole seconds, for a countdown.
    let early = client
        .send_phone_code(send("403 555 0100"))
        .await
        .unwrap_err();
    assert_eq!(
        (early.code(), reason(&early).as_str()),
        (Code::ResourceExhausted, "PHONE_CODE_COOLDOWN")
    );
    let wait = tonic_types::StatusExt::get_details_retry_info(&early)
        .and_then(|retry| retry.retry_delay)
        .expect("the refusal says how long to wait");
    assert!(
        (1..=30).contains(&wait.as_secs()) && wait.subsec_nanos() == 0,
        "{wait:?}"
    );
    assert!(
        early
            .message()
            .contains(&format!("wait {} seconds", wait.as_secs())),
        "{}",
        early.message()
    );

    let wrong = if code == "1234" { "4321" } else { "1234" };
    let first_miss = client.verify_phone_code(verify(wrong)).await.unwrap_err();
    assert_eq!(
        (first_miss.code(), reason(&first_miss).as_str()),
        (Code::InvalidArgument, "PHONE_CODE_WRONG")
    );
    assert!(
        first_miss.message().contains("4 tries left"),
        "{}",
        first_miss.message()
    );
    let malformed = client.verify_phone_code(verify("0123")).await.unwrap_err();
    assert_eq!(violated_fields(&malformed), ["code"]);

    client.verify_phone_code(verify(&code)).await.unwrap();
    let me = client
        .get_customer(with_token(
            pb::GetCustomerRequest { id: ana.id.clone() },
            &ana.token,
        ))
        .await
        .unwrap()
        .into_inner()
        .customer
        .unwrap();
    assert!(me.phone_verified);
    assert_eq!(me.phone, "+14035550100");
    assert_eq!(me.sms_updates, pb::SmsUpdates::Yes as i32);
    // A used code is gone.
    let used = client.verify_phone_code(verify(&code)).await.unwrap_err();
    assert_eq!(reason(&used), "PHONE_CODE_EXPIRED");
    server.stop().await;
}

#[tokio::test]
async fn phone_codes_stop_after_five_wrong_tries_and_five_sends_an_hour() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let pro = sign_up(&mut client, pb::Role::Professional, "pro@example.ca").await;
    let cache = server.server.state.cache.clone();
    let send = || {
        with_token(
            pb::SendPhoneCodeRequest {
                account_id: String::new(),
                country_code: "+91".into(),
                phone_number: "98765 43210".into(),
                sms_updates: 0,
            },
            &pro.token,
        )
    };
    client.send_phone_code(send()).await.unwrap();
    let code =
        code_in(&wait_for_message(server.data_dir(), "sms.jsonl", "+919876543210", "", 1).await);
    let wrong = if code == "9999" { "8888" } else { "9999" };
    let verify = |c: &str| {
        with_token(
            pb::VerifyPhoneCodeRequest {
                account_id: String::new(),
                phone: String::new(),
                code: c.into(),
            },
            &pro.token,
        )
    };
    for _ in 0..5 {
        assert_eq!(
            reason(&client.verify_phone_code(verify(wrong)).await.unwrap_err()),
            "PHONE_CODE_WRONG"
        );
    }
    let locked = client.verify_phone_code(verify(&code)).await.unwrap_err();
    assert_eq!(
        (locked.code(), reason(&locked).as_str()),
        (Code::ResourceExhausted, "PHONE_CODE_TOO_MANY_TRIES")
    );

    // Sends: the first above plus four more are allowed in an hour, the sixth is not.
    let cooldown = format!("phone-code-cooldown:{}", pro.id);
    for _ in 0..4 {
        cache.delete(&cooldown).await.unwrap();
        client.send_phone_code(send()).await.unwrap();
    }
    cache.delete(&cooldown).await.unwrap();
    let limited = client.send_phone_code(send()).await.unwrap_err();
    assert_eq!(
        (limited.code(), reason(&limited).as_str()),
        (Code::ResourceExhausted, "PHONE_CODE_SEND_LIMIT")
    );
    server.stop().await;
}

#[tokio::test]
async fn customers_change_only_their_own_account() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let ana = sign_up(&mut client, pb::Role::Customer, "ana@example.ca").await;
    let bob = sign_up(&mut client, pb::Role::Customer, "bob@example.ca").await;
    let update = |id: &str, email: &str| pb::UpdateCustomerRequest {
        id: id.into(),
        name: "Ana Tremblay".into(),
        email: email.into(),
        language: types::Language::Fr as i32,
        sms_updates: pb::SmsUpdates::No as i32,
    };
    let updated = client
        .update_customer(with_token(update(&ana.id, "ana.t@example.ca"), &ana.token))
        .await
        .unwrap()
        .into_inner()
        .customer
        .unwrap();
    assert_eq!(
        (updated.name.as_str(), updated.email.as_str()),
        ("Ana Tremblay", "ana.t@example.ca")
    );
    assert_eq!(updated.language, types::Language::Fr as i32);
    assert_eq!(updated.sms_updates, pb::SmsUpdates::No as i32);

    let taken = client
        .update_customer(with_token(update(&ana.id, "BOB@example.ca"), &ana.token))
        .await
        .unwrap_err();
    assert_eq!(taken.code(), Code::AlreadyExists);
    let not_mine = client
        .update_customer(with_token(update(&bob.id, "x@example.ca"), &ana.token))
        .await
        .unwrap_err();
    assert_eq!(
        (not_mine.code(), reason(&not_mine).as_str()),
        (Code::PermissionDenied, "NOT_OWNER")
    );
    let peek = client
        .get_customer(with_token(
            pb::GetCustomerRequest { id: bob.id.clone() },
            &ana.token,
        ))
        .await
        .unwrap_err();
    assert_eq!(peek.code(), Code::PermissionDenied);

    let sms = client
        .update_sms_preference(with_token(
            pb::UpdateSmsPreferenceRequest {
                account_id: ana.id.clone(),
                sms_updates: pb::SmsUpdates::Yes as i32,
            },
            &ana.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(sms.sms_updates, pb::SmsUpdates::Yes as i32);

    let admin = admin_token(&server, &mut client).await;
    let listed = client
        .list_customers(with_token(
            pb::ListCustomersRequest {
                page_size: 1,
                ..Default::default()
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.customers.len(), 1);
    assert_eq!(listed.customers[0].id, bob.id, "newest first");
    let rest = client
        .list_customers(with_token(
            pb::ListCustomersRequest {
                page_size: 1,
                page_token: listed.next_page_token,
                ..Default::default()
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(rest.customers[0].id, ana.id);

    client
        .delete_customer(with_token(
            pb::DeleteCustomerRequest { id: bob.id.clone() },
            &admin,
        ))
        .await
        .unwrap();
    let gone = client
        .get_customer(with_token(
            pb::GetCustomerRequest { id: bob.id.clone() },
            &admin,
        ))
        .await
        .unwrap_err();
    assert_eq!(gone.code(), Code::NotFound);
    server.stop().await;
}

/// The professional of the profile test.
const PRO: &str = "pro@example.ca";

#[tokio::test]
async fn a_professional_builds_a_profile_and_an_admin_reviews_it() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let pro = sign_up(&mut client, pb::Role::Professional, "pro@example.ca").await;
    let admin = admin_token(&server, &mut client).await;
    let plumbing = "0190a6c0-0000-7000-8000-000000000001";

    let update_as = |profile: pb::ProfessionalProfile, token: &str| {
        with_token(
            pb::UpdateProfessionalProfileRequest {
                id: pro.id.clone(),
                name: "Paul Pro".into(),
                email: "pro@example.ca".into(),
                sms_updates: pb::SmsUpdates::Yes as i32,
                language: 0,
                profile: Some(profile),
                emergencies_any_hour: None,
            },
            token,
        )
    };
    let update = |profile: pb::ProfessionalProfile| update_as(profile, &pro.token);
    let mut bad = valid_profile("not-a-service");
    bad.available_days.clear();
    bad.radius_km = 0;
    bad.available_to = "06:00".into();
    bad.home_base.as_mut().unwrap().postal_code = "12345".into();
    bad.minimum_fee = None;
    let refused = client
        .update_professional_profile(update(bad))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    let fields = violated_fields(&refused);
    for field in [
        "profile.home_base.postal_code",
        "profile.available_days",
        "profile.available_to",
        "profile.radius_km",
        "profile.service_ids",
        "profile.minimum_fee",
    ] {
        assert!(
            fields.contains(&field.to_owned()),
            "{field} missing from {fields:?}"
        );
    }

    let saved = client
        .update_professional_profile(update(valid_profile(plumbing)))
        .await
        .unwrap()
        .into_inner();
    let professional = saved.professional.unwrap();
    let profile = professional.profile.unwrap();
    assert_eq!(
        profile.time_zone, "America/Edmonton",
        "located from the postal code"
    );
    assert_eq!(profile.home_base.unwrap().postal_code, "T2P 1J9");
    assert_eq!(
        professional.state,
        pb::ProfessionalState::WaitingForApproval as i32
    );

    // Licences: a PDF is kept; a file that lies about its type is not.
    let licence = |content: &[u8], content_type: &str| {
        with_token(
            pb::AddLicenceRequest {
                professional_id: pro.id.clone(),
                label: "Plumbing Services".into(),
                file_name: "licence.pdf".into(),
                content_type: content_type.into(),
                content: content.to_vec(),
            },
            &pro.token,
        )
    };
    let added = client
        .add_licence(licence(PDF, "application/pdf"))
        .await
        .unwrap()
        .into_inner()
        .licence
        .unwrap();
    assert!(
        added
            .file_url
            .starts_with("http://127.0.0.1:8080/files/professionals/"),
        "{}",
        added.file_url
    );
    // Up to 5 MiB is accepted, past tonic's default 4 MiB message limit.
    let mut big = PDF.to_vec();
    big.resize(4 * 1024 * 1024 + 512 * 1024, b' ');
    client
        .add_licence(licence(&big, "application/pdf"))
        .await
        .unwrap();
    let liar = client
        .add_licence(licence(b"MZ\x90\x00 not a pdf", "application/pdf"))
        .await
        .unwrap_err();
    assert_eq!(liar.code(), Code::InvalidArgument);

    // Admin: approve, then the professional edits and goes back to review, then a denial.
    let approved = client
        .approve_professional(with_token(
            pb::ApproveProfessionalRequest { id: pro.id.clone() },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(approved.state, pb::ProfessionalState::Approved as i32);
    assert!(approved.approve_time.is_some());
    let twice = client
        .approve_professional(with_token(
            pb::ApproveProfessionalRequest { id: pro.id.clone() },
            &admin,
        ))
        .await
        .unwrap_err();
    assert_eq!(twice.code(), Code::FailedPrecondition);

    // The approval left the professional's session alone: they go on with it. Their own
    // business (days and hours) takes effect at once and they stay approved; what was vetted
    // (the registered address) waits for an admin beside the approved profile.
    let own_business = pb::ProfessionalProfile {
        available_days: vec![6, 7],
        available_from: "07:00".into(),
        ..valid_profile(plumbing)
    };
    let edited = client
        .update_professional_profile(update_as(own_business.clone(), &pro.token))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(edited.state, pb::ProfessionalState::Approved as i32);
    assert_eq!(edited.profile.unwrap().available_days, [6, 7]);
    let vetted = pb::ProfessionalProfile {
        registered_address: "200 Centre St S, Calgary AB".into(),
        ..own_business
    };
    let edited = client
        .update_professional_profile(update_as(vetted, &pro.token))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(edited.state, pb::ProfessionalState::Approved as i32);
    let proposed = edited.pending_change.unwrap().proposed.unwrap();
    assert_eq!(proposed.registered_address, "200 Centre St S, Calgary AB");
    assert_eq!(
        edited.profile.unwrap().registered_address,
        valid_profile(plumbing).registered_address
    );

    let no_reason = client
        .deny_professional(with_token(
            pb::DenyProfessionalRequest {
                id: pro.id.clone(),
                reason: "  ".into(),
            },
            &admin,
        ))
        .await
        .unwrap_err();
    assert_eq!(violated_fields(&no_reason), ["reason"]);
    let denied = client
        .deny_professional(with_token(
            pb::DenyProfessionalRequest {
                id: pro.id.clone(),
                reason: "The licence is unreadable.".into(),
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(denied.state, pb::ProfessionalState::Denied as i32);
    assert_eq!(denied.denial_reason, "The licence is unreadable.");
    // Denied, their whole profile goes to review again, the change that waited with it.
    assert!(denied.pending_change.is_none());
    assert_eq!(
        denied.profile.unwrap().registered_address,
        "200 Centre St S, Calgary AB"
    );
    let mail = wait_for_message(
        server.data_dir(),
        "email.jsonl",
        "pro@example.ca",
        "The licence is unreadable.",
        1,
    )
    .await;
    assert!(
        mail["body"]
            .as_str()
            .unwrap()
            .contains("The licence is unreadable.")
    );

    // The denial ended the professional's session: they sign in again.
    // "Continue without licence update" sends a denied profile back to review.
    let pro_token = session_token(&mut client, pb::Role::Professional, PRO, TEST_PASSWORD).await;
    let resubmitted = client
        .submit_profile_for_review(with_token(
            pb::SubmitProfileForReviewRequest { id: pro.id.clone() },
            &pro_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        resubmitted.professional.unwrap().state,
        pb::ProfessionalState::ProfileUpdated as i32
    );

    let events = client
        .list_audit_events(with_token(pb::ListAuditEventsRequest::default(), &admin))
        .await
        .unwrap()
        .into_inner()
        .events;
    let actions: Vec<&str> = events.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(actions, ["professional.deny", "professional.approve"]);
    assert_eq!(events[0].reason, "The licence is unreadable.");

    // Only approved professionals are public.
    let anonymous = client
        .get_public_professional(pb::GetPublicProfessionalRequest { id: pro.id.clone() })
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::NotFound);

    client
        .delete_professional(with_token(
            pb::DeleteProfessionalRequest { id: pro.id.clone() },
            &admin,
        ))
        .await
        .unwrap();
    let gone = log_in(
        &mut client,
        pb::Role::Professional,
        "pro@example.ca",
        "correct horse",
    )
    .await
    .unwrap_err();
    assert_eq!(gone.code(), Code::Unauthenticated);
    server.stop().await;
}

#[tokio::test]
async fn repeated_failed_sign_ins_are_throttled_for_known_and_unknown_emails() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    sign_up(&mut client, pb::Role::Customer, "ana@example.ca").await;

    for email in ["ana@example.ca", "nobody@example.ca"] {
        for _ in 0..10 {
            let failed = log_in(&mut client, pb::Role::Customer, email, "wrong horse")
                .await
                .unwrap_err();
            assert_eq!(reason(&failed), "INVALID_CREDENTIALS");
        }
        let throttled = log_in(&mut client, pb::Role::Customer, email, "correct horse")
            .await
            .unwrap_err();
        assert_eq!(
            (throttled.code(), reason(&throttled).as_str()),
            (Code::ResourceExhausted, "LOG_IN_THROTTLED")
        );
    }
    // The limit is per email and role: the same address as a professional is not affected.
    sign_up(&mut client, pb::Role::Professional, "ana@example.ca").await;
    assert!(
        log_in(
            &mut client,
            pb::Role::Professional,
            "ANA@example.ca",
            "correct horse"
        )
        .await
        .is_ok()
    );
    server.stop().await;
}
