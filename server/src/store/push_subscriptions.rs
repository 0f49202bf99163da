//! Push subscriptions: the browsers (Web Push) and native apps' devices (APNs, FCM) each
//! customer or professional asked to alert.

use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::accounts::AccountKind;
use crate::domain::{DeviceToken, Language, NativePlatform, PushEndpoint, PushKeys};

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

/// What a push is sent with: a browser's endpoint and keys (`platform` `web`), or a native
/// device's token.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SubscriptionRow {
    pub platform: String,
    pub endpoint: Option<String>,
    pub p256dh: Option<Vec<u8>>,
    pub auth: Option<Vec<u8>>,
    pub device_token: Option<String>,
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
    keep_newest(tx, owner).await?;
    Ok(id)
}

/// Saves a native app's device `token` for `owner`, as [`save`] saves a browser: taken over
/// from another account that had it, the owner's oldest beyond [`MAX_PER_ACCOUNT`] forgotten
/// (browsers and native devices together).
pub async fn save_device(
    tx: &mut PgConnection,
    owner: Owner,
    platform: NativePlatform,
    token: &DeviceToken,
    language: Language,
) -> sqlx::Result<Uuid> {
    let (customer, professional) = owner.columns();
    let id: Uuid = sqlx::query_scalar(
        "insert into push_subscriptions
            (id, customer_id, professional_id, platform, device_token, language)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (platform, device_token) where device_token is not null do update
         set customer_id = excluded.customer_id, professional_id = excluded.professional_id,
             language = excluded.language, created_at = now()
         returning id",
    )
    .bind(Uuid::now_v7())
    .bind(customer)
    .bind(professional)
    .bind(platform.as_str())
    .bind(token.as_str())
    .bind(language)
    .fetch_one(&mut *tx)
    .await?;
    keep_newest(tx, owner).await?;
    Ok(id)
}

/// Forgets `owner`'s subscriptions beyond the newest [`MAX_PER_ACCOUNT`].
async fn keep_newest(tx: &mut PgConnection, owner: Owner) -> sqlx::Result<()> {
    let (customer, professional) = owner.columns();
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
    Ok(())
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

/// Forgets `owner`'s native device `token` of `platform`; false when they have none.
pub async fn remove_device(
    db: impl PgExecutor<'_>,
    owner: Owner,
    platform: NativePlatform,
    token: &str,
) -> sqlx::Result<bool> {
    let (customer, professional) = owner.columns();
    let done = sqlx::query(
        "delete from push_subscriptions
         where platform = $3 and device_token = $4 and customer_id is not distinct from $1
           and professional_id is not distinct from $2",
    )
    .bind(customer)
    .bind(professional)
    .bind(platform.as_str())
    .bind(token)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Forgets every device of `owner` and the pushes still waiting for them (an account closed);
/// how many devices.
pub async fn forget_all_of(db: impl PgExecutor<'_>, owner: Owner) -> sqlx::Result<i64> {
    let (customer, professional) = owner.columns();
    sqlx::query_scalar(
        "with gone as (
             delete from push_subscriptions
             where customer_id is not distinct from $1 and professional_id is not distinct from $2
             returning id::text as id),
         unsent as (
             delete from outbox_messages
             where channel = 'push' and state = 'pending' and recipient in (select id from gone))
         select count(*) from gone",
    )
    .bind(customer)
    .bind(professional)
    .fetch_one(db)
    .await
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
    sqlx::query_as(
        "select platform, endpoint, p256dh, auth, device_token from push_subscriptions
         where id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await
}

/// The devices of these accounts of `kind`: account by account in the order given (a
/// fan-out gives the nearest professional first), each account's oldest device first. The
/// outbox sends them in this order, so one professional's phone does not wait behind every
/// other professional's browser.
pub async fn devices_of(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    accounts: &[Uuid],
) -> sqlx::Result<Vec<Device>> {
    let query = match kind {
        AccountKind::Customer => {
            "select customer_id as account_id, id as subscription_id, language
             from push_subscriptions where customer_id = any($1)
             order by array_position($1, customer_id), created_at, id"
        }
        AccountKind::Professional => {
            "select professional_id as account_id, id as subscription_id, language
             from push_subscriptions where professional_id = any($1)
             order by array_position($1, professional_id), created_at, id"
        }
    };
    sqlx::query_as(query).bind(accounts).fetch_all(db).await
}
