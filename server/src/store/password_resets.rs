//! Password-reset tokens, kept as SHA-256 hashes: a leaked table cannot reset anything.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::accounts::AccountKind;

pub async fn insert(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    account_id: Uuid,
    token_hash: &[u8],
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into password_resets (token_hash, role, account_id, expires_at) values ($1, $2, $3, $4)",
    )
    .bind(token_hash)
    .bind(kind.as_str())
    .bind(account_id)
    .bind(expires_at)
    .execute(db)
    .await?;
    Ok(())
}

/// Whether the token is unused, unexpired and for this account.
pub async fn is_usable(
    db: &PgPool,
    kind: AccountKind,
    account_id: Uuid,
    token_hash: &[u8],
) -> sqlx::Result<bool> {
    let row: Option<(i32,)> = sqlx::query_as(
        "select 1 from password_resets
         where token_hash = $1 and role = $2 and account_id = $3 and used_at is null and expires_at > now()",
    )
    .bind(token_hash)
    .bind(kind.as_str())
    .bind(account_id)
    .fetch_optional(db)
    .await?;
    Ok(row.is_some())
}

/// Uses the token up and sets the password in one transaction; false when the token is not
/// usable. Every other open token of the account is used up too, and its sessions end (its
/// token version moves on).
pub async fn redeem(
    db: &PgPool,
    kind: AccountKind,
    account_id: Uuid,
    token_hash: &[u8],
    password_hash: &str,
) -> sqlx::Result<bool> {
    let mut tx = crate::store::transaction::begin(db).await?;
    let used = sqlx::query(
        "update password_resets set used_at = now()
         where token_hash = $1 and role = $2 and account_id = $3 and used_at is null and expires_at > now()",
    )
    .bind(token_hash)
    .bind(kind.as_str())
    .bind(account_id)
    .execute(&mut *tx)
    .await?;
    if used.rows_affected() != 1 {
        return Ok(false);
    }
    sqlx::query("update password_resets set used_at = now() where role = $1 and account_id = $2 and used_at is null")
        .bind(kind.as_str())
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
    // The link came by email: the address is proven too.
    let table = match kind {
        AccountKind::Customer => {
            "update customers set password_hash = $2,
                email_verified_at = coalesce(email_verified_at, now()) where id = $1"
        }
        AccountKind::Professional => {
            "update professionals set password_hash = $2,
                email_verified_at = coalesce(email_verified_at, now()) where id = $1"
        }
    };
    sqlx::query(table)
        .bind(account_id)
        .bind(password_hash)
        .execute(&mut *tx)
        .await?;
    super::session_versions::bump(&mut *tx, kind.role(), account_id).await?;
    tx.commit().await?;
    Ok(true)
}

/// Deletes the links past their expiry (used or not): they can never be used again.
pub async fn purge_expired(db: &PgPool) -> sqlx::Result<u64> {
    let done = sqlx::query("delete from password_resets where expires_at < now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
