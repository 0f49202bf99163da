//! Administrator accounts.

use sqlx::PgPool;
use uuid::Uuid;

use crate::domain::Email;

/// Creates the admin unless one with this email exists; tells whether it was created.
#[tracing::instrument(skip_all)]
pub async fn insert_if_missing(
    db: &PgPool,
    email: &Email,
    name: &str,
    password_hash: &str,
) -> sqlx::Result<bool> {
    let inserted = sqlx::query(
        "insert into admins (id, email, name, password_hash) values ($1, $2, $3, $4)
         on conflict (email) do nothing",
    )
    .bind(Uuid::now_v7())
    .bind(email.as_str())
    .bind(name)
    .bind(password_hash)
    .execute(db)
    .await?;
    Ok(inserted.rows_affected() == 1)
}
