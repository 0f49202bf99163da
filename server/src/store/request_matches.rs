//! Whom a repair request was matched with, and how each notification went (for admins).

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

/// A professional a request was matched with.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MatchRow {
    pub professional_id: Uuid,
    pub professional_name: String,
    pub distance_m: i32,
}

/// One notification of a match, with its outbox message when the outbox still holds it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NotificationRow {
    pub professional_id: Uuid,
    pub channel: String,
    pub created_at: DateTime<Utc>,
    /// `None` once the outbox purged the sent message.
    pub state: Option<String>,
    pub attempts: Option<i32>,
    pub last_error: Option<String>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// How many repair requests professional `professional_id` was told of (matched with and
/// notified, on any channel).
pub async fn told_count(db: &PgPool, professional_id: Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select count(distinct repair_request_id) from request_notifications
         where professional_id = $1",
    )
    .bind(professional_id)
    .fetch_one(db)
    .await
}

/// Whether the repair request exists.
pub async fn request_exists(db: &PgPool, request_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar("select exists (select 1 from repair_requests where id = $1)")
        .bind(request_id)
        .fetch_one(db)
        .await
}

/// The professionals request `request_id` was matched with, nearest first, after the key
/// (`distance_m`, professional id) when given, at most `limit`.
pub async fn matches(
    db: &PgPool,
    request_id: Uuid,
    after: Option<(i32, Uuid)>,
    limit: i64,
) -> sqlx::Result<Vec<MatchRow>> {
    sqlx::query_as(
        "select n.professional_id, p.name as professional_name,
                min(n.distance_m) as distance_m
         from request_notifications n join professionals p on p.id = n.professional_id
         where n.repair_request_id = $1
         group by n.professional_id, p.name
         having $2::int is null or (min(n.distance_m), n.professional_id) > ($2, $3)
         order by distance_m, n.professional_id
         limit $4",
    )
    .bind(request_id)
    .bind(after.map(|(distance, _)| distance))
    .bind(after.map(|(_, id)| id))
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The notifications of request `request_id` to `professionals`.
pub async fn notifications(
    db: &PgPool,
    request_id: Uuid,
    professionals: &[Uuid],
) -> sqlx::Result<Vec<NotificationRow>> {
    sqlx::query_as(
        "select n.professional_id, n.channel, n.created_at, o.state, o.attempts, o.last_error,
                o.finished_at
         from request_notifications n left join outbox_messages o on o.id = n.outbox_message_id
         where n.repair_request_id = $1 and n.professional_id = any($2)
         order by n.professional_id, n.channel",
    )
    .bind(request_id)
    .bind(professionals)
    .fetch_all(db)
    .await
}
