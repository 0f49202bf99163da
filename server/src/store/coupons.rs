//! Coupons and their use by membership purchases.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::page::PageRequest;

#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize)]
pub struct CouponRow {
    pub id: Uuid,
    pub code: String,
    pub discount_percent: i32,
    pub expires_at: Option<DateTime<Utc>>,
    pub max_redemptions: i32,
    pub redemption_count: i32,
    pub active: bool,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, code, discount_percent, expires_at, max_redemptions, \
                       redemption_count, active, created_at";

/// What a coupon may be used for now: not deleted, on, not expired, not used up.
const USABLE: &str = "deleted_at is null and active and (expires_at is null or expires_at > now())
     and (max_redemptions = 0 or redemption_count < max_redemptions)";

pub struct NewCoupon<'a> {
    pub code: &'a str,
    pub discount_percent: i32,
    pub expires_at: Option<DateTime<Utc>>,
    pub max_redemptions: i32,
}

/// Fails on `coupons_code_key` when a coupon not deleted has the code.
pub async fn insert(tx: &mut PgConnection, coupon: &NewCoupon<'_>) -> sqlx::Result<CouponRow> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "insert into coupons (id, code, discount_percent, expires_at, max_redemptions)
         values ($1, $2, $3, $4, $5) returning {COLUMNS}"
    )))
    .bind(Uuid::now_v7())
    .bind(coupon.code)
    .bind(coupon.discount_percent)
    .bind(coupon.expires_at)
    .bind(coupon.max_redemptions)
    .fetch_one(&mut *tx)
    .await
}

/// Coupons not deleted, newest first.
pub async fn list(db: &PgPool, page: &PageRequest) -> sqlx::Result<Vec<CouponRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from coupons
         where deleted_at is null and ($1::timestamptz is null or (created_at, id) < ($1, $2))
         order by created_at desc, id desc limit $3"
    )))
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .fetch_all(db)
    .await
}

/// `None` when no coupon that is not deleted has this id.
/// Turns a coupon on or off; the row before and after, `None` when there is no such coupon.
pub async fn set_active(
    tx: &mut PgConnection,
    id: Uuid,
    active: bool,
) -> sqlx::Result<Option<(CouponRow, CouponRow)>> {
    let Some(before) = get_for_update(tx, id).await? else {
        return Ok(None);
    };
    let after: CouponRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "update coupons set active = $2 where id = $1 returning {COLUMNS}"
    )))
    .bind(id)
    .bind(active)
    .fetch_one(&mut *tx)
    .await?;
    Ok(Some((before, after)))
}

/// Deletes a coupon (kept for the purchases that used it); the row it was, `None` when there
/// is no such coupon.
pub async fn delete(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<CouponRow>> {
    let Some(before) = get_for_update(tx, id).await? else {
        return Ok(None);
    };
    sqlx::query("update coupons set deleted_at = now() where id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(Some(before))
}

/// A coupon that is not deleted, locked for the transaction's change.
async fn get_for_update(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<CouponRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from coupons where id = $1 and deleted_at is null for update"
    )))
    .bind(id)
    .fetch_optional(&mut *tx)
    .await
}

/// The coupon with this code (upper case) if it can be used now.
pub async fn find_usable(db: &PgPool, code: &str) -> sqlx::Result<Option<CouponRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from coupons where upper(code) = $1 and {USABLE}"
    )))
    .bind(code)
    .fetch_optional(db)
    .await
}

/// A coupon held for one purchase.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Redemption {
    pub coupon_id: Uuid,
    pub code: String,
    pub discount_percent: i32,
}

pub enum Reserved {
    /// Counted now for this purchase.
    Counted(Redemption),
    /// Counted earlier by the same purchase (a retry): that one, whatever its code.
    Earlier(Redemption),
    /// The coupon cannot be used (unknown, off, expired, used up, deleted).
    Unusable,
}

/// Counts one use of the coupon `code` for the purchase `(professional_id, request_id)`,
/// once: a retry of the purchase finds its earlier reservation, whatever the coupon's state
/// now. The count goes up only while under the limit, in one statement, so two purchases
/// cannot both take the last use.
pub async fn reserve(
    db: &PgPool,
    professional_id: Uuid,
    request_id: Uuid,
    code: &str,
) -> sqlx::Result<Reserved> {
    let mut tx = crate::store::transaction::begin(db).await?;
    if let Some(held) = held(&mut *tx, professional_id, request_id).await? {
        return Ok(Reserved::Earlier(held));
    }
    let counted: Option<Redemption> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "update coupons set redemption_count = redemption_count + 1
         where upper(code) = $1 and {USABLE}
         returning id as coupon_id, code, discount_percent"
    )))
    .bind(code)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(counted) = counted else {
        return Ok(Reserved::Unusable);
    };
    let inserted = sqlx::query(
        "insert into coupon_redemptions (professional_id, request_id, coupon_id, discount_percent)
         values ($1, $2, $3, $4) on conflict do nothing",
    )
    .bind(professional_id)
    .bind(request_id)
    .bind(counted.coupon_id)
    .bind(counted.discount_percent)
    .execute(&mut *tx)
    .await?;
    if inserted.rows_affected() == 1 {
        tx.commit().await?;
        return Ok(Reserved::Counted(counted));
    }
    // The same purchase reserved one meanwhile: undo this count, answer that reservation.
    tx.rollback().await?;
    let earlier = held(db, professional_id, request_id).await?;
    Ok(earlier.map_or(Reserved::Unusable, Reserved::Earlier))
}

/// The coupon the purchase `(professional_id, request_id)` reserved, if any.
pub async fn held(
    db: impl sqlx::PgExecutor<'_>,
    professional_id: Uuid,
    request_id: Uuid,
) -> sqlx::Result<Option<Redemption>> {
    sqlx::query_as(
        "select r.coupon_id, c.code, r.discount_percent
         from coupon_redemptions r join coupons c on c.id = r.coupon_id
         where r.professional_id = $1 and r.request_id = $2",
    )
    .bind(professional_id)
    .bind(request_id)
    .fetch_optional(db)
    .await
}

/// Gives back the use a purchase reserved, after its card was refused; nothing when it
/// reserved none or already granted its month.
pub async fn release(db: &PgPool, professional_id: Uuid, request_id: Uuid) -> sqlx::Result<()> {
    let mut tx = crate::store::transaction::begin(db).await?;
    let released: Option<Uuid> = sqlx::query_scalar(
        "delete from coupon_redemptions r
         where r.professional_id = $1 and r.request_id = $2
           and not exists (select 1 from membership_periods m
                           where m.professional_id = $1 and m.request_id = $2)
         returning r.coupon_id",
    )
    .bind(professional_id)
    .bind(request_id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(coupon_id) = released {
        sqlx::query("update coupons set redemption_count = redemption_count - 1 where id = $1")
            .bind(coupon_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await
}
