//! Stripe's webhook through BillingService.HandleStripeEvent on the running server:
//! signatures (good, bad, stale), events applied once per id (a redelivery changes
//! nothing), each event's transition on the ledger; and the payment configuration.

use std::sync::Arc;

use crate::helpers::{TestServer, reason};
use chrono::Utc;
use repairs_proto::billing::{self as pb, billing_service_client::BillingServiceClient};
use repairs_server::{
    billing::{Ledger, Payment, PaymentState, Purpose, StartPayment, Timing, sale::Sale},
    domain::{Cents, Currency, Money},
    providers::payments::{
        Decline, IdempotencyKey, PaymentMethodRef, SystemClock, test_gateway::TestGateway, webhook,
    },
};
use tonic::{Code, transport::Channel};
use uuid::Uuid;

pub(crate) const SECRET: &str = "whsec_test_webhooks";

pub(crate) async fn stripe_server() -> TestServer {
    TestServer::start_with(|config| {
        config.stripe_secret_key = Some("sk_test_unused".to_owned());
        config.stripe_publishable_key = Some("pk_test_shown".to_owned());
        config.stripe_webhook_secret = Some(SECRET.to_owned());
        // Never called: webhooks read the ledger only.
        config.stripe_api_base = "http://127.0.0.1:9".to_owned();
    })
    .await
}

/// A payment in the server's ledger, made on the test gateway.
async fn payment(server: &TestServer, card: &str) -> Payment {
    let db = server.server.state.db.clone();
    let ledger = Ledger::new(
        db.clone(),
        Arc::new(TestGateway::new(db, Arc::new(SystemClock))),
    );
    ledger
        .start(&StartPayment {
            purpose: Purpose::Hire,
            payer_id: Uuid::now_v7(),
            sale: Sale::untaxed(Money::new(Cents::new(10_000).unwrap(), Currency::Cad)),
            payment_method: PaymentMethodRef::parse(card).unwrap(),
            timing: Timing::Hold,
            request_id: IdempotencyKey::new(Uuid::new_v4()),
        })
        .await
        .unwrap()
}

async fn state_of(server: &TestServer, payment: &Payment) -> PaymentState {
    let db = server.server.state.db.clone();
    let ledger = Ledger::new(
        db.clone(),
        Arc::new(TestGateway::new(db, Arc::new(SystemClock))),
    );
    ledger.find(payment.id).await.unwrap().state
}

pub(crate) fn event(id: &str, kind: &str, object: serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "id": id, "object": "event", "type": kind, "data": { "object": object }
    }))
    .unwrap()
}

pub(crate) async fn deliver(
    client: &mut BillingServiceClient<Channel>,
    payload: Vec<u8>,
    signed_at: i64,
    secret: &str,
) -> Result<pb::HandleStripeEventResponse, tonic::Status> {
    let signature = webhook::sign(&payload, secret, signed_at);
    client
        .handle_stripe_event(pb::HandleStripeEventRequest { payload, signature })
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn events_move_payments_once_each() {
    let server = stripe_server().await;
    let mut client = BillingServiceClient::new(server.channel().await);
    let now = Utc::now().timestamp();

    let pending = payment(&server, "4000 0025 0000 3155").await;
    assert_eq!(pending.state, PaymentState::RequiresAction);
    let authorised = event(
        "evt_capturable",
        "payment_intent.amount_capturable_updated",
        serde_json::json!({"id": pending.charge_id, "object": "payment_intent"}),
    );
    let first = deliver(&mut client, authorised.clone(), now, SECRET)
        .await
        .unwrap();
    assert_eq!(first.event_id, "evt_capturable");
    assert!(first.processed);
    assert_eq!(state_of(&server, &pending).await, PaymentState::Authorized);

    // Stripe redelivers: acknowledged, not applied again.
    let again = deliver(&mut client, authorised, now, SECRET).await.unwrap();
    assert!(!again.processed);

    let succeeded = event(
        "evt_succeeded",
        "payment_intent.succeeded",
        serde_json::json!({"id": pending.charge_id, "object": "payment_intent"}),
    );
    assert!(
        deliver(&mut client, succeeded, now, SECRET)
            .await
            .unwrap()
            .processed
    );
    assert_eq!(state_of(&server, &pending).await, PaymentState::Captured);

    let refunded = event(
        "evt_refunded",
        "charge.refunded",
        serde_json::json!({"id": "ch_1", "object": "charge", "payment_intent": pending.charge_id, "refunded": true}),
    );
    assert!(
        deliver(&mut client, refunded, now, SECRET)
            .await
            .unwrap()
            .processed
    );
    assert_eq!(state_of(&server, &pending).await, PaymentState::Refunded);

    // A late event does not move a payment back.
    let late = event(
        "evt_late",
        "payment_intent.succeeded",
        serde_json::json!({"id": pending.charge_id, "object": "payment_intent"}),
    );
    assert!(
        deliver(&mut client, late, now, SECRET)
            .await
            .unwrap()
            .processed
    );
    assert_eq!(state_of(&server, &pending).await, PaymentState::Refunded);

    let other = payment(&server, "pm_card_authenticationRequired").await;
    let failed = event(
        "evt_failed",
        "payment_intent.payment_failed",
        serde_json::json!({"id": other.charge_id, "object": "payment_intent",
            "last_payment_error": {"code": "payment_intent_authentication_failure"}}),
    );
    assert!(
        deliver(&mut client, failed, now, SECRET)
            .await
            .unwrap()
            .processed
    );
    let db = server.server.state.db.clone();
    let ledger = Ledger::new(
        db.clone(),
        Arc::new(TestGateway::new(db, Arc::new(SystemClock))),
    );
    let after = ledger.find(other.id).await.unwrap();
    assert_eq!(after.state, PaymentState::Failed);
    assert_eq!(after.decline, Some(Decline::AuthenticationFailed));
    server.stop().await;
}

#[tokio::test]
async fn bad_and_stale_signatures_are_refused() {
    let server = stripe_server().await;
    let mut client = BillingServiceClient::new(server.channel().await);
    let now = Utc::now().timestamp();
    let held = payment(&server, "tok_visa").await;
    let payload = event(
        "evt_forged",
        "payment_intent.succeeded",
        serde_json::json!({"id": held.charge_id}),
    );
    for (signed_at, secret) in [(now, "whsec_someone_else"), (now - 301, SECRET)] {
        let refused = deliver(&mut client, payload.clone(), signed_at, secret)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        assert_eq!(reason(&refused), "WEBHOOK_SIGNATURE");
    }
    assert_eq!(state_of(&server, &held).await, PaymentState::Authorized);
    // The refused deliveries were not recorded: the genuine one still applies.
    assert!(
        deliver(&mut client, payload, now, SECRET)
            .await
            .unwrap()
            .processed
    );
    assert_eq!(state_of(&server, &held).await, PaymentState::Captured);
    server.stop().await;
}

#[tokio::test]
async fn the_payment_configuration_names_the_gateway() {
    let test_mode = TestServer::start().await;
    let config = BillingServiceClient::new(test_mode.channel().await)
        .get_payment_config(pb::GetPaymentConfigRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(config.mode(), pb::PaymentMode::TestGateway);
    assert_eq!(config.stripe_publishable_key, "");
    // Without a webhook secret, events are refused as not configured.
    let refused = BillingServiceClient::new(test_mode.channel().await)
        .handle_stripe_event(pb::HandleStripeEventRequest {
            payload: b"{}".to_vec(),
            signature: "t=1,v1=00".to_owned(),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    test_mode.stop().await;

    let stripe = stripe_server().await;
    let config = BillingServiceClient::new(stripe.channel().await)
        .get_payment_config(pb::GetPaymentConfigRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(config.mode(), pb::PaymentMode::Stripe);
    assert_eq!(config.stripe_publishable_key, "pk_test_shown");
    stripe.stop().await;
}

#[tokio::test]
async fn a_membership_paid_after_authentication_gets_its_month_from_the_webhook() {
    let server = stripe_server().await;
    let mut client = BillingServiceClient::new(server.channel().await);
    let db = server.server.state.db.clone();
    let (professional, _) = server
        .account_token(repairs_server::domain::Role::Professional)
        .await;
    let pending = server.pending_membership_payment(professional).await;
    let end = || async {
        sqlx::query_scalar::<_, Option<chrono::DateTime<Utc>>>(
            "select membership_expires_at from professionals where id = $1",
        )
        .bind(professional)
        .fetch_one(&db)
        .await
        .unwrap()
    };
    assert_eq!(end().await, None);

    let succeeded = event(
        "evt_membership",
        "payment_intent.succeeded",
        serde_json::json!({"id": pending.charge_id, "object": "payment_intent"}),
    );
    let now = Utc::now().timestamp();
    deliver(&mut client, succeeded.clone(), now, SECRET)
        .await
        .unwrap();
    let granted = end().await.unwrap();
    assert!(granted > Utc::now() + chrono::Duration::days(27));
    // Redelivered: the month is not granted twice.
    deliver(&mut client, succeeded, now, SECRET).await.unwrap();
    assert_eq!(end().await.unwrap(), granted);
    server.stop().await;
}
