//! The legacy account calls end to end: reqwest -> BFF -> the real server (Postgres, Redis,
//! outbox files) -> back into the old app's shapes and status codes.
//!
//! Needs TEST_DATABASE_URL and TEST_REDIS_URL (`make test`, or `source /tmp/devenv`).

use std::collections::BTreeSet;

use crate::helpers::assert_security_headers;
use crate::helpers::legacy::{PASSWORD, PDF, PNG, get, keys, post, post_form, text};
use crate::helpers::server::Stack;
use repairs_server::testing::wait_for_message;
use reqwest::multipart::{Form, Part};
use serde_json::json;

/// The 4-digit code of the last SMS to `phone`.
async fn sms_code(stack: &Stack, phone: &str) -> String {
    let message = wait_for_message(stack.data_dir(), "sms.jsonl", phone, "", 1).await;
    let body = text(&message["body"]);
    body.split(|c: char| !c.is_ascii_digit())
        .find(|word| word.len() == 4)
        .unwrap_or_else(|| panic!("no code in {body}"))
        .to_owned()
}

/// The (id, token) of the reset link last emailed to `email`, after `page` in the link.
async fn reset_link(stack: &Stack, email: &str, page: &str) -> (String, String) {
    let link = format!("/{page}/");
    let message = wait_for_message(stack.data_dir(), "email.jsonl", email, &link, 1).await;
    let body = text(&message["body"]);
    let start = body.find(&format!("/{page}/")).expect("a reset link") + page.len() + 2;
    let link = body[start..].split_whitespace().next().unwrap();
    let (id, token) = link.split_once('/').unwrap();
    (id.to_owned(), token.to_owned())
}

async fn sign_up_customer(stack: &Stack, email: &str) -> (String, String) {
    let (status, body) = post(
        stack,
        "/api/users",
        None,
        json!({ "name": "Cathy Customer", "email": email, "password": PASSWORD, "lang": "fr" }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    (text(&body["id"]), text(&body["token"]))
}

#[tokio::test]
async fn a_customer_signs_up_verifies_a_phone_and_manages_the_account() {
    let stack = Stack::start().await;

    // Sign-up: {id, _id, token, name, msg}; the same email again is a conflict.
    let (status, body) = post(
        &stack,
        "/api/users",
        None,
        json!({ "name": "Cathy Customer", "email": "cathy@example.ca", "password": PASSWORD, "lang": "fr" }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        keys(&body),
        BTreeSet::from(["_id", "id", "msg", "name", "token"])
    );
    assert_eq!(body["id"], body["_id"]);
    assert_eq!(body["name"], "Cathy Customer");
    let id = text(&body["id"]);
    let token = text(&body["token"]);
    let (status, taken) = post(
        &stack,
        "/api/users",
        None,
        json!({ "name": "Other", "email": "CATHY@example.ca", "password": PASSWORD }),
    )
    .await;
    assert_eq!(status, 409, "{taken}");
    assert!(!text(&taken["msg"]).is_empty());

    // Phone: 200 on send, 202 for a second send within the 30 s cooldown (send or resend).
    let send = json!({ "phoneNumber": "403 555 0100", "countryCode": "+1", "sms_updates": "yes", "id": id });
    let (status, sent) = post(&stack, "/api/sms/send-otp", Some(&token), send.clone()).await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(
        sent,
        json!({ "msg": "OTP sent", "id": id, "phoneNumber": "403 555 0100" })
    );
    let code = sms_code(&stack, "+14035550100").await;
    let (status, again) = post(&stack, "/api/sms/send-otp", Some(&token), send).await;
    assert_eq!(status, 202, "{again}");
    assert_eq!(again["code"], "PHONE_CODE_COOLDOWN");
    assert!(text(&again["msg"]).contains("seconds"), "{again}");
    let (status, resent) = post(
        &stack,
        "/api/sms/resend-otp",
        Some(&token),
        json!({ "phoneNumber": "+14035550100", "id": id }),
    )
    .await;
    assert_eq!(status, 202, "{resent}");
    // A number that is not Canadian or Indian is a refusal too: 202, not 400.
    let (status, invalid) = post(
        &stack,
        "/api/sms/send-otp",
        Some(&token),
        json!({ "phoneNumber": "7700 900123", "countryCode": "+44", "id": id }),
    )
    .await;
    assert_eq!(status, 202, "{invalid}");
    // Without a token it is a sign-in problem, not a refusal of the number.
    let (status, _) = post(
        &stack,
        "/api/sms/send-otp",
        None,
        json!({ "phoneNumber": "4035550100", "countryCode": "+1", "id": id }),
    )
    .await;
    assert_eq!(status, 401);

    // Verify: a wrong code is 400, the right one 200, and then there is no code left: 201.
    let wrong = if code == "1234" { "4321" } else { "1234" };
    let verify = |otp: &str, phone: &str| json!({ "otp": otp, "phoneNumber": phone, "id": id, "email": "cathy@example.ca", "name": "Cathy Customer", "lang": "fr" });
    let (status, refused) = post(
        &stack,
        "/api/sms/verify-otp",
        Some(&token),
        verify(wrong, "4035550100"),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert!(text(&refused["msg"]).contains("not right"), "{refused}");
    let (status, verified) = post(
        &stack,
        "/api/sms/verify-otp",
        Some(&token),
        verify(&code, "+14035550100"),
    )
    .await;
    assert_eq!(status, 200, "{verified}");
    assert_eq!(
        verified,
        json!({ "msg": "OTP verified", "otp_verified": "1" })
    );
    let (status, used) = post(
        &stack,
        "/api/sms/verify-otp",
        Some(&token),
        verify(&code, "4035550100"),
    )
    .await;
    assert_eq!(status, 201, "{used}");

    // Login: {token, name, id, otp_verified, sms_updates}; a wrong password is 401 {msg}.
    let (status, login) = post(
        &stack,
        "/api/users/login",
        None,
        json!({ "email": "cathy@example.ca", "password": PASSWORD }),
    )
    .await;
    assert_eq!(status, 200, "{login}");
    assert_eq!(
        keys(&login),
        BTreeSet::from(["id", "name", "otp_verified", "sms_updates", "token"])
    );
    assert_eq!(login["id"], id.as_str());
    assert_eq!(login["otp_verified"], "1");
    assert_eq!(login["sms_updates"], "yes");
    let token = text(&login["token"]);
    let (status, mismatch) = post(
        &stack,
        "/api/users/login",
        None,
        json!({ "email": "cathy@example.ca", "password": "not the password" }),
    )
    .await;
    assert_eq!(status, 401);
    assert!(!text(&mismatch["msg"]).is_empty());

    // The user record.
    let (status, user) = get(&stack, &format!("/api/users/get-user/{id}"), Some(&token)).await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(
        keys(&user),
        BTreeSet::from([
            "_id",
            "createdAt",
            "email",
            "language",
            "name",
            "otp_verified",
            "phone",
            "sms_updates"
        ])
    );
    assert_eq!(user["_id"], id.as_str());
    assert_eq!(user["phone"], "+14035550100");
    assert_eq!(user["otp_verified"], "1");
    assert_eq!(user["sms_updates"], "yes");
    assert_eq!(user["language"], "fr");
    assert!(text(&user["createdAt"]).ends_with('Z'));

    // Update the account: {msg, user}.
    let (status, updated) = post(
        &stack,
        "/api/users/update-account",
        Some(&token),
        json!({ "id": id, "name": "Cathy C.", "email": "cathy.c@example.ca", "language": "eng", "sms_updates": "no" }),
    )
    .await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(updated["msg"], "Details updated");
    assert_eq!(updated["user"]["name"], "Cathy C.");
    assert_eq!(updated["user"]["email"], "cathy.c@example.ca");
    assert_eq!(updated["user"]["language"], "en");
    assert_eq!(updated["user"]["sms_updates"], "no");

    // The SMS choice, with and without the trailing slash.
    for path in ["/api/users/get-sms-updates/", "/api/users/get-sms-updates"] {
        let (status, body) = post(
            &stack,
            path,
            Some(&token),
            json!({ "id": id, "sms_updates": "yes" }),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["sms_updates"], "yes");
    }
    let (_, user) = get(&stack, &format!("/api/users/get-user/{id}"), Some(&token)).await;
    assert_eq!(user["sms_updates"], "yes");

    // Someone else's record is not theirs to read.
    let (other, _) = sign_up_customer(&stack, "dan@example.ca").await;
    let (status, _) = get(
        &stack,
        &format!("/api/users/get-user/{other}"),
        Some(&token),
    )
    .await;
    assert_eq!(status, 403);
    stack.stop().await;
}

#[tokio::test]
async fn a_reset_link_works_once_for_customers_and_professionals() {
    let stack = Stack::start().await;
    let (id, _) = sign_up_customer(&stack, "rita@example.ca").await;
    let sent = json!({ "msg": "If an account exists for this email, a reset link is on its way." });
    for email in ["rita@example.ca", "nobody@example.ca"] {
        let (status, body) = post(
            &stack,
            "/api/users/forgot-password",
            None,
            json!({ "email": email }),
        )
        .await;
        assert_eq!((status, body), (200, sent.clone()), "{email}");
    }
    let (link_id, reset_token) = reset_link(&stack, "rita@example.ca", "reset-password").await;
    assert_eq!(link_id, id);
    let check = |token: &str| format!("/api/users/get-user1/{id}/{token}");
    assert_eq!(
        get(&stack, &check(&reset_token), None).await,
        (200, json!({ "msg": "true" }))
    );
    assert_eq!(
        get(&stack, &check("not-the-token"), None).await,
        (200, json!({ "msg": "false" }))
    );

    // The old page did not send the token: a clear 400.
    let (status, missing) = post(
        &stack,
        "/api/users/reset-password",
        None,
        json!({ "id": id, "password": "a brand new password" }),
    )
    .await;
    assert_eq!(status, 400);
    assert!(text(&missing["msg"]).contains("reset link"), "{missing}");
    let (status, done) = post(
        &stack,
        "/api/users/reset-password",
        None,
        json!({ "id": id, "password": "a brand new password", "token": reset_token }),
    )
    .await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(keys(&done), BTreeSet::from(["msg"]));
    assert_eq!(
        get(&stack, &check(&reset_token), None).await,
        (200, json!({ "msg": "false" }))
    );
    let (status, _) = post(
        &stack,
        "/api/users/login",
        None,
        json!({ "email": "rita@example.ca", "password": "a brand new password" }),
    )
    .await;
    assert_eq!(status, 200);

    // The professional side: the same email is another account, with its own link.
    let (status, pro) = post(
        &stack,
        "/api/professionals",
        None,
        json!({ "name": "Rita Pro", "email": "rita@example.ca", "password": PASSWORD, "lang": "en" }),
    )
    .await;
    assert_eq!(status, 200, "{pro}");
    let pro_id = text(&pro["id"]);
    let (status, _) = post(
        &stack,
        "/api/professionals/forgot-password",
        None,
        json!({ "email": "rita@example.ca" }),
    )
    .await;
    assert_eq!(status, 200);
    let (link_id, pro_token) = reset_link(&stack, "rita@example.ca", "prof-reset-password").await;
    assert_eq!(link_id, pro_id);
    let check = format!("/api/professionals/get-professional1/{pro_id}/{pro_token}");
    assert_eq!(
        get(&stack, &check, None).await,
        (200, json!({ "msg": "true" }))
    );
    let (status, _) = post(
        &stack,
        "/api/professionals/reset-password",
        None,
        json!({ "id": pro_id, "password": "another new password", "token": pro_token }),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        get(&stack, &check, None).await,
        (200, json!({ "msg": "false" }))
    );
    stack.stop().await;
}

/// The profile form as the old page sends it (card fields included, which must be dropped).
fn profile_form(id: &str, fee: &str) -> Form {
    let fields = [
        ("id", id),
        ("name", "Paul Pro"),
        ("email", "paul@example.ca"),
        ("description", "Licensed plumber, 24/7 emergencies."),
        ("office_address", "100 9 Ave SW"),
        ("registered_address", "100 9 Ave SW, Calgary AB"),
        ("city", "Calgary"),
        ("state_or_province", "Alberta"),
        ("country", "Canada"),
        ("zipcode", "t2p1j9"),
        ("availability_days", "Monday, Tuesday, Friday"),
        ("availability_hours1", "07:00"),
        ("availability_hours2", "22:00"),
        ("radius_to_cater", "50"),
        ("specialisation", "Plumbing Services, Roofing Services"),
        ("qualification", "Red Seal"),
        ("experience", "5-10"),
        ("standard_fees", fee),
        ("sms_updates", "yes"),
        ("lang", "en"),
        ("update_status", "2"),
        ("professional_card", "on"),
        ("card_number", "4242424242424242"),
        ("expireMM", "12"),
        ("expireYY", "30"),
        ("cvv", "123"),
    ];
    let form = fields.into_iter().fold(Form::new(), |form, (name, value)| {
        form.text(name, value.to_owned())
    });
    form.part(
        "photo",
        Part::bytes(PNG)
            .file_name("me.png")
            .mime_str("image/png")
            .unwrap(),
    )
}

fn licence_form(id: &str, content: &'static [u8]) -> Form {
    Form::new()
        .text("id", id.to_owned())
        .text("textValues[]", "Plumbing Services")
        .part(
            "fileValues",
            Part::bytes(content)
                .file_name("licence.pdf")
                .mime_str("application/pdf")
                .unwrap(),
        )
}

/// Every key of the legacy professional record.
const PROFESSIONAL_KEYS: [&str; 30] = [
    "_id",
    "approvedAt",
    "availability_days",
    "availability_hours1",
    "availability_hours2",
    "city",
    "country",
    "createdAt",
    "d_reason",
    "description",
    "disapproval_reason",
    "email",
    "experience",
    "lang",
    "licence",
    "membershipStatus",
    "name",
    "office_address",
    "otp_verified",
    "phone",
    "photo_id",
    "qualification",
    "radius_to_cater",
    "registered_address",
    "sms_updates",
    "specialisation",
    "standard_fees",
    "state_or_province",
    "status",
    "zipcode",
];

#[tokio::test]
async fn a_professional_builds_a_profile_and_an_admin_reviews_it() {
    let stack = Stack::start().await;
    stack.create_admin("ada@example.ca", PASSWORD).await;

    // Sign-up and login.
    let (status, signed) = post(
        &stack,
        "/api/professionals",
        None,
        json!({ "name": "Paul Pro", "email": "paul@example.ca", "password": PASSWORD, "lang": "en" }),
    )
    .await;
    assert_eq!(status, 200, "{signed}");
    let id = text(&signed["id"]);
    assert_eq!(signed["_id"], id.as_str());
    assert_eq!(signed["status"], 0);
    assert_eq!(signed["d_reason"], "");
    assert_eq!(signed["f1_address"], "");
    assert_eq!(signed["name"], "Paul Pro");
    let (status, login) = post(
        &stack,
        "/api/professionals/login",
        None,
        json!({ "email": "paul@example.ca", "password": PASSWORD }),
    )
    .await;
    assert_eq!(status, 200, "{login}");
    assert_eq!(
        keys(&login),
        BTreeSet::from([
            "_id",
            "d_reason",
            "f1_address",
            "id",
            "membershipStatus",
            "name",
            "otp_verified",
            "status",
            "token"
        ])
    );
    assert_eq!(login["otp_verified"], "0");
    assert_eq!(login["membershipStatus"], "inactive");
    let token = text(&login["token"]);

    // The profile form: a fee that is not an amount is the server's 400, field by field.
    let (status, refused) = post_form(
        &stack,
        "/api/professionals/profile",
        &token,
        profile_form(&id, "thirty"),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["field"] == "profile.minimum_fee"),
        "{refused}"
    );
    // A choice made in the app that the old form has no field for stays as it was.
    let any_hour = "select emergencies_any_hour from professionals where id = $1::uuid";
    sqlx::query("update professionals set emergencies_any_hour = true where id = $1::uuid")
        .bind(&id)
        .execute(&stack.server.server.state.db)
        .await
        .unwrap();
    let (status, saved) = post_form(
        &stack,
        "/api/professionals/profile",
        &token,
        profile_form(&id, "30.00"),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["msg"], "Profile Successfully Updated!");
    let kept: bool = sqlx::query_scalar(any_hour)
        .bind(&id)
        .fetch_one(&stack.server.server.state.db)
        .await
        .unwrap();
    assert!(kept, "the legacy profile keeps emergencies at any hour");
    // The sales tax registration numbers given in the app (the old form has no such field)
    // survive a save of the old form; the record below is this save's.
    sqlx::query(
        "update professionals set gst_hst_number = '123456789RT0001',
            qst_number = '1234567890TQ0001' where id = $1::uuid",
    )
    .bind(&id)
    .execute(&stack.server.server.state.db)
    .await
    .unwrap();
    let (status, saved) = post_form(
        &stack,
        "/api/professionals/profile",
        &token,
        profile_form(&id, "30.00"),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    let kept: (Option<String>, Option<String>) =
        sqlx::query_as("select gst_hst_number, qst_number from professionals where id = $1::uuid")
            .bind(&id)
            .fetch_one(&stack.server.server.state.db)
            .await
            .unwrap();
    assert_eq!(
        kept,
        (
            Some("123456789RT0001".to_owned()),
            Some("1234567890TQ0001".to_owned())
        ),
        "the legacy profile keeps the registration numbers"
    );

    let record = &saved["professional"];
    assert_eq!(
        record["specialisation"],
        "Plumbing Services, Roofing Services"
    );
    assert_eq!(record["standard_fees"], "30.00");
    assert_eq!(record["state_or_province"], "Alberta");
    assert_eq!(record["zipcode"], "T2P 1J9");
    assert_eq!(record["city"], "Calgary");
    assert_eq!(record["office_address"], "100 9 Ave SW");
    assert_eq!(record["availability_days"], "Monday, Tuesday, Friday");
    assert_eq!(record["availability_hours1"], "07:00");
    assert_eq!(record["radius_to_cater"], "50");
    assert_eq!(record["experience"], "5-10");
    assert_eq!(record["sms_updates"], "yes");
    assert_eq!(record["status"], 0);
    let photo = text(&record["photo_id"]);
    assert!(photo.starts_with("/files/"), "{photo}");
    assert!(
        !saved.to_string().contains("4242"),
        "card fields are dropped"
    );

    // Licences: one PDF, then review; a file that is not a PDF is {ok: false}.
    let (status, licensed) = post_form(
        &stack,
        "/api/professionals/licenceUpdate",
        &token,
        licence_form(&id, PDF),
    )
    .await;
    assert_eq!(status, 200, "{licensed}");
    assert_eq!(
        licensed,
        json!({ "ok": true, "msg": "Licence Successfully Updated!" })
    );
    let (status, liar) = post_form(
        &stack,
        "/api/professionals/licenceUpdate",
        &token,
        licence_form(&id, b"MZ not a pdf"),
    )
    .await;
    assert_eq!(status, 400, "{liar}");
    assert_eq!(liar["ok"], false);
    assert!(!text(&liar["msg"]).is_empty());

    // The record, read back.
    let (status, record) = get(
        &stack,
        &format!("/api/professionals/view-profile/{id}"),
        Some(&token),
    )
    .await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(keys(&record), PROFESSIONAL_KEYS.into_iter().collect());
    assert_eq!(record["status"], 0);
    assert_eq!(record["country"], "Canada");
    assert_eq!(
        record["licence"]["textValues"],
        json!(["Plumbing Services"])
    );
    let file = text(&record["licence"]["fileValues"][0]);
    assert!(file.starts_with("/files/"), "{file}");

    // The licence downloads through the BFF, as a PDF with the security headers.
    let download = stack.http.get(stack.url(&file)).send().await.unwrap();
    assert_eq!(download.status(), 200);
    assert_security_headers(&download);
    assert_eq!(
        crate::helpers::header(&download, "content-type"),
        "application/pdf"
    );
    assert_eq!(
        crate::helpers::header(&download, "cache-control"),
        "private, max-age=3600"
    );
    assert_eq!(&download.bytes().await.unwrap()[..], PDF);
    let photo_download = stack.http.get(stack.url(&photo)).send().await.unwrap();
    assert_eq!(photo_download.status(), 200);
    assert_eq!(
        crate::helpers::header(&photo_download, "content-type"),
        "image/png"
    );
    let tampered = stack
        .http
        .get(stack.url(&file.replace("sig=", "sig=00")))
        .send()
        .await
        .unwrap();
    assert_eq!(tampered.status(), 403);
    assert_security_headers(&tampered);

    // The token in the path is the session.
    let (status, by_token) = get(
        &stack,
        &format!("/api/professionals/get-professional/{token}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{by_token}");
    assert_eq!(by_token["_id"], id.as_str());
    let (status, _) = get(
        &stack,
        "/api/professionals/get-professional/not-a-jwt",
        None,
    )
    .await;
    assert_eq!(status, 401);
    let (status, contact) = get(
        &stack,
        &format!("/api/professionals/get-professionall/{id}"),
        Some(&token),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        contact,
        json!({ "_id": id, "phone": "", "email": "paul@example.ca", "name": "Paul Pro", "otp_verified": "0" })
    );

    // "Continue without licence update": the id comes from the token.
    let (status, submitted) = post(
        &stack,
        "/api/professionals/withoutlicenceUpdate",
        Some(&token),
        json!({ "phone": "", "sms_updates": "yes", "email": "paul@example.ca", "name": "Paul Pro", "lang": "en" }),
    )
    .await;
    assert_eq!(status, 200, "{submitted}");
    assert_eq!(submitted, json!({ "msg": "Licence Successfully Updated!" }));
    let (status, _) = post(
        &stack,
        "/api/professionals/get-sms-updates/",
        Some(&token),
        json!({ "id": id, "sms_updates": "no" }),
    )
    .await;
    assert_eq!(status, 200);

    // The admin.
    let (status, refused) = post(
        &stack,
        "/api/admin/login",
        None,
        json!({ "email": "ada@example.ca", "password": "wrong password" }),
    )
    .await;
    assert_eq!(status, 401);
    assert!(!text(&refused["msg"]).is_empty());
    let (status, admin) = post(
        &stack,
        "/api/admin/login",
        None,
        json!({ "email": "ada@example.ca", "password": PASSWORD }),
    )
    .await;
    assert_eq!(status, 200, "{admin}");
    assert_eq!(
        keys(&admin),
        BTreeSet::from(["admin_name", "admin_token", "msg"])
    );
    assert_eq!(admin["admin_name"], "Ada Admin");
    let admin = text(&admin["admin_token"]);
    let (status, list) = get(&stack, "/api/professionals", Some(&admin)).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["_id"], id.as_str());
    assert_eq!(list[0]["sms_updates"], "no");
    let (status, _) = get(&stack, "/api/professionals", Some(&token)).await;
    assert_eq!(status, 403, "a professional cannot list professionals");

    let view = format!("/api/professionals/view-profile/{id}");
    let (status, approved) = get(
        &stack,
        &format!("/api/professionals/approve-professional/{id}"),
        Some(&admin),
    )
    .await;
    assert_eq!(
        (status, approved),
        (200, json!({ "msg": "Professional approved" }))
    );
    let (_, record) = get(&stack, &view, Some(&admin)).await;
    assert_eq!(record["status"], 1);
    assert!(text(&record["approvedAt"]).ends_with('Z'));
    let (status, twice) = get(
        &stack,
        &format!("/api/professionals/approve-professional/{id}"),
        Some(&admin),
    )
    .await;
    assert_eq!(status, 409, "{twice}");

    let (status, denied) = post(
        &stack,
        "/api/professionals/disapprove-professional",
        Some(&admin),
        json!({ "id": id, "reason": "The licence is unreadable" }),
    )
    .await;
    assert_eq!(status, 200, "{denied}");
    let (_, record) = get(&stack, &view, Some(&admin)).await;
    assert_eq!(record["status"], 2);
    assert_eq!(record["d_reason"], "The licence is unreadable");
    assert_eq!(record["disapproval_reason"], "The licence is unreadable");
    let (_, denied_only) = get(&stack, "/api/professionals?status=2", Some(&admin)).await;
    assert_eq!(denied_only.as_array().unwrap().len(), 1);
    let (_, approved_only) = get(&stack, "/api/professionals?status=1", Some(&admin)).await;
    assert_eq!(approved_only, json!([]));

    let (status, deleted) = get(
        &stack,
        &format!("/api/professionals/delete-professional/{id}"),
        Some(&admin),
    )
    .await;
    assert_eq!(
        (status, deleted),
        (200, json!({ "msg": "Deleted Successfully" }))
    );
    let (status, _) = get(&stack, &view, Some(&admin)).await;
    assert_eq!(status, 404);
    stack.stop().await;
}

#[tokio::test]
async fn the_customer_list_is_for_admins() {
    let stack = Stack::start().await;
    stack.create_admin("ada@example.ca", PASSWORD).await;
    let (id, token) = sign_up_customer(&stack, "cathy@example.ca").await;
    sign_up_customer(&stack, "dan@example.ca").await;

    let (status, body) = get(&stack, "/api/users", None).await;
    assert_eq!(status, 401, "{body}");
    assert!(!text(&body["msg"]).is_empty());
    let (status, _) = get(&stack, "/api/users", Some(&token)).await;
    assert_eq!(status, 403);
    let (status, _) = get(
        &stack,
        &format!("/api/users/delete-user/{id}"),
        Some(&token),
    )
    .await;
    assert_eq!(status, 403);

    let (_, admin) = post(
        &stack,
        "/api/admin/login",
        None,
        json!({ "email": "ada@example.ca", "password": PASSWORD }),
    )
    .await;
    let admin = text(&admin["admin_token"]);
    let (status, users) = get(&stack, "/api/users/", Some(&admin)).await;
    assert_eq!(status, 200, "{users}");
    let users = users.as_array().unwrap().clone();
    assert_eq!(users.len(), 2);
    assert!(users.iter().all(|user| user["otp_verified"] == "0"));
    assert!(users.iter().any(|user| user["_id"] == id.as_str()));

    let (status, deleted) = get(
        &stack,
        &format!("/api/users/delete-user/{id}"),
        Some(&admin),
    )
    .await;
    assert_eq!(
        (status, deleted),
        (200, json!({ "msg": "Deleted Successfully" }))
    );
    let (status, _) = get(&stack, &format!("/api/users/get-user/{id}"), Some(&admin)).await;
    assert_eq!(status, 404);
    let (_, users) = get(&stack, "/api/users", Some(&admin)).await;
    assert_eq!(users.as_array().unwrap().len(), 1);
    stack.stop().await;
}

#[tokio::test]
async fn services_read_in_english_and_french() {
    let stack = Stack::start().await;
    let (status, english) = get(&stack, "/api/services", None).await;
    assert_eq!(status, 200, "{english}");
    let english = english.as_array().unwrap().clone();
    assert_eq!(english.len(), 8);
    assert_eq!(
        keys(&english[0]),
        BTreeSet::from(["_id", "createdAt", "description", "name", "photo"])
    );
    assert_eq!(english[0]["name"], "Plumbing Services");
    let (status, french) = get(&stack, "/api/fr/services", None).await;
    assert_eq!(status, 200);
    assert_eq!(french[0]["name"], "Services de plomberie");
    assert_eq!(french[0]["_id"], english[0]["_id"]);

    let id = text(&english[3]["_id"]);
    let (status, one) = get(&stack, &format!("/api/services/get-service/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(one, english[3]);
    let (status, _) = get(
        &stack,
        "/api/services/get-service/0190a6c0-0000-7000-8000-00000000dead",
        None,
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = get(&stack, "/api/services/get-service/not-an-id", None).await;
    assert_eq!(status, 400);
    stack.stop().await;
}

#[tokio::test]
async fn social_sign_in_needs_the_providers_token() {
    let stack = Stack::start().await;
    // An email and a name alone never sign anyone in.
    let (status, body) = post(
        &stack,
        "/api/users/fb-login",
        None,
        json!({ "email": "cathy@example.ca", "name": "Cathy" }),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({ "msg": "Facebook sign-in needs the access token from the Facebook login dialog" })
    );
    // With a token the server decides (here: no provider configured, so no sign-in).
    let (status, body) = post(
        &stack,
        "/api/users/fb-login",
        None,
        json!({ "accessToken": "EAAB-not-real", "email": "cathy@example.ca", "name": "Cathy" }),
    )
    .await;
    assert!(status >= 400, "{status} {body}");
    assert!(body.get("token").is_none());
    let (status, body) = post(
        &stack,
        "/api/users/google-login",
        None,
        json!({ "token": "not-a-google-id-token" }),
    )
    .await;
    assert!(status >= 400, "{status} {body}");
    assert!(!text(&body["msg"]).is_empty());
    stack.stop().await;
}
