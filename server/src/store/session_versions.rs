//! The token version of every account (customers, professionals and admins alike).

use sqlx::{AssertSqlSafe, PgExecutor};
use uuid::Uuid;

use crate::domain::Role;

/// Table names come from the role only, never from input.
fn sql(role: Role, template: &str) -> AssertSqlSafe<String> {
    let table = match role {
        Role::Customer => "customers",
        Role::Professional => "professionals",
        Role::Admin => "admins",
    };
    AssertSqlSafe(template.replace("{table}", table))
}

/// The account's current token version; `None` when the account does not exist. Through a
/// transaction, it reads what that transaction sees.
#[tracing::instrument(skip_all)]
pub async fn current(db: impl PgExecutor<'_>, role: Role, id: Uuid) -> sqlx::Result<Option<i32>> {
    let row: Option<(i32,)> =
        sqlx::query_as(sql(role, "select token_version from {table} where id = $1"))
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|(version,)| version))
}

/// Moves the account to its next token version, in the transaction of the change that ends
/// its sessions, and returns it; `None` when the account does not exist.
#[tracing::instrument(skip_all)]
pub async fn bump(db: impl PgExecutor<'_>, role: Role, id: Uuid) -> sqlx::Result<Option<i32>> {
    let row: Option<(i32,)> = sqlx::query_as(sql(
        role,
        "update {table} set token_version = token_version + 1 where id = $1
         returning token_version",
    ))
    .bind(id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|(version,)| version))
}
