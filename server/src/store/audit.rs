//! The admins' audit log.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::page::PageRequest;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuditRow {
    pub id: Uuid,
    pub admin_id: Option<Uuid>,
    pub action: String,
    pub target_type: String,
    pub target_id: String,
    pub reason: String,
    pub created_at: DateTime<Utc>,
    /// The record's fields before and after, as JSON text; `None` where not recorded.
    pub before_json: Option<String>,
    pub after_json: Option<String>,
    pub admin_email: Option<String>,
    /// `pending` (its outside call not settled yet), `succeeded` or `failed`.
    pub outcome: String,
    /// Why it failed, as the admin was told; empty otherwise.
    pub failure: String,
    /// The service account that did it, when a service did.
    pub service_account_id: Option<Uuid>,
    pub service_account_name: Option<String>,
}

/// Who did an audited action: an admin, or a service account with the scope for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    Admin(Uuid),
    Service(Uuid),
}

impl From<Uuid> for Actor {
    /// An admin's account id.
    fn from(admin_id: Uuid) -> Self {
        Self::Admin(admin_id)
    }
}

/// Writes one row with what the record was before and after the action (`None` when it did
/// not exist before or no longer exists) and why, for the actions that take a reason; pass
/// the action's transaction so that both happen or neither.
pub async fn record(
    db: impl PgExecutor<'_>,
    actor: impl Into<Actor>,
    action: &str,
    target: (&str, &str),
    reason: &str,
    before: Option<&serde_json::Value>,
    after: Option<&serde_json::Value>,
) -> sqlx::Result<()> {
    insert(
        db,
        Some(actor.into()),
        action,
        target,
        reason,
        (before, after),
    )
    .await
}

/// [`record`] for what the server did by itself (the housekeeping pass): no admin.
pub async fn record_by_server(
    db: impl PgExecutor<'_>,
    action: &str,
    target: (&str, &str),
    reason: &str,
    before: Option<&serde_json::Value>,
    after: Option<&serde_json::Value>,
) -> sqlx::Result<()> {
    insert(db, None, action, target, reason, (before, after)).await
}

async fn insert(
    db: impl PgExecutor<'_>,
    actor: Option<Actor>,
    action: &str,
    target: (&str, &str),
    reason: &str,
    (before, after): (Option<&serde_json::Value>, Option<&serde_json::Value>),
) -> sqlx::Result<()> {
    let (target_type, target_id) = target;
    let (admin_id, service_account_id) = match actor {
        Some(Actor::Admin(id)) => (Some(id), None),
        Some(Actor::Service(id)) => (None, Some(id)),
        None => (None, None),
    };
    sqlx::query(
        "insert into audit_events
            (id, admin_id, action, target_type, target_id, reason, before_json, after_json,
             service_account_id)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9)",
    )
    .bind(Uuid::now_v7())
    .bind(admin_id)
    .bind(action)
    .bind(target_type)
    .bind(target_id)
    .bind(reason)
    .bind(before.map(serde_json::Value::to_string))
    .bind(after.map(serde_json::Value::to_string))
    .bind(service_account_id)
    .execute(db)
    .await?;
    Ok(())
}

/// [`record`] for an action that takes no reason.
pub async fn record_change(
    db: impl PgExecutor<'_>,
    admin_id: impl Into<Actor>,
    action: &str,
    target: (&str, &str),
    before: Option<&serde_json::Value>,
    after: Option<&serde_json::Value>,
) -> sqlx::Result<()> {
    record(db, admin_id, action, target, "", before, after).await
}

/// What came of an admin action written pending by [`record_pending`].
#[derive(Debug, Clone, Copy)]
pub enum Settled<'a> {
    /// The record after the action.
    Succeeded(&'a serde_json::Value),
    /// Why it failed, as the admin was told.
    Failed(&'a str),
}

/// One admin action, named by its admin and their request_id, on one record.
#[derive(Debug, Clone, Copy)]
pub struct Attempt<'a> {
    pub admin_id: Uuid,
    pub request_id: Uuid,
    pub action: &'a str,
    /// The record's type and id.
    pub target: (&'a str, &'a str),
}

/// Writes the entry of an action that calls an outside service before the call, pending,
/// so that an action cut short mid-way still shows. A retry under the same request_id finds
/// the entry of its first try and writes nothing.
pub async fn record_pending(
    db: impl PgExecutor<'_>,
    attempt: &Attempt<'_>,
    reason: &str,
    before: &serde_json::Value,
) -> sqlx::Result<()> {
    let (target_type, target_id) = attempt.target;
    sqlx::query(
        "insert into audit_events
            (id, admin_id, action, target_type, target_id, reason, before_json, outcome,
             request_id)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, 'pending', $8)
         on conflict (admin_id, request_id) where request_id is not null do nothing",
    )
    .bind(Uuid::now_v7())
    .bind(attempt.admin_id)
    .bind(attempt.action)
    .bind(target_type)
    .bind(target_id)
    .bind(reason)
    .bind(before.to_string())
    .bind(attempt.request_id)
    .execute(db)
    .await?;
    Ok(())
}

/// Settles the entry [`record_pending`] wrote for `attempt` (nothing when the request_id
/// names another action or record: that call was refused before doing anything).
pub async fn settle(
    db: impl PgExecutor<'_>,
    attempt: &Attempt<'_>,
    settled: Settled<'_>,
) -> sqlx::Result<()> {
    let (outcome, after, failure) = match settled {
        Settled::Succeeded(after) => ("succeeded", Some(after.to_string()), ""),
        Settled::Failed(failure) => ("failed", None, failure),
    };
    sqlx::query(
        "update audit_events set outcome = $5, after_json = $6::jsonb, failure = left($7, 1000)
         where admin_id = $1 and request_id = $2 and action = $3 and target_id = $4",
    )
    .bind(attempt.admin_id)
    .bind(attempt.request_id)
    .bind(attempt.action)
    .bind(attempt.target.1)
    .bind(outcome)
    .bind(after)
    .bind(failure)
    .execute(db)
    .await?;
    Ok(())
}

/// What a list of the audit log is narrowed to; `None` or empty does not narrow.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub action: String,
    pub target_type: String,
    pub target_id: String,
    pub admin_id: Option<Uuid>,
    /// At or after.
    pub start: Option<DateTime<Utc>>,
    /// Before.
    pub end: Option<DateTime<Utc>>,
}

pub async fn list(
    db: &PgPool,
    filter: &AuditFilter,
    page: &PageRequest,
) -> sqlx::Result<Vec<AuditRow>> {
    sqlx::query_as(
        "select e.id, e.admin_id, e.action, e.target_type, e.target_id, e.reason, e.created_at,
                e.before_json::text as before_json, e.after_json::text as after_json,
                a.email::text as admin_email, e.outcome, e.failure,
                e.service_account_id, s.name as service_account_name
         from audit_events e left join admins a on a.id = e.admin_id
         left join service_accounts s on s.id = e.service_account_id
         where ($1::timestamptz is null or (e.created_at, e.id) < ($1, $2))
           and ($4 = '' or e.action = $4)
           and ($5 = '' or e.target_type = $5)
           and ($6 = '' or e.target_id = $6)
           and ($7::uuid is null or e.admin_id = $7)
           and ($8::timestamptz is null or e.created_at >= $8)
           and ($9::timestamptz is null or e.created_at < $9)
         order by e.created_at desc, e.id desc limit $3",
    )
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .bind(&filter.action)
    .bind(&filter.target_type)
    .bind(&filter.target_id)
    .bind(filter.admin_id)
    .bind(filter.start)
    .bind(filter.end)
    .fetch_all(db)
    .await
}
