//! Coupons as the old admin screens list them.

use repairs_proto::billing;
use serde::Serialize;

use super::formats::time_text;

/// A coupon as the old admin screens list it: `{_id, code, discountPercent}`, with the
/// newer fields beside them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LegacyCoupon {
    #[serde(rename = "_id")]
    pub id: String,
    pub code: String,
    pub discount_percent: i32,
    pub active: bool,
    pub max_redemptions: i32,
    pub redemption_count: i32,
    pub expires_at: Option<String>,
    pub created_at: Option<String>,
}

impl From<&billing::Coupon> for LegacyCoupon {
    fn from(coupon: &billing::Coupon) -> Self {
        Self {
            id: coupon.id.clone(),
            code: coupon.code.clone(),
            discount_percent: coupon.discount_percent,
            active: coupon.active,
            max_redemptions: coupon.max_redemptions,
            redemption_count: coupon.redemption_count,
            expires_at: time_text(coupon.expire_time.as_ref()),
            created_at: time_text(coupon.create_time.as_ref()),
        }
    }
}
