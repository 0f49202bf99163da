//! Orders: one per payment of a hire (see `migrations/20261123000080_hires.sql`). The live
//! order of a request (`closed_at is null`) is the one it stands on.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

/// A completed job whose hire payment was captured: what a review needs to know about it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PaidJob {
    pub order_id: Uuid,
    pub repair_request_id: Uuid,
    pub customer_id: Uuid,
    pub professional_id: Uuid,
    pub completed_at: DateTime<Utc>,
}

/// The request's job when the request is COMPLETED and its live order's payment CAPTURED;
/// `None` otherwise (not completed, not paid, refunded, or no such request).
pub async fn paid_job(db: &PgPool, repair_request_id: Uuid) -> sqlx::Result<Option<PaidJob>> {
    sqlx::query_as(
        "select o.id as order_id, o.repair_request_id, o.customer_id, o.professional_id,
                o.completed_at
         from orders o
         join repair_requests r on r.id = o.repair_request_id
         join payments p on p.id = o.payment_id
         where o.repair_request_id = $1 and o.closed_at is null
           and r.state = 'completed' and p.state = 'captured'
           and o.completed_at is not null",
    )
    .bind(repair_request_id)
    .fetch_optional(db)
    .await
}
