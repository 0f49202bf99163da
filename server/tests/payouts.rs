//! Payouts against the real server and Postgres: the ledger a captured hire writes, nothing
//! from an uncaptured hold, the platform fee, a refund after payment, privacy, and test mode.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test crate: failures should panic"
)]

mod common;
mod providers_support;

use common::{
    TestServer,
    market::{CALGARY_PRO, Market, customer, db, in_calgary, market, place, professional},
    reason, send_quote, with_token,
};
use repairs_proto::{
    billing::{self as bpb, billing_service_client::BillingServiceClient},
    marketplace as pb,
};
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    Form, Json, Router,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    routing::{get, post},
};
use providers_support::LocalServer;
use repairs_server::{
    domain::{Cents, Role},
    providers::payments::stripe::{StripeConfig, StripeGateway, connect::OnboardingUrls},
};
use serde_json::{Value, json};
use tonic::{Code, transport::Channel};
use uuid::Uuid;

type Billing = BillingServiceClient<Channel>;

const VISA: &str = "4242 4242 4242 4242";

/// A hired job of `cents` CAD: the professional's id and token, the customer's token and the
/// request.
struct Hired {
    billing: Billing,
    market: Market,
    pro_id: Uuid,
    pro_token: String,
    customer_token: String,
    request: pb::RepairRequest,
    order: bpb::Order,
}

async fn hired(server: &TestServer, cents: i64) -> Hired {
    let mut market = market(server).await;
    let mut billing = BillingServiceClient::new(server.channel().await);
    let (_, customer_token) = customer(server).await;
    let (pro_id, pro_token, _) = professional(server, CALGARY_PRO).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quote = send_quote(server, &pro_token, &request.id, cents).await;
    let order = hire(&mut billing, &customer_token, quote.id).await;
    Hired {
        billing,
        market,
        pro_id,
        pro_token,
        customer_token,
        request,
        order,
    }
}

/// The customer hires `quote` with the test Visa card.
async fn hire(billing: &mut Billing, customer_token: &str, quote: String) -> bpb::Order {
    billing
        .hire_professional(with_token(
            bpb::HireProfessionalRequest {
                application_id: quote,
                payment_method: VISA.into(),
                request_id: Uuid::now_v7().to_string(),
            },
            customer_token,
        ))
        .await
        .unwrap()
        .into_inner()
        .order
        .unwrap()
}

/// The customer marks the job done, which captures the hold.
async fn mark_done(market: &mut Market, customer_token: &str, request_id: &str) {
    market
        .complete_repair_request(with_token(
            pb::CompleteRepairRequestRequest {
                id: request_id.to_owned(),
            },
            customer_token,
        ))
        .await
        .unwrap();
}

async fn complete(job: &mut Hired) {
    mark_done(&mut job.market, &job.customer_token, &job.request.id).await;
}

async fn account(
    billing: &mut Billing,
    token: &str,
    professional: Uuid,
) -> Result<bpb::PayoutAccount, tonic::Status> {
    billing
        .get_payout_account(with_token(
            bpb::GetPayoutAccountRequest {
                professional_id: professional.to_string(),
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().account.unwrap())
}

async fn payouts(
    billing: &mut Billing,
    token: &str,
    professional: Uuid,
    page_size: i32,
    page_token: &str,
) -> Result<bpb::ListPayoutsResponse, tonic::Status> {
    billing
        .list_payouts(with_token(
            bpb::ListPayoutsRequest {
                professional_id: professional.to_string(),
                page_size,
                page_token: page_token.into(),
            },
            token,
        ))
        .await
        .map(|r| r.into_inner())
}

fn cents(money: Option<&repairs_proto::types::Money>) -> i64 {
    let money = money.unwrap();
    assert_eq!(money.currency, "CAD");
    money.amount_cents
}

#[tokio::test]
async fn an_uncaptured_hold_owes_nothing_and_the_capture_owes_it_once() {
    let server = TestServer::start().await;
    let mut job = hired(&server, 9_000).await;
    let (pro, token) = (job.pro_id, job.pro_token.clone());

    let before = account(&mut job.billing, &token, pro).await.unwrap();
    assert_eq!(cents(before.owed.as_ref()), 0);
    assert!(
        payouts(&mut job.billing, &token, pro, 0, "")
            .await
            .unwrap()
            .payouts
            .is_empty()
    );

    complete(&mut job).await;
    let after = account(&mut job.billing, &token, pro).await.unwrap();
    assert_eq!(cents(after.owed.as_ref()), 9_000);
    assert_eq!(cents(after.paid.as_ref()), 0);
    assert_eq!(after.platform_fee_percent, 0);
    assert!(after.test_mode);
    assert_eq!(
        after.state,
        bpb::PayoutAccountState::TestLedger as i32,
        "no money moves on the test gateway"
    );
    let list = payouts(&mut job.billing, &token, pro, 0, "").await.unwrap();
    assert_eq!(list.payouts.len(), 1);
    let entry = &list.payouts[0];
    assert_eq!(entry.order_id, job.order.id);
    assert_eq!(entry.state, bpb::PayoutState::Owed as i32);
    assert_eq!(cents(entry.gross.as_ref()), 9_000);
    assert_eq!(cents(entry.platform_fee.as_ref()), 0);
    assert_eq!(cents(entry.net.as_ref()), 9_000);
    assert!(entry.transfer_id.is_empty() && entry.pay_time.is_none());
    server.stop().await;
}

#[tokio::test]
async fn the_platform_fee_is_taken_and_rounded_down_to_the_cent() {
    let server = TestServer::start_with(|config| config.platform_fee_percent = 15).await;
    // 15 % of 99.99 is 14.9985: the fee is 14.99, the professional keeps 85.00.
    let mut job = hired(&server, 9_999).await;
    complete(&mut job).await;
    let (pro, token) = (job.pro_id, job.pro_token.clone());
    let acc = account(&mut job.billing, &token, pro).await.unwrap();
    assert_eq!(acc.platform_fee_percent, 15);
    assert_eq!(cents(acc.owed.as_ref()), 8_500);
    let entry = payouts(&mut job.billing, &token, pro, 0, "")
        .await
        .unwrap()
        .payouts
        .remove(0);
    assert_eq!(cents(entry.gross.as_ref()), 9_999);
    assert_eq!(cents(entry.platform_fee.as_ref()), 1_499);
    assert_eq!(cents(entry.net.as_ref()), 8_500);
    server.stop().await;
}

#[tokio::test]
async fn a_paid_entry_keeps_its_fee_and_a_refund_after_it_shows_reversed() {
    let server = TestServer::start_with(|config| config.platform_fee_percent = 10).await;
    let mut job = hired(&server, 10_000).await;
    complete(&mut job).await;
    let (pro, token) = (job.pro_id, job.pro_token.clone());
    // A transfer as the Stripe payouts record it, at a fee of 20 % then.
    sqlx::query(
        "insert into payouts (id, order_id, professional_id, gross_cents, fee_cents, currency,
            transfer_id, paid_at)
         values ($1, $2, $3, 10000, 2000, 'CAD', 'tr_test', now())",
    )
    .bind(Uuid::now_v7())
    .bind(Uuid::parse_str(&job.order.id).unwrap())
    .bind(pro)
    .execute(db(&server))
    .await
    .unwrap();
    let acc = account(&mut job.billing, &token, pro).await.unwrap();
    assert_eq!(
        (cents(acc.owed.as_ref()), cents(acc.paid.as_ref())),
        (0, 8_000)
    );
    let entry = payouts(&mut job.billing, &token, pro, 0, "")
        .await
        .unwrap()
        .payouts
        .remove(0);
    assert_eq!(entry.state, bpb::PayoutState::Paid as i32);
    assert_eq!(cents(entry.platform_fee.as_ref()), 2_000);
    assert_eq!(entry.transfer_id, "tr_test");
    assert!(entry.pay_time.is_some());

    // The admin refunds the job afterwards: the entry stays, reversed.
    let (_, admin) = server.account_token(Role::Admin).await;
    job.billing
        .refund_payment(with_token(
            bpb::RefundPaymentRequest {
                target: Some(bpb::PaymentTarget {
                    target: Some(bpb::payment_target::Target::OrderId(job.order.id.clone())),
                }),
                request_id: Uuid::now_v7().to_string(),
                reason: "the job was not done".into(),
            },
            &admin,
        ))
        .await
        .unwrap();
    let entry = payouts(&mut job.billing, &admin, pro, 0, "")
        .await
        .unwrap()
        .payouts
        .remove(0);
    assert_eq!(entry.state, bpb::PayoutState::Reversed as i32);
    assert_eq!(entry.transfer_id, "tr_test");
    let acc = account(&mut job.billing, &admin, pro).await.unwrap();
    assert_eq!(
        (cents(acc.owed.as_ref()), cents(acc.paid.as_ref())),
        (0, 8_000)
    );
    server.stop().await;
}

#[tokio::test]
async fn another_professional_or_a_customer_finds_no_payouts() {
    let server = TestServer::start().await;
    let mut job = hired(&server, 9_000).await;
    complete(&mut job).await;
    let (_, other_token, _) = professional(&server, CALGARY_PRO).await;
    let customer_token = job.customer_token.clone();
    let pro = job.pro_id;
    let denied = account(&mut job.billing, &other_token, pro)
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::NotFound);
    let denied = payouts(&mut job.billing, &other_token, pro, 0, "")
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::NotFound);
    let denied = account(&mut job.billing, &customer_token, pro)
        .await
        .unwrap_err();
    assert_eq!(
        denied.code(),
        Code::PermissionDenied,
        "customers may not call it"
    );

    // An admin reads any professional's, and a made-up id is not found.
    let (_, admin) = server.account_token(Role::Admin).await;
    let acc = account(&mut job.billing, &admin, pro).await.unwrap();
    assert_eq!(cents(acc.owed.as_ref()), 9_000);
    let missing = account(&mut job.billing, &admin, Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(missing.code(), Code::NotFound);
    server.stop().await;
}

#[tokio::test]
async fn the_ledger_pages_newest_capture_first() {
    let server = TestServer::start().await;
    let mut first = hired(&server, 5_000).await;
    complete(&mut first).await;
    // A second job for the same professional.
    let (_, customer_token) = customer(&server).await;
    let request = place(
        &mut first.market,
        &customer_token,
        Uuid::now_v7(),
        in_calgary(),
    )
    .await
    .unwrap();
    let quote = send_quote(&server, &first.pro_token, &request.id, 7_000).await;
    let second = hire(&mut first.billing, &customer_token, quote.id).await;
    mark_done(&mut first.market, &customer_token, &request.id).await;
    let (pro, token) = (first.pro_id, first.pro_token.clone());
    let page = payouts(&mut first.billing, &token, pro, 1, "")
        .await
        .unwrap();
    assert_eq!(page.payouts[0].order_id, second.id);
    assert!(!page.next_page_token.is_empty());
    let rest = payouts(&mut first.billing, &token, pro, 1, &page.next_page_token)
        .await
        .unwrap();
    assert_eq!(rest.payouts[0].order_id, first.order.id);
    assert!(rest.next_page_token.is_empty());
    let acc = account(&mut first.billing, &token, pro).await.unwrap();
    assert_eq!(cents(acc.owed.as_ref()), 12_000);
    server.stop().await;
}

#[tokio::test]
async fn onboarding_needs_stripe() {
    let server = TestServer::start().await;
    let (_, token) = server.account_token(Role::Professional).await;
    let mut billing = BillingServiceClient::new(server.channel().await);
    let refused = billing
        .create_payout_onboarding_link(with_token(
            bpb::CreatePayoutOnboardingLinkRequest {},
            &token,
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "STRIPE_NOT_CONFIGURED");
    assert!(refused.message().contains("test mode"));
    server.stop().await;
}

/// What the local Connect fake received: path, idempotency key, form.
type Calls = Arc<Mutex<Vec<(String, String, HashMap<String, String>)>>>;

/// Records a call after checking the secret key, as Stripe would refuse it.
fn record(calls: &Calls, path: &str, headers: &HeaderMap, form: HashMap<String, String>) {
    assert_eq!(
        headers.get("authorization").unwrap(),
        "Bearer sk_test_local"
    );
    let key = headers
        .get("idempotency-key")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    calls.lock().unwrap().push((path.to_owned(), key, form));
}

/// A small server of Stripe's Connect calls on 127.0.0.1 (the local Stripe fake of the
/// payment tests serves none of them). Transfers answer by idempotency key, as Stripe does.
fn connect_fake(calls: Calls) -> Router {
    Router::new()
        .route(
            "/v1/accounts",
            post(
                |State(calls): State<Calls>, headers: HeaderMap, Form(form)| async move {
                    record(&calls, "accounts", &headers, form);
                    Json(json!({"id": "acct_1Test", "object": "account"}))
                },
            ),
        )
        .route(
            "/v1/accounts/{id}",
            get(|Path(id): Path<String>| async move {
                if id != "acct_1Test" {
                    let error = json!({"error": {"type": "invalid_request_error",
                        "code": "resource_missing", "message": "No such account"}});
                    return (StatusCode::NOT_FOUND, Json(error));
                }
                let account = json!({"id": id, "payouts_enabled": false,
                    "capabilities": {"transfers": "active"}});
                (StatusCode::OK, Json(account))
            }),
        )
        .route(
            "/v1/account_links",
            post(
                |State(calls): State<Calls>, headers: HeaderMap, Form(form)| async move {
                    record(&calls, "account_links", &headers, form);
                    Json(json!({"object": "account_link", "url":
                        "https://connect.example/setup/e/acct_1Test", "expires_at": 1_900_000_000}))
                },
            ),
        )
        .route(
            "/v1/transfers",
            post(
                |State(calls): State<Calls>, headers: HeaderMap, Form(form)| async move {
                    record(&calls, "transfers", &headers, form);
                    let transfers = calls
                        .lock()
                        .unwrap()
                        .iter()
                        .filter(|(path, _, _)| path == "transfers")
                        .map(|(_, key, _)| key.clone())
                        .collect::<Vec<_>>();
                    let first = transfers.iter().position(|k| Some(k) == transfers.last());
                    Json::<Value>(json!({"id": format!("tr_{}", first.unwrap())}))
                },
            ),
        )
        .with_state(calls)
}

#[tokio::test]
async fn the_connect_adapter_speaks_stripes_protocol() {
    let calls = Calls::default();
    let fake = LocalServer::start(connect_fake(calls.clone())).await;
    let mut config = StripeConfig::new("sk_test_local");
    config.api_base = fake.url();
    let stripe = StripeGateway::new(config).unwrap();
    let pro = Uuid::now_v7();

    let account = stripe
        .create_connect_account(pro, "pro@example.ca")
        .await
        .unwrap();
    assert_eq!(account, "acct_1Test");
    let urls = OnboardingUrls {
        return_url: "http://127.0.0.1:8080/stripe-connect".into(),
        refresh_url: "http://127.0.0.1:8080/stripe-connect?refresh=1".into(),
    };
    let link = stripe.onboarding_link(&account, &urls).await.unwrap();
    assert_eq!(link.url, "https://connect.example/setup/e/acct_1Test");
    assert_eq!(link.expires_at.timestamp(), 1_900_000_000);
    assert!(stripe.transfers_enabled(&account).await.unwrap());
    assert!(stripe.transfers_enabled("acct_other").await.is_err());

    // The same order twice is one transfer; another order is another.
    let order = Uuid::now_v7();
    let first = stripe
        .transfer(&account, Cents::new(8_500).unwrap(), order)
        .await
        .unwrap();
    let again = stripe
        .transfer(&account, Cents::new(8_500).unwrap(), order)
        .await
        .unwrap();
    let other = stripe
        .transfer(&account, Cents::new(100).unwrap(), Uuid::now_v7())
        .await
        .unwrap();
    assert_eq!(first, again);
    assert_ne!(first, other);
    // A path character in an account id never reaches Stripe.
    assert!(
        stripe
            .transfer("acct/../x", Cents::new(1).unwrap(), order)
            .await
            .is_err()
    );
    fake.stop().await;

    let calls = calls.lock().unwrap();
    let (_, key, form) = &calls[0];
    assert_eq!(key, &format!("connect-account-{pro}"));
    assert_eq!(form["type"], "express");
    assert_eq!(form["country"], "CA");
    assert_eq!(form["capabilities[transfers][requested]"], "true");
    assert_eq!(form["metadata[professional_id]"], pro.to_string());
    let (_, _, form) = &calls[1];
    assert_eq!(form["account"], "acct_1Test");
    assert_eq!(form["type"], "account_onboarding");
    assert_eq!(form["return_url"], urls.return_url);
    assert_eq!(form["refresh_url"], urls.refresh_url);
    let (path, key, form) = &calls[2];
    assert_eq!(path, "transfers");
    assert_eq!(key, &format!("payout-{order}"));
    assert_eq!(form["amount"], "8500");
    assert_eq!(form["currency"], "cad");
    assert_eq!(form["destination"], "acct_1Test");
    assert_eq!(form["transfer_group"], order.to_string());
    assert_eq!(calls.len(), 5, "the bad account id made no call");
}

#[tokio::test]
async fn with_stripe_onboarding_creates_the_account_once_and_reads_its_state() {
    let calls = Calls::default();
    let fake = LocalServer::start(connect_fake(calls.clone())).await;
    let api_base = fake.url();
    let server = TestServer::start_with(|config| {
        config.stripe_secret_key = Some("sk_test_local".into());
        config.stripe_publishable_key = Some("pk_test_local".into());
        config.stripe_api_base = api_base;
    })
    .await;
    let (pro, token, _) = professional(&server, CALGARY_PRO).await;
    let mut billing = BillingServiceClient::new(server.channel().await);
    let before = account(&mut billing, &token, pro).await.unwrap();
    assert_eq!(before.state, bpb::PayoutAccountState::NotStarted as i32);
    assert!(!before.test_mode);

    for _ in 0..2 {
        let link = billing
            .create_payout_onboarding_link(with_token(
                bpb::CreatePayoutOnboardingLinkRequest {},
                &token,
            ))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(link.url, "https://connect.example/setup/e/acct_1Test");
        assert_eq!(link.expire_time.unwrap().seconds, 1_900_000_000);
    }
    let after = account(&mut billing, &token, pro).await.unwrap();
    assert_eq!(after.state, bpb::PayoutAccountState::Enabled as i32);
    server.stop().await;
    fake.stop().await;

    let calls = calls.lock().unwrap();
    let paths: Vec<&str> = calls.iter().map(|(path, _, _)| path.as_str()).collect();
    assert_eq!(paths, ["accounts", "account_links", "account_links"]);
    assert_eq!(
        calls[1].2["return_url"],
        "http://127.0.0.1:8080/stripe-connect"
    );
}
