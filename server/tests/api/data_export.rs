//! A copy of one person's data through the RPCs on the real server, Postgres, Redis and the
//! local object store: prepared by the worker off the request path, one at a time per
//! person, holding every kind of record of theirs and nothing of anyone else's (the other
//! party of a conversation by first name alone), downloadable by a short link given to the
//! person or an admin (audited), deleted after 7 days.

use std::io::{Cursor, Read};

use crate::helpers::{
    AccountsClient, TestServer,
    market::{self, CALGARY_PRO, customer, db, professional},
    wait_for_message, with_token,
};
use repairs_proto::accounts as pb;
use repairs_server::{accounts::export, domain::Role};
use tonic::Code;

async fn ask(
    accounts: &mut AccountsClient,
    token: &str,
    whose: (&str, pb::Role),
) -> Result<pb::DataExport, tonic::Status> {
    let request = pb::RequestDataExportRequest {
        account_id: whose.0.into(),
        role: whose.1 as i32,
    };
    Ok(accounts
        .request_data_export(with_token(request, token))
        .await?
        .into_inner()
        .export
        .unwrap())
}

async fn latest(
    accounts: &mut AccountsClient,
    token: &str,
    whose: (&str, pb::Role),
) -> Result<pb::DataExport, tonic::Status> {
    let request = pb::GetDataExportRequest {
        account_id: whose.0.into(),
        role: whose.1 as i32,
    };
    Ok(accounts
        .get_data_export(with_token(request, token))
        .await?
        .into_inner()
        .export
        .expect("an export was asked for"))
}

/// Waits (up to 10 s) for the worker to make the caller's export ready.
async fn ready(accounts: &mut AccountsClient, token: &str) -> pb::DataExport {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let export = latest(accounts, token, ("", pb::Role::Unspecified))
            .await
            .unwrap();
        if export.state() == pb::DataExportState::Ready {
            return export;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not ready: {export:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The archive behind a download link, read from the server's HTTP listener.
async fn download(server: &TestServer, link: &str) -> Option<Vec<u8>> {
    let path = &link[link.find("/files/").expect("a file link")..];
    let response = reqwest::get(format!("http://{}{path}", server.server.http_addr))
        .await
        .unwrap();
    if response.status() != reqwest::StatusCode::OK {
        return None;
    }
    assert_eq!(response.headers()["content-type"], "application/zip");
    Some(response.bytes().await.unwrap().to_vec())
}

#[tokio::test]
async fn an_export_holds_every_kind_of_record_of_its_person_and_nothing_of_anyone_else() {
    let server = TestServer::start().await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let mut market = market::market(&server).await;
    let (customer_id, customer) = customer(&server).await;
    let (pro_id, pro, pro_email) = professional(&server, CALGARY_PRO).await;
    sqlx::query("update professionals set name = 'Marc Tremblay-Secret' where id = $1")
        .bind(pro_id)
        .execute(db(&server))
        .await
        .unwrap();
    let request = market::with_photo_quote_and_messages(
        &server,
        &mut market,
        &customer,
        (pro_id, &pro),
        ["I can come at noon.", "Noon works, thanks."],
    )
    .await;

    // Texts off: a consent withdrawn, on record.
    let texts_off = pb::NotificationPreference {
        topic: pb::NotificationTopic::RequestUpdates as i32,
        channel: pb::NotificationChannel::Sms as i32,
        enabled: false,
        may_turn_off: true,
    };
    accounts
        .update_notification_preferences(with_token(
            pb::UpdateNotificationPreferencesRequest {
                preferences: vec![texts_off],
            },
            &customer,
        ))
        .await
        .unwrap();

    let own = ("", pb::Role::Unspecified);
    let none = accounts
        .get_data_export(with_token(pb::GetDataExportRequest::default(), &customer))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(none.export, None);
    let asked = ask(&mut accounts, &customer, own).await.unwrap();
    let again = ask(&mut accounts, &customer, own).await.unwrap();
    assert_eq!(again.id, asked.id, "one at a time");
    let made = ready(&mut accounts, &customer).await;
    assert_eq!(made.id, asked.id);
    assert!(made.size_bytes > 0);
    let bytes = download(&server, &made.download_url)
        .await
        .expect("the archive");
    wait_for_message(
        server.data_dir(),
        "email.jsonl",
        &format!("{}@example.ca", customer_id.simple()),
        "/user-account-setting",
        1,
    )
    .await;

    let mut archive = zip::ZipArchive::new(Cursor::new(bytes.clone())).unwrap();
    let mut names: Vec<String> = archive.file_names().map(str::to_owned).collect();
    names.sort();
    for file in [
        "account.json",
        "consents.json",
        "devices.json",
        "index.html",
        "messages.json",
        "notification_preferences.json",
        "orders.json",
        "payments.json",
        "quotes.json",
        "requests.json",
        "reviews.json",
        "sign_ins.json",
    ] {
        assert!(names.contains(&file.to_owned()), "{file} in {names:?}");
    }
    assert!(
        names
            .iter()
            .any(|n| n.starts_with(&format!("photos/requests/{}/", request.id))),
        "{names:?}"
    );
    let read = |archive: &mut zip::ZipArchive<Cursor<Vec<u8>>>, name: &str| {
        let mut text = String::new();
        archive
            .by_name(name)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    };
    let account = read(&mut archive, "account.json");
    assert_eq!(account["id"], customer_id.to_string());
    assert_eq!(account["phone"], "+14035550100");
    assert!(account.get("password_hash").is_none());
    let requests = read(&mut archive, "requests.json");
    assert_eq!(requests[0]["line1"], market::STREET);
    // The test accounts are made without a sign-up form: their only consent is the texts
    // turned off below.
    let consents = read(&mut archive, "consents.json");
    assert_eq!(consents[0]["subject"], "sms_alerts", "{consents}");
    assert_eq!(consents[0]["given"], false, "{consents}");
    let messages = read(&mut archive, "messages.json");
    let from: Vec<&str> = messages
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["from"].as_str().unwrap())
        .collect();
    assert_eq!(from, ["Marc", "you"]);
    assert_eq!(
        read(&mut archive, "quotes.json")[0]["professional_first_name"],
        "Marc"
    );
    // Nothing of the professional's but their first name, anywhere in the archive.
    let mut everything = Vec::new();
    for index in 0..archive.len() {
        archive
            .by_index(index)
            .unwrap()
            .read_to_end(&mut everything)
            .unwrap();
    }
    let everything = String::from_utf8_lossy(&everything);
    for theirs in ["Tremblay-Secret", pro_email.as_str(), "+1587555"] {
        assert!(!everything.contains(theirs), "{theirs} is in the archive");
    }

    // Nobody else's: another person's id is not found; an admin names the person and role,
    // and each admin call is in the audit log.
    let (_, stranger) = server.account_token(Role::Customer).await;
    let theirs = (customer_id.to_string(), pb::Role::Customer);
    let refused = latest(&mut accounts, &stranger, (&theirs.0, theirs.1))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    let (_, admin) = server.account_token(Role::Admin).await;
    let unnamed = latest(&mut accounts, &admin, ("", pb::Role::Unspecified))
        .await
        .unwrap_err();
    assert_eq!(unnamed.code(), Code::InvalidArgument);
    let for_admin = latest(&mut accounts, &admin, (&theirs.0, theirs.1))
        .await
        .unwrap();
    assert!(!for_admin.download_url.is_empty());
    let (audited,): (i64,) = sqlx::query_as(
        "select count(*) from audit_events where action = 'data_export.download_link'
         and target_id = $1",
    )
    .bind(customer_id.to_string())
    .fetch_one(db(&server))
    .await
    .unwrap();
    assert_eq!(audited, 1);

    // Seven days on, the archive is gone and the link with it.
    let later = chrono::Utc::now() + chrono::Duration::days(8);
    assert_eq!(
        export::expire_due(&server.server.state, later)
            .await
            .unwrap(),
        1
    );
    let expired = latest(&mut accounts, &customer, own).await.unwrap();
    assert_eq!(expired.state(), pb::DataExportState::Expired);
    assert!(expired.download_url.is_empty());
    assert_eq!(download(&server, &made.download_url).await, None);
    server.stop().await;
}

#[tokio::test]
async fn a_professional_s_export_holds_their_profile_licences_and_jobs() {
    let server = TestServer::start().await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let (pro_id, pro, _) = professional(&server, CALGARY_PRO).await;
    ask(&mut accounts, &pro, ("", pb::Role::Unspecified))
        .await
        .unwrap();
    let made = ready(&mut accounts, &pro).await;
    let bytes = download(&server, &made.download_url).await.unwrap();
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    let mut account = String::new();
    archive
        .by_name("account.json")
        .unwrap()
        .read_to_string(&mut account)
        .unwrap();
    let account: serde_json::Value = serde_json::from_str(&account).unwrap();
    assert_eq!(account["id"], pro_id.to_string());
    assert_eq!(account["radius_km"], 50);
    assert!(archive.by_name("services.json").is_ok());
    assert!(archive.by_name("licences.json").is_ok());
    server.stop().await;
}
