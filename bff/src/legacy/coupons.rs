//! Membership coupons (`/api/coupons`).

use axum::Json;
use axum::extract::Path;
use axum::routing;
use repairs_proto::billing as pb;
use serde::Deserialize;
use serde_json::json;

use super::body::{LegacyJson, text};
use super::error::Reply;
use super::rpc::Rpc;
use super::shapes::LegacyCoupon;
use super::table::{Call, Translation, delete, get, post};

const VALIDATE: Call = post("/api/coupons/validate", "BillingService.QuoteMembership");
const CREATE: Call = post("/api/coupons/create", "BillingService.CreateCoupon");
const LIST: Call = get("/api/coupons/list", "BillingService.ListCoupons");
const DELETE: Call = delete("/api/coupons/delete/{id}", "BillingService.DeleteCoupon");

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[VALIDATE, CREATE, LIST, DELETE];

pub fn translations() -> Vec<Translation> {
    vec![
        (VALIDATE, routing::post(validate)),
        (CREATE, routing::post(create)),
        (LIST, routing::get(list)),
        (DELETE, routing::delete(delete_coupon)),
    ]
}

#[derive(Debug, Deserialize)]
struct CodeBody {
    #[serde(default, deserialize_with = "text")]
    code: String,
}

/// `POST /api/coupons/validate` {code} -> QuoteMembership -> `{valid, discountPercent,
/// amount (cents: what the purchase charges, sales taxes included), message}`; an unusable
/// coupon is 404 `{msg: "Invalid or expired coupon"}`.
async fn validate(rpc: Rpc, LegacyJson(body): LegacyJson<CodeBody>) -> Reply {
    let quote = rpc
        .billing()
        .quote_membership(rpc.request(pb::QuoteMembershipRequest {
            coupon_code: body.code,
        }))
        .await?
        .into_inner();
    let percent = quote.discount_percent;
    Ok(Json(json!({
        "valid": true,
        "discountPercent": percent,
        "amount": quote.total.map(|m| m.amount_cents),
        "message": format!("Coupon applied: {percent}% off"),
    })))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CreateBody {
    #[serde(default, deserialize_with = "text")]
    code: String,
    #[serde(default, deserialize_with = "text")]
    discount_percent: String,
}

/// `POST /api/coupons/create` {code, discountPercent} -> `{msg, coupon}`. A percent that is
/// not a whole number is sent as 0, which the server refuses with its own message.
async fn create(rpc: Rpc, LegacyJson(body): LegacyJson<CreateBody>) -> Reply {
    let coupon = rpc
        .billing()
        .create_coupon(rpc.request(pb::CreateCouponRequest {
            code: body.code,
            discount_percent: body.discount_percent.trim().parse().unwrap_or(0),
            expire_time: None,
            max_redemptions: 0,
        }))
        .await?
        .into_inner()
        .coupon
        .unwrap_or_default();
    Ok(Json(json!({
        "msg": "Coupon created",
        "coupon": LegacyCoupon::from(&coupon),
    })))
}

/// `GET /api/coupons/list` -> every coupon, newest first (all pages).
async fn list(rpc: Rpc) -> Reply {
    let mut coupons = Vec::new();
    let mut page_token = String::new();
    loop {
        let page = rpc
            .billing()
            .list_coupons(rpc.request(pb::ListCouponsRequest {
                page_size: 100,
                page_token,
            }))
            .await?
            .into_inner();
        coupons.extend(page.coupons.iter().map(LegacyCoupon::from));
        if page.next_page_token.is_empty() {
            break;
        }
        page_token = page.next_page_token;
    }
    Ok(Json(json!(coupons)))
}

/// `DELETE /api/coupons/delete/{id}` -> `{msg}`.
async fn delete_coupon(rpc: Rpc, Path(id): Path<String>) -> Reply {
    rpc.billing()
        .delete_coupon(rpc.request(pb::DeleteCouponRequest { id }))
        .await?;
    Ok(Json(json!({ "msg": "Coupon deleted" })))
}
