//! `/metrics` on the BFF, scraped after real calls: requests by route pattern (never the
//! path), method and status, and their latency.

use repairs_server::testing::scrape::{metric, scrape};

use crate::helpers::legacy::get;
use crate::helpers::server::Stack;

#[tokio::test]
async fn requests_are_counted_by_route_and_status() {
    let stack = Stack::start().await;
    for _ in 0..2 {
        assert_eq!(get(&stack, "/api/services", None).await.0, 200);
    }
    // A path with an id counts under its pattern; an unknown path under the catch-all.
    let (missing, _) = get(&stack, "/api/users/get-user/nobody", None).await;
    assert_eq!(get(&stack, "/api/no/such/call", None).await.0, 404);
    let page = stack
        .http
        .get(stack.url("/some/page"))
        .send()
        .await
        .unwrap();
    let page_status = page.status().as_u16().to_string();

    let text = scrape(&stack.url("/metrics")).await;
    let count = |route: &str, status: &str| {
        metric(
            &text,
            "http_server_requests_total",
            &[("route", route), ("method", "GET"), ("status", status)],
        )
    };
    assert_eq!(count("/api/services", "200"), Some(2.0), "{text}");
    assert_eq!(
        count("/api/users/get-user/{id}", &missing.to_string()),
        Some(1.0),
        "{text}"
    );
    assert_eq!(count("/api/{*rest}", "404"), Some(1.0), "{text}");
    assert_eq!(count("web app", &page_status), Some(1.0), "{text}");
    assert!(!text.contains("nobody"), "paths never become labels");
    let timed = [("route", "/api/services")];
    assert_eq!(
        metric(&text, "http_server_request_duration_seconds_count", &timed),
        Some(2.0)
    );
    stack.stop().await;
}
