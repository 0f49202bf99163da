//! The server counts its per-client limits (SMS budgets, reset requests) by the browser's
//! address, also on the legacy paths: the BFF passes it on in `x-forwarded-for`, rather than
//! every legacy caller counting as the BFF itself.
//!
//! Needs TEST_DATABASE_URL and TEST_REDIS_URL (`make test`).

use crate::helpers::server::Stack;
use serde_json::{Value, json};

/// A legacy call from a browser at `client_ip` (as a proxy in front of the BFF names it).
async fn post(
    stack: &Stack,
    client_ip: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> Value {
    let mut request = stack
        .http
        .post(stack.url(path))
        .header("x-forwarded-for", client_ip)
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let mut body: Value = response.json().await.unwrap();
    body["status"] = status.into();
    body
}

#[tokio::test]
async fn sms_budgets_count_each_legacy_caller_by_their_own_address() {
    let stack = Stack::start_with(|config| config.sms_budget_per_address_per_hour = 1).await;
    let mut outcomes = Vec::new();
    for (n, ip) in ["198.51.100.1", "198.51.100.2", "198.51.100.1"]
        .iter()
        .enumerate()
    {
        let signed = post(
            &stack,
            ip,
            "/api/users",
            None,
            json!({ "name": "Cathy Customer", "email": format!("c{n}@example.ca"), "password": "correct horse battery" }),
        )
        .await;
        let token = signed["token"].as_str().unwrap();
        let sent = post(
            &stack,
            ip,
            "/api/sms/send-otp",
            Some(token),
            json!({ "phoneNumber": format!("403 555 010{n}"), "countryCode": "+1", "id": signed["id"] }),
        )
        .await;
        outcomes.push((sent["status"].clone(), sent["code"].clone()));
    }
    assert_eq!(
        outcomes,
        [
            (json!(200), Value::Null),
            (json!(200), Value::Null),
            (json!(202), json!("SMS_ADDRESS_LIMIT")),
        ]
    );
    stack.stop().await;
}
