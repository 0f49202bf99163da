//! Professionals a customer blocked from all their requests (`professional_blocks`): no
//! messages and no quotes from them.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;
use uuid::Uuid;

/// A customer blocks this many professionals at most.
pub const MAX_BLOCKS: i64 = 500;

/// One blocked professional, as the customer's list shows them.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BlockRow {
    pub professional_id: Uuid,
    pub professional_name: String,
    pub created_at: DateTime<Utc>,
}

/// Whether `customer_id` blocked `professional_id`.
pub async fn is_blocked(
    db: impl PgExecutor<'_>,
    customer_id: Uuid,
    professional_id: Uuid,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from professional_blocks
                        where customer_id = $1 and professional_id = $2)",
    )
    .bind(customer_id)
    .bind(professional_id)
    .fetch_one(db)
    .await
}

/// Whether the customer of request `repair_request_id` blocked `professional_id`.
pub async fn is_blocked_on_request(
    db: impl PgExecutor<'_>,
    repair_request_id: Uuid,
    professional_id: Uuid,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from repair_requests r
                        join professional_blocks b on b.customer_id = r.customer_id
                        where r.id = $1 and b.professional_id = $2)",
    )
    .bind(repair_request_id)
    .bind(professional_id)
    .fetch_one(db)
    .await
}

/// Blocks the professional, unless the customer already holds [`MAX_BLOCKS`] (a bound on
/// the list, which blocks racing each other may pass by one or two); blocking a blocked one
/// changes nothing. False when the limit refused it.
pub async fn block(
    db: impl PgExecutor<'_>,
    customer_id: Uuid,
    professional_id: Uuid,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "with blocked as (
             insert into professional_blocks (customer_id, professional_id)
             select $1, $2
             where (select count(*) from professional_blocks where customer_id = $1) < $3
                or exists (select 1 from professional_blocks
                           where customer_id = $1 and professional_id = $2)
             on conflict do nothing
             returning 1)
         select exists (select 1 from blocked)
             or exists (select 1 from professional_blocks
                        where customer_id = $1 and professional_id = $2)",
    )
    .bind(customer_id)
    .bind(professional_id)
    .bind(MAX_BLOCKS)
    .fetch_one(db)
    .await
}

/// Lifts a block; lifting one that is not there changes nothing.
pub async fn unblock(
    db: impl PgExecutor<'_>,
    customer_id: Uuid,
    professional_id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query("delete from professional_blocks where customer_id = $1 and professional_id = $2")
        .bind(customer_id)
        .bind(professional_id)
        .execute(db)
        .await?;
    Ok(())
}

/// The customer's blocked professionals, newest first.
pub async fn list(db: impl PgExecutor<'_>, customer_id: Uuid) -> sqlx::Result<Vec<BlockRow>> {
    sqlx::query_as(
        "select b.professional_id, p.name as professional_name, b.created_at
         from professional_blocks b join professionals p on p.id = b.professional_id
         where b.customer_id = $1
         order by b.created_at desc, b.professional_id desc
         limit $2",
    )
    .bind(customer_id)
    .bind(MAX_BLOCKS)
    .fetch_all(db)
    .await
}
