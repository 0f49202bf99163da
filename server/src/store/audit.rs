//! The admins' audit log.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::page::PageRequest;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuditRow {
    pub id: Uuid,
    pub admin_id: Option<Uuid>,
    pub action: String,
    pub target_type: String,
    pub target_id: String,
    pub reason: String,
    pub created_at: DateTime<Utc>,
}

/// Writes one row; pass the transaction of the action so that both happen or neither.
pub async fn record(
    db: impl PgExecutor<'_>,
    admin_id: Uuid,
    action: &str,
    target_type: &str,
    target_id: &str,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into audit_events (id, admin_id, action, target_type, target_id, reason)
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(Uuid::now_v7())
    .bind(admin_id)
    .bind(action)
    .bind(target_type)
    .bind(target_id)
    .bind(reason)
    .execute(db)
    .await?;
    Ok(())
}

pub async fn list(db: &PgPool, page: &PageRequest) -> sqlx::Result<Vec<AuditRow>> {
    sqlx::query_as(
        "select id, admin_id, action, target_type, target_id, reason, created_at from audit_events
         where $1::timestamptz is null or (created_at, id) < ($1, $2)
         order by created_at desc, id desc limit $3",
    )
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .fetch_all(db)
    .await
}
