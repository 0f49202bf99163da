//! The privacy incident register (`privacy_incidents`): written by admins, never deleted.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::page::PageRequest;

/// What an admin records of an incident.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct IncidentFacts {
    pub occurred_at: DateTime<Utc>,
    pub discovered_at: DateTime<Utc>,
    pub description: String,
    pub information_involved: String,
    pub people_affected: i32,
    pub risk_of_serious_injury: bool,
    pub risk_assessment: String,
    pub measures_taken: String,
    pub commissioner_notified_at: Option<DateTime<Utc>>,
    pub people_notified_at: Option<DateTime<Utc>>,
}

/// One entry of the register.
#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct IncidentRow {
    pub id: Uuid,
    #[sqlx(flatten)]
    #[serde(flatten)]
    pub facts: IncidentFacts,
    pub recorded_by: Uuid,
    pub recorded_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, occurred_at, discovered_at, description, information_involved,
    people_affected, risk_of_serious_injury, risk_assessment, measures_taken,
    commissioner_notified_at, people_notified_at, recorded_by, recorded_at, updated_at";

/// Records a new incident by admin `by`.
pub async fn insert(
    db: impl PgExecutor<'_>,
    by: Uuid,
    facts: &IncidentFacts,
) -> sqlx::Result<IncidentRow> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "insert into privacy_incidents (id, occurred_at, discovered_at, description,
             information_involved, people_affected, risk_of_serious_injury, risk_assessment,
             measures_taken, commissioner_notified_at, people_notified_at, recorded_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         returning {COLUMNS}"
    )))
    .bind(Uuid::now_v7())
    .bind(facts.occurred_at)
    .bind(facts.discovered_at)
    .bind(&facts.description)
    .bind(&facts.information_involved)
    .bind(facts.people_affected)
    .bind(facts.risk_of_serious_injury)
    .bind(&facts.risk_assessment)
    .bind(&facts.measures_taken)
    .bind(facts.commissioner_notified_at)
    .bind(facts.people_notified_at)
    .bind(by)
    .fetch_one(db)
    .await
}

/// Incident `id` as it is now, locked until `tx` ends; `None` when there is no such entry.
pub async fn lock(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<IncidentRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from privacy_incidents where id = $1 for update"
    )))
    .bind(id)
    .fetch_optional(tx)
    .await
}

/// Amends incident `id` (locked by [`lock`]) to `facts`.
pub async fn amend(
    tx: &mut PgConnection,
    id: Uuid,
    facts: &IncidentFacts,
) -> sqlx::Result<IncidentRow> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "update privacy_incidents set occurred_at = $2, discovered_at = $3, description = $4,
             information_involved = $5, people_affected = $6, risk_of_serious_injury = $7,
             risk_assessment = $8, measures_taken = $9, commissioner_notified_at = $10,
             people_notified_at = $11, updated_at = now()
         where id = $1
         returning {COLUMNS}"
    )))
    .bind(id)
    .bind(facts.occurred_at)
    .bind(facts.discovered_at)
    .bind(&facts.description)
    .bind(&facts.information_involved)
    .bind(facts.people_affected)
    .bind(facts.risk_of_serious_injury)
    .bind(&facts.risk_assessment)
    .bind(&facts.measures_taken)
    .bind(facts.commissioner_notified_at)
    .bind(facts.people_notified_at)
    .fetch_one(tx)
    .await
}

/// One page of the register, newest discovery first (the page key is the discovery time).
pub async fn list(db: impl PgExecutor<'_>, page: &PageRequest) -> sqlx::Result<Vec<IncidentRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from privacy_incidents
         where $1::timestamptz is null or (discovered_at, id) < ($1, $2)
         order by discovered_at desc, id desc
         limit $3"
    )))
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .fetch_all(db)
    .await
}
