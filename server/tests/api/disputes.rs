//! Card disputes on the running server: the offline test gateway's dispute card played
//! through the housekeeping's step, Stripe's `charge.dispute.*` events through the webhook,
//! the payout held then reversed or released, the evidence an admin reads and sends (the
//! conversation in it), who may, and a refund racing a dispute on one payment.

use std::sync::Arc;

use crate::{
    helpers::{TestServer, emails_to, reason, with_token},
    payouts::{Hired, account, cents, complete, hired, hired_with, only_entry},
    stripe_webhooks::{SECRET, deliver, event, stripe_server},
};
use futures::future::join_all;
use repairs_proto::{
    billing::{self as bpb, billing_service_client::BillingServiceClient},
    marketplace as pb,
};
use repairs_server::{
    billing::{Ledger, PaymentState, Purpose, StartPayment, Step, Timing, disputes, sale::Sale},
    domain::{Cents, Currency, Money, Role},
    providers::payments::{
        GatewayDispute, IdempotencyKey, PaymentMethodRef, SystemClock, test_gateway::TestGateway,
    },
};
use tonic::Code;
use uuid::Uuid;

/// Stripe's test card whose charge is disputed, as the test gateway plays it.
pub(crate) const DISPUTE_CARD: &str = "tok_createDispute";

async fn say(job: &mut Hired, text: &str) {
    let message = pb::SendMessageRequest {
        repair_request_id: job.request.id.clone(),
        professional_id: job.pro_id.to_string(),
        text: text.to_owned(),
        request_id: Uuid::now_v7().to_string(),
        photo_ids: Vec::new(),
    };
    let token = job.customer_token.clone();
    job.market
        .send_message(with_token(message, &token))
        .await
        .unwrap();
}

async fn payment_state(job: &mut Hired, token: &str) -> bpb::PaymentState {
    let id = job.order.payment.as_ref().unwrap().id.clone();
    job.billing
        .get_payment(with_token(bpb::GetPaymentRequest { payment_id: id }, token))
        .await
        .unwrap()
        .into_inner()
        .payment
        .unwrap()
        .state()
}

async fn list(job: &mut Hired, token: &str) -> Result<Vec<bpb::Dispute>, tonic::Status> {
    job.billing
        .list_disputes(with_token(bpb::ListDisputesRequest::default(), token))
        .await
        .map(|r| r.into_inner().disputes)
}

async fn submit(
    job: &mut Hired,
    token: &str,
    dispute_id: &str,
    request_id: Uuid,
    note: &str,
) -> Result<bpb::SubmitDisputeEvidenceResponse, tonic::Status> {
    job.billing
        .submit_dispute_evidence(with_token(
            bpb::SubmitDisputeEvidenceRequest {
                dispute_id: dispute_id.to_owned(),
                request_id: request_id.to_string(),
                note: note.to_owned(),
            },
            token,
        ))
        .await
        .map(tonic::Response::into_inner)
}

async fn refund(job: &mut Hired, admin: &str, cents: i64) -> Result<bpb::Payment, tonic::Status> {
    let request = bpb::RefundPaymentRequest {
        target: Some(bpb::PaymentTarget {
            target: Some(bpb::payment_target::Target::OrderId(job.order.id.clone())),
        }),
        request_id: Uuid::now_v7().to_string(),
        reason: "The leak came back".to_owned(),
        amount: Some(repairs_proto::types::Money {
            amount_cents: cents,
            currency: "CAD".to_owned(),
        }),
    };
    job.billing
        .refund_payment(with_token(request, admin))
        .await
        .map(|r| r.into_inner().payment.unwrap())
}

#[tokio::test]
async fn a_disputed_job_holds_its_payout_and_a_lost_dispute_reverses_it() {
    let server = TestServer::start_with(|config| config.platform_fee_percent = 15).await;
    let mut job = hired_with(&server, 9_000, DISPUTE_CARD).await;
    say(&mut job, "The water is coming through the ceiling light").await;
    complete(&mut job).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let (pro, pro_token) = (job.pro_id, job.pro_token.clone());
    assert_eq!(only_entry(&mut job).await.state(), bpb::PayoutState::Owed);

    // The test gateway disputed the charge when it was captured; the housekeeping plays it.
    let state = &server.server.state;
    assert_eq!(disputes::apply_played(state).await.unwrap(), 1);
    assert_eq!(
        disputes::apply_played(state).await.unwrap(),
        0,
        "applied once"
    );
    assert_eq!(
        payment_state(&mut job, &admin).await,
        bpb::PaymentState::Disputed
    );
    assert_eq!(only_entry(&mut job).await.state(), bpb::PayoutState::Held);
    let held = account(&mut job.billing, &pro_token, pro).await.unwrap();
    assert_eq!(cents(held.owed.as_ref()), 0);
    let refused = refund(&mut job, &admin, 1_000).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "PAYMENT_STATE");
    let admin_email: String = sqlx::query_scalar("select email::text from admins limit 1")
        .fetch_one(&state.db)
        .await
        .unwrap();
    let told = emails_to(&state.db, &admin_email, "Card dispute").await;
    assert_eq!(told.len(), 1, "the admins are told once");

    // Only admins read disputes.
    let customer = job.customer_token.clone();
    assert_eq!(
        list(&mut job, &customer).await.unwrap_err().code(),
        Code::PermissionDenied
    );
    let listed = list(&mut job, &admin).await.unwrap();
    assert_eq!(listed.len(), 1);
    let dispute = listed[0].clone();
    assert_eq!(dispute.state(), bpb::DisputeState::NeedsResponse);
    assert_eq!(dispute.repair_request_id, job.request.id);
    assert!(dispute.evidence_due_time.is_some());
    assert!(dispute.test_mode);
    let read = job
        .billing
        .get_dispute(with_token(
            bpb::GetDisputeRequest {
                dispute_id: dispute.id.clone(),
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner();
    let evidence = read.evidence.unwrap();
    assert_eq!(evidence.messages.len(), 1);
    assert_eq!(
        evidence.messages[0].text,
        "The water is coming through the ceiling light"
    );
    assert_eq!(evidence.messages[0].author, "customer");
    assert!(evidence.hire_time.is_some() && evidence.completion_time.is_some());
    assert_eq!(evidence.receipt_id, dispute.payment_id);

    // Sent with the words of Stripe's test mode that lose it.
    let key = Uuid::now_v7();
    let sent = submit(&mut job, &admin, &dispute.id, key, "losing_evidence")
        .await
        .unwrap();
    let decided = sent.dispute.unwrap();
    assert_eq!(decided.state(), bpb::DisputeState::Lost);
    assert!(decided.evidence_submit_time.is_some());
    let as_sent = sent.evidence.unwrap();
    assert!(as_sent.submitted_text.starts_with("losing_evidence"));
    assert!(
        as_sent
            .submitted_text
            .contains("The water is coming through the ceiling light")
    );
    assert_eq!(
        payment_state(&mut job, &admin).await,
        bpb::PaymentState::ChargedBack
    );
    let lost = only_entry(&mut job).await;
    assert_eq!(lost.state(), bpb::PayoutState::DisputeLost);
    assert_eq!(cents(lost.net.as_ref()), 0);
    let after = account(&mut job.billing, &pro_token, pro).await.unwrap();
    assert_eq!(cents(after.owed.as_ref()), 0);

    // The same request answers the first submission; another one finds it closed.
    let again = submit(&mut job, &admin, &dispute.id, key, "losing_evidence")
        .await
        .unwrap();
    assert_eq!(again.dispute.unwrap().state(), bpb::DisputeState::Lost);
    let closed = submit(&mut job, &admin, &dispute.id, Uuid::now_v7(), "more")
        .await
        .unwrap_err();
    assert_eq!(closed.code(), Code::FailedPrecondition);
    assert_eq!(reason(&closed), "DISPUTE_CLOSED");
    // The decision played again by the housekeeping changes nothing.
    disputes::apply_played(state).await.unwrap();
    assert_eq!(
        payment_state(&mut job, &admin).await,
        bpb::PaymentState::ChargedBack
    );
    server.stop().await;
}

#[tokio::test]
async fn a_won_dispute_owes_the_payout_again() {
    let server = TestServer::start_with(|config| config.platform_fee_percent = 15).await;
    let mut job = hired_with(&server, 9_000, DISPUTE_CARD).await;
    complete(&mut job).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    disputes::apply_played(&server.server.state).await.unwrap();
    let dispute = list(&mut job, &admin).await.unwrap().remove(0);
    let sent = submit(
        &mut job,
        &admin,
        &dispute.id,
        Uuid::now_v7(),
        "The repair was done.",
    )
    .await
    .unwrap();
    assert_eq!(sent.dispute.unwrap().state(), bpb::DisputeState::Won);
    assert_eq!(
        payment_state(&mut job, &admin).await,
        bpb::PaymentState::Captured
    );
    assert_eq!(only_entry(&mut job).await.state(), bpb::PayoutState::Owed);
    server.stop().await;
}

fn dispute_object(payment_intent: &str, status: &str) -> serde_json::Value {
    serde_json::json!({
        "id": "dp_webhook", "object": "dispute", "charge": "ch_1",
        "payment_intent": payment_intent, "amount": 10_000, "currency": "cad",
        "reason": "product_not_received", "status": status,
        "evidence_details": { "due_by": chrono::Utc::now().timestamp() + 86_400 }
    })
}

/// Stripe's events move a captured payment to DISPUTED and back when won, keeping its
/// capture time; a late event of an earlier state does not reopen a decided dispute.
#[tokio::test]
async fn stripe_s_dispute_events_move_the_payment_and_a_decided_one_stays_decided() {
    let server = stripe_server().await;
    let db = server.server.state.db.clone();
    let ledger = Ledger::new(
        db.clone(),
        Arc::new(TestGateway::new(db.clone(), Arc::new(SystemClock))),
    );
    let held = ledger
        .start(&StartPayment {
            purpose: Purpose::Hire,
            payer_id: Uuid::now_v7(),
            sale: Sale::untaxed(Money::new(Cents::new(10_000).unwrap(), Currency::Cad)),
            payment_method: PaymentMethodRef::parse("tok_visa").unwrap(),
            timing: Timing::Hold,
            request_id: IdempotencyKey::new(Uuid::new_v4()),
        })
        .await
        .unwrap();
    let captured = ledger
        .step(
            Uuid::now_v7(),
            held.id,
            Step::Capture,
            IdempotencyKey::new(Uuid::new_v4()),
        )
        .await
        .unwrap();
    let mut client = BillingServiceClient::new(server.channel().await);
    let now = chrono::Utc::now().timestamp();
    let intent = captured.charge_id.as_str();
    let steps = [
        (
            "evt_d1",
            "charge.dispute.created",
            "needs_response",
            PaymentState::Disputed,
        ),
        (
            "evt_d2",
            "charge.dispute.updated",
            "under_review",
            PaymentState::Disputed,
        ),
        (
            "evt_d3",
            "charge.dispute.closed",
            "won",
            PaymentState::Captured,
        ),
        // Delivered late, after the outcome: nothing moves.
        (
            "evt_d4",
            "charge.dispute.created",
            "needs_response",
            PaymentState::Captured,
        ),
    ];
    for (id, kind, status, expected) in steps {
        let payload = event(id, kind, dispute_object(intent, status));
        let handled = deliver(&mut client, payload, now, SECRET).await.unwrap();
        assert!(handled.processed, "{id}");
        let payment = ledger.find(captured.id).await.unwrap();
        assert_eq!(payment.state, expected, "{id}");
        assert_eq!(payment.captured_at, captured.captured_at, "{id}");
    }
    let stored: String = sqlx::query_scalar("select state from disputes")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(stored, "won");
    server.stop().await;
}

/// A refund and a dispute on one payment, at once, on several payments: each ends with
/// one outcome. The payment is DISPUTED either way; the refund went through before the
/// dispute (and counts), or was refused after it (and nothing of it is left pending).
#[tokio::test]
async fn a_refund_and_a_dispute_on_one_payment_have_one_outcome_each() {
    let server = TestServer::start().await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let state = server.server.state.clone();
    let mut jobs = Vec::new();
    for _ in 0..4 {
        let mut job = hired(&server, 9_000).await;
        complete(&mut job).await;
        jobs.push(job);
    }
    let races = jobs.iter_mut().map(|job| {
        let (admin, state) = (admin.clone(), state.clone());
        async move {
            let payment = job.order.payment.clone().unwrap();
            let dispute = GatewayDispute {
                id: format!("dp_race_{}", Uuid::now_v7().simple()),
                charge_id: payment.charge_id.clone(),
                amount: Money::new(Cents::new(5_000).unwrap(), Currency::Cad),
                reason: "fraudulent".to_owned(),
                status: "needs_response".to_owned(),
                evidence_due_by: None,
            };
            let (refunded, applied) = tokio::join!(
                refund(job, &admin, 1_000),
                disputes::apply(&state, &dispute)
            );
            assert!(applied.unwrap().dispute_id.is_some());
            (payment.id, refunded)
        }
    });
    for (payment_id, refunded) in join_all(races).await {
        let payment_id = Uuid::parse_str(&payment_id).unwrap();
        let rows: Vec<(String,)> =
            sqlx::query_as("select state from refunds where payment_id = $1")
                .bind(payment_id)
                .fetch_all(&state.db)
                .await
                .unwrap();
        let payment: String = sqlx::query_scalar("select state from payments where id = $1")
            .bind(payment_id)
            .fetch_one(&state.db)
            .await
            .unwrap();
        assert_eq!(payment, "disputed");
        match refunded {
            Ok(_) => assert_eq!(rows, vec![("succeeded".to_owned(),)]),
            Err(status) => {
                assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
                assert!(
                    rows.iter()
                        .all(|(state,)| state != "pending" && state != "succeeded")
                );
            }
        }
    }
    server.stop().await;
}
