//! Customer accounts.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::page::PageRequest;
use crate::domain::{Email, Language, PeopleSearch, PersonName, SmsUpdates};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CustomerRow {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub phone_verified: bool,
    pub sms_updates: String,
    pub language: Language,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str =
    "id, name, email::text as email, phone, phone_verified, sms_updates, language, created_at";

pub async fn get(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<CustomerRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from customers where id = $1 and deleted_at is null"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

pub async fn update(
    db: &PgPool,
    id: Uuid,
    name: &PersonName,
    email: &Email,
    language: Option<Language>,
    sms: Option<SmsUpdates>,
) -> sqlx::Result<Option<CustomerRow>> {
    // Language and SMS choice are kept when not given.
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "update customers set name = $2, email = $3, language = coalesce($4, language),
            sms_updates = coalesce($5, sms_updates)
         where id = $1 returning {COLUMNS}"
    )))
    .bind(id)
    .bind(name.as_str())
    .bind(email.as_str())
    .bind(language)
    .bind(sms.map(SmsUpdates::as_str))
    .fetch_optional(db)
    .await
}

/// A page of customers, newest first, those `search` finds when given.
pub async fn list(
    db: &PgPool,
    search: Option<&PeopleSearch>,
    page: &PageRequest,
) -> sqlx::Result<Vec<CustomerRow>> {
    // Each `ilike` is served by a trigram index of its column; the conditions are left out
    // rather than switched off by null parameters, so that a prepared plan can use them.
    let found = match search {
        None => "",
        Some(PeopleSearch {
            phone_pattern: None,
            ..
        }) => "and (name ilike $4 or email::text ilike $4 or phone ilike $4)",
        Some(_) => {
            "and (name ilike $4 or email::text ilike $4 or phone ilike $4 or phone ilike $5)"
        }
    };
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from customers
         where deleted_at is null
           and ($1::timestamptz is null or (created_at, id) < ($1, $2)) {found}
         order by created_at desc, id desc limit $3"
    )))
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit());
    if let Some(search) = search {
        query = query.bind(search.pattern.clone());
        if let Some(phone) = &search.phone_pattern {
            query = query.bind(phone.clone());
        }
    }
    query.fetch_all(db).await
}

/// What a customer gave that identifies them, locked for their deletion; `None` when there
/// is no such customer (or they were deleted already).
pub async fn lock_for_deletion(
    tx: &mut PgConnection,
    id: Uuid,
) -> sqlx::Result<Option<(String, Option<String>)>> {
    sqlx::query_as(
        "select email::text, phone from customers where id = $1 and deleted_at is null for update",
    )
    .bind(id)
    .fetch_optional(tx)
    .await
}

/// The name a deleted customer's row keeps (the apps show it in the reader's language).
pub const DELETED_NAME: &str = "Deleted customer";

/// Removes what identifies a customer while keeping the row their requests, orders, payments
/// and reviews point to: name, email (so the address may sign up again), phone, password,
/// sign-in links and identities, the street of their requests, and the messages written to
/// them. `email` and `phone` are what [`lock_for_deletion`] read.
pub async fn anonymise(
    tx: &mut PgConnection,
    id: Uuid,
    email: &str,
    phone: Option<&str>,
) -> sqlx::Result<()> {
    // Messages to others that named them (the hired professional's) keep their text without
    // the name: the whole name standing alone, so no longer word that holds it changes.
    sqlx::query(
        r"update outbox_messages o
             set body = regexp_replace(
                 o.body, '(^|[^[:alnum:]_])' || n.pattern || '(?=$|[^[:alnum:]_])', '\1-', 'g')
            from (select name,
                         regexp_replace(name, '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g') as pattern
                    from customers where id = $1) n
           where position(n.name in o.body) > 0",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "update customers set name = $2, email = 'deleted-' || id || '@deleted.invalid',
            password_hash = null, phone = null, phone_verified = false, sms_updates = 'no',
            email_verified_at = null, deleted_at = now()
         where id = $1",
    )
    .bind(id)
    .bind(DELETED_NAME)
    .execute(&mut *tx)
    .await?;
    for statement in [
        "delete from social_identities where customer_id = $1",
        "delete from password_resets where role = 'customer' and account_id = $1",
        "delete from email_verifications where role = 'customer' and account_id = $1",
        // Their devices are alerted of nothing more, and forgotten.
        "delete from outbox_messages where channel = 'push' and recipient in (
            select id::text from push_subscriptions where customer_id = $1)",
        "delete from push_subscriptions where customer_id = $1",
        // Messages to others that quoted the street (the hired professional's) keep their
        // text without it.
        "update outbox_messages o set body = replace(o.body, r.line1, '-')
         from repair_requests r
         where r.customer_id = $1 and length(r.line1) >= 5 and position(r.line1 in o.body) > 0",
        // ... and without its postal code (which, with the city, names a few houses).
        "update outbox_messages o set body = replace(o.body, r.postal_code, '-')
         from repair_requests r
         where r.customer_id = $1 and length(r.postal_code) >= 6
           and position(r.postal_code in o.body) > 0",
        // The street goes; the city, province and point (of the postal code or place) stay,
        // rounded to about a kilometre, for the professionals' and the books' records.
        "update repair_requests set line1 = '-', line2 = '', postal_code = '',
            latitude = round(latitude::numeric, 2)::double precision,
            longitude = round(longitude::numeric, 2)::double precision
         where customer_id = $1",
    ] {
        sqlx::query(statement).bind(id).execute(&mut *tx).await?;
    }
    sqlx::query("delete from outbox_messages where lower(recipient) = lower($1) or recipient = $2")
        .bind(email)
        .bind(phone)
        .execute(&mut *tx)
        .await?;
    // Messages to others that quoted them (the hired professional's: the phone and the
    // street) keep their text without them. A full scan, for a rare admin action.
    sqlx::query(
        "update outbox_messages set body = replace(replace(body, $1, '-'), $2, '-')
         where position($1 in body) > 0 or position($2 in body) > 0",
    )
    .bind(email)
    .bind(phone.unwrap_or(email))
    .execute(&mut *tx)
    .await?;
    Ok(())
}
