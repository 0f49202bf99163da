//! What MatchingService reads besides the rule: open requests as a professional may see them
//! (never the street), and whom a request was matched with and how each notification went.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

/// An open request as a professional sees it before hire: city, province and postal area.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ApproximateRequest {
    pub id: Uuid,
    pub service_id: Uuid,
    pub service_name: String,
    pub description: String,
    pub urgency: String,
    pub city: String,
    pub province: String,
    /// The first three characters of the postal code; empty when there was none.
    pub postal_area: String,
    pub state: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// The requests `ids` (in no order), the service named in professional `viewer`'s language.
pub async fn approximate(
    db: &PgPool,
    ids: &[Uuid],
    viewer: Uuid,
) -> sqlx::Result<Vec<ApproximateRequest>> {
    sqlx::query_as(
        "select r.id, r.service_id,
                case when (select language from professionals where id = $2) = 'fr'
                     then s.name_fr else s.name_en end as service_name,
                r.description, r.urgency, r.city, r.province, left(r.postal_code, 3) as postal_area,
                r.state, r.created_at, r.updated_at, r.expires_at
         from repair_requests r join services s on s.id = r.service_id
         where r.id = any($1)",
    )
    .bind(ids)
    .bind(viewer)
    .fetch_all(db)
    .await
}

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
