//! Page texts set by admins, per page and language (`page_texts`, `page_versions`).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, PgPool};

use crate::domain::Language;

/// What admins set for one page in one language: only the fields they set.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct StoredPage {
    /// 0 while nothing was ever set.
    pub version: i64,
    pub updated_at: Option<DateTime<Utc>>,
    pub values: BTreeMap<String, String>,
}

pub async fn read(db: &PgPool, page: &str, language: Language) -> sqlx::Result<StoredPage> {
    let version: Option<(i64, DateTime<Utc>)> = sqlx::query_as(
        "select version, updated_at from page_versions where page = $1 and language = $2",
    )
    .bind(page)
    .bind(language)
    .fetch_optional(db)
    .await?;
    Ok(StoredPage {
        version: version.map_or(0, |(v, _)| v),
        updated_at: version.map(|(_, at)| at),
        values: values(db, page, language).await?,
    })
}

/// Locks the page's version row (creating it at version 0) and returns the version, so that
/// two editors of one page and language take turns.
pub async fn lock_version(
    tx: &mut PgConnection,
    page: &str,
    language: Language,
) -> sqlx::Result<i64> {
    sqlx::query(
        "insert into page_versions (page, language) values ($1, $2)
         on conflict (page, language) do nothing",
    )
    .bind(page)
    .bind(language)
    .execute(&mut *tx)
    .await?;
    let (version,): (i64,) = sqlx::query_as(
        "select version from page_versions where page = $1 and language = $2 for update",
    )
    .bind(page)
    .bind(language)
    .fetch_one(&mut *tx)
    .await?;
    Ok(version)
}

/// Sets (or, with `None`, clears back to the default) each field, and bumps the version.
pub async fn write(
    tx: &mut PgConnection,
    page: &str,
    language: Language,
    changes: &BTreeMap<&str, Option<String>>,
) -> sqlx::Result<(i64, DateTime<Utc>)> {
    for (field, value) in changes {
        match value {
            Some(value) => {
                sqlx::query(
                    "insert into page_texts (page, language, field, value) values ($1, $2, $3, $4)
                     on conflict (page, language, field) do update set value = excluded.value",
                )
                .bind(page)
                .bind(language)
                .bind(field)
                .bind(value)
                .execute(&mut *tx)
                .await?;
            }
            None => {
                sqlx::query(
                    "delete from page_texts where page = $1 and language = $2 and field = $3",
                )
                .bind(page)
                .bind(language)
                .bind(field)
                .execute(&mut *tx)
                .await?;
            }
        }
    }
    sqlx::query_as(
        "update page_versions set version = version + 1, updated_at = now()
         where page = $1 and language = $2 returning version, updated_at",
    )
    .bind(page)
    .bind(language)
    .fetch_one(&mut *tx)
    .await
}

/// The fields set now (inside a change's transaction too, for the audit's "before").
pub async fn values(
    db: impl PgExecutor<'_>,
    page: &str,
    language: Language,
) -> sqlx::Result<BTreeMap<String, String>> {
    let values: Vec<(String, String)> =
        sqlx::query_as("select field, value from page_texts where page = $1 and language = $2")
            .bind(page)
            .bind(language)
            .fetch_all(db)
            .await?;
    Ok(values.into_iter().collect())
}
