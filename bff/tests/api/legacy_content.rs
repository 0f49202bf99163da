//! The legacy page-text and catalogue calls end to end: reqwest -> BFF -> the real server
//! (Postgres, Redis) -> back into the old app's shapes. An update in one language changes only
//! the fields it sends and leaves the other language alone; a stale etag is refused. A service
//! is created from the old multipart form with its icon, and edited in English.
//!
//! Needs TEST_DATABASE_URL and TEST_REDIS_URL (`make test`).

use crate::helpers::legacy::{PDF, PNG, get, post, post_form, text};
use crate::helpers::server::Stack;
use repairs_server::domain::Role;
use reqwest::multipart::{Form, Part};
use serde_json::json;

#[tokio::test]
async fn page_updates_change_only_the_fields_sent_in_their_language() {
    let stack = Stack::start().await;
    let (_, admin) = stack.server.account_token(Role::Admin).await;
    let (status, english) = get(&stack, "/api/pages", None).await;
    assert_eq!(status, 200, "{english}");
    let (_, french) = get(&stack, "/api/fr/pages", None).await;
    assert_eq!(english["banner_h1"], "Emergency repairs, handled fast");
    assert!(english["how_1"]["heading"].is_string());

    // The French banner and the second step's heading only.
    let (status, updated) = post(
        &stack,
        "/api/fr/pages/update-detail",
        Some(&admin),
        json!({ "banner_h1": "Dépannage jour et nuit", "how_2": { "heading": "Comparez" } }),
    )
    .await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(updated["msg"], "Details updated");
    let (_, french_after) = get(&stack, "/api/fr/pages", None).await;
    assert_eq!(french_after["banner_h1"], "Dépannage jour et nuit");
    assert_eq!(french_after["how_2"]["heading"], "Comparez");
    assert_eq!(
        french_after["how_2"]["description"],
        french["how_2"]["description"]
    );
    assert_eq!(french_after["banner_h2"], french["banner_h2"]);
    assert_eq!(get(&stack, "/api/pages", None).await.1, english);

    // A stale etag: 409 with the server's reason, nothing written.
    let (status, stale) = post(
        &stack,
        "/api/fr/pages/update-detail",
        Some(&admin),
        json!({ "banner_h1": "Trop tard", "etag": french["etag"] }),
    )
    .await;
    assert_eq!(
        (status, text(&stale["code"])),
        (409, "ETAG_MISMATCH".to_owned()),
        "{stale}"
    );
    assert_eq!(
        get(&stack, "/api/fr/pages", None).await.1["banner_h1"],
        "Dépannage jour et nuit"
    );

    // The professional page, English only; customers may not edit.
    let (_, customer) = stack.server.account_token(Role::Customer).await;
    let body = json!({ "banner_bottom_link": "Sign in" });
    let (status, _) = post(
        &stack,
        "/api/pages/update-professional-page-detail",
        Some(&customer),
        body.clone(),
    )
    .await;
    assert_eq!(status, 403);
    let (status, _) = post(
        &stack,
        "/api/pages/update-professional-page-detail",
        Some(&admin),
        body,
    )
    .await;
    assert_eq!(status, 200);
    let (_, pro) = get(&stack, "/api/pages/professional-page", None).await;
    assert_eq!(pro["banner_bottom_link"], "Sign in");
    let (_, pro_fr) = get(&stack, "/api/fr/pages/professional-page", None).await;
    assert_ne!(pro_fr["banner_bottom_link"], "Sign in");
    stack.stop().await;
}

#[tokio::test]
async fn the_contact_form_is_checked_and_stored() {
    let stack = Stack::start().await;
    let (status, bad) = post(
        &stack,
        "/api/pages/contact",
        None,
        json!({ "name": "Ana", "email": "nope", "message": "Hello" }),
    )
    .await;
    assert_eq!(status, 400, "{bad}");
    let (status, sent) = post(
        &stack,
        "/api/pages/contact",
        None,
        json!({ "name": "Ana", "email": "ana@example.ca", "message": "Hello" }),
    )
    .await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(sent["msg"], "Message sent");
    let stored: String =
        sqlx::query_scalar("select message from contact_messages where id = $1::uuid")
            .bind(text(&sent["id"]))
            .fetch_one(&stack.server.server.state.db)
            .await
            .unwrap();
    assert_eq!(stored, "Hello");
    stack.stop().await;
}

#[tokio::test]
async fn deleting_a_used_service_archives_it() {
    let stack = Stack::start().await;
    let (_, admin) = stack.server.account_token(Role::Admin).await;
    let (professional, _) = stack.server.account_token(Role::Professional).await;
    let (_, services) = get(&stack, "/api/services", None).await;
    let used = text(&services[0]["_id"]);
    sqlx::query(
        "insert into professional_services (professional_id, service_id) values ($1, $2::uuid)",
    )
    .bind(professional)
    .bind(&used)
    .execute(&stack.server.server.state.db)
    .await
    .unwrap();
    let path = format!("/api/services/delete-service/{used}");
    let response = reqwest::Client::new()
        .delete(stack.bff.url(&path))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    let (status, reply) = crate::helpers::legacy::reply(response).await;
    assert_eq!(status, 200, "{reply}");
    assert!(text(&reply["msg"]).contains("archived"), "{reply}");
    let (_, after) = get(&stack, "/api/services", None).await;
    assert_eq!(
        after.as_array().unwrap().len(),
        services.as_array().unwrap().len() - 1
    );
    stack.stop().await;
}

/// A LibreTranslate server on 127.0.0.1 that tags each text with its target language.
async fn tagging_translator() -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    use axum::{Json, Router, routing::post as route_post};
    let translate = |Json(body): Json<serde_json::Value>| async move {
        let target = body["target"].as_str().unwrap_or_default().to_owned();
        let texts = body["q"].as_array().cloned().unwrap_or_default();
        let translated: Vec<String> = texts
            .iter()
            .map(|t| format!("[{target}] {}", t.as_str().unwrap_or_default()))
            .collect();
        let detected: Vec<_> = texts
            .iter()
            .map(|_| json!({ "language": "en", "confidence": 90.0 }))
            .collect();
        Json(json!({ "translatedText": translated, "detectedLanguage": detected }))
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let app = Router::new().route("/translate", route_post(translate));
    let task = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (addr, task)
}

#[tokio::test]
async fn translate_goes_into_french_and_translate1_into_english() {
    // Without a provider: the server's clear refusal, never a made-up translation.
    let stack = Stack::start().await;
    let (_, customer) = stack.server.account_token(Role::Customer).await;
    let body = json!({ "content": "Water leak under the sink" });
    let (status, refused) = post(
        &stack,
        "/api/requests/translate",
        Some(&customer),
        body.clone(),
    )
    .await;
    assert_eq!(
        (status, text(&refused["code"])),
        (409, "TRANSLATION_NOT_CONFIGURED".to_owned()),
        "{refused}"
    );
    stack.stop().await;

    let (translator, task) = tagging_translator().await;
    let stack = Stack::start_with(|config| {
        config.translation_provider =
            repairs_server::config::TranslationProviderKind::Libretranslate;
        config.libretranslate_url = Some(format!("http://{translator}"));
    })
    .await;
    let (_, customer) = stack.server.account_token(Role::Customer).await;
    let (status, french) = post(
        &stack,
        "/api/requests/translate",
        Some(&customer),
        body.clone(),
    )
    .await;
    assert_eq!(status, 200, "{french}");
    assert_eq!(french, json!({ "data": "[fr] Water leak under the sink" }));
    let (status, english) = post(
        &stack,
        "/api/requests/translate1",
        Some(&customer),
        body.clone(),
    )
    .await;
    assert_eq!(status, 200, "{english}");
    assert_eq!(english["data"], "[en] Water leak under the sink");

    let (status, _) = post(&stack, "/api/requests/translate", None, body).await;
    assert_eq!(status, 401);
    let (status, empty) = post(
        &stack,
        "/api/requests/translate",
        Some(&customer),
        json!({}),
    )
    .await;
    assert_eq!(status, 400, "{empty}");
    stack.stop().await;
    task.abort();
}

/// The old add-service form: name, description and a photo.
pub(crate) fn service_form(name: &str, photo: &[u8], content_type: &str) -> Form {
    Form::new()
        .text("name", name.to_owned())
        .text("description", "Windows and glass doors repaired.")
        .part(
            "photo",
            Part::bytes(photo.to_vec())
                .file_name("icon.png")
                .mime_str(content_type)
                .unwrap(),
        )
}

#[tokio::test]
async fn a_service_is_created_with_its_icon_and_edited_in_english() {
    let stack = Stack::start().await;
    let (_, admin) = stack.server.account_token(Role::Admin).await;
    let (_, customer) = stack.server.account_token(Role::Customer).await;
    let (_, before) = get(&stack, "/api/services", None).await;

    let create = "/api/services/create";
    let (status, created) = post_form(
        &stack,
        create,
        &admin,
        service_form("Glazier", PNG, "image/png"),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["msg"], "Service Successfully Created");
    let id = text(&created["service"]["_id"]);
    let (_, after) = get(&stack, "/api/services", None).await;
    let listed = after.as_array().unwrap();
    assert_eq!(listed.len(), before.as_array().unwrap().len() + 1);
    assert_eq!(listed.last().unwrap()["_id"], id.as_str());
    // Until someone translates it, the French catalogue shows the English texts.
    let (_, french) = get(&stack, "/api/fr/services", None).await;
    let glazier = french.as_array().unwrap().last().unwrap().clone();
    assert_eq!(glazier["name"], "Glazier");
    // The icon is served through its signed link, behind the BFF.
    let photo = text(&glazier["photo"]);
    let icon = stack.http.get(stack.url(&photo)).send().await.unwrap();
    assert_eq!(icon.status(), 200, "{photo}");
    assert_eq!(icon.bytes().await.unwrap().as_ref(), PNG);

    // Refusals: a customer, a PDF called a PNG, a taken name (any case), too large an icon.
    let mut big = PNG.to_vec();
    big.resize(1024 * 1024 + 1, 0);
    for (token, name, photo, expected) in [
        (&customer, "Roofer", PNG, (403, "ROLE_NOT_ALLOWED")),
        (&admin, "Roofer", PDF, (400, "FILE_TYPE_MISMATCH")),
        (&admin, "glazier", PNG, (409, "SERVICE_NAME_TAKEN")),
        (&admin, "Roofer", &big[..], (413, "FILE_TOO_LARGE")),
    ] {
        let form = service_form(name, photo, "image/png");
        let (status, refused) = post_form(&stack, create, token, form).await;
        assert_eq!(
            (status, refused["code"].as_str().unwrap()),
            expected,
            "{refused}"
        );
    }

    // An update in the old shape changes the English name only.
    let update = "/api/services/update-service";
    let (status, updated) = post(
        &stack,
        update,
        Some(&admin),
        json!({ "id": id, "name": "Glass repairs" }),
    )
    .await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(updated["msg"], "Service Successfully Updated");
    assert_eq!(updated["service"]["name"], "Glass repairs");
    assert_eq!(
        updated["service"]["description"],
        "Windows and glass doors repaired."
    );
    let (_, french) = get(&stack, "/api/fr/services", None).await;
    let glazier = french.as_array().unwrap().last().unwrap().clone();
    assert_eq!(glazier["name"], "Glazier");
    // Nothing to change is a 400; a customer may not.
    let (status, _) = post(&stack, update, Some(&admin), json!({ "id": id })).await;
    assert_eq!(status, 400);
    let body = json!({ "id": id, "name": "Mine" });
    let (status, _) = post(&stack, update, Some(&customer), body).await;
    assert_eq!(status, 403);
    stack.stop().await;
}
