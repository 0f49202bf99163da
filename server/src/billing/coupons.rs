//! What admins do with coupons. Each change is written to the audit log in the same
//! transaction as the change itself.

use chrono::Utc;
use serde_json::json;
use uuid::Uuid;

use crate::{
    auth::Caller,
    domain::{CouponCode, DiscountPercent},
    error::{ApiError, ApiResult, FieldViolation},
    providers::payments::MINIMUM_CHARGE_CENTS,
    state::AppState,
    store::{
        audit,
        coupons::{self, CouponRow, NewCoupon},
        page::PageRequest,
    },
};

/// Creates a coupon from what the admin typed (`request.code` as typed). A discount that would leave a charge above nothing but below the
/// gateway's minimum (99 % of 29.99 leaves 0.30) is refused: such a month could never be
/// paid; 100 % makes it free.
pub async fn create(
    state: &AppState,
    admin: &Caller,
    request: &NewCoupon<'_>,
) -> ApiResult<CouponRow> {
    let mut violations = Vec::new();
    let code = CouponCode::parse(request.code)
        .map_err(|e| violations.push(FieldViolation::new("code", e)))
        .ok();
    let percent = DiscountPercent::parse(request.discount_percent)
        .map_err(|e| violations.push(FieldViolation::new("discount_percent", e)))
        .ok();
    if let Some(percent) = percent {
        let left = percent.apply(state.config.membership_price()).cents().get();
        if left > 0 && left < MINIMUM_CHARGE_CENTS {
            violations.push(FieldViolation::new(
                "discount_percent",
                format!(
                    "this discount leaves {left} cents, below the smallest card charge of {MINIMUM_CHARGE_CENTS} cents; use 100 for a free month"
                ),
            ));
        }
    }
    if request.max_redemptions < 0 {
        violations.push(FieldViolation::new(
            "max_redemptions",
            "the limit cannot be negative (0 means no limit)",
        ));
    }
    if request.expires_at.is_some_and(|at| at <= Utc::now()) {
        violations.push(FieldViolation::new(
            "expire_time",
            "the expiry must be in the future",
        ));
    }
    let (Some(code), Some(percent), true) = (code, percent, violations.is_empty()) else {
        return Err(ApiError::invalid_fields(violations));
    };
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let coupon = coupons::insert(
        &mut tx,
        &NewCoupon {
            code: code.as_str(),
            discount_percent: percent.get(),
            expires_at: request.expires_at,
            max_redemptions: request.max_redemptions,
        },
    )
    .await?;
    audit::record_change(
        &mut *tx,
        admin.account_id,
        "coupon.create",
        ("coupon", &coupon.id.to_string()),
        None,
        Some(&json!(coupon)),
    )
    .await?;
    tx.commit().await?;
    Ok(coupon)
}

pub async fn list(state: &AppState, page: &PageRequest) -> ApiResult<(Vec<CouponRow>, String)> {
    let rows = coupons::list(&state.db, page).await?;
    Ok(page.finish(rows, |c| (c.created_at, c.id)))
}

pub async fn set_active(
    state: &AppState,
    admin: &Caller,
    id: Uuid,
    active: bool,
) -> ApiResult<CouponRow> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let (before, coupon) = coupons::set_active(&mut tx, id, active)
        .await?
        .ok_or_else(|| crate::error::not_found("coupon"))?;
    let action = if active {
        "coupon.activate"
    } else {
        "coupon.deactivate"
    };
    audit::record_change(
        &mut *tx,
        admin.account_id,
        action,
        ("coupon", &id.to_string()),
        Some(&json!(before)),
        Some(&json!(coupon)),
    )
    .await?;
    tx.commit().await?;
    Ok(coupon)
}

pub async fn delete(state: &AppState, admin: &Caller, id: Uuid) -> ApiResult<()> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let before = coupons::delete(&mut tx, id)
        .await?
        .ok_or_else(|| crate::error::not_found("coupon"))?;
    audit::record_change(
        &mut *tx,
        admin.account_id,
        "coupon.delete",
        ("coupon", &id.to_string()),
        Some(&json!(before)),
        None,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
