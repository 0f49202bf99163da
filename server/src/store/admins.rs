//! Administrator accounts.

use sqlx::PgPool;
use uuid::Uuid;

use crate::domain::{Email, Language};

/// Creates the admin unless one with this email exists; tells whether it was created.
pub async fn insert_if_missing(
    db: &PgPool,
    email: &Email,
    name: &str,
    password_hash: &str,
    language: Language,
) -> sqlx::Result<bool> {
    insert(db, Uuid::now_v7(), email, name, password_hash, language).await
}

/// [`insert_if_missing`] with the id chosen by the caller (an English-reading admin).
pub async fn insert_with_id(
    db: &PgPool,
    id: Uuid,
    email: &Email,
    name: &str,
    password_hash: &str,
) -> sqlx::Result<bool> {
    insert(db, id, email, name, password_hash, Language::English).await
}

#[tracing::instrument(skip_all)]
async fn insert(
    db: &PgPool,
    id: Uuid,
    email: &Email,
    name: &str,
    password_hash: &str,
    language: Language,
) -> sqlx::Result<bool> {
    let inserted = sqlx::query(
        "insert into admins (id, email, name, password_hash, language) values ($1, $2, $3, $4, $5)
         on conflict (email) do nothing",
    )
    .bind(id)
    .bind(email.as_str())
    .bind(name)
    .bind(password_hash)
    .bind(language)
    .execute(db)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

#[derive(Debug, sqlx::FromRow)]
pub struct AdminRow {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub password_hash: String,
}

pub async fn find_by_email(db: &PgPool, email: &str) -> sqlx::Result<Option<AdminRow>> {
    sqlx::query_as(
        "select id, name, email::text as email, password_hash from admins where email = $1::citext",
    )
    .bind(email.trim())
    .fetch_optional(db)
    .await
}
