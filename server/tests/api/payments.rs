//! The payments ledger on the offline test gateway, against a real Postgres: Stripe's test
//! cards, holds that lapse after seven days, state that survives a restart, and
//! idempotency (replay, reuse with another payload, concurrent calls with one key).

use std::sync::Arc;

use crate::helpers::TestServer;
use chrono::{Duration, Utc};
use repairs_server::{
    billing::{
        Ledger, LedgerError, Payment, PaymentState, Purpose, StartPayment, Timing,
        ledger::{RefundAsk, RefundBasis, Step},
        sale::Sale,
    },
    domain::{Cents, Currency, Money},
    providers::payments::{
        Decline, IdempotencyKey, PaymentMethodRef, clock::ManualClock, test_gateway::TestGateway,
    },
};
use sqlx::PgPool;
use uuid::Uuid;

struct Setup {
    server: TestServer,
    clock: Arc<ManualClock>,
    ledger: Ledger,
    gateway: Arc<TestGateway>,
}

async fn setup() -> Setup {
    let server = TestServer::start().await;
    let clock = Arc::new(ManualClock::new(Utc::now()));
    let gateway = Arc::new(TestGateway::new(db(&server), clock.clone()));
    let ledger = Ledger::new(db(&server), gateway.clone());
    Setup {
        server,
        clock,
        ledger,
        gateway,
    }
}

fn db(server: &TestServer) -> PgPool {
    server.server.state.db.clone()
}

fn cad(cents: i64) -> Money {
    Money::new(Cents::new(cents).unwrap(), Currency::Cad)
}

fn payment(payer: Uuid, card: &str, timing: Timing) -> StartPayment {
    StartPayment {
        purpose: Purpose::TestCharge,
        payer_id: payer,
        sale: Sale::untaxed(cad(10_000)),
        payment_method: PaymentMethodRef::parse(card).unwrap(),
        timing,
        request_id: IdempotencyKey::new(Uuid::new_v4()),
    }
}

/// A new payment that must succeed.
async fn start(s: &Setup, payer: Uuid, card: &str, timing: Timing) -> Payment {
    s.ledger.start(&payment(payer, card, timing)).await.unwrap()
}

/// A step that must succeed, under a new key.
async fn step(s: &Setup, actor: Uuid, payment: &Payment, step: Step) -> Payment {
    s.ledger.step(actor, payment.id, step, key()).await.unwrap()
}

fn key() -> IdempotencyKey {
    IdempotencyKey::new(Uuid::new_v4())
}

async fn count(db: &PgPool, table: &str) -> i64 {
    let (n,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(format!("select count(*) from {table}")))
        .fetch_one(db)
        .await
        .unwrap();
    n
}

#[tokio::test]
async fn a_hold_is_captured_then_refunded() {
    let s = setup().await;
    let admin = Uuid::now_v7();
    let held = start(&s, admin, "tok_visa", Timing::Hold).await;
    assert_eq!(held.state, PaymentState::Authorized);
    assert!(held.test_mode);
    assert!(held.charge_id.starts_with("pi_test_"));
    assert!(held.authorization_expires_at.unwrap() > Utc::now() + Duration::days(6));

    let captured = step(&s, admin, &held, Step::Capture).await;
    assert_eq!(captured.state, PaymentState::Captured);
    assert!(captured.captured_at.is_some());
    let again = s.ledger.step(admin, held.id, Step::Capture, key()).await;
    assert!(
        matches!(again, Err(LedgerError::State("captured"))),
        "{again:?}"
    );

    let ask = RefundAsk {
        amount: None,
        reason: "Refunded in a test".to_owned(),
        basis: RefundBasis::platform(held.amount),
    };
    let refunded = s.ledger.refund(admin, held.id, &ask, key()).await.unwrap();
    assert_eq!(refunded.state, PaymentState::Refunded);
    // By charge id too (the legacy block-payment-confirm names the charge).
    let found = s.ledger.find_by_charge_id(&held.charge_id).await.unwrap();
    assert_eq!(found.state, PaymentState::Refunded);
    s.server.stop().await;
}

#[tokio::test]
async fn a_hold_is_voided_and_cannot_be_captured_after() {
    let s = setup().await;
    let admin = Uuid::now_v7();
    let held = start(&s, admin, "4242 4242 4242 4242", Timing::Hold).await;
    let voided = step(&s, admin, &held, Step::Void).await;
    assert_eq!(voided.state, PaymentState::Canceled);
    let capture = s.ledger.step(admin, held.id, Step::Capture, key()).await;
    assert!(matches!(capture, Err(LedgerError::State(_))), "{capture:?}");
    s.server.stop().await;
}

#[tokio::test]
async fn a_charge_now_is_captured_at_once() {
    let s = setup().await;
    let charged = start(&s, Uuid::now_v7(), "pm_card_visa", Timing::Now).await;
    assert_eq!(charged.state, PaymentState::Captured);
    s.server.stop().await;
}

#[tokio::test]
async fn declined_cards_are_refused_with_their_reason_and_recorded() {
    let s = setup().await;
    let payer = Uuid::now_v7();
    for (card, decline) in [
        ("tok_chargeDeclined", Decline::CardDeclined),
        ("4000 0000 0000 0002", Decline::CardDeclined),
        ("4000 0000 0000 9995", Decline::InsufficientFunds),
    ] {
        let refused = s.ledger.start(&payment(payer, card, Timing::Now)).await;
        assert!(
            matches!(refused, Err(LedgerError::Declined(d)) if d == decline),
            "{card}: {refused:?}"
        );
    }
    let unknown = s
        .ledger
        .start(&payment(payer, "pm_unknown", Timing::Now))
        .await;
    assert!(
        matches!(unknown, Err(LedgerError::InvalidPaymentMethod)),
        "{unknown:?}"
    );
    let (failed,): (i64,) =
        sqlx::query_as("select count(*) from payments where state = 'failed' and payer_id = $1")
            .bind(payer)
            .fetch_one(&db(&s.server))
            .await
            .unwrap();
    assert_eq!(failed, 3);
    assert_eq!(count(&db(&s.server), "payment_attempts").await, 4);
    s.server.stop().await;
}

#[tokio::test]
async fn amounts_below_the_minimum_charge_are_refused() {
    let s = setup().await;
    let mut small = payment(Uuid::now_v7(), "tok_visa", Timing::Now);
    small.sale = Sale::untaxed(cad(49));
    let refused = s.ledger.start(&small).await;
    assert!(
        matches!(refused, Err(LedgerError::AmountTooSmall)),
        "{refused:?}"
    );
    s.server.stop().await;
}

#[tokio::test]
async fn the_3155_card_waits_for_authentication_then_confirms() {
    let s = setup().await;
    let payer = Uuid::now_v7();
    let pending = start(&s, payer, "4000 0025 0000 3155", Timing::Hold).await;
    assert_eq!(pending.state, PaymentState::RequiresAction);
    assert!(
        pending
            .client_secret
            .as_deref()
            .unwrap()
            .starts_with(&pending.charge_id)
    );
    // Nothing changes until the cardholder answers.
    let still = s.ledger.confirm(pending.id).await.unwrap();
    assert_eq!(still.state, PaymentState::RequiresAction);

    s.gateway
        .authenticate(&pending.charge_id, true)
        .await
        .unwrap();
    let confirmed = s.ledger.confirm(pending.id).await.unwrap();
    assert_eq!(confirmed.state, PaymentState::Authorized);
    assert_eq!(confirmed.client_secret, None);

    let refused = s
        .ledger
        .start(&payment(
            payer,
            "pm_card_authenticationRequired",
            Timing::Now,
        ))
        .await
        .unwrap();
    s.gateway
        .authenticate(&refused.charge_id, false)
        .await
        .unwrap();
    let failed = s.ledger.confirm(refused.id).await.unwrap();
    assert_eq!(failed.state, PaymentState::Failed);
    assert_eq!(failed.decline, Some(Decline::AuthenticationFailed));
    s.server.stop().await;
}

#[tokio::test]
async fn holds_lapse_after_seven_days() {
    let s = setup().await;
    let admin = Uuid::now_v7();
    let held = start(&s, admin, "tok_visa", Timing::Hold).await;
    s.clock.advance(Duration::days(7) - Duration::minutes(1));
    assert_eq!(
        s.ledger.confirm(held.id).await.unwrap().state,
        PaymentState::Authorized
    );
    s.clock.advance(Duration::minutes(1));
    let capture = s.ledger.step(admin, held.id, Step::Capture, key()).await;
    assert!(
        matches!(capture, Err(LedgerError::AuthorizationExpired)),
        "{capture:?}"
    );
    assert_eq!(
        s.ledger.find(held.id).await.unwrap().state,
        PaymentState::Expired
    );
    s.server.stop().await;
}

#[tokio::test]
async fn a_restarted_gateway_still_knows_its_payments() {
    let s = setup().await;
    let admin = Uuid::now_v7();
    let held = start(&s, admin, "tok_visa", Timing::Hold).await;
    let restarted = Arc::new(TestGateway::new(db(&s.server), s.clock.clone()));
    let ledger = Ledger::new(db(&s.server), restarted);
    let captured = ledger
        .step(admin, held.id, Step::Capture, key())
        .await
        .unwrap();
    assert_eq!(captured.state, PaymentState::Captured);
    s.server.stop().await;
}

#[tokio::test]
async fn the_same_request_id_and_payload_answer_the_first_result() {
    let s = setup().await;
    let admin = Uuid::now_v7();
    let first_call = payment(admin, "tok_visa", Timing::Hold);
    let first = s.ledger.start(&first_call).await.unwrap();
    let replay = s.ledger.start(&first_call).await.unwrap();
    assert_eq!(replay.id, first.id);
    assert_eq!(replay.charge_id, first.charge_id);
    assert_eq!(count(&db(&s.server), "test_gateway_intents").await, 1);

    // A refusal replays as the same refusal, without a second gateway call.
    let declined = payment(admin, "4000 0000 0000 9995", Timing::Hold);
    for _ in 0..2 {
        let refused = s.ledger.start(&declined).await;
        assert!(
            matches!(
                refused,
                Err(LedgerError::Declined(Decline::InsufficientFunds))
            ),
            "{refused:?}"
        );
    }
    assert_eq!(count(&db(&s.server), "test_gateway_intents").await, 2);

    // Steps replay too: the same capture key answers the captured payment.
    let capture_key = key();
    let captured = s
        .ledger
        .step(admin, first.id, Step::Capture, capture_key)
        .await
        .unwrap();
    let again = s
        .ledger
        .step(admin, first.id, Step::Capture, capture_key)
        .await
        .unwrap();
    assert_eq!(again, captured);
    s.server.stop().await;
}

#[tokio::test]
async fn the_same_request_id_with_another_payload_is_refused() {
    let s = setup().await;
    let admin = Uuid::now_v7();
    let first_call = payment(admin, "tok_visa", Timing::Hold);
    s.ledger.start(&first_call).await.unwrap();
    let mut other = first_call.clone();
    other.sale = Sale::untaxed(cad(20_000));
    let refused = s.ledger.start(&other).await;
    assert!(
        matches!(refused, Err(LedgerError::RequestIdReused)),
        "{refused:?}"
    );
    // Keys belong to their caller: another payer's same key is a new call.
    let mut someone_else = first_call.clone();
    someone_else.payer_id = Uuid::now_v7();
    let theirs = s.ledger.start(&someone_else).await.unwrap();
    assert_eq!(theirs.payer_id, someone_else.payer_id);
    s.server.stop().await;
}

#[tokio::test]
async fn concurrent_calls_with_one_request_id_charge_once() {
    let s = setup().await;
    let ledger = Arc::new(s.ledger);
    let call = payment(Uuid::now_v7(), "tok_visa", Timing::Now);
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let ledger = ledger.clone();
        let call = call.clone();
        tasks.push(tokio::spawn(async move { ledger.start(&call).await }));
    }
    let mut charged = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            Ok(payment) => charged.push(payment.id),
            Err(LedgerError::InProgress) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert!(!charged.is_empty());
    assert!(charged.iter().all(|id| *id == charged[0]));
    let db = db(&s.server);
    assert_eq!(count(&db, "payments").await, 1);
    assert_eq!(count(&db, "test_gateway_intents").await, 1);
    assert_eq!(count(&db, "payment_attempts").await, 1);
    // Once the first finished, a retry answers its payment.
    assert_eq!(ledger.start(&call).await.unwrap().id, charged[0]);
    s.server.stop().await;
}

#[tokio::test]
async fn the_ledger_refuses_deletes() {
    let s = setup().await;
    start(&s, Uuid::now_v7(), "tok_visa", Timing::Now).await;
    let db = db(&s.server);
    for table in ["payments", "payment_attempts"] {
        let deleted = sqlx::query(sqlx::AssertSqlSafe(format!("delete from {table}")))
            .execute(&db)
            .await;
        assert!(deleted.is_err(), "{table}: delete allowed");
        assert_eq!(count(&db, table).await, 1);
    }
    s.server.stop().await;
}
