//! The Stripe adapter, through the payments ledger, against localstripe (a stateful Stripe
//! fake, a dev tool run only by tests) started on 127.0.0.1 by each test and stopped by its
//! process. `scripts/test.sh` installs it into a virtual environment and sets
//! `LOCALSTRIPE_PYTHON`; without it the tests look in `target/localstripe-venv`.
//! Also: the Idempotency-Key the adapter sends, read by a local recording server.

use std::{
    path::PathBuf,
    process::Stdio,
    sync::{Arc, Mutex},
};

use crate::helpers::{self, LocalServer, TestServer};
use repairs_server::{
    billing::{
        Ledger, LedgerError, Payment, PaymentState, Purpose, StartPayment, Step, Timing,
        ledger::{RefundAsk, RefundBasis},
        sale::Sale,
    },
    domain::{Cents, Currency, Money},
    providers::payments::{
        Decline, IdempotencyKey, NewCharge, PaymentGateway, PaymentMethodRef,
        stripe::{STRIPE_API_VERSION, StripeConfig, StripeGateway},
    },
};
use tokio::{
    io::{AsyncBufReadExt, BufReader},
    process::{Child, Command},
};
use uuid::Uuid;

/// Runs localstripe's aiohttp app on 127.0.0.1 (its own command line binds every
/// interface), on a free port it prints, without its state file in /tmp.
const LAUNCH: &str = r#"
import socket
from aiohttp import web
from localstripe import server
from localstripe.resources import store
store.dump_to_disk = lambda: None
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
print(sock.getsockname()[1], flush=True)
web.run_app(server.app, sock=sock, print=None)
"#;

struct LocalStripe {
    child: Child,
    url: String,
}

impl LocalStripe {
    async fn start() -> Self {
        let python = std::env::var_os("LOCALSTRIPE_PYTHON")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("../target/localstripe-venv/bin/python")
            });
        assert!(
            python.exists(),
            "no Python with localstripe at {python:?}: run the tests with `make test`, or set \
             LOCALSTRIPE_PYTHON"
        );
        let mut child = Command::new(python)
            .args(["-c", LAUNCH])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start localstripe");
        let stdout = child.stdout.take().expect("localstripe stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .await
            .expect("localstripe prints its port");
        let port: u16 = line.trim().parse().expect("a port number");
        let url = format!("http://127.0.0.1:{port}");
        // The port is bound before the app serves: wait until it answers.
        let http = reqwest::Client::new();
        for _ in 0..100 {
            if http
                .get(format!("{url}/v1/payment_intents"))
                .basic_auth("sk_test_local", Some(""))
                .send()
                .await
                .is_ok()
            {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        Self { child, url }
    }

    /// A card PaymentMethod made from a test number.
    async fn card(&self, number: &str) -> String {
        let reply: serde_json::Value = reqwest::Client::new()
            .post(format!("{}/v1/payment_methods", self.url))
            .basic_auth("sk_test_local", Some(""))
            .form(&[
                ("type", "card"),
                ("card[number]", number),
                ("card[exp_month]", "12"),
                ("card[exp_year]", "2040"),
                ("card[cvc]", "123"),
            ])
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        reply["id"].as_str().expect("payment method id").to_owned()
    }

    /// The cardholder's answer to 3-D Secure (what Stripe.js does in the browser).
    async fn authenticate(&self, payment: &Payment, success: bool) {
        let status = reqwest::Client::new()
            .post(format!(
                "{}/v1/payment_intents/{}/_authenticate",
                self.url, payment.charge_id
            ))
            .basic_auth("sk_test_local", Some(""))
            .form(&[
                ("client_secret", payment.client_secret.clone().unwrap()),
                ("success", success.to_string()),
            ])
            .send()
            .await
            .unwrap()
            .status();
        assert!(status.is_success(), "{status}");
    }

    async fn stop(mut self) {
        self.child.kill().await.expect("stop localstripe");
    }
}

fn gateway(url: &str) -> StripeGateway {
    let mut config = StripeConfig::new("sk_test_local");
    config.api_base = url.to_owned();
    StripeGateway::new(config).unwrap()
}

fn payment(payer: Uuid, card: &str, timing: Timing) -> StartPayment {
    StartPayment {
        purpose: Purpose::Hire,
        payer_id: payer,
        sale: Sale::untaxed(Money::new(Cents::new(10_000).unwrap(), Currency::Cad)),
        payment_method: PaymentMethodRef::parse(card).unwrap(),
        timing,
        request_id: IdempotencyKey::new(Uuid::new_v4()),
    }
}

impl Setup {
    /// A new payment that must succeed.
    async fn start(&self, payer: Uuid, card: &str, timing: Timing) -> Payment {
        self.ledger
            .start(&payment(payer, card, timing))
            .await
            .unwrap()
    }

    /// A step that must succeed, under a new key.
    async fn step(&self, actor: Uuid, payment: &Payment, step: Step) -> Payment {
        self.ledger
            .step(actor, payment.id, step, key())
            .await
            .unwrap()
    }
}

fn key() -> IdempotencyKey {
    IdempotencyKey::new(Uuid::new_v4())
}

struct Setup {
    server: TestServer,
    stripe: LocalStripe,
    ledger: Ledger,
}

async fn setup() -> Setup {
    let server = TestServer::start().await;
    let stripe = LocalStripe::start().await;
    let ledger = Ledger::new(
        server.server.state.db.clone(),
        Arc::new(gateway(&stripe.url)),
    );
    Setup {
        server,
        stripe,
        ledger,
    }
}

impl Setup {
    async fn stop(self) {
        self.stripe.stop().await;
        self.server.stop().await;
    }
}

#[tokio::test]
async fn a_hold_is_authorised_then_captured() {
    let s = setup().await;
    let admin = Uuid::now_v7();
    let held = s.start(admin, "pm_card_visa", Timing::Hold).await;
    assert_eq!(held.state, PaymentState::Authorized);
    assert!(held.charge_id.starts_with("pi_"));
    assert!(!held.test_mode);
    assert!(held.authorization_expires_at.is_some());
    let captured = s.step(admin, &held, Step::Capture).await;
    assert_eq!(captured.state, PaymentState::Captured);
    s.stop().await;
}

#[tokio::test]
async fn a_hold_is_voided() {
    let s = setup().await;
    let admin = Uuid::now_v7();
    let held = s.start(admin, "pm_card_visa", Timing::Hold).await;
    let voided = s.step(admin, &held, Step::Void).await;
    assert_eq!(voided.state, PaymentState::Canceled);
    let capture = s.ledger.step(admin, held.id, Step::Capture, key()).await;
    assert!(matches!(capture, Err(LedgerError::State(_))), "{capture:?}");
    s.stop().await;
}

#[tokio::test]
async fn a_charge_is_refunded() {
    let s = setup().await;
    let admin = Uuid::now_v7();
    let charged = s.start(admin, "pm_card_visa", Timing::Now).await;
    assert_eq!(charged.state, PaymentState::Captured);
    let refunded = s
        .ledger
        .refund(admin, charged.id, &refund_ask(&charged, None), key())
        .await
        .unwrap();
    assert_eq!(refunded.state, PaymentState::Refunded);
    assert_eq!(refunded.refunded, charged.amount);
    let twice = s
        .ledger
        .refund(admin, charged.id, &refund_ask(&charged, None), key())
        .await;
    assert!(matches!(twice, Err(LedgerError::State(_))), "{twice:?}");
    s.stop().await;
}

#[tokio::test]
async fn a_charge_is_refunded_in_parts_with_the_amount_sent_to_stripe() {
    let s = setup().await;
    let admin = Uuid::now_v7();
    let charged = s.start(admin, "pm_card_visa", Timing::Now).await;
    let part = Money::new(Cents::new(1_000).unwrap(), charged.amount.currency());
    let first = s
        .ledger
        .refund(admin, charged.id, &refund_ask(&charged, Some(part)), key())
        .await
        .unwrap();
    assert_eq!(first.state, PaymentState::Captured, "partly refunded");
    assert_eq!(first.refunded, part);
    // Stripe itself counts the amount sent: more than what is left is refused there too.
    let left = charged.amount.cents().get() - 1_000;
    let too_much = Money::new(Cents::new(left + 1).unwrap(), charged.amount.currency());
    let refused = s
        .ledger
        .refund(
            admin,
            charged.id,
            &refund_ask(&charged, Some(too_much)),
            key(),
        )
        .await;
    assert!(
        matches!(refused, Err(LedgerError::RefundExceedsRemaining(l)) if l.cents().get() == left),
        "{refused:?}"
    );
    let rest = s
        .ledger
        .refund(admin, charged.id, &refund_ask(&charged, None), key())
        .await
        .unwrap();
    assert_eq!(rest.state, PaymentState::Refunded);
    assert_eq!(rest.refunded, charged.amount);
    s.stop().await;
}

/// A refund of `amount` (none: all that is left) of a payment the platform sold.
fn refund_ask(payment: &Payment, amount: Option<Money>) -> RefundAsk {
    RefundAsk {
        amount,
        reason: "Refunded in a test".to_owned(),
        basis: RefundBasis::platform(payment.amount),
    }
}

#[tokio::test]
async fn a_declined_card_is_refused() {
    let s = setup().await;
    // localstripe declines this number when charged.
    let card = s.stripe.card("4000000000000341").await;
    let refused = s
        .ledger
        .start(&payment(Uuid::now_v7(), &card, Timing::Hold))
        .await;
    assert!(
        matches!(refused, Err(LedgerError::Declined(Decline::CardDeclined))),
        "{refused:?}"
    );
    s.stop().await;
}

#[tokio::test]
async fn a_card_needing_3d_secure_waits_then_confirms() {
    let s = setup().await;
    let card = s.stripe.card("4000002500003155").await;
    let pending = s.start(Uuid::now_v7(), &card, Timing::Hold).await;
    assert_eq!(pending.state, PaymentState::RequiresAction);
    assert!(pending.client_secret.is_some());
    s.stripe.authenticate(&pending, true).await;
    let confirmed = s.ledger.confirm(pending.id).await.unwrap();
    assert_eq!(confirmed.state, PaymentState::Authorized);
    s.stop().await;
}

#[tokio::test]
async fn a_replayed_request_id_answers_the_first_payment() {
    let s = setup().await;
    let call = payment(Uuid::now_v7(), "pm_card_visa", Timing::Now);
    let first = s.ledger.start(&call).await.unwrap();
    let replay = s.ledger.start(&call).await.unwrap();
    assert_eq!(replay.id, first.id);
    assert_eq!(replay.charge_id, first.charge_id);
    let listed: serde_json::Value = reqwest::Client::new()
        .get(format!("{}/v1/payment_intents", s.stripe.url))
        .basic_auth("sk_test_local", Some(""))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed["data"].as_array().map(Vec::len), Some(1), "{listed}");
    s.stop().await;
}

/// The header `name` of a recorded request, or "" without it.
fn header_of(headers: &http::HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// What the adapter sends Stripe: the Idempotency-Key of a create, the same on a retry, and
/// on every call the pinned API version, so the replies it reads keep their shape whatever
/// the account's default version becomes.
#[tokio::test]
async fn writes_carry_the_idempotency_key_and_every_call_the_api_version() {
    type Seen = Arc<Mutex<Vec<(String, String, String)>>>;
    let seen: Seen = Arc::default();
    let intent = || {
        axum::Json(serde_json::json!({
            "id": "pi_recorded", "object": "payment_intent", "amount": 10000,
            "currency": "cad", "status": "requires_capture", "created": 1_800_000_000
        }))
    };
    let (record, reread) = (seen.clone(), seen.clone());
    let router = axum::Router::new()
        .route(
            "/v1/payment_intents",
            axum::routing::post(move |headers: http::HeaderMap, body: String| {
                let record = record.clone();
                async move {
                    let key = header_of(&headers, "idempotency-key");
                    let version = header_of(&headers, "stripe-version");
                    record.lock().unwrap().push((key, version, body));
                    intent()
                }
            }),
        )
        .route(
            "/v1/payment_intents/{id}",
            axum::routing::get(move |headers: http::HeaderMap| {
                let record = reread.clone();
                async move {
                    let version = header_of(&headers, "stripe-version");
                    record
                        .lock()
                        .unwrap()
                        .push((String::new(), version, String::new()));
                    intent()
                }
            }),
        );
    let local = LocalServer::start(router).await;
    let gateway = gateway(&local.url());
    let charge = NewCharge {
        amount: Money::new(Cents::new(10_000).unwrap(), Currency::Cad),
        payment_method: PaymentMethodRef::parse("tok_visa").unwrap(),
        key: key(),
    };
    for _ in 0..2 {
        let held = gateway.authorize(&charge).await.unwrap();
        assert_eq!(held.id, "pi_recorded");
    }
    gateway.retrieve("pi_recorded").await.unwrap();
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3);
    assert_eq!(seen[0].0, charge.key.uuid().to_string());
    assert_eq!(seen[1].0, seen[0].0);
    for (_, version, _) in &seen {
        assert_eq!(version, STRIPE_API_VERSION);
    }
    let body = &seen[0].2;
    assert!(body.contains("capture_method=manual"), "{body}");
    assert!(body.contains("amount=10000"), "{body}");
    // A legacy token goes in as card data, not as a PaymentMethod id.
    assert!(
        body.contains("payment_method_data%5Bcard%5D%5Btoken%5D=tok_visa"),
        "{body}"
    );
    local.stop().await;
}

/// However many payment calls arrive at once, at most `max_in_flight` reach Stripe together.
#[tokio::test]
async fn calls_to_stripe_are_bounded() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let now = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let (now_in, most_in) = (now.clone(), most.clone());
    let router = axum::Router::new().route(
        "/v1/payment_intents/{id}",
        axum::routing::get(move || {
            let (now, most) = (now_in.clone(), most_in.clone());
            async move {
                let current = now.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(current, Ordering::SeqCst);
                tokio::time::sleep(std::time::Duration::from_millis(150)).await;
                now.fetch_sub(1, Ordering::SeqCst);
                axum::Json(serde_json::json!({
                    "id": "pi_slow", "amount": 10000, "currency": "cad",
                    "status": "requires_capture", "created": 1_800_000_000
                }))
            }
        }),
    );
    let local = LocalServer::start(router).await;
    let mut config = StripeConfig::new("sk_test_local");
    config.api_base = local.url();
    config.max_in_flight = 2;
    let gateway = Arc::new(StripeGateway::new(config).unwrap());
    let calls: Vec<_> = (0..6)
        .map(|_| {
            let gateway = gateway.clone();
            tokio::spawn(async move { gateway.retrieve("pi_slow").await })
        })
        .collect();
    for call in calls {
        call.await.unwrap().unwrap();
    }
    assert_eq!(most.load(Ordering::SeqCst), 2);
    local.stop().await;
}

/// A call that could not reach Stripe leaves its key free: the retry with the same key goes
/// through (Stripe's own Idempotency-Key makes the retried create safe) and is the only
/// attempt recorded.
#[tokio::test]
async fn a_call_that_could_not_reach_stripe_can_be_retried_with_its_key() {
    let s = setup().await;
    let db = s.server.server.state.db.clone();
    let unreachable = Ledger::new(db.clone(), Arc::new(gateway(&helpers::closed_port_url())));
    let call = payment(Uuid::now_v7(), "pm_card_visa", Timing::Hold);
    let failed = unreachable.start(&call).await;
    assert!(
        matches!(failed, Err(LedgerError::GatewayUnavailable(_))),
        "{failed:?}"
    );
    let retried = s.ledger.start(&call).await.unwrap();
    assert_eq!(retried.state, PaymentState::Authorized);
    let (attempts,): (i64,) = sqlx::query_as("select count(*) from payment_attempts")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(attempts, 1);
    s.stop().await;
}

/// A dispute's evidence goes to Stripe's dispute update call, submitted, under the
/// request's key, and Stripe's answer is read back; a dispute Stripe no longer takes
/// evidence for (400) is refused as a state, not as Stripe being down.
#[tokio::test]
async fn dispute_evidence_is_sent_to_stripe_s_dispute_update_call() {
    type Seen = Arc<Mutex<Vec<(String, String, String)>>>;
    let seen: Seen = Arc::default();
    let record = seen.clone();
    let router = axum::Router::new().route(
        "/v1/disputes/{id}",
        axum::routing::post(
            move |axum::extract::Path(id): axum::extract::Path<String>,
                  headers: http::HeaderMap,
                  body: String| {
                let record = record.clone();
                async move {
                    let key = header_of(&headers, "idempotency-key");
                    record.lock().unwrap().push((id.clone(), key, body));
                    if id == "dp_closed" {
                        let error = serde_json::json!({"error": {
                            "type": "invalid_request_error",
                            "message": "This dispute is already closed"}});
                        return (http::StatusCode::BAD_REQUEST, axum::Json(error));
                    }
                    let dispute = serde_json::json!({
                        "id": id, "object": "dispute", "charge": "ch_1",
                        "payment_intent": "pi_disputed", "amount": 5000, "currency": "cad",
                        "reason": "fraudulent", "status": "under_review",
                        "evidence_details": {"due_by": null}
                    });
                    (http::StatusCode::OK, axum::Json(dispute))
                }
            },
        ),
    );
    let local = LocalServer::start(router).await;
    let gateway = gateway(&local.url());
    let evidence = repairs_server::providers::payments::DisputeSubmission {
        customer_name: "Jeanne Tremblay".to_owned(),
        customer_email_address: "jeanne@example.ca".to_owned(),
        product_description: "Plumbing: water under the sink".to_owned(),
        service_date: chrono::NaiveDate::from_ymd_opt(2026, 11, 30),
        uncategorized_text: "Hired 10:02, done 12:40 & paid".to_owned(),
    };
    let key = key();
    let answered = gateway
        .submit_dispute_evidence("dp_open", &evidence, &key)
        .await
        .unwrap();
    assert_eq!(answered.charge_id, "pi_disputed");
    assert_eq!(answered.status, "under_review");
    assert_eq!(answered.amount.to_string(), "50.00 CAD");
    let refused = gateway
        .submit_dispute_evidence("dp_closed", &evidence, &key)
        .await
        .unwrap_err();
    assert!(
        matches!(
            refused,
            repairs_server::providers::payments::PaymentError::State { .. }
        ),
        "{refused:?}"
    );
    let seen = seen.lock().unwrap().clone();
    let (id, sent_key, body) = &seen[0];
    assert_eq!(id, "dp_open");
    assert_eq!(sent_key, &key.for_step("dispute"));
    for field in [
        "evidence%5Bcustomer_name%5D=Jeanne+Tremblay",
        "evidence%5Bcustomer_email_address%5D=jeanne%40example.ca",
        "evidence%5Bservice_date%5D=2026-11-30",
        "evidence%5Buncategorized_text%5D=Hired+10%3A02%2C+done+12%3A40+%26+paid",
        "submit=true",
    ] {
        assert!(body.contains(field), "{field} in {body}");
    }
    local.stop().await;
}
