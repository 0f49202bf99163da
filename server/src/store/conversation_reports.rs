//! Reports of conversations, the admins' queue (`conversation_reports`): one open report per
//! conversation and party, open ones oldest first, then closed ones newest first.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::domain::conversation::{ReportReason, Side};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReportRow {
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub repair_request_id: Uuid,
    pub professional_id: Uuid,
    pub reported_by: String,
    pub reason: String,
    pub details: String,
    pub created_at: DateTime<Utc>,
    pub resolved_at: Option<DateTime<Utc>>,
    pub resolution_note: Option<String>,
}

impl ReportRow {
    /// The stored spellings; the table's checks admit no others.
    pub fn reported_by(&self) -> Side {
        Side::from_code(&self.reported_by).unwrap_or(Side::Customer)
    }

    pub fn reason(&self) -> ReportReason {
        ReportReason::from_code(&self.reason).unwrap_or(ReportReason::Other)
    }
}

const SELECT: &str = "select t.id, t.conversation_id, c.repair_request_id, c.professional_id,
        t.reported_by, t.reason, t.details, t.created_at, t.resolved_at, t.resolution_note
    from conversation_reports t join conversations c on c.id = t.conversation_id";

/// Reports the conversation by `side`; while that side's report is open, answers it instead.
pub async fn report(
    tx: &mut PgConnection,
    conversation_id: Uuid,
    side: Side,
    reason: ReportReason,
    details: &str,
) -> sqlx::Result<ReportRow> {
    sqlx::query(
        "insert into conversation_reports (id, conversation_id, reported_by, reason, details)
         values ($1, $2, $3, $4, $5)
         on conflict (conversation_id, reported_by) where resolved_at is null do nothing",
    )
    .bind(Uuid::now_v7())
    .bind(conversation_id)
    .bind(side.as_str())
    .bind(reason.as_str())
    .bind(details)
    .execute(&mut *tx)
    .await?;
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where t.conversation_id = $1 and t.reported_by = $2 and t.resolved_at is null"
    )))
    .bind(conversation_id)
    .bind(side.as_str())
    .fetch_one(&mut *tx)
    .await
}

pub async fn get(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<ReportRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} where t.id = $1")))
        .bind(id)
        .fetch_optional(db)
        .await
}

/// Closes an open report with the admin's note; `None` when it is not open (closed
/// already, or no such report).
pub async fn resolve(
    tx: &mut PgConnection,
    id: Uuid,
    admin_id: Uuid,
    note: &str,
) -> sqlx::Result<Option<ReportRow>> {
    let closed = sqlx::query(
        "update conversation_reports set resolved_at = now(), resolved_by = $2,
             resolution_note = $3
         where id = $1 and resolved_at is null",
    )
    .bind(id)
    .bind(admin_id)
    .bind(note)
    .execute(&mut *tx)
    .await?;
    if closed.rows_affected() == 0 {
        return Ok(None);
    }
    get(&mut *tx, id).await
}

/// Whether the conversation was ever reported (an admin's reading of it is then audited).
pub async fn was_reported(db: impl PgExecutor<'_>, conversation_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from conversation_reports where conversation_id = $1)",
    )
    .bind(conversation_id)
    .fetch_one(db)
    .await
}

/// Where a page of the queue starts: after this report of the open ones (oldest first) or
/// of the closed ones (newest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueAfter {
    Open(DateTime<Utc>, Uuid),
    Resolved(DateTime<Utc>, Uuid),
}

/// Up to `limit` open reports after `after` (oldest first).
pub async fn open_page(
    db: impl PgExecutor<'_>,
    after: Option<(DateTime<Utc>, Uuid)>,
    limit: i64,
) -> sqlx::Result<Vec<ReportRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where t.resolved_at is null
           and ($1::timestamptz is null or (t.created_at, t.id) > ($1, $2))
         order by t.created_at, t.id limit $3"
    )))
    .bind(after.map(|(time, _)| time))
    .bind(after.map(|(_, id)| id))
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Up to `limit` closed reports after `after` (newest closed first).
pub async fn resolved_page(
    db: impl PgExecutor<'_>,
    after: Option<(DateTime<Utc>, Uuid)>,
    limit: i64,
) -> sqlx::Result<Vec<ReportRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where t.resolved_at is not null
           and ($1::timestamptz is null or (t.resolved_at, t.id) < ($1, $2))
         order by t.resolved_at desc, t.id desc limit $3"
    )))
    .bind(after.map(|(time, _)| time))
    .bind(after.map(|(_, id)| id))
    .bind(limit)
    .fetch_all(db)
    .await
}
