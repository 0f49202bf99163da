//! Consents as records (`crate::accounts::consents`): appended, read back per person.

use std::net::IpAddr;

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::accounts::AccountKind;

/// One consent given or withdrawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewConsent<'a> {
    pub subject: &'a str,
    pub version: &'a str,
    pub given: bool,
    pub source: &'a str,
    pub client_address: Option<IpAddr>,
}

/// A consent as recorded.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ConsentRow {
    pub subject: String,
    pub version: String,
    pub given: bool,
    pub source: String,
    pub client_address: Option<String>,
    pub created_at: DateTime<Utc>,
}

pub async fn insert(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
    consent: &NewConsent<'_>,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into consents
             (id, account_kind, account_id, subject, version, given, source, client_address)
         values ($1, $2, $3, $4, $5, $6, $7, $8::inet)",
    )
    .bind(Uuid::now_v7())
    .bind(kind.as_str())
    .bind(id)
    .bind(consent.subject)
    .bind(consent.version)
    .bind(consent.given)
    .bind(consent.source)
    .bind(consent.client_address.map(|a| a.to_string()))
    .execute(db)
    .await?;
    Ok(())
}

/// Every consent of the account, oldest first (at most a few per person: one at sign-up,
/// one per change of their text alerts).
pub async fn of_account(db: &PgPool, kind: AccountKind, id: Uuid) -> sqlx::Result<Vec<ConsentRow>> {
    sqlx::query_as(
        "select subject, version, given, source, host(client_address) as client_address,
                created_at
         from consents where account_kind = $1 and account_id = $2
         order by created_at, id
         limit 500",
    )
    .bind(kind.as_str())
    .bind(id)
    .fetch_all(db)
    .await
}

/// Erases the consents of an erased account.
pub async fn remove_all_of(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
) -> sqlx::Result<u64> {
    let done = sqlx::query("delete from consents where account_kind = $1 and account_id = $2")
        .bind(kind.as_str())
        .bind(id)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
