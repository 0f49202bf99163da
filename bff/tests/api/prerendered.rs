//! The prerendered landing and sign-in pages (web/src/prerender): served at their paths with
//! the server's current texts and services filled in, compressed, never cached; the catalogue's
//! texts and categories when the server does not answer.
//!
//! The tests with a server need TEST_DATABASE_URL and TEST_REDIS_URL (`make test`).

use crate::helpers::legacy::{PNG, post, post_form};
use crate::helpers::server::Stack;
use crate::helpers::{Bff, assert_security_headers, header, varies_by_encoding};
use crate::legacy_catalogue::create_past_the_bff;
use crate::legacy_content::service_form;
use repairs_server::domain::Role;
use repairs_server::testing::TestServer;
use serde_json::json;

const INDEX: &str = "<!doctype html><html><body><div id=\"root\"></div></body></html>";

/// A build with the French home page and the English sign-in page prerendered, as
/// web/scripts/prerender.mjs writes them (the markup cut down to the markers).
fn prerendered_app() -> tempfile::TempDir {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), INDEX).unwrap();
    let pages = dist.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    std::fs::write(
        pages.join("fr.html"),
        "<html lang=\"fr\"><h1>{{banner_h1}}</h1><h3>{{how_1.heading}}</h3><ul>{{services}}</ul></html>",
    )
    .unwrap();
    std::fs::write(
        pages.join("login.html"),
        "<html><form>Sign in</form></html>",
    )
    .unwrap();
    let card = |kind: &str| {
        format!("<li data-kind=\"{kind}\">{{{{service.name}}}}: {{{{service.description}}}}</li>")
    };
    let index = json!({
        "/fr": {
            "file": "fr.html",
            "language": "fr",
            "data": "home",
            "defaults": {
                "banner_h1": "Réparations d'urgence, rapidement",
                "how_1.heading": "Publiez votre demande",
            },
            "cards": {
                "plumbing": card("plumbing"),
                "wrench": card("wrench"),
                "image": "<li data-kind=\"image\"><img src=\"{{service.icon_url}}\">{{service.name}}</li>",
            },
            "categories": { "Plumbing Services": "plumbing" },
            "defaultServices": [
                { "kind": "plumbing", "name": "Plomberie", "description": "Fuites et drains." }
            ],
        },
        "/login": { "file": "login.html", "language": "en", "data": null },
    });
    std::fs::write(pages.join("index.json"), index.to_string()).unwrap();
    dist
}

#[tokio::test]
async fn without_the_server_the_pages_show_the_catalogue_texts() {
    let dist = prerendered_app();
    let bff = Bff::start(None, dist.path().to_str().unwrap(), &[]).await;
    let client = reqwest::Client::new();

    let response = client.get(bff.url("/fr")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_security_headers(&response);
    assert_eq!(header(&response, "cache-control"), "no-cache");
    assert!(header(&response, "content-type").starts_with("text/html"));
    assert!(response.headers().get("content-encoding").is_none());
    assert_eq!(
        response.text().await.unwrap(),
        "<html lang=\"fr\"><h1>Réparations d&#x27;urgence, rapidement</h1>\
         <h3>Publiez votre demande</h3>\
         <ul><li data-kind=\"plumbing\">Plomberie: Fuites et drains.</li></ul></html>"
    );

    // A page without server texts as built; compressed for a client that accepts it.
    let response = client.get(bff.url("/login")).send().await.unwrap();
    assert_eq!(header(&response, "cache-control"), "no-cache");
    assert_eq!(
        response.text().await.unwrap(),
        "<html><form>Sign in</form></html>"
    );
    let response = client
        .get(bff.url("/login"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(header(&response, "content-encoding"), "gzip");
    assert!(varies_by_encoding(&response));
    assert_eq!(header(&response, "cache-control"), "no-cache");

    // Paths without a prerendered page: the app's index.html.
    for path in ["/", "/fr/login", "/contact"] {
        let response = client.get(bff.url(path)).send().await.unwrap();
        assert_eq!(response.text().await.unwrap(), INDEX, "{path}");
    }
    bff.stop().await;
}

#[tokio::test]
async fn an_admins_edit_shows_on_the_prerendered_page_at_once() {
    let dist = prerendered_app();
    let stack = Stack::start_serving(|_| {}, dist.path().to_str().unwrap()).await;
    let (_, admin) = stack.server.account_token(Role::Admin).await;
    let page = || async {
        let response = stack.http.get(stack.url("/fr")).send().await.unwrap();
        assert_eq!(response.status(), 200);
        response.text().await.unwrap()
    };
    let before = page().await;
    assert!(before.contains("<h1>"), "{before}");
    assert!(!before.contains("Dépannage jour &amp; nuit"), "{before}");

    let (status, reply) = post(
        &stack,
        "/api/fr/pages/update-detail",
        Some(&admin),
        json!({ "banner_h1": "Dépannage jour & nuit" }),
    )
    .await;
    assert_eq!(status, 200, "{reply}");
    let (status, created) = post_form(
        &stack,
        "/api/services/create",
        &admin,
        service_form("Glazier", PNG, "image/png"),
    )
    .await;
    assert_eq!(status, 200, "{created}");

    let after = page().await;
    assert!(
        after.contains("<h1>Dépannage jour &amp; nuit</h1>"),
        "{after}"
    );
    // The server's services, the new one with its icon (not yet translated: in English).
    assert!(
        after.contains("<li data-kind=\"image\"><img src=\"http://"),
        "{after}"
    );
    assert!(after.contains("\">Glazier</li>"), "{after}");
    stack.stop().await;
}

#[tokio::test]
async fn the_pages_show_the_services_the_bff_keeps_for_the_legacy_calls() {
    let dist = prerendered_app();
    let server = TestServer::start().await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let files = format!("http://{}", server.server.http_addr);
    // A BFF that keeps the catalogue a minute.
    let flags = ["--files-url", &files, "--legacy-catalogue-ttl-ms", "60000"];
    let bff = Bff::start(Some(&server.url()), dist.path().to_str().unwrap(), &flags).await;
    let page = || async {
        let response = reqwest::get(bff.url("/fr")).await.unwrap();
        assert_eq!(response.status(), 200);
        response.text().await.unwrap()
    };
    let before = page().await;
    assert!(before.contains("<ul><li"), "{before}");

    // Added straight to the server: the pages keep the copy they share with the legacy
    // calls, asking the server once per TTL rather than once per view...
    create_past_the_bff(&server, &admin, "Chimney sweeping").await;
    assert_eq!(page().await, before);
    // ... which the BFF's own legacy edit drops at once.
    let created = reqwest::Client::new()
        .post(bff.url("/api/services/create"))
        .bearer_auth(&admin)
        .multipart(service_form("Glazier", PNG, "image/png"))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 200);
    let after = page().await;
    assert!(after.contains(">Chimney sweeping (fr): </li>"), "{after}");
    assert!(after.contains("\">Glazier</li>"), "{after}");
    bff.stop().await;
    server.stop().await;
}
