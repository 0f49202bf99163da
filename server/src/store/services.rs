//! The service catalogue.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize)]
pub struct ServiceRow {
    pub id: Uuid,
    pub position: i32,
    pub name_en: String,
    pub name_fr: String,
    pub description_en: String,
    pub description_fr: String,
    pub icon_key: Option<String>,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl ServiceRow {
    /// Changes whenever the service changes (AIP-154).
    pub fn etag(&self) -> String {
        self.updated_at.timestamp_micros().to_string()
    }
}

const COLUMNS: &str = "id, position, name_en, name_fr, description_en, description_fr, icon_key, active, created_at, updated_at";

/// The catalogue in order: the active services, then (when asked) the archived ones.
pub async fn list(db: &PgPool, include_archived: bool) -> sqlx::Result<Vec<ServiceRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from services where active or $1
         order by active desc, position, name_en, id"
    )))
    .bind(include_archived)
    .fetch_all(db)
    .await
}

/// Locks a service for a change.
pub async fn get_for_update(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<ServiceRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from services where id = $1 for update"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// Whether a repair request or a professional names the service.
pub async fn in_use(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from repair_requests where service_id = $1)
             or exists (select 1 from professional_services where service_id = $1)",
    )
    .bind(id)
    .fetch_one(db)
    .await
}

pub async fn archive(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<ServiceRow> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "update services set active = false where id = $1 returning {COLUMNS}"
    )))
    .bind(id)
    .fetch_one(db)
    .await
}

pub async fn delete(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<()> {
    sqlx::query("delete from services where id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
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
