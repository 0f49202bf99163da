//! The service catalogue.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ServiceRow {
    pub id: Uuid,
    pub position: i32,
    pub name_en: String,
    pub name_fr: String,
    pub description_en: String,
    pub description_fr: String,
    pub icon_key: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, position, name_en, name_fr, description_en, description_fr, icon_key, created_at, updated_at";

pub async fn list(db: &PgPool) -> sqlx::Result<Vec<ServiceRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from services order by position, id"
    )))
    .fetch_all(db)
    .await
}

pub async fn get(db: &PgPool, id: Uuid) -> sqlx::Result<Option<ServiceRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from services where id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// Which of these ids are not in the catalogue.
pub async fn unknown_ids(db: &PgPool, ids: &[Uuid]) -> sqlx::Result<Vec<Uuid>> {
    let rows: Vec<(Uuid,)> = sqlx::query_as(
        "select id from unnest($1::uuid[]) as wanted(id)
         where not exists (select 1 from services s where s.id = wanted.id)",
    )
    .bind(ids)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}
