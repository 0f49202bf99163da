//! Released hires (`hire_releases`): one row per hire (order) that was given back, written
//! before its card hold is released and finished with the request's reopening
//! (`hiring::release` tells the order of steps).

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

/// Who gave the hire back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleasedBy {
    /// The hired professional: "I can't make it".
    Professional,
    /// The customer: "they didn't come".
    Customer,
}

impl ReleasedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Professional => "professional",
            Self::Customer => "customer",
        }
    }
}

impl TryFrom<String> for ReleasedBy {
    type Error = String;

    fn try_from(code: String) -> Result<Self, Self::Error> {
        match code.as_str() {
            "professional" => Ok(Self::Professional),
            "customer" => Ok(Self::Customer),
            _ => Err(format!("unknown releaser {code:?}")),
        }
    }
}

/// A release, started or finished.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReleaseRow {
    pub id: Uuid,
    pub order_id: Uuid,
    pub repair_request_id: Uuid,
    pub quote_id: Uuid,
    pub professional_id: Uuid,
    #[sqlx(try_from = "String")]
    pub released_by: ReleasedBy,
    pub actor_id: Uuid,
    pub request_id: Uuid,
    pub reason: String,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

const ROW: &str = "id, order_id, repair_request_id, quote_id, professional_id, released_by,
    actor_id, request_id, reason, started_at, finished_at";

/// What starts a release.
#[derive(Debug, Clone)]
pub struct NewRelease<'a> {
    pub order_id: Uuid,
    pub repair_request_id: Uuid,
    pub quote_id: Uuid,
    pub professional_id: Uuid,
    pub released_by: ReleasedBy,
    pub actor_id: Uuid,
    pub request_id: Uuid,
    pub reason: &'a str,
}

/// Starts the release of a hire, or answers the one started before (another caller's, or a
/// retry's): one per order.
pub async fn start(
    tx: &mut PgConnection,
    release: &NewRelease<'_>,
    now: DateTime<Utc>,
) -> sqlx::Result<ReleaseRow> {
    let inserted: Option<ReleaseRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "insert into hire_releases (id, order_id, repair_request_id, quote_id, professional_id,
            released_by, actor_id, request_id, reason, started_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         on conflict (order_id) do nothing
         returning {ROW}"
    )))
    .bind(Uuid::new_v4())
    .bind(release.order_id)
    .bind(release.repair_request_id)
    .bind(release.quote_id)
    .bind(release.professional_id)
    .bind(release.released_by.as_str())
    .bind(release.actor_id)
    .bind(release.request_id)
    .bind(release.reason)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    match inserted {
        Some(row) => Ok(row),
        None => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select {ROW} from hire_releases where order_id = $1"
            )))
            .bind(release.order_id)
            .fetch_one(tx)
            .await
        }
    }
}

/// The release of order `order_id`, if one was started.
pub async fn of_order(
    db: impl sqlx::PgExecutor<'_>,
    order_id: Uuid,
) -> sqlx::Result<Option<ReleaseRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {ROW} from hire_releases where order_id = $1"
    )))
    .bind(order_id)
    .fetch_optional(db)
    .await
}

/// The release `actor_id` made under their key `request_id`, if any.
pub async fn find_by_key(
    db: impl sqlx::PgExecutor<'_>,
    actor_id: Uuid,
    request_id: Uuid,
) -> sqlx::Result<Option<ReleaseRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {ROW} from hire_releases where actor_id = $1 and request_id = $2"
    )))
    .bind(actor_id)
    .bind(request_id)
    .fetch_optional(db)
    .await
}

/// Removes a release that could not go on (the job was paid meanwhile).
pub async fn abandon(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> sqlx::Result<()> {
    sqlx::query("delete from hire_releases where id = $1 and finished_at is null")
        .bind(id)
        .execute(db)
        .await
        .map(drop)
}

/// Marks the release finished; false when it was finished already (a concurrent finish).
pub async fn finish(tx: &mut PgConnection, id: Uuid, now: DateTime<Utc>) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update hire_releases set finished_at = $2 where id = $1 and finished_at is null",
    )
    .bind(id)
    .bind(now)
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// How many of professional `professional_id`'s hires were released since `since`.
pub async fn count_since(
    tx: &mut PgConnection,
    professional_id: Uuid,
    since: DateTime<Utc>,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select count(*) from hire_releases where professional_id = $1 and started_at >= $2",
    )
    .bind(professional_id)
    .bind(since)
    .fetch_one(tx)
    .await
}

/// Releases started before `before` and never finished (the process stopped between the
/// steps), oldest first, at most `limit`.
pub async fn unfinished(
    db: impl sqlx::PgExecutor<'_>,
    before: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<ReleaseRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {ROW} from hire_releases where finished_at is null and started_at < $1
         order by started_at limit $2"
    )))
    .bind(before)
    .bind(limit)
    .fetch_all(db)
    .await
}
