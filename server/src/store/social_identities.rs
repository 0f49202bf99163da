//! Google and Facebook identities linked to accounts, by the provider's stable subject.

use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::accounts::AccountKind;

/// The account this provider's subject signs in to, for the role.
pub async fn find(
    db: &PgPool,
    provider: &str,
    subject: &str,
    kind: AccountKind,
) -> sqlx::Result<Option<Uuid>> {
    let row: Option<(Option<Uuid>, Option<Uuid>)> = sqlx::query_as(
        "select customer_id, professional_id from social_identities
         where provider = $1 and subject = $2 and role = $3",
    )
    .bind(provider)
    .bind(subject)
    .bind(kind.as_str())
    .fetch_optional(db)
    .await?;
    Ok(row.and_then(|(customer, professional)| customer.or(professional)))
}

/// Links the subject to the account (nothing when this very link exists already).
pub async fn link(
    db: impl PgExecutor<'_>,
    provider: &str,
    subject: &str,
    kind: AccountKind,
    account_id: Uuid,
) -> sqlx::Result<()> {
    let (customer, professional) = match kind {
        AccountKind::Customer => (Some(account_id), None),
        AccountKind::Professional => (None, Some(account_id)),
    };
    sqlx::query(
        "insert into social_identities (provider, subject, role, customer_id, professional_id)
         values ($1, $2, $3, $4, $5)
         on conflict on constraint social_identities_subject_key do nothing",
    )
    .bind(provider)
    .bind(subject)
    .bind(kind.as_str())
    .bind(customer)
    .bind(professional)
    .execute(db)
    .await?;
    Ok(())
}
