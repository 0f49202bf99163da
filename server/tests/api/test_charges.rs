//! The admins' test checkout on the running server (offline test gateway, real Postgres and
//! Redis): a test charge is a real authorisation of 100.00 CAD less a coupon, captured,
//! released or refunded by payment id or charge id, each step audited (refused ones too).

use crate::helpers::market::test_charge;
use crate::helpers::{TestServer, reason, with_token};
use repairs_proto::billing::{
    self as pb, billing_service_client::BillingServiceClient, payment_target::Target,
};
use repairs_server::domain::Role;
use tonic::Code;
use uuid::Uuid;

fn target(target: Target) -> Option<pb::PaymentTarget> {
    Some(pb::PaymentTarget {
        target: Some(target),
    })
}

async fn create_coupon(
    client: &BillingServiceClient<tonic::transport::Channel>,
    admin: &str,
    code: &str,
    percent: i32,
) {
    let request = pb::CreateCouponRequest {
        code: code.into(),
        discount_percent: percent,
        ..Default::default()
    };
    client
        .clone()
        .create_coupon(with_token(request, admin))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_test_charge_is_authorised_then_captured_released_or_refunded() {
    let server = TestServer::start().await;
    let client = BillingServiceClient::new(server.channel().await);
    let (_, admin) = server.account_token(Role::Admin).await;
    let charge = |coupon: &str, key: Uuid| {
        let client = client.clone();
        let request = with_token(
            pb::CreateTestChargeRequest {
                payment_method: "tok_visa".into(),
                coupon_code: coupon.into(),
                request_id: key.to_string(),
            },
            &admin,
        );
        async move {
            client
                .clone()
                .create_test_charge(request)
                .await
                .map(|r| r.into_inner().payment.unwrap())
        }
    };
    create_coupon(&client, &admin, "TWENTY", 20).await;

    let held = charge("twenty", Uuid::new_v4()).await.unwrap();
    assert_eq!(held.state(), pb::PaymentState::Authorized);
    assert_eq!(held.amount.as_ref().unwrap().amount_cents, 8000);
    assert_eq!(held.amount.as_ref().unwrap().currency, "CAD");
    assert!(held.authorization_expire_time.is_some());

    // Captured by its charge id (the legacy block-payment-confirm), once.
    let capture = |t: Target, key: Uuid| {
        let client = client.clone();
        let request = with_token(
            pb::CapturePaymentRequest {
                target: target(t),
                request_id: key.to_string(),
            },
            &admin,
        );
        async move {
            client
                .clone()
                .capture_payment(request)
                .await
                .map(|r| r.into_inner().payment.unwrap())
        }
    };
    let key = Uuid::new_v4();
    let captured = capture(Target::ChargeId(held.charge_id.clone()), key)
        .await
        .unwrap();
    assert_eq!(captured.state(), pb::PaymentState::Captured);
    let replay = capture(Target::ChargeId(held.charge_id.clone()), key)
        .await
        .unwrap();
    assert_eq!(replay.id, captured.id);
    let twice = capture(Target::PaymentId(held.id.clone()), Uuid::new_v4())
        .await
        .unwrap_err();
    assert_eq!(twice.code(), Code::FailedPrecondition);
    assert_eq!(reason(&twice), "PAYMENT_STATE");

    // Refunded after capture.
    let refunded = client
        .clone()
        .refund_payment(with_token(
            pb::RefundPaymentRequest {
                target: target(Target::PaymentId(held.id.clone())),
                request_id: Uuid::new_v4().to_string(),
                reason: "test over".into(),
                amount: None,
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .payment
        .unwrap();
    assert_eq!(refunded.state(), pb::PaymentState::Refunded);

    // Another one released without charging.
    let other = charge("", Uuid::new_v4()).await.unwrap();
    assert_eq!(other.amount.unwrap().amount_cents, 10_000);
    let voided = client
        .clone()
        .void_payment(with_token(
            pb::VoidPaymentRequest {
                target: target(Target::PaymentId(other.id.clone())),
                request_id: Uuid::new_v4().to_string(),
                reason: String::new(),
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .payment
        .unwrap();
    assert_eq!(voided.state(), pb::PaymentState::Canceled);

    // Unknown targets, and no order exists before hiring.
    for unknown in [
        Target::ChargeId("pi_unknown".into()),
        Target::PaymentId(Uuid::now_v7().to_string()),
        Target::OrderId(Uuid::now_v7().to_string()),
    ] {
        let missing = capture(unknown, Uuid::new_v4()).await.unwrap_err();
        assert_eq!(missing.code(), Code::NotFound);
    }
    let nameless = client
        .clone()
        .capture_payment(with_token(
            pb::CapturePaymentRequest {
                target: None,
                request_id: Uuid::new_v4().to_string(),
            },
            &admin,
        ))
        .await
        .unwrap_err();
    assert_eq!(nameless.code(), Code::InvalidArgument);
    // A charge id no gateway gives (a NUL, spaces, accents) is refused before any lookup.
    for malformed in ["pi_\0x", "pi x", "pi_é", ""] {
        let refused = capture(Target::ChargeId(malformed.into()), Uuid::new_v4())
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{malformed:?}");
        assert!(refused.message().contains("charge id"), "{refused:?}");
    }

    let actions: Vec<(String, String)> = sqlx::query_as(
        "select action, outcome from audit_events where target_type = 'payment'
         order by created_at, id",
    )
    .fetch_all(&server.server.state.db)
    .await
    .unwrap();
    // One row per action: the replayed capture is not audited again; the refused second
    // capture is, as failed.
    let expected = [
        ("payment.test_charge", "succeeded"),
        ("payment.capture", "succeeded"),
        ("payment.capture", "failed"),
        ("payment.refund", "succeeded"),
        ("payment.test_charge", "succeeded"),
        ("payment.void", "succeeded"),
    ]
    .map(|(action, outcome)| (action.to_owned(), outcome.to_owned()));
    assert_eq!(actions, expected);
    server.stop().await;
}

#[tokio::test]
async fn a_free_coupon_leaves_a_test_charge_nothing_to_authorise() {
    let server = TestServer::start().await;
    let client = BillingServiceClient::new(server.channel().await);
    let (_, admin) = server.account_token(Role::Admin).await;
    create_coupon(&client, &admin, "FREE", 100).await;
    let refused = test_charge(&client, &admin, "tok_visa", "free")
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    let declined = test_charge(&client, &admin, "4000 0000 0000 0002", "")
        .await
        .unwrap_err();
    assert_eq!(reason(&declined), "PAYMENT_DECLINED");
    server.stop().await;
}
