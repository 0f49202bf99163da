//! Where a professional stands on repair requests, each read in one query: whether it
//! matches them now, whether they quoted on it, were hired on it, have a conversation about
//! it or were alerted of it, and how far it is from their home base. What each standing may
//! see and do is decided by one rule, `auth::access::professional_access`.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;
use uuid::Uuid;

use super::match_rule;

/// A professional's standing on one request.
#[derive(Debug, Clone, Copy, Default, PartialEq, sqlx::FromRow)]
pub struct Standing {
    /// The request is open and matches them now (the listing rule).
    pub matches: bool,
    /// They quoted on it, in any state.
    pub quoted: bool,
    /// They are the professional hired on it.
    pub hired: bool,
    /// A conversation about it with its customer was opened.
    pub in_conversation: bool,
    /// They were told of it (by email or text) when it was placed or escalated.
    pub alerted: bool,
    /// The request is still open.
    pub request_open: bool,
    /// Metres from their home base to the request; `None` without a home base.
    pub meters: Option<f64>,
}

#[derive(sqlx::FromRow)]
struct StandingRow {
    id: Uuid,
    #[sqlx(flatten)]
    standing: Standing,
}

/// Professional `professional_id`'s standing on each of requests `ids` that is stored, at
/// `now`.
pub async fn on_many(
    db: impl PgExecutor<'_>,
    professional_id: Uuid,
    ids: &[Uuid],
    now: DateTime<Utc>,
) -> sqlx::Result<Vec<(Uuid, Standing)>> {
    let rows: Vec<StandingRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select r.id,
             coalesce(p.id is not null and {matches}, false) as matches,
             exists (select 1 from quotes q
                     where q.professional_id = $1 and q.repair_request_id = r.id) as quoted,
             coalesce(r.hired_professional_id = $1, false) as hired,
             exists (select 1 from conversations c
                     where c.professional_id = $1 and c.repair_request_id = r.id)
                 as in_conversation,
             exists (select 1 from request_notifications n
                     where n.professional_id = $1 and n.repair_request_id = r.id) as alerted,
             r.state = 'open' as request_open,
             {distance} as meters
         from repair_requests r left join professionals p on p.id = $1
         where r.id = any($2)",
        matches = match_rule::matches("$1", "$3"),
        distance = match_rule::distance_sql(),
    )))
    .bind(professional_id)
    .bind(ids)
    .bind(now)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|row| (row.id, row.standing)).collect())
}

/// Professional `professional_id`'s standing on request `id` now; `None` when the request
/// is not stored.
pub async fn on(
    db: impl PgExecutor<'_>,
    professional_id: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<Standing>> {
    let found = on_many(db, professional_id, &[id], Utc::now()).await?;
    Ok(found.into_iter().next().map(|(_, standing)| standing))
}
