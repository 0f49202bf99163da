//! Refunds in full and in part through BillingService.RefundPayment on the running server:
//! what is left, the split of the professional's share and the platform's fee (payouts), the
//! credit notes (GetReceipt with refund_id, and the emails), request_id replays, who may
//! refund, refunds racing, a refund after the payout, and refunds made in Stripe's dashboard
//! recorded from the webhook once each.

use std::sync::Arc;

use crate::{
    helpers::{TestServer, emails_to, market::db, reason, with_token},
    payouts::{Hired, account, cents, complete, hired, payouts},
    stripe_webhooks::{SECRET, deliver, event, stripe_server},
};
use chrono::Utc;
use futures::future::join_all;
use repairs_proto::{
    billing::{self as bpb, billing_service_client::BillingServiceClient},
    types,
};
use repairs_server::{
    billing::{
        Ledger, PaymentState, Purpose, StartPayment, Timing,
        ledger::{RefundAsk, RefundBasis},
        sale::Sale,
    },
    domain::{Cents, Currency, Money, Role},
    providers::payments::{
        IdempotencyKey, PaymentMethodRef, SystemClock, test_gateway::TestGateway,
    },
};
use tonic::Code;
use uuid::Uuid;

/// A server whose platform keeps 15 % of each hire.
async fn server() -> TestServer {
    TestServer::start_with(|config| config.platform_fee_percent = 15).await
}

fn cad(cents: i64) -> Option<types::Money> {
    Some(types::Money {
        amount_cents: cents,
        currency: "CAD".to_owned(),
    })
}

fn asking(
    order: &str,
    amount: Option<i64>,
    request_id: Uuid,
    reason: &str,
) -> bpb::RefundPaymentRequest {
    bpb::RefundPaymentRequest {
        target: Some(bpb::PaymentTarget {
            target: Some(bpb::payment_target::Target::OrderId(order.to_owned())),
        }),
        request_id: request_id.to_string(),
        reason: reason.to_owned(),
        amount: amount.and_then(cad),
    }
}

async fn refund(
    job: &mut Hired,
    admin: &str,
    amount: Option<i64>,
    request_id: Uuid,
) -> Result<bpb::Payment, tonic::Status> {
    let order = job.order.id.clone();
    job.billing
        .refund_payment(with_token(
            asking(&order, amount, request_id, "The leak came back"),
            admin,
        ))
        .await
        .map(|r| r.into_inner().payment.unwrap())
}

/// The professional's one payout entry, as an admin reads it.
async fn entry(job: &mut Hired, admin: &str) -> bpb::Payout {
    let pro = job.pro_id;
    payouts(&mut job.billing, admin, pro, 0, "")
        .await
        .unwrap()
        .payouts
        .remove(0)
}

/// Each refund's split of the payment, oldest first: (amount, professional, fee, fee taxes).
async fn splits(server: &TestServer, payment_id: &str) -> Vec<(i64, i64, i64, i64)> {
    sqlx::query_as(
        "select amount_cents, professional_cents, fee_cents, fee_tax_cents from refunds
         where payment_id = $1 and state = 'succeeded' order by created_at, id",
    )
    .bind(Uuid::parse_str(payment_id).unwrap())
    .fetch_all(db(server))
    .await
    .unwrap()
}

async fn email_of(server: &TestServer, table: &str, id: Uuid) -> String {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "select email::text from {table} where id = $1"
    )))
    .bind(id)
    .fetch_one(db(server))
    .await
    .unwrap()
}

#[tokio::test]
async fn partial_refunds_give_back_the_share_and_the_fee_in_proportion_until_nothing_is_left() {
    let server = server().await;
    let mut job = hired(&server, 9_000).await;
    complete(&mut job).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let payment_id = job.order.payment.as_ref().unwrap().id.clone();

    let first = refund(&mut job, &admin, Some(3_000), Uuid::now_v7())
        .await
        .unwrap();
    assert_eq!(
        first.state,
        bpb::PaymentState::Captured as i32,
        "partly refunded"
    );
    assert_eq!(first.refunded, cad(3_000));
    assert_eq!(first.refunds.len(), 1);
    assert_eq!(first.refunds[0].reason, "The leak came back");
    // 9,000 is 1,350 of fee and 7,650 for the professional: a third of each goes back.
    assert_eq!(
        splits(&server, &payment_id).await,
        vec![(3_000, 2_550, 450, 0)]
    );
    let owed = entry(&mut job, &admin).await;
    assert_eq!(owed.state, bpb::PayoutState::Owed as i32);
    assert_eq!(
        (cents(owed.net.as_ref()), cents(owed.refunded.as_ref())),
        (5_100, 2_550)
    );
    let acc = account(&mut job.billing, &admin, job.pro_id).await.unwrap();
    assert_eq!(cents(acc.owed.as_ref()), 5_100);

    // More than what is left is refused, saying how much is left.
    let too_much = refund(&mut job, &admin, Some(6_001), Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(too_much.code(), Code::FailedPrecondition);
    assert_eq!(reason(&too_much), "REFUND_EXCEEDS_REMAINING");
    assert!(
        too_much.message().contains("$60.00"),
        "{}",
        too_much.message()
    );

    // A cent, then the rest (no amount): each part ends given back whole.
    refund(&mut job, &admin, Some(1), Uuid::now_v7())
        .await
        .unwrap();
    let rest = refund(&mut job, &admin, None, Uuid::now_v7())
        .await
        .unwrap();
    assert_eq!(rest.state, bpb::PaymentState::Refunded as i32);
    assert_eq!(rest.refunded, cad(9_000));
    let all = splits(&server, &payment_id).await;
    assert_eq!(all.len(), 3);
    let sum = |f: fn(&(i64, i64, i64, i64)) -> i64| all.iter().map(f).sum::<i64>();
    assert_eq!(
        (sum(|r| r.0), sum(|r| r.1), sum(|r| r.2)),
        (9_000, 7_650, 1_350)
    );
    let reversed = entry(&mut job, &admin).await;
    assert_eq!(reversed.state, bpb::PayoutState::Reversed as i32);
    assert_eq!(cents(reversed.net.as_ref()), 0);
    let nothing_left = refund(&mut job, &admin, Some(1), Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(reason(&nothing_left), "PAYMENT_STATE");

    // Each refund is a credit note to both parties; the last no old refund email besides.
    let customer = email_of(&server, "customers", job.order.customer_id.parse().unwrap()).await;
    let pro = email_of(&server, "professionals", job.pro_id).await;
    let notes = emails_to(db(&server), &customer, "Credit note: ").await;
    assert_eq!(notes.len(), 3);
    assert!(
        notes[0].1.contains("Amount refunded: $30.00\n"),
        "{}",
        notes[0].1
    );
    assert!(
        notes[0].1.contains("Reason: The leak came back"),
        "{}",
        notes[0].1
    );
    assert!(notes[0].1.contains("?refund="), "{}", notes[0].1);
    assert!(
        emails_to(db(&server), &customer, "Refund: ")
            .await
            .is_empty()
    );
    let pro_notes = emails_to(db(&server), &pro, "Credit note: ").await;
    assert_eq!(pro_notes.len(), 3);
    assert!(
        pro_notes[0].1.contains("Your share given back: $25.50"),
        "{}",
        pro_notes[0].1
    );
    server.stop().await;
}

#[tokio::test]
async fn a_credit_note_is_the_refund_with_the_original_total_for_the_parties_only() {
    let server = server().await;
    let mut job = hired(&server, 9_000).await;
    complete(&mut job).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let refunded = refund(&mut job, &admin, Some(2_500), Uuid::now_v7())
        .await
        .unwrap();
    let refund_id = refunded.refunds[0].id.clone();
    let read = |token: String, refund_id: String| {
        let mut billing = job.billing.clone();
        let payment_id = refunded.id.clone();
        async move {
            billing
                .get_receipt(with_token(
                    bpb::GetReceiptRequest {
                        payment_id,
                        language: types::Language::Fr as i32,
                        refund_id,
                    },
                    &token,
                ))
                .await
                .map(|r| r.into_inner().receipt.unwrap())
        }
    };
    let note = read(job.customer_token.clone(), refund_id.clone())
        .await
        .unwrap();
    assert_eq!(note.refund_id, refund_id);
    assert_eq!(note.total, cad(2_500));
    assert_eq!(note.original_total, cad(9_000));
    assert_eq!(note.refund_reason, "The leak came back");
    assert_eq!(note.state, bpb::PaymentState::Captured as i32);
    assert!(note.refund_time.is_some());
    let as_pro = read(job.pro_token.clone(), refund_id.clone())
        .await
        .unwrap();
    assert_eq!(as_pro.total, cad(2_500));
    // The receipt itself is still the whole payment.
    let receipt = read(job.customer_token.clone(), String::new())
        .await
        .unwrap();
    assert_eq!(
        (receipt.total, receipt.refund_id.as_str()),
        (cad(9_000), "")
    );
    // An unknown refund, or another customer: nothing.
    let unknown = read(job.customer_token.clone(), Uuid::now_v7().to_string())
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);
    let (_, stranger) = server.account_token(Role::Customer).await;
    let denied = read(stranger, refund_id).await.unwrap_err();
    assert_eq!(denied.code(), Code::NotFound);
    server.stop().await;
}

#[tokio::test]
async fn a_request_id_answers_its_first_refund_and_refunds_need_an_admin_and_a_reason() {
    let server = server().await;
    let mut job = hired(&server, 9_000).await;
    complete(&mut job).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let key = Uuid::now_v7();
    let first = refund(&mut job, &admin, Some(1_000), key).await.unwrap();
    let again = refund(&mut job, &admin, Some(1_000), key).await.unwrap();
    assert_eq!(again.refunded, first.refunded);
    assert_eq!(again.refunds.len(), 1, "refunded once");
    let other = refund(&mut job, &admin, Some(2_000), key)
        .await
        .unwrap_err();
    assert_eq!(reason(&other), "REQUEST_ID_REUSED");

    let order = job.order.id.clone();
    let customer = job.customer_token.clone();
    let denied = job
        .billing
        .refund_payment(with_token(
            asking(&order, None, Uuid::now_v7(), "mine"),
            &customer,
        ))
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    for (amount, why) in [(None, ""), (None, "   "), (Some(0), "zero")] {
        let refused = job
            .billing
            .refund_payment(with_token(
                asking(&order, amount, Uuid::now_v7(), why),
                &admin,
            ))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{amount:?} {why:?}");
    }
    let mut euros = asking(&order, Some(100), Uuid::now_v7(), "wrong currency");
    euros.amount.as_mut().unwrap().currency = "EUR".to_owned();
    let refused = job
        .billing
        .refund_payment(with_token(euros, &admin))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    let left = refund(&mut job, &admin, None, Uuid::now_v7())
        .await
        .unwrap();
    assert_eq!(left.refunded, cad(9_000), "refused calls refunded nothing");
    server.stop().await;
}

#[tokio::test]
async fn racing_partial_refunds_add_up_to_at_most_the_charge() {
    let server = server().await;
    let mut job = hired(&server, 9_000).await;
    complete(&mut job).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let order = job.order.id.clone();
    // Eight admins' calls of 20.00 at once on 90.00: four fit, four are refused.
    let calls = (0..8).map(|_| {
        let mut billing = job.billing.clone();
        let request = asking(&order, Some(2_000), Uuid::now_v7(), "racing");
        let admin = admin.clone();
        async move { billing.refund_payment(with_token(request, &admin)).await }
    });
    let answers = join_all(calls).await;
    let made = answers.iter().filter(|a| a.is_ok()).count();
    assert_eq!(made, 4);
    for refused in answers.iter().filter_map(|a| a.as_ref().err()) {
        assert_eq!(reason(refused), "REFUND_EXCEEDS_REMAINING", "{refused:?}");
    }
    let payment_id = job.order.payment.as_ref().unwrap().id.clone();
    let total: i64 = splits(&server, &payment_id).await.iter().map(|r| r.0).sum();
    assert_eq!(total, 8_000);
    let after = refund(&mut job, &admin, None, Uuid::now_v7())
        .await
        .unwrap();
    assert_eq!(
        (after.refunded, after.state),
        (cad(9_000), bpb::PaymentState::Refunded as i32)
    );
    server.stop().await;
}

#[tokio::test]
async fn a_partial_refund_after_the_payout_shows_the_share_to_recover() {
    let server = server().await;
    let mut job = hired(&server, 9_000).await;
    complete(&mut job).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    // Paid by hand as an admin records it (the test gateway moves no money).
    let pro = job.pro_id;
    sqlx::query(
        "insert into payouts (id, order_id, professional_id, gross_cents, fee_cents, currency,
             transfer_id, paid_at)
         values ($1, $2, $3, 9000, 1350, 'CAD', 'tr_test', now())",
    )
    .bind(Uuid::now_v7())
    .bind(Uuid::parse_str(&job.order.id).unwrap())
    .bind(pro)
    .execute(db(&server))
    .await
    .unwrap();
    refund(&mut job, &admin, Some(4_500), Uuid::now_v7())
        .await
        .unwrap();
    let paid = entry(&mut job, &admin).await;
    assert_eq!(paid.state, bpb::PayoutState::RefundedAfterPayout as i32);
    assert_eq!(cents(paid.net.as_ref()), 7_650, "what was paid stands");
    assert_eq!(
        cents(paid.refunded.as_ref()),
        3_825,
        "half the share to recover"
    );
    let acc = account(&mut job.billing, &admin, pro).await.unwrap();
    assert_eq!(
        (cents(acc.owed.as_ref()), cents(acc.paid.as_ref())),
        (0, 7_650)
    );
    server.stop().await;
}

#[tokio::test]
async fn refunds_made_in_stripes_dashboard_are_recorded_once_and_the_platforms_own_not_twice() {
    let server = stripe_server().await;
    let db = server.server.state.db.clone();
    let ledger = Ledger::new(
        db.clone(),
        Arc::new(TestGateway::new(db, Arc::new(SystemClock))),
    );
    let charged = ledger
        .start(&StartPayment {
            purpose: Purpose::TestCharge,
            payer_id: Uuid::now_v7(),
            sale: Sale::untaxed(Money::new(Cents::new(10_000).unwrap(), Currency::Cad)),
            payment_method: PaymentMethodRef::parse("4242 4242 4242 4242").unwrap(),
            timing: Timing::Now,
            request_id: IdempotencyKey::new(Uuid::new_v4()),
        })
        .await
        .unwrap();
    // The platform's own refund of 20.00, made through the ledger: its gateway id is kept.
    let ask = RefundAsk {
        amount: Some(Money::new(Cents::new(2_000).unwrap(), Currency::Cad)),
        reason: "Charged twice".to_owned(),
        basis: RefundBasis::platform(charged.amount),
    };
    let own = ledger
        .refund(
            Uuid::now_v7(),
            charged.id,
            &ask,
            IdempotencyKey::new(Uuid::now_v7()),
        )
        .await
        .unwrap();
    assert_eq!(own.refunded.cents().get(), 2_000);
    let own_id: String =
        sqlx::query_scalar("select gateway_refund_id from refunds where payment_id = $1")
            .bind(charged.id)
            .fetch_one(&server.server.state.db)
            .await
            .unwrap();
    let mut client = BillingServiceClient::new(server.channel().await);
    let now = Utc::now().timestamp();
    let refunded = |event_id: &str, total: i64, refunds: serde_json::Value| {
        event(
            event_id,
            "charge.refunded",
            serde_json::json!({"id": "ch_1", "object": "charge", "payment_intent": charged.charge_id,
                "refunded": total == 10_000, "amount_refunded": total, "refunds": {"data": refunds}}),
        )
    };
    // Stripe tells of the platform's own: nothing new.
    let told = refunded(
        "evt_r1",
        2_000,
        serde_json::json!([{"id": own_id, "amount": 2_000, "status": "succeeded"}]),
    );
    deliver(&mut client, told, now, SECRET).await.unwrap();
    assert_eq!(
        ledger
            .find(charged.id)
            .await
            .unwrap()
            .refunded
            .cents()
            .get(),
        2_000
    );
    // 30.00 refunded in the dashboard: recorded, once even when told again.
    let dashboard = serde_json::json!([
        {"id": "re_dash_1", "amount": 3_000, "status": "succeeded"},
        {"id": own_id, "amount": 2_000, "status": "succeeded"}]);
    deliver(
        &mut client,
        refunded("evt_r2", 5_000, dashboard.clone()),
        now,
        SECRET,
    )
    .await
    .unwrap();
    deliver(
        &mut client,
        refunded("evt_r3", 5_000, dashboard),
        now,
        SECRET,
    )
    .await
    .unwrap();
    let after = ledger.find(charged.id).await.unwrap();
    assert_eq!(
        (after.refunded.cents().get(), after.state),
        (5_000, PaymentState::Captured)
    );
    // The rest in the dashboard: refunded in full.
    let rest = serde_json::json!([
        {"id": "re_dash_2", "amount": 5_000, "status": "succeeded"},
        {"id": "re_dash_1", "amount": 3_000, "status": "succeeded"},
        {"id": own_id, "amount": 2_000, "status": "succeeded"}]);
    deliver(&mut client, refunded("evt_r4", 10_000, rest), now, SECRET)
        .await
        .unwrap();
    let after = ledger.find(charged.id).await.unwrap();
    assert_eq!(
        (after.refunded.cents().get(), after.state),
        (10_000, PaymentState::Refunded)
    );
    let rows: i64 = sqlx::query_scalar("select count(*) from refunds where payment_id = $1")
        .bind(charged.id)
        .fetch_one(&server.server.state.db)
        .await
        .unwrap();
    assert_eq!(rows, 3);
    server.stop().await;
}
