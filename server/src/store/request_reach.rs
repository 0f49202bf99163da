//! How far a repair request reached: the professionals alerted of it (`request_notifications`,
//! any channel) and those who opened it (`request_opens`, the first read of each).

use sqlx::PgPool;
use uuid::Uuid;

/// Distinct professionals alerted of a request, and distinct professionals who opened it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, sqlx::FromRow)]
pub struct ReachCounts {
    pub alerted: i64,
    pub opened: i64,
}

/// The reach of request `repair_request_id` now.
pub async fn counts(db: &PgPool, repair_request_id: Uuid) -> sqlx::Result<ReachCounts> {
    sqlx::query_as(
        "select
            (select count(distinct professional_id) from request_notifications
             where repair_request_id = $1) as alerted,
            (select count(*) from request_opens where repair_request_id = $1) as opened",
    )
    .bind(repair_request_id)
    .fetch_one(db)
    .await
}
