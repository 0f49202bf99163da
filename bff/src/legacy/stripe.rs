//! Payments: hiring, membership and the admin's test charge (`/api/stripe`).
//!
//! Legacy calls carry no idempotency key, so the BFF names one (a UUID v5, see
//! [`request_id`]) from what identifies the payment: a retried call gets the first answer
//! and never charges twice. Amounts the old clients send are ignored: the server prices.

use axum::Json;
use axum::routing;
use repairs_proto::billing as pb;
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use super::Reply;
use super::body::{LegacyJson, text};
use super::error::ApiError;
use super::rpc::Rpc;
use super::shapes::time_text;
use super::table::{Call, Translation, post};

const PURCHASE: Call = post("/api/stripe/purchase", "BillingService.PurchaseMembership");

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    post("/api/stripe/pay", "BillingService.HireProfessional"),
    PURCHASE,
    post(
        "/api/stripe/block-payment",
        "BillingService.CreateTestCharge",
    ),
    post(
        "/api/stripe/block-payment-confirm",
        "BillingService.CapturePayment",
    ),
];

pub fn translations() -> Vec<Translation> {
    vec![(PURCHASE, routing::post(purchase))]
}

/// The namespace of the BFF's legacy idempotency keys.
const KEY_NAMESPACE: Uuid = Uuid::from_u128(0x5f1b_0c8e_3a7d_4c21_9e4b_6d2a_8f10_c3b7);

/// The request_id of a legacy payment call: a name-based UUID (v5) of the operation, the
/// caller's account (the token's subject) and what the call pays with. The same call sent
/// again names the same key.
pub fn request_id(operation: &str, rpc: &Rpc, parts: &[&str]) -> String {
    let subject = rpc.token().unverified_subject().unwrap_or_default();
    name_key(operation, &subject, parts)
}

fn name_key(operation: &str, subject: &str, parts: &[&str]) -> String {
    let mut name = format!("{operation}\u{1f}{subject}");
    for part in parts {
        name.push('\u{1f}');
        name.push_str(part);
    }
    Uuid::new_v5(&KEY_NAMESPACE, name.as_bytes()).to_string()
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
        return Err(ApiError::new(
            http::StatusCode::PAYMENT_REQUIRED,
            "This card needs authentication: pay from the membership page.",
        )
        .with_code("PAYMENT_REQUIRES_ACTION"));
    }
    let membership = bought.membership.unwrap_or_default();
    Ok(Json(json!({
        "msg": "Payment successful! Membership activated.",
        "membershipStatus": if membership.active { "active" } else { "inactive" },
        "membershipExpiresAt": time_text(membership.expire_time.as_ref()),
        "charge_id": payment.charge_id,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_the_caller_and_the_payment() {
        let key = name_key("membership", "a", &["tok_visa", ""]);
        assert_eq!(key, name_key("membership", "a", &["tok_visa", ""]));
        assert!(Uuid::parse_str(&key).is_ok());
        assert_ne!(key, name_key("membership", "b", &["tok_visa", ""]));
        assert_ne!(key, name_key("membership", "a", &["tok_visa", "SAVE"]));
        assert_ne!(key, name_key("test_charge", "a", &["tok_visa", ""]));
        assert_ne!(
            name_key("membership", "a", &["ab", "c"]),
            name_key("membership", "a", &["a", "bc"])
        );
    }
}
