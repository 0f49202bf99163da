//! Payments: hiring, membership and the admin's test charge (`/api/stripe`).
//!
//! Legacy calls carry no idempotency key, so the BFF names one (a UUID v5, see
//! [`request_id`]) from what identifies the payment: a retried call gets the first
//! answer and never charges twice. Amounts the old clients send are ignored: the server prices.

use axum::Json;
use axum::routing;
use repairs_proto::billing as pb;
use repairs_proto::errors::ErrorReason;
use serde::Deserialize;
use serde_json::json;

use super::body::{LegacyJson, text};
use super::error::{ApiError, Reply};
use super::keys::request_id;
use super::rpc::Rpc;
use super::shapes::time_text;
use super::table::{Call, Translation, post};

const PAY: Call = post("/api/stripe/pay", "BillingService.HireProfessional");
const PURCHASE: Call = post("/api/stripe/purchase", "BillingService.PurchaseMembership");
const BLOCK: Call = post(
    "/api/stripe/block-payment",
    "BillingService.CreateTestCharge",
);
const CONFIRM: Call = post(
    "/api/stripe/block-payment-confirm",
    "BillingService.CapturePayment",
);

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[PAY, PURCHASE, BLOCK, CONFIRM];

pub fn translations() -> Vec<Translation> {
    vec![
        (PAY, routing::post(pay)),
        (PURCHASE, routing::post(purchase)),
        (BLOCK, routing::post(block_payment)),
        (CONFIRM, routing::post(confirm_block)),
    ]
}

#[derive(Debug, Deserialize)]
struct PurchaseBody {
    /// The card token (`tok_...`), or in test mode a test card.
    #[serde(default, deserialize_with = "text")]
    token: String,
    /// A coupon code, or null.
    #[serde(default, deserialize_with = "text")]
    coupon: String,
}

/// `POST /api/stripe/purchase` {token, user_id, coupon} -> PurchaseMembership for the
/// token's professional (`user_id` is not trusted) -> 200 `{msg, membershipStatus,
/// membershipExpiresAt, charge_id}`. A declined card is 402 with its message; a card that
/// needs 3-D Secure is 402 too (the old screen cannot authenticate), with its client_secret.
async fn purchase(rpc: Rpc, LegacyJson(body): LegacyJson<PurchaseBody>) -> Reply {
    let token = body.token.trim().to_owned();
    let coupon = body.coupon.trim().to_owned();
    let request_id = request_id("membership", &rpc, &[&token, &coupon]);
    let bought = rpc
        .billing()
        .purchase_membership(rpc.request(pb::PurchaseMembershipRequest {
            payment_method: token,
            coupon_code: coupon,
            request_id,
        }))
        .await?
        .into_inner();
    let payment = bought.payment.unwrap_or_default();
    if payment.state() == pb::PaymentState::RequiresAction {
        return Err(needs_authentication());
    }
    let membership = bought.membership.unwrap_or_default();
    Ok(Json(json!({
        "msg": "Payment successful! Membership activated.",
        "membershipStatus": if membership.active { "active" } else { "inactive" },
        "membershipExpiresAt": time_text(membership.expire_time.as_ref()),
        "charge_id": payment.charge_id,
    })))
}

#[derive(Debug, Deserialize)]
struct PayBody {
    #[serde(default, deserialize_with = "text")]
    token: String,
    /// The quote hired; empty in the old card demo.
    #[serde(default, deserialize_with = "text")]
    application_id: String,
}

/// `POST /api/stripe/pay` {token, application_id, amount, ...} -> HireProfessional on the
/// quote (the amount is the quote's fee, whatever `amount` says; `req_id`, `professional_id`
/// and `user_id` come from the quote and the token) -> `{msg, order_id, charge_id}`. The old
/// card demo, which posts no quote (amount 100), is the test charge (CreateTestCharge, an
/// admin's). Declined: 412 with the reason; 3-D Secure: 402, as for a purchase.
async fn pay(rpc: Rpc, LegacyJson(body): LegacyJson<PayBody>) -> Reply {
    let token = body.token.trim().to_owned();
    let quote = body.application_id.trim().to_owned();
    if quote.is_empty() {
        return block_payment(
            rpc,
            LegacyJson(BlockBody {
                token,
                coupon: String::new(),
            }),
        )
        .await;
    }
    let request_id = request_id("hire", &rpc, &[&quote, &token]);
    let order = rpc
        .billing()
        .hire_professional(rpc.request(pb::HireProfessionalRequest {
            quote_id: quote,
            payment_method: token,
            request_id,
        }))
        .await?
        .into_inner()
        .order
        .unwrap_or_default();
    let payment = order.payment.unwrap_or_default();
    if payment.state() == pb::PaymentState::RequiresAction {
        return Err(needs_authentication());
    }
    Ok(Json(json!({
        "msg": "Payment successful",
        "order_id": order.id,
        "charge_id": payment.charge_id,
        "charge_validity": payment.authorization_expire_time.map(|t| t.seconds),
    })))
}

#[derive(Debug, Deserialize)]
struct BlockBody {
    #[serde(default, deserialize_with = "text")]
    token: String,
    #[serde(default, deserialize_with = "text")]
    coupon: String,
}

/// `POST /api/stripe/block-payment` {token, totalAmount, coupon?} -> CreateTestCharge
/// (`totalAmount` ignored: 100.00 CAD less the coupon) -> `{msg, charge_id, amount,
/// charge_validity}` (cents; validity in epoch seconds, as the old orders carry it).
async fn block_payment(rpc: Rpc, LegacyJson(body): LegacyJson<BlockBody>) -> Reply {
    let token = body.token.trim().to_owned();
    let coupon = body.coupon.trim().to_owned();
    let request_id = request_id("test_charge", &rpc, &[&token, &coupon]);
    let payment = rpc
        .billing()
        .create_test_charge(rpc.request(pb::CreateTestChargeRequest {
            payment_method: token,
            coupon_code: coupon,
            request_id,
        }))
        .await?
        .into_inner()
        .payment
        .unwrap_or_default();
    if payment.state() == pb::PaymentState::RequiresAction {
        return Err(needs_authentication());
    }
    Ok(Json(json!({
        "msg": "Payment authorised",
        "charge_id": payment.charge_id,
        "amount": payment.amount.map(|m| m.amount_cents),
        "charge_validity": payment.authorization_expire_time.map(|t| t.seconds),
    })))
}

#[derive(Debug, Deserialize)]
struct ConfirmBody {
    #[serde(default, deserialize_with = "text")]
    charge_id: String,
}

/// `POST /api/stripe/block-payment-confirm` {charge_id} -> CapturePayment by charge id ->
/// `{message, msg}`; a second capture is 409.
async fn confirm_block(rpc: Rpc, LegacyJson(body): LegacyJson<ConfirmBody>) -> Reply {
    let charge_id = body.charge_id.trim().to_owned();
    let request_id = request_id("capture", &rpc, &[&charge_id]);
    rpc.billing()
        .capture_payment(rpc.request(pb::CapturePaymentRequest {
            target: Some(pb::PaymentTarget {
                target: Some(pb::payment_target::Target::ChargeId(charge_id)),
            }),
            request_id,
        }))
        .await?;
    let message = "Payment captured successfully";
    Ok(Json(json!({ "message": message, "msg": message })))
}

/// A card that needs 3-D Secure, which the old screens cannot do.
fn needs_authentication() -> ApiError {
    ApiError::new(
        http::StatusCode::PAYMENT_REQUIRED,
        "This card needs authentication: use the payment page of the app.",
    )
    .with_code(ErrorReason::PaymentRequiresAction)
}
