//! Copies of one person's data (`data_exports`): asked for, claimed by a worker with a
//! lease, ready with their archive's key, expired once the file is gone. Each change names
//! the state it starts from in its statement.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::accounts::AccountKind;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportRow {
    pub id: Uuid,
    pub account_kind: String,
    pub account_id: Uuid,
    pub requested_by_admin: Option<Uuid>,
    pub state: String,
    pub requested_at: DateTime<Utc>,
    pub attempts: i32,
    pub ready_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    pub file_key: Option<String>,
    pub size_bytes: Option<i64>,
}

impl ExportRow {
    pub fn kind(&self) -> AccountKind {
        if self.account_kind == "professional" {
            AccountKind::Professional
        } else {
            AccountKind::Customer
        }
    }
}

const COLUMNS: &str = "id, account_kind, account_id, requested_by_admin, state, requested_at,
    attempts, ready_at, expires_at, file_key, size_bytes";

/// Asks for a copy of account `id`'s data: none -> PREPARING. `None` when one is being
/// prepared already (one at a time per person).
pub async fn request(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
    by_admin: Option<Uuid>,
) -> sqlx::Result<Option<ExportRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "insert into data_exports (id, account_kind, account_id, requested_by_admin)
         values ($1, $2, $3, $4)
         on conflict (account_kind, account_id) where state = 'preparing' do nothing
         returning {COLUMNS}"
    )))
    .bind(Uuid::now_v7())
    .bind(kind.as_str())
    .bind(id)
    .bind(by_admin)
    .fetch_optional(db)
    .await
}

/// Account `id`'s latest export, if any.
pub async fn latest_of(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
) -> sqlx::Result<Option<ExportRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from data_exports where account_kind = $1 and account_id = $2
         order by requested_at desc, id desc limit 1"
    )))
    .bind(kind.as_str())
    .bind(id)
    .fetch_optional(db)
    .await
}

/// Claims the oldest export waiting to be prepared whose lease is free, for `lease_secs`.
pub async fn claim(db: impl PgExecutor<'_>, lease_secs: f64) -> sqlx::Result<Option<ExportRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "update data_exports e
         set lease_until = now() + make_interval(secs => $1), attempts = e.attempts + 1
         from (select id from data_exports
               where state = 'preparing' and (lease_until is null or lease_until < now())
               order by requested_at limit 1
               for update skip locked) due
         where e.id = due.id
         returning {}",
        COLUMNS
            .split(", ")
            .map(|column| format!("e.{}", column.trim()))
            .collect::<Vec<_>>()
            .join(", ")
    )))
    .bind(lease_secs)
    .fetch_optional(db)
    .await
}

/// PREPARING -> READY with its archive, downloadable until `expires_at`; false when it was
/// no longer being prepared.
pub async fn ready(
    db: impl PgExecutor<'_>,
    id: Uuid,
    file_key: &str,
    size_bytes: i64,
    expires_at: DateTime<Utc>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update data_exports set state = 'ready', file_key = $2, size_bytes = $3,
             ready_at = now(), expires_at = $4, lease_until = null
         where id = $1 and state = 'preparing'",
    )
    .bind(id)
    .bind(file_key)
    .bind(size_bytes)
    .bind(expires_at)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// PREPARING -> FAILED after its last try.
pub async fn fail(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<()> {
    sqlx::query(
        "update data_exports set state = 'failed', lease_until = null
         where id = $1 and state = 'preparing'",
    )
    .bind(id)
    .execute(db)
    .await?;
    Ok(())
}

/// READY -> EXPIRED for up to `limit` exports past their time: the keys of their files, to
/// delete once this has committed.
pub async fn expire_due(
    tx: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<String>> {
    let keys: Vec<Option<String>> = sqlx::query_scalar(
        "update data_exports e set state = 'expired', file_key = null
         from (select id, file_key from data_exports
               where state = 'ready' and expires_at <= $1
               order by expires_at limit $2 for update skip locked) due
         where e.id = due.id
         returning due.file_key",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(tx)
    .await?;
    Ok(keys.into_iter().flatten().collect())
}
