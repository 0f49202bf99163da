//! Refresh tokens and their families (one family per sign-in), kept as SHA-256 hashes. A
//! token is spent by the update that marks it used, so of two calls with the same token one
//! spends it and the other finds it spent: the family then ends (`reused`).

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use crate::domain::Role;

/// A new family and its first token.
pub struct NewFamily<'a> {
    pub id: Uuid,
    pub role: Role,
    pub account_id: Uuid,
    /// The account's token version at the sign-in.
    pub token_version: i32,
    pub expires_at: DateTime<Utc>,
    pub first_token_hash: &'a [u8],
}

/// Opens a family with its first token, in one statement.
#[tracing::instrument(skip_all)]
pub async fn open(db: impl PgExecutor<'_>, family: &NewFamily<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "with family as (
             insert into session_families (id, role, account_id, token_version, expires_at)
             values ($1, $2, $3, $4, $5) returning id)
         insert into refresh_tokens (token_hash, family_id) select $6, id from family",
    )
    .bind(family.id)
    .bind(family.role.as_str())
    .bind(family.account_id)
    .bind(family.token_version)
    .bind(family.expires_at)
    .bind(family.first_token_hash)
    .execute(db)
    .await?;
    Ok(())
}

/// The family a spent token belonged to, as the spending transaction reads it (locked).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Family {
    pub id: Uuid,
    #[sqlx(try_from = "String")]
    pub role: StoredRole,
    pub account_id: Uuid,
    pub token_version: i32,
    pub expires_at: DateTime<Utc>,
    #[sqlx(rename = "end_reason", try_from = "Option<String>")]
    pub ended: Ended,
    /// Whether `expires_at` has passed, by the database's clock.
    pub expired: bool,
}

/// Whether a family ended before its time (`end_reason`, which the table's check keeps to
/// these two).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    No,
    SignedOut,
    /// One of its tokens was sent twice.
    Reused,
}

impl TryFrom<Option<String>> for Ended {
    type Error = String;
    fn try_from(reason: Option<String>) -> Result<Self, String> {
        match reason.as_deref() {
            None => Ok(Ended::No),
            Some("signed_out") => Ok(Ended::SignedOut),
            Some("reused") => Ok(Ended::Reused),
            Some(other) => Err(format!(
                "a session family ended for no known reason: {other}"
            )),
        }
    }
}

/// A family's `role` column (the table's check keeps it to the three roles).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredRole(pub Role);

impl TryFrom<String> for StoredRole {
    type Error = String;
    fn try_from(role: String) -> Result<Self, String> {
        role.parse()
            .map(StoredRole)
            .map_err(|()| format!("a session family of no known role: {role}"))
    }
}

/// What spending a token found.
#[derive(Debug)]
pub enum Spent {
    /// The token was unused and is now spent; its family, locked until the transaction ends.
    Now(Family),
    /// The token was spent before: its family (ended now if it was not already).
    Before,
    /// No such token.
    Unknown,
}

/// Spends the token: marks it used if it was not, in the caller's transaction. A token spent
/// before ends its family as `reused` (the caller commits that, and refuses the call).
#[tracing::instrument(skip_all)]
pub async fn spend(tx: &mut sqlx::PgConnection, token_hash: &[u8]) -> sqlx::Result<Spent> {
    let spent: Option<(Uuid,)> = sqlx::query_as(
        "update refresh_tokens set used_at = now()
         where token_hash = $1 and used_at is null returning family_id",
    )
    .bind(token_hash)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((family_id,)) = spent else {
        let ended = sqlx::query(
            "update session_families set ended_at = coalesce(ended_at, now()),
                 end_reason = coalesce(end_reason, 'reused')
             where id = (select family_id from refresh_tokens where token_hash = $1)",
        )
        .bind(token_hash)
        .execute(&mut *tx)
        .await?;
        return Ok(if ended.rows_affected() == 1 {
            Spent::Before
        } else {
            Spent::Unknown
        });
    };
    let family: Family = sqlx::query_as(
        "select id, role, account_id, token_version, expires_at, end_reason,
                expires_at <= now() as expired
         from session_families where id = $1 for update",
    )
    .bind(family_id)
    .fetch_one(&mut *tx)
    .await?;
    Ok(Spent::Now(family))
}

/// Adds the token that replaces a spent one, in the spending transaction.
#[tracing::instrument(skip_all)]
pub async fn add(db: impl PgExecutor<'_>, family_id: Uuid, token_hash: &[u8]) -> sqlx::Result<()> {
    sqlx::query("insert into refresh_tokens (token_hash, family_id) values ($1, $2)")
        .bind(token_hash)
        .bind(family_id)
        .execute(db)
        .await?;
    Ok(())
}

/// The sign-in a signed-out token belonged to.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SignedOut {
    pub account_id: Uuid,
    #[sqlx(try_from = "String")]
    pub role: StoredRole,
    /// False when the family had ended already.
    pub ended_now: bool,
}

/// Ends the family of the token as signed out; `None` when there is no such token.
#[tracing::instrument(skip_all)]
pub async fn sign_out(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
) -> sqlx::Result<Option<SignedOut>> {
    sqlx::query_as(
        "with family as (
             select f.id, f.account_id, f.role from session_families f
             join refresh_tokens t on t.family_id = f.id
             where t.token_hash = $1),
         ended as (
             update session_families set ended_at = now(), end_reason = 'signed_out'
             where id = (select id from family) and ended_at is null
             returning id)
         select account_id, role, exists (select 1 from ended) as ended_now from family",
    )
    .bind(token_hash)
    .fetch_optional(db)
    .await
}

/// Deletes the families (and their tokens) that ended for good more than `kept_for` ago: a
/// token of theirs sent later is unknown rather than refused as too old.
pub async fn purge_expired(db: &PgPool, kept_for: chrono::Duration) -> sqlx::Result<u64> {
    let done = sqlx::query("delete from session_families where expires_at < $1")
        .bind(Utc::now() - kept_for)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_s_end_and_role_read_as_types_and_nothing_else_passes() {
        assert_eq!(Ended::try_from(None), Ok(Ended::No));
        assert_eq!(
            Ended::try_from(Some("signed_out".to_owned())),
            Ok(Ended::SignedOut)
        );
        assert_eq!(
            Ended::try_from(Some("reused".to_owned())),
            Ok(Ended::Reused)
        );
        assert!(Ended::try_from(Some("expired".to_owned())).is_err());
        assert_eq!(
            StoredRole::try_from("admin".to_owned()),
            Ok(StoredRole(Role::Admin))
        );
        assert!(StoredRole::try_from("owner".to_owned()).is_err());
    }
}
