//! Payouts against the real server and Postgres: the ledger a captured hire writes, nothing
//! from an uncaptured hold, the platform fee, a refund after payment, privacy, and test mode.

use crate::helpers::{
    LocalServer, TestServer,
    market::{
        self, Billing, CALGARY_PRO, Market, VISA, billing, customer, db, hire, in_calgary, place,
        professional,
    },
    reason, send_quote, with_token,
};
use repairs_proto::{billing as bpb, marketplace as pb};
use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
};

use axum::{
    Form, Json, Router,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    routing::{get, post},
};
use repairs_server::{
    billing::payout_transfers::{self, Sent},
    domain::{Cents, Role},
    providers::payments::stripe::{StripeConfig, StripeGateway, connect::OnboardingUrls},
};
use serde_json::{Value, json};
use tonic::Code;
use uuid::Uuid;

/// A hired job of `cents` CAD: the professional's id and token, the customer's token and the
/// request.
pub(crate) struct Hired {
    pub(crate) billing: Billing,
    pub(crate) market: Market,
    pub(crate) pro_id: Uuid,
    pub(crate) pro_token: String,
    pub(crate) customer_token: String,
    pub(crate) request: pb::RepairRequest,
    pub(crate) order: bpb::Order,
}

pub(crate) async fn hired(server: &TestServer, cents: i64) -> Hired {
    hired_with(server, cents, VISA).await
}

/// [`hired`], paid with `card`.
pub(crate) async fn hired_with(server: &TestServer, cents: i64, card: &str) -> Hired {
    let mut market = market::market(server).await;
    let billing = billing(server).await;
    let (_, customer_token) = customer(server).await;
    let (pro_id, pro_token, _) = professional(server, CALGARY_PRO).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quote = send_quote(server, &pro_token, &request.id, cents).await;
    let order = hire(&billing, &customer_token, &quote.id, card, Uuid::now_v7())
        .await
        .unwrap();
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

/// The customer marks the job done, which captures the hold.
pub(crate) async fn complete(job: &mut Hired) {
    market::complete(&mut job.market, &job.customer_token, &job.request.id)
        .await
        .unwrap();
}

pub(crate) async fn account(
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

pub(crate) async fn payouts(
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

pub(crate) fn cents(money: Option<&repairs_proto::types::Money>) -> i64 {
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
async fn a_paid_entry_keeps_its_fee_and_a_refund_after_it_shows_refunded_after_payout() {
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

    // The admin refunds the job afterwards: the entry stays, shown refunded after the payout
    // (nothing is taken back from the professional automatically).
    let (_, admin) = server.account_token(Role::Admin).await;
    job.billing
        .refund_payment(with_token(
            bpb::RefundPaymentRequest {
                target: Some(bpb::PaymentTarget {
                    target: Some(bpb::payment_target::Target::OrderId(job.order.id.clone())),
                }),
                request_id: Uuid::now_v7().to_string(),
                reason: "the job was not done".into(),
                amount: None,
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
    assert_eq!(entry.state, bpb::PayoutState::RefundedAfterPayout as i32);
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
    let second = hire(
        &first.billing,
        &customer_token,
        &quote.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();
    market::complete(&mut first.market, &customer_token, &request.id)
        .await
        .unwrap();
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
    let mut billing = billing(&server).await;
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

/// A call to the fake: path, idempotency key, form.
type Call = (String, String, HashMap<String, String>);

/// What the local Stripe fake received, what it holds and how
/// it behaves.
#[derive(Default)]
struct Fake {
    calls: Mutex<Vec<Call>>,
    /// Connect accounts by professional id.
    accounts: Mutex<HashMap<String, String>>,
    /// PaymentIntents by id: amount, currency, status.
    intents: Mutex<HashMap<String, (i64, String, String)>>,
    /// Connected accounts cannot receive transfers yet (onboarding unfinished).
    accounts_pending: AtomicBool,
    /// Transfers answer HTTP 500, as Stripe does when it fails.
    transfers_fail: AtomicBool,
}

type Shared = Arc<Fake>;

impl Fake {
    fn paths(&self, path: &str) -> Vec<(String, HashMap<String, String>)> {
        let calls = self.calls.lock().unwrap();
        calls
            .iter()
            .filter(|(p, _, _)| p == path)
            .map(|(_, key, form)| (key.clone(), form.clone()))
            .collect()
    }
}

/// Records a call after checking the secret key, as Stripe would refuse it.
fn record(fake: &Fake, path: &str, headers: &HeaderMap, form: HashMap<String, String>) {
    assert_eq!(
        headers.get("authorization").unwrap(),
        "Bearer sk_test_local"
    );
    let key = headers
        .get("idempotency-key")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    fake.calls
        .lock()
        .unwrap()
        .push((path.to_owned(), key, form));
}

fn intent_json(id: &str, (amount, currency, status): &(i64, String, String)) -> Json<Value> {
    Json(
        json!({"id": id, "object": "payment_intent", "amount": amount,
        "currency": currency, "status": status, "created": chrono::Utc::now().timestamp()}),
    )
}

/// A small server of the Stripe calls payouts make, on 127.0.0.1: Connect (accounts, links,
/// transfers answered by idempotency key as Stripe does) and the PaymentIntents of a hire
/// (manual capture, capture, refund), so a server configured for Stripe hires against it.
fn connect_fake(fake: Shared) -> Router {
    Router::new()
        .route(
            "/v1/accounts",
            post(
                |State(fake): State<Shared>,
                 headers: HeaderMap,
                 Form(form): Form<HashMap<String, String>>| async move {
                    // One account per professional: acct_1Test, acct_2Test, ...
                    let mut accounts = fake.accounts.lock().unwrap();
                    let owner = form["metadata[professional_id]"].clone();
                    let next = format!("acct_{}Test", accounts.len() + 1);
                    let id = accounts.entry(owner).or_insert(next).clone();
                    drop(accounts);
                    record(&fake, "accounts", &headers, form);
                    Json(json!({"id": id, "object": "account"}))
                },
            ),
        )
        .route(
            "/v1/accounts/{id}",
            get(
                |State(fake): State<Shared>, Path(id): Path<String>| async move {
                    if !fake
                        .accounts
                        .lock()
                        .unwrap()
                        .values()
                        .any(|known| *known == id)
                    {
                        let error = json!({"error": {"type": "invalid_request_error",
                        "code": "resource_missing", "message": "No such account"}});
                        return (StatusCode::NOT_FOUND, Json(error));
                    }
                    let transfers = if fake.accounts_pending.load(Ordering::SeqCst) {
                        "inactive"
                    } else {
                        "active"
                    };
                    let account = json!({"id": id, "payouts_enabled": false,
                    "capabilities": {"transfers": transfers}});
                    (StatusCode::OK, Json(account))
                },
            ),
        )
        .route(
            "/v1/account_links",
            post(
                |State(fake): State<Shared>, headers: HeaderMap, Form(form)| async move {
                    record(&fake, "account_links", &headers, form);
                    Json(json!({"object": "account_link", "url":
                        "https://connect.example/setup/e/acct_1Test", "expires_at": 1_900_000_000}))
                },
            ),
        )
        .route(
            "/v1/transfers",
            post(
                |State(fake): State<Shared>, headers: HeaderMap, Form(form)| async move {
                    // Slow enough for two passes to overlap.
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    record(&fake, "transfers", &headers, form);
                    if fake.transfers_fail.load(Ordering::SeqCst) {
                        let error = json!({"error": {"type": "api_error",
                            "message": "An unknown error occurred"}});
                        return (StatusCode::INTERNAL_SERVER_ERROR, Json(error));
                    }
                    let keys: Vec<String> =
                        fake.paths("transfers").into_iter().map(|c| c.0).collect();
                    let first = keys.iter().position(|k| Some(k) == keys.last()).unwrap();
                    (StatusCode::OK, Json(json!({"id": format!("tr_{first}")})))
                },
            ),
        )
        .route(
            "/v1/payment_intents",
            post(
                |State(fake): State<Shared>,
                 headers: HeaderMap,
                 Form(form): Form<HashMap<String, String>>| async move {
                    let mut intents = fake.intents.lock().unwrap();
                    let id = format!("pi_{}", intents.len() + 1);
                    let intent = (
                        form["amount"].parse::<i64>().unwrap(),
                        form["currency"].clone(),
                        "requires_capture".to_owned(),
                    );
                    let reply = intent_json(&id, &intent);
                    intents.insert(id, intent);
                    drop(intents);
                    record(&fake, "payment_intents", &headers, form);
                    reply
                },
            ),
        )
        .route(
            "/v1/payment_intents/{id}",
            get(
                |State(fake): State<Shared>, Path(id): Path<String>| async move {
                    intent_json(&id, &fake.intents.lock().unwrap()[&id])
                },
            ),
        )
        .route(
            "/v1/payment_intents/{id}/capture",
            post(
                |State(fake): State<Shared>, Path(id): Path<String>| async move {
                    let mut intents = fake.intents.lock().unwrap();
                    let intent = intents.get_mut(&id).unwrap();
                    intent.2 = "succeeded".to_owned();
                    intent_json(&id, intent)
                },
            ),
        )
        .route(
            "/v1/refunds",
            post(
                |State(fake): State<Shared>, headers: HeaderMap, Form(form)| async move {
                    record(&fake, "refunds", &headers, form);
                    Json(json!({"id": "re_1", "object": "refund"}))
                },
            ),
        )
        .with_state(fake)
}

#[tokio::test]
async fn the_connect_adapter_speaks_stripes_protocol() {
    let shared = Shared::default();
    let fake = LocalServer::start(connect_fake(shared.clone())).await;
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

    let calls = shared.calls.lock().unwrap();
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
    let shared = Shared::default();
    let (server, fake) = with_stripe(&shared, 0).await;
    let (pro, token, _) = professional(&server, CALGARY_PRO).await;
    let mut billing = billing(&server).await;
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

    let calls = shared.calls.lock().unwrap();
    let paths: Vec<&str> = calls.iter().map(|(path, _, _)| path.as_str()).collect();
    assert_eq!(paths, ["accounts", "account_links", "account_links"]);
    assert_eq!(
        calls[1].2["return_url"],
        "http://127.0.0.1:8080/stripe-connect"
    );
}

/// A server configured for Stripe against the local fake, with a platform fee of `fee` %.
async fn with_stripe(fake: &Shared, fee: u8) -> (TestServer, LocalServer) {
    let local = LocalServer::start(connect_fake(fake.clone())).await;
    let api_base = local.url();
    let server = TestServer::start_with(|config| {
        config.stripe_secret_key = Some("sk_test_local".into());
        config.stripe_publishable_key = Some("pk_test_local".into());
        config.stripe_api_base = api_base;
        config.platform_fee_percent = fee;
    })
    .await;
    (server, local)
}

/// The professional starts Connect onboarding, which keeps their account.
async fn onboard(billing: &mut Billing, pro_token: &str) {
    billing
        .create_payout_onboarding_link(with_token(
            bpb::CreatePayoutOnboardingLinkRequest {},
            pro_token,
        ))
        .await
        .unwrap();
}

/// A completed (captured) job of `cents` whose professional has a Connect account.
async fn captured_with_account(server: &TestServer, cents: i64) -> Hired {
    let mut job = hired(server, cents).await;
    complete(&mut job).await;
    let token = job.pro_token.clone();
    onboard(&mut job.billing, &token).await;
    job
}

/// A server on the Stripe fake, its switches set by `prepare` first, and a captured job of
/// `cents` whose professional has a Connect account.
async fn stripe_job(
    fee: u8,
    cents: i64,
    prepare: impl FnOnce(&Fake),
) -> (Shared, TestServer, LocalServer, Hired) {
    let fake = Shared::default();
    prepare(&fake);
    let (server, local) = with_stripe(&fake, fee).await;
    let job = captured_with_account(&server, cents).await;
    (fake, server, local, job)
}

async fn stop(server: TestServer, local: LocalServer) {
    server.stop().await;
    local.stop().await;
}

async fn send_due(server: &TestServer, now: chrono::DateTime<chrono::Utc>) -> Sent {
    payout_transfers::send_due(&server.server.state, now)
        .await
        .unwrap()
}

pub(crate) async fn only_entry(job: &mut Hired) -> bpb::Payout {
    let (pro, token) = (job.pro_id, job.pro_token.clone());
    let mut list = payouts(&mut job.billing, &token, pro, 0, "")
        .await
        .unwrap()
        .payouts;
    assert_eq!(list.len(), 1);
    list.remove(0)
}

#[tokio::test]
async fn with_stripe_a_captured_hire_is_transferred_once_less_the_fee() {
    let (fake, server, local, mut job) = stripe_job(10, 10_000, |_| {}).await;

    let now = chrono::Utc::now();
    assert_eq!(send_due(&server, now).await, Sent { paid: 1, failed: 0 });
    assert_eq!(send_due(&server, now).await, Sent::default(), "paid once");

    let transfers = fake.paths("transfers");
    assert_eq!(transfers.len(), 1);
    let (key, form) = &transfers[0];
    assert_eq!(key, &format!("payout-{}", job.order.id));
    assert_eq!(form["amount"], "9000");
    assert_eq!(form["destination"], "acct_1Test");
    let entry = only_entry(&mut job).await;
    assert_eq!(entry.state, bpb::PayoutState::Paid as i32);
    assert_eq!(entry.transfer_id, "tr_0");
    assert_eq!(cents(entry.net.as_ref()), 9_000);
    assert!(entry.pay_time.is_some() && entry.note.is_empty());
    let (pro, token) = (job.pro_id, job.pro_token.clone());
    let acc = account(&mut job.billing, &token, pro).await.unwrap();
    assert_eq!(
        (cents(acc.owed.as_ref()), cents(acc.paid.as_ref())),
        (0, 9_000)
    );

    // A refund afterwards is shown and not clawed back: no reversal is sent to Stripe.
    let (_, admin) = server.account_token(Role::Admin).await;
    refund(&mut job.billing, &admin, &job.order.id).await;
    let entry = only_entry(&mut job).await;
    assert_eq!(entry.state, bpb::PayoutState::RefundedAfterPayout as i32);
    assert_eq!(send_due(&server, now).await, Sent::default());
    assert_eq!(fake.paths("transfers").len(), 1);
    stop(server, local).await;
}

async fn refund(billing: &mut Billing, admin: &str, order: &str) {
    billing
        .refund_payment(with_token(
            bpb::RefundPaymentRequest {
                target: Some(bpb::PaymentTarget {
                    target: Some(bpb::payment_target::Target::OrderId(order.to_owned())),
                }),
                request_id: Uuid::now_v7().to_string(),
                reason: "the job was not done".into(),
                amount: None,
            },
            admin,
        ))
        .await
        .unwrap();
}

#[tokio::test]
async fn two_passes_at_once_transfer_an_entry_once() {
    let (fake, server, local, mut job) = stripe_job(0, 8_000, |_| {}).await;
    let now = chrono::Utc::now();
    // Two server processes' housekeeping, as two tasks on their own connections.
    let state = server.server.state.clone();
    let other = tokio::spawn(async move { payout_transfers::send_due(&state, now).await });
    let here = send_due(&server, now).await;
    let there = other.await.unwrap().unwrap();
    assert_eq!(here.paid + there.paid, 1);
    assert_eq!(fake.paths("transfers").len(), 1, "one transfer call");
    let rows: i64 = sqlx::query_scalar("select count(*) from payouts")
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(rows, 1);
    assert_eq!(
        only_entry(&mut job).await.state,
        bpb::PayoutState::Paid as i32
    );
    stop(server, local).await;
}

#[tokio::test]
async fn an_account_that_cannot_receive_transfers_is_not_paid_until_it_can() {
    let pending = |fake: &Fake| fake.accounts_pending.store(true, Ordering::SeqCst);
    let (fake, server, local, mut job) = stripe_job(0, 8_000, pending).await;
    // A professional who never onboarded is not paid either.
    let mut unboarded = hired(&server, 6_000).await;
    complete(&mut unboarded).await;
    let now = chrono::Utc::now();
    assert_eq!(send_due(&server, now).await, Sent::default());
    assert!(fake.paths("transfers").is_empty());
    let entry = only_entry(&mut job).await;
    assert_eq!(entry.state, bpb::PayoutState::Owed as i32);
    assert_eq!(entry.failed_attempts, 0);

    fake.accounts_pending.store(false, Ordering::SeqCst);
    assert_eq!(send_due(&server, now).await, Sent { paid: 1, failed: 0 });
    assert_eq!(
        only_entry(&mut unboarded).await.state,
        bpb::PayoutState::Owed as i32
    );
    stop(server, local).await;
}

#[tokio::test]
async fn a_failed_transfer_is_kept_shown_and_retried_after_a_wait() {
    let failing = |fake: &Fake| fake.transfers_fail.store(true, Ordering::SeqCst);
    let (fake, server, local, mut job) = stripe_job(0, 8_000, failing).await;
    let now = chrono::Utc::now();
    assert_eq!(send_due(&server, now).await, Sent { paid: 0, failed: 1 });
    let entry = only_entry(&mut job).await;
    assert_eq!(entry.state, bpb::PayoutState::TransferFailed as i32);
    assert_eq!(entry.failed_attempts, 1);
    assert!(!entry.last_error.is_empty());
    assert_eq!(
        entry.next_attempt_time.unwrap().seconds,
        (now + chrono::Duration::seconds(60)).timestamp()
    );
    // An admin sees it too, with what is still owed.
    let (_, admin) = server.account_token(Role::Admin).await;
    let acc = account(&mut job.billing, &admin, job.pro_id).await.unwrap();
    assert_eq!(cents(acc.owed.as_ref()), 8_000);

    // Not before its time; then once Stripe answers, with the same key.
    fake.transfers_fail.store(false, Ordering::SeqCst);
    let soon = now + chrono::Duration::seconds(30);
    assert_eq!(send_due(&server, soon).await, Sent::default());
    assert_eq!(fake.paths("transfers").len(), 1);
    let later = now + chrono::Duration::seconds(61);
    assert_eq!(send_due(&server, later).await, Sent { paid: 1, failed: 0 });
    let keys: Vec<String> = fake.paths("transfers").into_iter().map(|c| c.0).collect();
    let key = format!("payout-{}", job.order.id);
    assert_eq!(keys, [key.clone(), key]);
    let entry = only_entry(&mut job).await;
    assert_eq!(entry.state, bpb::PayoutState::Paid as i32);
    assert!(entry.last_error.is_empty() && entry.next_attempt_time.is_none());
    stop(server, local).await;
}

#[tokio::test]
async fn an_uncaptured_hold_or_a_hire_refunded_before_payout_is_never_transferred() {
    let fake = Shared::default();
    let (server, local) = with_stripe(&fake, 0).await;
    let mut held = hired(&server, 8_000).await;
    let token = held.pro_token.clone();
    onboard(&mut held.billing, &token).await;
    let mut refunded = captured_with_account(&server, 5_000).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    refund(&mut refunded.billing, &admin, &refunded.order.id).await;

    assert_eq!(send_due(&server, chrono::Utc::now()).await, Sent::default());
    assert!(fake.paths("transfers").is_empty());
    assert_eq!(
        only_entry(&mut refunded).await.state,
        bpb::PayoutState::Reversed as i32
    );
    let acc = account(&mut held.billing, &token, held.pro_id)
        .await
        .unwrap();
    assert_eq!((cents(acc.owed.as_ref()), cents(acc.paid.as_ref())), (0, 0));
    stop(server, local).await;
}

async fn record_manual(
    billing: &mut Billing,
    admin: &str,
    professional: Uuid,
    orders: &[&str],
    note: &str,
    request_id: Uuid,
) -> Result<Vec<bpb::Payout>, tonic::Status> {
    billing
        .record_manual_payout(with_token(
            bpb::RecordManualPayoutRequest {
                professional_id: professional.to_string(),
                order_ids: orders.iter().map(|o| (*o).to_owned()).collect(),
                note: note.into(),
                request_id: request_id.to_string(),
            },
            admin,
        ))
        .await
        .map(|r| r.into_inner().payouts)
}

#[tokio::test]
async fn in_test_mode_an_admin_records_a_payout_made_by_hand_once() {
    let server = TestServer::start_with(|config| config.platform_fee_percent = 10).await;
    let mut job = hired(&server, 10_000).await;
    complete(&mut job).await;
    let pro = job.pro_id;
    let (admin_id, admin) = server.account_token(Role::Admin).await;
    let order = job.order.id.clone();
    let key = Uuid::now_v7();
    let note = "Interac e-Transfer of 2026-11-20";

    let paid = record_manual(&mut job.billing, &admin, pro, &[&order], note, key)
        .await
        .unwrap();
    assert_eq!(paid.len(), 1);
    assert_eq!(paid[0].state, bpb::PayoutState::Paid as i32);
    assert_eq!(paid[0].note, note);
    assert_eq!(cents(paid[0].net.as_ref()), 9_000);
    assert!(paid[0].transfer_id.is_empty() && paid[0].pay_time.is_some());
    let token = job.pro_token.clone();
    let acc = account(&mut job.billing, &token, pro).await.unwrap();
    assert_eq!(
        (cents(acc.owed.as_ref()), cents(acc.paid.as_ref())),
        (0, 9_000)
    );
    let entry = only_entry(&mut job).await;
    assert_eq!((entry.state, entry.note.as_str()), (paid[0].state, note));

    // A retry answers the same; the key with another payload is refused.
    let again = record_manual(&mut job.billing, &admin, pro, &[&order], note, key)
        .await
        .unwrap();
    assert_eq!(again, paid);
    let reused = record_manual(&mut job.billing, &admin, pro, &[&order], "cheque", key)
        .await
        .unwrap_err();
    assert_eq!(reused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&reused), "REQUEST_ID_REUSED");
    // A new key for an entry already paid.
    let twice = record_manual(
        &mut job.billing,
        &admin,
        pro,
        &[&order],
        note,
        Uuid::now_v7(),
    )
    .await
    .unwrap_err();
    assert_eq!(twice.code(), Code::FailedPrecondition);
    assert_eq!(reason(&twice), "PAYOUT_NOT_OWED");

    // One audit entry, with the balance before and after.
    let audit: Vec<(Uuid, String, Value, Value)> = sqlx::query_as(
        "select admin_id, target_id, before_json, after_json from audit_events
         where action = 'professional.record_payout'",
    )
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(audit.len(), 1);
    let (who, target, before, after) = &audit[0];
    assert_eq!(
        (*who, target.as_str()),
        (admin_id, pro.to_string().as_str())
    );
    assert_eq!(
        (&before["owed_cents"], &before["paid_cents"]),
        (&json!(9_000), &json!(0))
    );
    assert_eq!(
        (&after["owed_cents"], &after["paid_cents"]),
        (&json!(0), &json!(9_000))
    );
    assert_eq!(after["note"], note);
    assert_eq!(after["entries"][0]["order_id"], json!(order));
    server.stop().await;
}

#[tokio::test]
async fn a_manual_payout_needs_an_owed_entry_of_that_professional_an_admin_and_test_mode() {
    let server = TestServer::start().await;
    let mut held = hired(&server, 8_000).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let pro = held.pro_id;
    let order = held.order.id.clone();
    let call = |orders: Vec<String>, note: &'static str, token: String| {
        let mut billing = held.billing.clone();
        async move {
            let orders: Vec<&str> = orders.iter().map(String::as_str).collect();
            record_manual(&mut billing, &token, pro, &orders, note, Uuid::now_v7())
                .await
                .unwrap_err()
        }
    };
    // An uncaptured hold owes nothing yet; a made-up order is no hire of theirs.
    let held_only = call(vec![order.clone()], "paid", admin.clone()).await;
    assert_eq!(held_only.code(), Code::NotFound);
    let made_up = call(vec![Uuid::now_v7().to_string()], "paid", admin.clone()).await;
    assert_eq!(made_up.code(), Code::NotFound);
    let no_note = call(vec![order.clone()], "  ", admin.clone()).await;
    assert_eq!(no_note.code(), Code::InvalidArgument);
    let no_orders = call(Vec::new(), "paid", admin.clone()).await;
    assert_eq!(no_orders.code(), Code::InvalidArgument);
    let by_pro = call(vec![order.clone()], "paid", held.pro_token.clone()).await;
    assert_eq!(by_pro.code(), Code::PermissionDenied);
    // Another professional's captured order is not this one's.
    complete(&mut held).await;
    let (other, _, _) = professional(&server, CALGARY_PRO).await;
    let wrong = record_manual(
        &mut held.billing,
        &admin,
        other,
        &[&order],
        "paid",
        Uuid::now_v7(),
    )
    .await
    .unwrap_err();
    assert_eq!(wrong.code(), Code::NotFound);
    server.stop().await;

    // With Stripe the server pays by itself.
    let (_, server, local, mut job) = stripe_job(0, 8_000, |_| {}).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let refused = record_manual(
        &mut job.billing,
        &admin,
        job.pro_id,
        &[&job.order.id],
        "paid",
        Uuid::now_v7(),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "PAYOUTS_AUTOMATIC");
    stop(server, local).await;
}

#[tokio::test]
async fn two_admins_marking_one_entry_at_once_record_it_once() {
    let server = TestServer::start().await;
    let mut job = hired(&server, 7_000).await;
    complete(&mut job).await;
    let (_, first) = server.account_token(Role::Admin).await;
    let (_, second) = server.account_token(Role::Admin).await;
    let (pro, order) = (job.pro_id, job.order.id.clone());
    let mut calls = Vec::new();
    for (admin, note) in [(first, "cheque 1"), (second, "cheque 2")] {
        let mut billing = job.billing.clone();
        let order = order.clone();
        calls.push(tokio::spawn(async move {
            record_manual(&mut billing, &admin, pro, &[&order], note, Uuid::now_v7()).await
        }));
    }
    let mut answers = Vec::new();
    for call in calls {
        answers.push(call.await.unwrap());
    }
    let refused: Vec<&tonic::Status> = answers.iter().filter_map(|a| a.as_ref().err()).collect();
    assert_eq!(refused.len(), 1, "{answers:?}");
    assert_eq!(reason(refused[0]), "PAYOUT_NOT_OWED");
    let (records, audits): (i64, i64) = sqlx::query_as(
        "select (select count(*) from manual_payouts),
            (select count(*) from audit_events where action = 'professional.record_payout')",
    )
    .fetch_one(db(&server))
    .await
    .unwrap();
    assert_eq!((records, audits), (1, 1));
    let token = job.pro_token.clone();
    let acc = account(&mut job.billing, &token, pro).await.unwrap();
    assert_eq!(cents(acc.paid.as_ref()), 7_000);
    server.stop().await;
}
