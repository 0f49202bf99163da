//! The legacy membership, coupon and webhook calls end to end: reqwest -> BFF -> the real
//! server (Postgres, Redis, the offline test gateway) -> back into the old app's shapes.
//!
//! Needs TEST_DATABASE_URL and TEST_REDIS_URL (`make test`).

use crate::helpers::legacy::{get, post, reply, text};
use crate::helpers::server::Stack;
use crate::helpers::{Bff, NO_WEB};
use repairs_server::{domain::Role, providers::payments::webhook, testing::TestServer};
use serde_json::json;

/// A professional with a verified phone: (id, token).
async fn professional(stack: &Stack) -> (String, String) {
    let (id, token) = stack.server.account_token(Role::Professional).await;
    sqlx::query(
        "update professionals set phone = '+14035550100', phone_verified = true where id = $1",
    )
    .bind(id)
    .execute(&stack.server.server.state.db)
    .await
    .unwrap();
    (id.to_string(), token)
}

async fn payments(stack: &Stack) -> i64 {
    sqlx::query_scalar("select count(*) from payments")
        .fetch_one(&stack.server.server.state.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn admins_manage_coupons_and_professionals_buy_with_them() {
    let stack = Stack::start().await;
    let (_, admin) = stack.server.account_token(Role::Admin).await;
    let (id, pro) = professional(&stack).await;

    // Admin: create, list; a professional may not create.
    let body = json!({ "code": "spring20", "discountPercent": "20" });
    let (status, created) = post(&stack, "/api/coupons/create", Some(&admin), body.clone()).await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["coupon"]["code"], "SPRING20");
    assert_eq!(created["coupon"]["discountPercent"], 20);
    let (status, _) = post(&stack, "/api/coupons/create", Some(&pro), body.clone()).await;
    assert_eq!(status, 403);
    let (status, taken) = post(&stack, "/api/coupons/create", Some(&admin), body).await;
    assert_eq!(
        (status, text(&taken["code"])),
        (409, "COUPON_CODE_TAKEN".into())
    );
    let (status, bad) = post(
        &stack,
        "/api/coupons/create",
        Some(&admin),
        json!({ "code": "x", "discountPercent": "lots" }),
    )
    .await;
    assert_eq!(status, 400, "{bad}");
    let (status, list) = get(&stack, "/api/coupons/list", Some(&admin)).await;
    assert_eq!(status, 200);
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["_id"], created["coupon"]["_id"]);

    // Professional: validate, then buy; the client's amount is ignored.
    let (status, valid) = post(
        &stack,
        "/api/coupons/validate",
        Some(&pro),
        json!({ "code": "Spring20" }),
    )
    .await;
    assert_eq!(status, 200, "{valid}");
    assert_eq!(valid["discountPercent"], 20);
    assert_eq!(valid["amount"], 2399);
    let (status, invalid) = post(
        &stack,
        "/api/coupons/validate",
        Some(&pro),
        json!({ "code": "NOPE" }),
    )
    .await;
    assert_eq!(
        (status, text(&invalid["msg"])),
        (404, "Invalid or expired coupon".into())
    );

    let purchase = json!({ "token": "tok_visa", "user_id": id, "coupon": "spring20", "amount": 1 });
    let (status, bought) = post(&stack, "/api/stripe/purchase", Some(&pro), purchase.clone()).await;
    assert_eq!(status, 200, "{bought}");
    assert_eq!(bought["membershipStatus"], "active");
    let charged: i64 = sqlx::query_scalar("select amount_cents from payments")
        .fetch_one(&stack.server.server.state.db)
        .await
        .unwrap();
    assert_eq!(charged, 2399);
    // The same call again (a retry) answers the same and charges nothing more.
    let (status, again) = post(&stack, "/api/stripe/purchase", Some(&pro), purchase).await;
    assert_eq!(status, 200);
    assert_eq!(again["charge_id"], bought["charge_id"]);
    assert_eq!(again["membershipExpiresAt"], bought["membershipExpiresAt"]);
    assert_eq!(payments(&stack).await, 1);

    // Delete: gone from the list.
    let coupon_id = text(&created["coupon"]["_id"]);
    let response = stack
        .http
        .delete(stack.url(&format!("/api/coupons/delete/{coupon_id}")))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    let (status, deleted) = reply(response).await;
    assert_eq!(
        (status, text(&deleted["msg"])),
        (200, "Coupon deleted".into())
    );
    let (_, list) = get(&stack, "/api/coupons/list", Some(&admin)).await;
    assert!(list.as_array().unwrap().is_empty());
    stack.stop().await;
}

#[tokio::test]
async fn a_declined_card_is_402_and_leaves_the_membership_inactive() {
    let stack = Stack::start().await;
    let (id, pro) = professional(&stack).await;
    let (status, declined) = post(
        &stack,
        "/api/stripe/purchase",
        Some(&pro),
        json!({ "token": "tok_chargeDeclined", "user_id": id, "coupon": null }),
    )
    .await;
    assert_eq!(status, 402, "{declined}");
    assert_eq!(declined["msg"], "Your card was declined.");
    assert_eq!(declined["code"], "PAYMENT_DECLINED");
    let (status, _) = post(
        &stack,
        "/api/stripe/purchase",
        None,
        json!({ "token": "tok_visa", "user_id": id }),
    )
    .await;
    assert_eq!(status, 401);
    let end: Option<chrono::DateTime<chrono::Utc>> =
        sqlx::query_scalar("select membership_expires_at from professionals where id = $1::uuid")
            .bind(&id)
            .fetch_one(&stack.server.server.state.db)
            .await
            .unwrap();
    assert_eq!(end, None);
    stack.stop().await;
}

#[tokio::test]
async fn stripe_webhooks_reach_the_server_with_their_raw_body_and_signature() {
    const SECRET: &str = "whsec_bff_forwarding";
    let server = TestServer::start_with(|config| {
        config.stripe_secret_key = Some("sk_test_unused".to_owned());
        config.stripe_publishable_key = Some("pk_test_unused".to_owned());
        config.stripe_webhook_secret = Some(SECRET.to_owned());
        config.stripe_api_base = "http://127.0.0.1:9".to_owned();
    })
    .await;
    let bff = Bff::start(Some(&server.url()), NO_WEB, &[]).await;
    let http = reqwest::Client::new();
    // Spacing kept as Stripe sent it: the signature covers these exact bytes.
    let payload = br#"{"id": "evt_1", "object": "event", "type": "customer.created", "data": {"object": {}}}"#;
    let deliver = |signature: String| {
        http.post(bff.url("/webhooks/stripe"))
            .header("content-type", "application/json")
            .header("stripe-signature", signature)
            .body(payload.to_vec())
            .send()
    };
    let now = chrono::Utc::now().timestamp();
    let (status, first) = reply(deliver(webhook::sign(payload, SECRET, now)).await.unwrap()).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(
        (first["id"].clone(), first["processed"].clone()),
        (json!("evt_1"), json!(true))
    );
    let (_, again) = reply(deliver(webhook::sign(payload, SECRET, now)).await.unwrap()).await;
    assert_eq!(again["processed"], false);
    let (status, forged) = reply(
        deliver(webhook::sign(payload, "whsec_other", now))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 400, "{forged}");
    assert_eq!(forged["code"], "WEBHOOK_SIGNATURE");
    bff.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn a_text_answered_stop_reaches_the_server_with_its_form_and_signature() {
    const TOKEN: &str = "twilio-token-bff";
    let server = TestServer::with_twilio(TOKEN).await;
    let id = server.account_token(Role::Professional).await.0;
    sqlx::query("update professionals set phone = '+14035550100' where id = $1")
        .bind(id)
        .execute(&server.server.state.db)
        .await
        .unwrap();
    let bff = Bff::start(Some(&server.url()), NO_WEB, &[]).await;
    let fields: Vec<(String, String)> = [("From", "+14035550100"), ("Body", "ARRET")]
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .to_vec();
    let form = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(&fields)
        .finish();
    let deliver = |signature: String| {
        reqwest::Client::new()
            .post(bff.url("/webhooks/sms"))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("x-twilio-signature", signature)
            .body(form.clone())
            .send()
    };
    let url = "http://127.0.0.1:8080/webhooks/sms";
    let sign = repairs_server::accounts::sms_replies::sign;
    let taken = deliver(sign(TOKEN, url, &fields)).await.unwrap();
    assert_eq!(taken.status(), 200);
    assert!(taken.text().await.unwrap().contains("<Response>"));
    let off: i64 = sqlx::query_scalar(
        "select count(*) from notification_preferences
         where account_id = $1 and channel = 'sms' and not enabled and source = 'sms_reply'",
    )
    .bind(id)
    .fetch_one(&server.server.state.db)
    .await
    .unwrap();
    assert_eq!(off, 3, "every kind a professional gets, off by text");
    let (status, forged) = reply(deliver(sign("other", url, &fields)).await.unwrap()).await;
    assert_eq!(status, 400, "{forged}");
    assert_eq!(forged["code"], "WEBHOOK_SIGNATURE");
    bff.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn an_admin_holds_a_test_card_payment_and_captures_it_once() {
    let stack = Stack::start().await;
    let (_, admin) = stack.server.account_token(Role::Admin).await;
    let (_, pro) = professional(&stack).await;
    let hold = json!({ "token": "tok_visa", "totalAmount": 1 });

    let (status, _) = post(
        &stack,
        "/api/stripe/block-payment",
        Some(&pro),
        hold.clone(),
    )
    .await;
    assert_eq!(status, 403);
    let (status, held) = post(
        &stack,
        "/api/stripe/block-payment",
        Some(&admin),
        hold.clone(),
    )
    .await;
    assert_eq!(status, 200, "{held}");
    assert_eq!(held["amount"], 10_000);
    assert!(held["charge_validity"].as_i64().unwrap() > chrono::Utc::now().timestamp());
    // Sent again: the same hold, not a second one.
    let (_, again) = post(&stack, "/api/stripe/block-payment", Some(&admin), hold).await;
    assert_eq!(again["charge_id"], held["charge_id"]);
    assert_eq!(payments(&stack).await, 1);

    let confirm = json!({ "charge_id": held["charge_id"] });
    let (status, captured) = post(
        &stack,
        "/api/stripe/block-payment-confirm",
        Some(&admin),
        confirm.clone(),
    )
    .await;
    assert_eq!(status, 200, "{captured}");
    assert_eq!(captured["message"], "Payment captured successfully");
    // The same confirm again answers the first capture.
    let (status, _) = post(
        &stack,
        "/api/stripe/block-payment-confirm",
        Some(&admin),
        confirm,
    )
    .await;
    assert_eq!(status, 200);
    let (status, unknown) = post(
        &stack,
        "/api/stripe/block-payment-confirm",
        Some(&admin),
        json!({ "charge_id": "pi_nope" }),
    )
    .await;
    assert_eq!(status, 404, "{unknown}");

    let (status, declined) = post(
        &stack,
        "/api/stripe/block-payment",
        Some(&admin),
        json!({ "token": "4000000000009995" }),
    )
    .await;
    assert_eq!(
        (status, text(&declined["msg"])),
        (402, "Your card has insufficient funds.".into())
    );
    stack.stop().await;
}
