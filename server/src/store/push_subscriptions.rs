//! Web Push subscriptions: the browsers each customer or professional asked to alert.

use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::accounts::AccountKind;
use crate::domain::{Language, PushEndpoint, PushKeys};

/// Devices one account keeps at most: subscribing one more forgets the oldest.
pub const MAX_PER_ACCOUNT: i64 = 10;

/// An account that owns subscriptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    pub kind: AccountKind,
    pub id: Uuid,
}

impl Owner {
    /// `(customer_id, professional_id)`: one of them set.
    fn columns(self) -> (Option<Uuid>, Option<Uuid>) {
        match self.kind {
            AccountKind::Customer => (Some(self.id), None),
            AccountKind::Professional => (None, Some(self.id)),
        }
    }
}

/// What a push is sent with.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SubscriptionRow {
    pub endpoint: String,
    pub p256dh: Vec<u8>,
    pub auth: Vec<u8>,
}

/// One device of an account to alert, in its language.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Device {
    /// The professional or customer it belongs to.
    pub account_id: Uuid,
    pub subscription_id: Uuid,
    pub language: Language,
}

/// Saves `endpoint` for `owner` (taking it over from another account that had it: the
/// browser is theirs now), then forgets the owner's oldest beyond [`MAX_PER_ACCOUNT`].
pub async fn save(
    tx: &mut PgConnection,
    owner: Owner,
    endpoint: &PushEndpoint,
    keys: &PushKeys,
    language: Language,
) -> sqlx::Result<Uuid> {
    let (customer, professional) = owner.columns();
    let id: Uuid = sqlx::query_scalar(
        "insert into push_subscriptions
            (id, customer_id, professional_id, endpoint, p256dh, auth, language)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (endpoint) do update
         set customer_id = excluded.customer_id, professional_id = excluded.professional_id,
             p256dh = excluded.p256dh, auth = excluded.auth, language = excluded.language,
             created_at = now()
         returning id",
    )
    .bind(Uuid::now_v7())
    .bind(customer)
    .bind(professional)
    .bind(endpoint.as_str())
    .bind(keys.p256dh.as_slice())
    .bind(keys.auth.as_slice())
    .bind(language)
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query(
        "delete from push_subscriptions where id in (
            select id from push_subscriptions
            where customer_id is not distinct from $1 and professional_id is not distinct from $2
            order by created_at desc, id desc offset $3)",
    )
    .bind(customer)
    .bind(professional)
    .bind(MAX_PER_ACCOUNT)
    .execute(&mut *tx)
    .await?;
    Ok(id)
}

/// Forgets `owner`'s subscription of `endpoint`; false when they have none.
pub async fn remove(db: impl PgExecutor<'_>, owner: Owner, endpoint: &str) -> sqlx::Result<bool> {
    let (customer, professional) = owner.columns();
    let done = sqlx::query(
        "delete from push_subscriptions
         where endpoint = $3 and customer_id is not distinct from $1
           and professional_id is not distinct from $2",
    )
    .bind(customer)
    .bind(professional)
    .bind(endpoint)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Forgets a subscription its push service no longer knows.
pub async fn delete(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<()> {
    sqlx::query("delete from push_subscriptions where id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// A subscription to send to, if it still exists.
pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<SubscriptionRow>> {
    sqlx::query_as("select endpoint, p256dh, auth from push_subscriptions where id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
}

/// The devices of these accounts of `kind`, oldest first.
pub async fn devices_of(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    accounts: &[Uuid],
) -> sqlx::Result<Vec<Device>> {
    let query = match kind {
        AccountKind::Customer => {
            "select customer_id as account_id, id as subscription_id, language
             from push_subscriptions where customer_id = any($1)
             order by created_at, id"
        }
        AccountKind::Professional => {
            "select professional_id as account_id, id as subscription_id, language
             from push_subscriptions where professional_id = any($1)
             order by created_at, id"
        }
    };
    sqlx::query_as(query).bind(accounts).fetch_all(db).await
}
