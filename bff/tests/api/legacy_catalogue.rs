//! The BFF's short-lived copy of the service catalogue (`LEGACY_CATALOGUE_TTL_MS`): its own
//! legacy edits show in the very next listing; a change made past it (gRPC straight to the
//! server, as the web app or another BFF would) shows once its copy is older than the TTL.
//!
//! Needs TEST_DATABASE_URL and TEST_REDIS_URL (`make test`).

use std::time::{Duration, Instant};

use repairs_proto::content::{self as pb, content_service_client::ContentServiceClient};
use repairs_proto::types::LocalizedText;
use repairs_server::domain::Role;
use repairs_server::testing::{TestServer, with_token};
use serde_json::json;

use crate::helpers::legacy::{PNG, reply, text};
use crate::helpers::{Bff, NO_WEB};
use crate::legacy_content::service_form;

/// A BFF in front of `server` that keeps the catalogue for `ttl_ms`.
async fn bff_keeping(server: &TestServer, ttl_ms: &str) -> Bff {
    let files = format!("http://{}", server.server.http_addr);
    let flags = ["--files-url", &files, "--legacy-catalogue-ttl-ms", ttl_ms];
    Bff::start(Some(&server.url()), NO_WEB, &flags).await
}

/// The English names `GET /api/services` lists, in order.
async fn listed(bff: &Bff) -> Vec<String> {
    let (status, services) = reply(reqwest::get(bff.url("/api/services")).await.unwrap()).await;
    assert_eq!(status, 200, "{services}");
    let services = services.as_array().unwrap();
    services
        .iter()
        .map(|service| text(&service["name"]))
        .collect()
}

/// Adds a service through gRPC, straight to the server.
pub async fn create_past_the_bff(server: &TestServer, admin: &str, name: &str) {
    let request = pb::CreateServiceRequest {
        name: Some(LocalizedText {
            en: name.to_owned(),
            fr: format!("{name} (fr)"),
        }),
        description: None,
        icon_content_type: String::new(),
        icon: Vec::new(),
    };
    ContentServiceClient::new(server.channel().await)
        .create_service(with_token(request, admin))
        .await
        .unwrap();
}

#[tokio::test]
async fn legacy_edits_show_at_once_and_others_once_the_ttl_has_passed() {
    let server = TestServer::start().await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let (_, customer) = server.account_token(Role::Customer).await;
    let http = reqwest::Client::new();

    // A BFF that keeps its copy a minute: a change past it does not show...
    let keeping = bff_keeping(&server, "60000").await;
    let before = listed(&keeping).await;
    create_past_the_bff(&server, &admin, "Chimney sweeping").await;
    assert_eq!(listed(&keeping).await, before);
    // ... nor after a legacy edit that was refused ...
    let create = |token: &str| {
        http.post(keeping.url("/api/services/create"))
            .bearer_auth(token)
            .multipart(service_form("Glazier", PNG, "image/png"))
            .send()
    };
    assert_eq!(reply(create(&customer).await.unwrap()).await.0, 403);
    assert_eq!(listed(&keeping).await, before);
    // ... but after each of its own legacy edits, in the very next listing.
    let (status, created) = reply(create(&admin).await.unwrap()).await;
    assert_eq!(status, 200, "{created}");
    let id = text(&created["service"]["_id"]);
    let mut expected = [
        before.clone(),
        vec!["Chimney sweeping".into(), "Glazier".into()],
    ]
    .concat();
    assert_eq!(listed(&keeping).await, expected);

    let updated = http
        .post(keeping.url("/api/services/update-service"))
        .header("x-auth-token", &admin)
        .json(&json!({ "id": id, "name": "Glass repairs" }))
        .send()
        .await
        .unwrap();
    assert_eq!(reply(updated).await.0, 200);
    *expected.last_mut().unwrap() = "Glass repairs".into();
    assert_eq!(listed(&keeping).await, expected);

    let deleted = http
        .delete(keeping.url(&format!("/api/services/delete-service/{id}")))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert_eq!(reply(deleted).await.0, 200);
    expected.pop();
    assert_eq!(listed(&keeping).await, expected);

    // A BFF that keeps its copy 200 ms shows a change past it soon after.
    let brief = bff_keeping(&server, "200").await;
    assert_eq!(listed(&brief).await, expected);
    create_past_the_bff(&server, &admin, "Locksmith").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !listed(&brief).await.contains(&"Locksmith".to_owned()) {
        assert!(
            Instant::now() < deadline,
            "not listed 10 s after it was created, with a TTL of 200 ms"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    brief.stop().await;
    keeping.stop().await;
    server.stop().await;
}
