//! Messages from the contact form.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::page::PageRequest;

#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize)]
pub struct ContactMessageRow {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub message: String,
    pub sender_account_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub read_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str = "id, name, email, message, sender_account_id, created_at, read_at";

pub async fn insert(
    db: impl PgExecutor<'_>,
    (name, email, message): (&str, &str, &str),
    sender_account_id: Option<Uuid>,
) -> sqlx::Result<Uuid> {
    let id = Uuid::now_v7();
    sqlx::query(
        "insert into contact_messages (id, name, email, message, sender_account_id)
         values ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(name)
    .bind(email)
    .bind(message)
    .bind(sender_account_id)
    .execute(db)
    .await?;
    Ok(id)
}

/// Newest first, one page (plus one row, to tell whether there is a next page).
pub async fn list(
    db: &PgPool,
    page: &PageRequest,
    unread_only: bool,
) -> sqlx::Result<Vec<ContactMessageRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from contact_messages
         where (not $4 or read_at is null)
           and ($1::timestamptz is null or (created_at, id) < ($1, $2))
         order by created_at desc, id desc limit $3"
    )))
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .bind(unread_only)
    .fetch_all(db)
    .await
}

pub async fn unread_count(db: &PgPool) -> sqlx::Result<i64> {
    sqlx::query_scalar("select count(*) from contact_messages where read_at is null")
        .fetch_one(db)
        .await
}

pub async fn get_for_update(
    db: impl PgExecutor<'_>,
    id: Uuid,
) -> sqlx::Result<Option<ContactMessageRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from contact_messages where id = $1 for update"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// Marks it read (now, unless it was already) or unread.
pub async fn set_read(
    db: impl PgExecutor<'_>,
    id: Uuid,
    read: bool,
) -> sqlx::Result<ContactMessageRow> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "update contact_messages
         set read_at = case when $2 then coalesce(read_at, now()) else null end
         where id = $1 returning {COLUMNS}"
    )))
    .bind(id)
    .bind(read)
    .fetch_one(db)
    .await
}
