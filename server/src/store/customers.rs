//! Customer accounts.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
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
    pub language: String,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str =
    "id, name, email::text as email, phone, phone_verified, sms_updates, language, created_at";

pub async fn get(db: &PgPool, id: Uuid) -> sqlx::Result<Option<CustomerRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from customers where id = $1"
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
    .bind(language.map(Language::as_str))
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
         where ($1::timestamptz is null or (created_at, id) < ($1, $2)) {found}
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
