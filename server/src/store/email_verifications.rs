//! Email-verification links, kept as SHA-256 hashes with the address they prove.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::accounts::{self, AccountKind};

pub async fn insert(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    account_id: Uuid,
    email: &str,
    token_hash: &[u8],
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into email_verifications (token_hash, role, account_id, email, expires_at)
         values ($1, $2, $3, $4, $5)",
    )
    .bind(token_hash)
    .bind(kind.as_str())
    .bind(account_id)
    .bind(email)
    .bind(expires_at)
    .execute(db)
    .await?;
    Ok(())
}

/// Uses the link up and marks the address verified, in one transaction. `None` when the
/// link is unknown, used or expired, or the account's email is no longer the one it proves.
pub async fn confirm(db: &PgPool, token_hash: &[u8]) -> sqlx::Result<Option<(AccountKind, Uuid)>> {
    let mut tx = crate::store::transaction::begin(db).await?;
    let link: Option<(String, Uuid, String)> = sqlx::query_as(
        "delete from email_verifications where token_hash = $1 and expires_at > now()
         returning role, account_id, email::text",
    )
    .bind(token_hash)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((role, account_id, email)) = link else {
        return Ok(None);
    };
    let kind = match role.as_str() {
        "professional" => AccountKind::Professional,
        _ => AccountKind::Customer,
    };
    if !accounts::mark_email_verified(&mut *tx, kind, account_id, &email).await? {
        return Ok(None);
    }
    tx.commit().await?;
    Ok(Some((kind, account_id)))
}

/// Deletes the links past their expiry.
pub async fn purge_expired(db: &PgPool) -> sqlx::Result<u64> {
    let done = sqlx::query("delete from email_verifications where expires_at < now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
