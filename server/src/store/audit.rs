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
    /// The record's fields before and after, as JSON text; `None` where not recorded.
    pub before_json: Option<String>,
    pub after_json: Option<String>,
    pub admin_email: Option<String>,
}

/// Writes one row with what the record was before and after the action (`None` when it did
/// not exist before or no longer exists) and why, for the actions that take a reason; pass
/// the action's transaction so that both happen or neither.
pub async fn record(
    db: impl PgExecutor<'_>,
    admin_id: Uuid,
    action: &str,
    target: (&str, &str),
    reason: &str,
    before: Option<&serde_json::Value>,
    after: Option<&serde_json::Value>,
) -> sqlx::Result<()> {
    let (target_type, target_id) = target;
    sqlx::query(
        "insert into audit_events
            (id, admin_id, action, target_type, target_id, reason, before_json, after_json)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb)",
    )
    .bind(Uuid::now_v7())
    .bind(admin_id)
    .bind(action)
    .bind(target_type)
    .bind(target_id)
    .bind(reason)
    .bind(before.map(serde_json::Value::to_string))
    .bind(after.map(serde_json::Value::to_string))
    .execute(db)
    .await?;
    Ok(())
}

/// [`record`] for an action that takes no reason.
pub async fn record_change(
    db: impl PgExecutor<'_>,
    admin_id: Uuid,
    action: &str,
    target: (&str, &str),
    before: Option<&serde_json::Value>,
    after: Option<&serde_json::Value>,
) -> sqlx::Result<()> {
    record(db, admin_id, action, target, "", before, after).await
}

/// What a list of the audit log is narrowed to; `None` or empty does not narrow.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub action: String,
    pub target_type: String,
    pub target_id: String,
    pub admin_id: Option<Uuid>,
    /// At or after.
    pub start: Option<DateTime<Utc>>,
    /// Before.
    pub end: Option<DateTime<Utc>>,
}

pub async fn list(
    db: &PgPool,
    filter: &AuditFilter,
    page: &PageRequest,
) -> sqlx::Result<Vec<AuditRow>> {
    sqlx::query_as(
        "select e.id, e.admin_id, e.action, e.target_type, e.target_id, e.reason, e.created_at,
                e.before_json::text as before_json, e.after_json::text as after_json,
                a.email::text as admin_email
         from audit_events e left join admins a on a.id = e.admin_id
         where ($1::timestamptz is null or (e.created_at, e.id) < ($1, $2))
           and ($4 = '' or e.action = $4)
           and ($5 = '' or e.target_type = $5)
           and ($6 = '' or e.target_id = $6)
           and ($7::uuid is null or e.admin_id = $7)
           and ($8::timestamptz is null or e.created_at >= $8)
           and ($9::timestamptz is null or e.created_at < $9)
         order by e.created_at desc, e.id desc limit $3",
    )
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .bind(&filter.action)
    .bind(&filter.target_type)
    .bind(&filter.target_id)
    .bind(filter.admin_id)
    .bind(filter.start)
    .bind(filter.end)
    .fetch_all(db)
    .await
}
