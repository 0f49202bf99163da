//! Machine translations of conversations' messages (`conversation_messages.translation`):
//! made due in the transaction that writes a message (when its reader reads the other
//! language), claimed by the translation pass (`crate::conversations::translations`) with
//! `for update skip locked` and a lease, so several server processes never translate one
//! message at once. A message deleted meanwhile is no longer due.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use crate::domain::Language;

/// A message waiting for its translation.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Due {
    pub id: Uuid,
    pub text: String,
    pub text_language: Language,
    /// Tries of this message, this one included.
    pub attempts: i32,
}

/// Claims up to `limit` due messages until `lease_until`, counting a try of each.
pub async fn claim(db: &PgPool, limit: i64, lease_until: DateTime<Utc>) -> sqlx::Result<Vec<Due>> {
    sqlx::query_as(
        "with due as (
            select id from conversation_messages
            where translation_due_at <= now() order by translation_due_at limit $1
            for update skip locked)
         update conversation_messages m
         set translation_due_at = $2, translation_attempts = m.translation_attempts + 1
         from due where m.id = due.id
         returning m.id, m.text, m.text_language, m.translation_attempts as attempts",
    )
    .bind(limit)
    .bind(lease_until)
    .fetch_all(db)
    .await
}

/// Stores a message's translation, unless its author's account was deleted meanwhile.
pub async fn store(db: &PgPool, id: Uuid, translation: &str) -> sqlx::Result<bool> {
    let stored = sqlx::query(
        "update conversation_messages set translation = $2, translation_due_at = null,
             translation_error = null
         where id = $1 and deleted_at is null",
    )
    .bind(id)
    .bind(translation)
    .execute(db)
    .await?;
    Ok(stored.rows_affected() == 1)
}

/// Records a failed try: tried again at `retry_at`, or never when `None`.
pub async fn failed(
    db: &PgPool,
    id: Uuid,
    retry_at: Option<DateTime<Utc>>,
    error: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "update conversation_messages set translation_due_at = $2, translation_error = left($3, 2000)
         where id = $1 and deleted_at is null",
    )
    .bind(id)
    .bind(retry_at)
    .bind(error)
    .execute(db)
    .await?;
    Ok(())
}
