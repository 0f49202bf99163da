//! The one-click unsubscribe through the BFF (RFC 8058): a POST to an email's
//! `List-Unsubscribe` address turns that kind off without a session; a GET of the same
//! address is the web app's page, which asks first.

use repairs_server::{
    accounts::notifications::EmailFooters,
    domain::{Language, Role, Subscriber, Topic},
    outbox::Unsubscribing,
};

use crate::helpers::server::Stack;

const INDEX: &str = "<!doctype html><html><body><div id=\"root\"></div></body></html>";

#[tokio::test]
async fn a_post_to_the_email_s_link_unsubscribes_and_a_get_opens_the_page() {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), INDEX).unwrap();
    let stack = Stack::start_serving(|_| {}, dist.path().to_str().unwrap()).await;
    let (id, _) = stack.server.account_token(Role::Professional).await;
    let state = &stack.server.server.state;
    let footers = EmailFooters::new(*state.unsubscribe_link_key, state.config.clone());
    let link = footers
        .unsubscribe(&Subscriber {
            topic: Topic::NewRequests,
            role: Role::Professional,
            account_id: id,
            language: Language::French,
        })
        .link;
    let path = &link[link.find("/fr/unsubscribe/").expect("a French page")..];

    let page = stack.http.get(stack.url(path)).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(
        page.text().await.unwrap(),
        INDEX,
        "a GET unsubscribes no one"
    );
    let off: Option<bool> =
        sqlx::query_scalar("select enabled from notification_preferences where account_id = $1")
            .bind(id)
            .fetch_optional(&state.db)
            .await
            .unwrap();
    assert_eq!(off, None);

    let posted = stack
        .http
        .post(stack.url(path))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 200);
    let (topic, channel, enabled, source): (String, String, bool, String) = sqlx::query_as(
        "select topic, channel, enabled, source from notification_preferences
         where account_id = $1",
    )
    .bind(id)
    .fetch_one(&state.db)
    .await
    .unwrap();
    assert_eq!(
        (topic.as_str(), channel.as_str(), enabled, source.as_str()),
        ("new_requests", "email", false, "email_link")
    );

    let forged = format!("{}x", path.trim_end_matches(|c: char| c != '/'));
    let refused = stack.http.post(stack.url(&forged)).send().await.unwrap();
    assert_eq!(refused.status(), 400);
    stack.stop().await;
}
