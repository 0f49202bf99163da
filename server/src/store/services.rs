//! The service catalogue. Positions are 1..n for the active services and go on after them
//! for the archived ones (a unique constraint checked at commit); every change that moves
//! services takes [`lock_catalogue`] first and ends with [`renumber`].

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use crate::domain::Language;

/// A service's name in both languages, as the rows joined to their service carry it (the
/// columns `service_name_en` and `service_name_fr`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ServiceNames {
    #[sqlx(rename = "service_name_en")]
    pub en: String,
    #[sqlx(rename = "service_name_fr")]
    pub fr: String,
}

impl ServiceNames {
    /// The name a reader of `language` reads.
    pub fn of(&self, language: Language) -> &str {
        language.pick(&self.en, &self.fr)
    }
}

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
    let change = ServiceUpdate {
        active: Some(false),
        ..ServiceUpdate::default()
    };
    update(db, id, &change).await
}

pub async fn delete(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<()> {
    sqlx::query("delete from services where id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn get(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<ServiceRow>> {
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

/// One catalogue change at a time (creating, editing, reordering, removing), so positions
/// computed from the catalogue stay true until the change commits. Readers are not held up.
pub async fn lock_catalogue(db: &mut PgConnection) -> sqlx::Result<()> {
    sqlx::query("lock table services in share row exclusive mode")
        .execute(db)
        .await?;
    Ok(())
}

/// A new service's fields, already valid.
#[derive(Debug)]
pub struct NewServiceRow<'a> {
    pub id: Uuid,
    pub name_en: &'a str,
    pub name_fr: &'a str,
    pub description_en: &'a str,
    pub description_fr: &'a str,
    pub icon_key: Option<&'a str>,
}

/// Adds an active service after every other one; [`renumber`] then puts it right after the
/// active services. Take [`lock_catalogue`] first.
pub async fn insert(db: impl PgExecutor<'_>, new: &NewServiceRow<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "insert into services (id, position, name_en, name_fr, description_en, description_fr, icon_key)
         values ($1, (select coalesce(max(position), 0) + 1 from services), $2, $3, $4, $5, $6)",
    )
    .bind(new.id)
    .bind(new.name_en)
    .bind(new.name_fr)
    .bind(new.description_en)
    .bind(new.description_fr)
    .bind(new.icon_key)
    .execute(db)
    .await?;
    Ok(())
}

/// The fields an update sets; `None` leaves a field as it is (`icon_key: Some(None)` removes
/// the icon).
#[derive(Debug, Default)]
pub struct ServiceUpdate<'a> {
    pub name_en: Option<&'a str>,
    pub name_fr: Option<&'a str>,
    pub description_en: Option<&'a str>,
    pub description_fr: Option<&'a str>,
    pub icon_key: Option<Option<&'a str>>,
    pub active: Option<bool>,
}

/// Changes a service. One that is archived or brought back moves after every other service,
/// so [`renumber`] puts it last among the archived or last among the active ones. Take
/// [`lock_catalogue`] first when `active` changes.
pub async fn update(
    db: impl PgExecutor<'_>,
    id: Uuid,
    change: &ServiceUpdate<'_>,
) -> sqlx::Result<ServiceRow> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "update services set
             name_en = coalesce($2, name_en),
             name_fr = coalesce($3, name_fr),
             description_en = coalesce($4, description_en),
             description_fr = coalesce($5, description_fr),
             icon_key = case when $6 then $7 else icon_key end,
             active = coalesce($8, active),
             position = case when $8 is distinct from active and $8 is not null
                             then (select max(position) + 1 from services)
                             else position end
         where id = $1 returning {COLUMNS}"
    )))
    .bind(id)
    .bind(change.name_en)
    .bind(change.name_fr)
    .bind(change.description_en)
    .bind(change.description_fr)
    .bind(change.icon_key.is_some())
    .bind(change.icon_key.flatten())
    .bind(change.active)
    .fetch_one(db)
    .await
}

/// Closes the gaps: the active services take 1..n in their order, the archived ones follow.
/// Only the services whose position changes are written.
pub async fn renumber(db: impl PgExecutor<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "update services s set position = o.n
         from (select id, row_number() over (order by active desc, position, name_en, id) as n
               from services) o
         where s.id = o.id and s.position <> o.n",
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The active services' ids in catalogue order.
pub async fn active_ids(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar("select id from services where active order by position, name_en, id")
        .fetch_all(db)
        .await
}

/// Gives the services `ids` the positions 1..n in that order. `ids` must be exactly the
/// active services (the archived ones keep their places after them); take
/// [`lock_catalogue`] first.
pub async fn set_order(db: impl PgExecutor<'_>, ids: &[Uuid]) -> sqlx::Result<()> {
    sqlx::query(
        "update services s set position = o.n
         from unnest($1::uuid[]) with ordinality as o(id, n)
         where s.id = o.id and s.position <> o.n",
    )
    .bind(ids)
    .execute(db)
    .await?;
    Ok(())
}
