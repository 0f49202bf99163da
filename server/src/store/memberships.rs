//! The membership: the professional's paid-until time (the one source of truth) and the
//! months granted to it.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::outbox::NewOutboxMessage;
use crate::domain::Language;

/// What the membership gate and a purchase look at.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Standing {
    pub state: String,
    pub phone_verified: bool,
    pub membership_expires_at: Option<DateTime<Utc>>,
    /// Their home base's province code (their business address): where what the platform
    /// sells them is taxed; empty until their profile is first saved.
    pub home_province: String,
}

/// `None` when there is no such professional.
pub async fn standing(db: &PgPool, professional_id: Uuid) -> sqlx::Result<Option<Standing>> {
    sqlx::query_as(
        "select state, phone_verified, membership_expires_at, home_province
         from professionals where id = $1",
    )
    .bind(professional_id)
    .fetch_optional(db)
    .await
}

/// One month granted by the purchase `(professional_id, request_id)`.
pub struct Grant {
    pub professional_id: Uuid,
    pub request_id: Uuid,
    pub payment_id: Option<Uuid>,
    pub coupon_id: Option<Uuid>,
}

/// Who gets the receipt of a month.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Member {
    pub name: String,
    pub email: String,
    pub language: Language,
    pub membership_expires_at: Option<DateTime<Utc>>,
    /// Their IANA time zone, empty where their place has none.
    pub time_zone: String,
}

/// Extends the membership for `grant` once: under the professional's row lock, `period`
/// turns the current end into the new period's (start, end), the end becomes the
/// membership's, and the message `receipt` makes for the new end is written to the outbox,
/// all in one transaction. A purchase granted before changes nothing. False when there is
/// no such professional.
pub async fn grant(
    db: &PgPool,
    grant: &Grant,
    period: impl FnOnce(Option<DateTime<Utc>>) -> (DateTime<Utc>, DateTime<Utc>),
    receipt: impl FnOnce(&Member, DateTime<Utc>) -> NewOutboxMessage,
) -> sqlx::Result<bool> {
    let mut tx = crate::store::transaction::begin(db).await?;
    let member: Option<Member> = sqlx::query_as(
        "select name, email::text as email, language, membership_expires_at, time_zone
         from professionals where id = $1 for update",
    )
    .bind(grant.professional_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(member) = member else {
        return Ok(false);
    };
    let (starts_at, ends_at) = period(member.membership_expires_at);
    let inserted = sqlx::query(
        "insert into membership_periods
             (id, professional_id, request_id, payment_id, coupon_id, starts_at, ends_at)
         values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing",
    )
    .bind(Uuid::now_v7())
    .bind(grant.professional_id)
    .bind(grant.request_id)
    .bind(grant.payment_id)
    .bind(grant.coupon_id)
    .bind(starts_at)
    .bind(ends_at)
    .execute(&mut *tx)
    .await?;
    if inserted.rows_affected() == 1 {
        sqlx::query("update professionals set membership_expires_at = $2 where id = $1")
            .bind(grant.professional_id)
            .bind(ends_at)
            .execute(&mut *tx)
            .await?;
        super::outbox::insert(&mut *tx, &receipt(&member, ends_at)).await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// The request_id of the purchase call that started a membership payment.
pub async fn purchase_request_id(
    db: &PgPool,
    payer_id: Uuid,
    payment_id: Uuid,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar(
        "select request_id from payment_attempts
         where actor_id = $1 and payment_id = $2 and operation = 'charge'
         order by started_at limit 1",
    )
    .bind(payer_id)
    .bind(payment_id)
    .fetch_optional(db)
    .await
}

/// Writes a reminder for each membership ending within `within` that was not reminded for
/// this end yet, marking it in the same transaction; at most `batch` at a time, rows other
/// processes hold are skipped. Answers how many were written.
pub async fn remind_due(
    db: &PgPool,
    within: chrono::Duration,
    batch: i64,
    reminder: impl Fn(Uuid, &Member, DateTime<Utc>) -> NewOutboxMessage,
) -> sqlx::Result<usize> {
    let mut tx = crate::store::transaction::begin(db).await?;
    let due: Vec<(Uuid, Member)> =
        sqlx::query_as::<_, (Uuid, String, String, Language, DateTime<Utc>, String)>(
            "select id, name, email::text, language, membership_expires_at, time_zone from professionals
         where membership_expires_at > now() and membership_expires_at <= now() + $1
           and membership_reminded_for is distinct from membership_expires_at
         order by membership_expires_at limit $2
         for update skip locked",
        )
        .bind(within)
        .bind(batch)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|(id, name, email, language, end, time_zone)| {
            let member = Member {
                name,
                email,
                language,
                membership_expires_at: Some(end),
                time_zone,
            };
            (id, member)
        })
        .collect();
    for (id, member) in &due {
        let Some(end) = member.membership_expires_at else {
            continue;
        };
        super::outbox::insert(&mut *tx, &reminder(*id, member, end)).await?;
        sqlx::query("update professionals set membership_reminded_for = $2 where id = $1")
            .bind(id)
            .bind(end)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(due.len())
}

/// [`Membership::is_active`](crate::billing::membership::Membership::is_active) as a SQL condition, for queries over many professionals
/// (`crate::matching`): `expires_at` is the paid-until column, `now` the instant.
pub fn active_sql(expires_at: &str, now: &str) -> String {
    format!("({expires_at} is not null and {expires_at} > {now})")
}
