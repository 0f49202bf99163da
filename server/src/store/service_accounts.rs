//! Service accounts and their keys (`migrations/20261202000300_service_accounts.sql`). Keys
//! are kept as the SHA-256 of their secret only.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use super::page::PageRequest;

/// One service account as admins list it.
#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize)]
pub struct ServiceAccountRow {
    pub id: Uuid,
    pub name: String,
    pub scopes: Vec<String>,
    pub created_at: DateTime<Utc>,
    #[serde(skip)]
    pub created_by_email: Option<String>,
    pub revoked_at: Option<DateTime<Utc>>,
}

/// One key of a service account, without its hash.
#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize)]
pub struct KeyRow {
    pub id: Uuid,
    pub service_account_id: Uuid,
    pub created_at: DateTime<Utc>,
    pub expires_at: Option<DateTime<Utc>>,
    pub last_used_at: Option<DateTime<Utc>>,
}

/// What checking a presented key needs, read in one query by the key's id.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow, serde::Serialize, serde::Deserialize)]
pub struct KeyCheck {
    pub service_account_id: Uuid,
    pub secret_sha256: Vec<u8>,
    pub scopes: Vec<String>,
    pub expires_at: Option<DateTime<Utc>>,
    pub revoked: bool,
}

const ACCOUNT_COLUMNS: &str =
    "s.id, s.name, s.scopes, s.created_at, a.email::text as created_by_email, s.revoked_at";

pub async fn insert(
    db: &mut PgConnection,
    id: Uuid,
    name: &str,
    scopes: &[&str],
    created_by: Uuid,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into service_accounts (id, name, scopes, created_by) values ($1, $2, $3, $4)",
    )
    .bind(id)
    .bind(name)
    .bind(scopes)
    .bind(created_by)
    .execute(db)
    .await?;
    Ok(())
}

/// Adds the account's current key.
pub async fn insert_key(
    db: &mut PgConnection,
    key_id: Uuid,
    account_id: Uuid,
    secret_sha256: &[u8],
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into service_account_keys (id, service_account_id, secret_sha256)
         values ($1, $2, $3)",
    )
    .bind(key_id)
    .bind(account_id)
    .bind(secret_sha256)
    .execute(db)
    .await?;
    Ok(())
}

/// The account, its row locked for the rest of the transaction (a rotation and a revocation
/// never cross).
pub async fn lock(db: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<ServiceAccountRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {ACCOUNT_COLUMNS} from service_accounts s
         left join admins a on a.id = s.created_by where s.id = $1 for update of s"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<ServiceAccountRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {ACCOUNT_COLUMNS} from service_accounts s
         left join admins a on a.id = s.created_by where s.id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// A page of accounts, newest first.
pub async fn list(db: &PgPool, page: &PageRequest) -> sqlx::Result<Vec<ServiceAccountRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {ACCOUNT_COLUMNS} from service_accounts s
         left join admins a on a.id = s.created_by
         where ($1::timestamptz is null or (s.created_at, s.id) < ($1, $2))
         order by s.created_at desc, s.id desc limit $3"
    )))
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .fetch_all(db)
    .await
}

/// The keys of these accounts that work or worked last (at most the ten newest each), newest
/// first.
pub async fn keys_of(db: impl PgExecutor<'_>, accounts: &[Uuid]) -> sqlx::Result<Vec<KeyRow>> {
    sqlx::query_as(
        "select id, service_account_id, created_at, expires_at, last_used_at from (
             select k.*, row_number() over (
                 partition by service_account_id order by created_at desc, id desc) as n
             from service_account_keys k where service_account_id = any($1)) k
         where n <= 10 order by service_account_id, created_at desc, id desc",
    )
    .bind(accounts)
    .fetch_all(db)
    .await
}

/// Gives the account's keys still working an end `grace` from now (keeping an earlier one),
/// so that a new key can be added: the ids of the keys changed.
pub async fn expire_keys(
    db: &mut PgConnection,
    account_id: Uuid,
    grace: std::time::Duration,
) -> sqlx::Result<Vec<Uuid>> {
    let grace_ms = i64::try_from(grace.as_millis()).unwrap_or(i64::MAX);
    sqlx::query_scalar(
        "update service_account_keys
         set expires_at = least(coalesce(expires_at, 'infinity'),
                                now() + make_interval(secs => $2::float8 / 1000))
         where service_account_id = $1 and (expires_at is null or expires_at > now())
         returning id",
    )
    .bind(account_id)
    .bind(grace_ms)
    .fetch_all(db)
    .await
}

/// Revokes an account that was not revoked: whether it was (the caller locked it first).
pub async fn revoke(db: &mut PgConnection, id: Uuid, admin_id: Uuid) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update service_accounts set revoked_at = now(), revoked_by = $2
         where id = $1 and revoked_at is null",
    )
    .bind(id)
    .bind(admin_id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The ids of all the account's keys.
pub async fn key_ids(db: impl PgExecutor<'_>, account_id: Uuid) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar("select id from service_account_keys where service_account_id = $1")
        .bind(account_id)
        .fetch_all(db)
        .await
}

/// What checking the key `key_id` needs; `None` for a key nobody has.
pub async fn key_check(db: impl PgExecutor<'_>, key_id: Uuid) -> sqlx::Result<Option<KeyCheck>> {
    sqlx::query_as(
        "select k.service_account_id, k.secret_sha256, s.scopes, k.expires_at,
                s.revoked_at is not null as revoked
         from service_account_keys k join service_accounts s on s.id = k.service_account_id
         where k.id = $1",
    )
    .bind(key_id)
    .fetch_optional(db)
    .await
}

/// Notes that the key was used now.
pub async fn touch(db: impl PgExecutor<'_>, key_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("update service_account_keys set last_used_at = now() where id = $1")
        .bind(key_id)
        .execute(db)
        .await?;
    Ok(())
}
