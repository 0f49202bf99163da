//! Machine translations of repair requests' descriptions (`repair_request_translations`):
//! made due in the transaction that writes a description, claimed by the translation pass
//! (`crate::requests::translations`) with `for update skip locked` and a lease, so several
//! server processes never translate one description at once.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::domain::Language;

/// A description waiting for its translation.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Due {
    pub repair_request_id: Uuid,
    pub description: String,
    pub description_language: Language,
    pub target_language: Language,
    /// Tries of this description, this one included.
    pub attempts: i32,
}

/// Asks for a translation of the request's current description into `target`, dropping any
/// translation of an earlier one.
pub async fn make_due(
    tx: &mut PgConnection,
    request_id: Uuid,
    target: Language,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into repair_request_translations (repair_request_id, target_language, due_at)
         values ($1, $2, now())
         on conflict (repair_request_id) do update set target_language = excluded.target_language,
             translation = null, attempts = 0, due_at = now(), last_error = null",
    )
    .bind(request_id)
    .bind(target)
    .execute(tx)
    .await?;
    Ok(())
}

/// Claims up to `limit` due descriptions until `lease_until`, counting a try of each.
pub async fn claim(db: &PgPool, limit: i64, lease_until: DateTime<Utc>) -> sqlx::Result<Vec<Due>> {
    sqlx::query_as(
        "with due as (
            select repair_request_id from repair_request_translations
            where due_at <= now() order by due_at limit $1 for update skip locked
         ), claimed as (
            update repair_request_translations t set due_at = $2, attempts = t.attempts + 1
            from due where t.repair_request_id = due.repair_request_id
            returning t.repair_request_id, t.target_language, t.attempts
         )
         select c.repair_request_id, r.description, r.description_language, c.target_language,
             c.attempts
         from claimed c join repair_requests r on r.id = c.repair_request_id",
    )
    .bind(limit)
    .bind(lease_until)
    .fetch_all(db)
    .await
}

/// Stores the translation of `description`, unless the request's description changed
/// meanwhile (its new translation is then due already).
pub async fn store(
    db: &PgPool,
    request_id: Uuid,
    description: &str,
    translation: &str,
) -> sqlx::Result<bool> {
    let stored = sqlx::query(
        "update repair_request_translations t set translation = $3, due_at = null,
             last_error = null
         from repair_requests r
         where t.repair_request_id = $1 and r.id = t.repair_request_id and r.description = $2",
    )
    .bind(request_id)
    .bind(description)
    .bind(translation)
    .execute(db)
    .await?;
    Ok(stored.rows_affected() == 1)
}

/// Records a failed try: tried again at `retry_at`, or never when `None`.
pub async fn failed(
    db: &PgPool,
    request_id: Uuid,
    attempts: i32,
    retry_at: Option<DateTime<Utc>>,
    error: &str,
) -> sqlx::Result<()> {
    // A description changed meanwhile was made due afresh (attempts back to 0): leave it.
    sqlx::query(
        "update repair_request_translations set due_at = $3, last_error = $4
         where repair_request_id = $1 and attempts = $2",
    )
    .bind(request_id)
    .bind(attempts)
    .bind(retry_at)
    .bind(error)
    .execute(db)
    .await?;
    Ok(())
}
