//! The queries of the retention pass (`crate::retention`): which closed requests are past
//! their time, erasing their photos and messages in one transaction, and the outbox's old
//! messages, each in bounded batches.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::domain::PhotoKeys;

/// Up to `limit` requests closed before `cutoff` whose photos and messages are still there,
/// locked for this transaction (another process's pass skips them): cancelled or expired
/// ones by when they closed, completed ones by when their order was marked done. A request
/// with an open problem or a card dispute not yet decided is held whatever its age.
pub async fn lock_due_requests(
    tx: &mut PgConnection,
    cutoff: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar(
        "select r.id from repair_requests r
         where r.content_erased_at is null
           and (
             (r.state in ('cancelled', 'expired') and r.closed_at < $1)
             or (r.state = 'completed' and exists (
                   select 1 from orders o
                   where o.repair_request_id = r.id and o.completed_at < $1))
           )
           and not exists (
             select 1 from job_problems p where p.repair_request_id = r.id and p.state = 'open')
           and not exists (
             select 1 from orders o join disputes d on d.payment_id = o.payment_id
             where o.repair_request_id = r.id and d.state in ('needs_response', 'under_review'))
         order by r.id
         limit $2
         for update of r skip locked",
    )
    .bind(cutoff)
    .bind(limit)
    .fetch_all(tx)
    .await
}

/// What erasing a batch of requests' content removed.
#[derive(Debug, Default)]
pub struct ErasedContent {
    /// The files to remove from the storage once the transaction is committed.
    pub files: Vec<PhotoKeys>,
    pub request_photos: u64,
    pub problem_photos: u64,
    pub message_photos: u64,
    pub messages: u64,
}

/// Erases the photos (of the request, of its problem reports, sent in its conversations) and
/// the words of every message of requests `ids`, and marks them erased. The messages stay as
/// rows (the conversation's order, who wrote when) emptied and marked deleted, as a deleted
/// account's are.
pub async fn erase_content(tx: &mut PgConnection, ids: &[Uuid]) -> sqlx::Result<ErasedContent> {
    let request_photos: Vec<(String, String)> = sqlx::query_as(
        "delete from repair_request_photos where repair_request_id = any($1)
         returning large_key, thumbnail_key",
    )
    .bind(ids)
    .fetch_all(&mut *tx)
    .await?;
    let problem_photos: Vec<(String, String)> = sqlx::query_as(
        "delete from job_problem_photos where repair_request_id = any($1)
         returning large_key, thumbnail_key",
    )
    .bind(ids)
    .fetch_all(&mut *tx)
    .await?;
    let message_photos: Vec<(String, String)> = sqlx::query_as(
        "delete from message_photos p using conversation_messages m, conversations c
         where p.message_id = m.id and m.conversation_id = c.id and c.repair_request_id = any($1)
         returning p.large_key, p.thumbnail_key",
    )
    .bind(ids)
    .fetch_all(&mut *tx)
    .await?;
    let messages = sqlx::query(
        "update conversation_messages m set text = '', translation = null,
             translation_due_at = null, deleted_at = coalesce(m.deleted_at, now())
         from conversations c
         where m.conversation_id = c.id and c.repair_request_id = any($1)
           and (m.text <> '' or m.translation is not null)",
    )
    .bind(ids)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    sqlx::query(
        "update repair_requests set content_erased_at = now(), photo_count = 0
         where id = any($1)",
    )
    .bind(ids)
    .execute(&mut *tx)
    .await?;
    let counts = (
        request_photos.len() as u64,
        problem_photos.len() as u64,
        message_photos.len() as u64,
    );
    Ok(ErasedContent {
        files: request_photos
            .into_iter()
            .chain(problem_photos)
            .chain(message_photos)
            .map(|(large, thumbnail)| PhotoKeys { large, thumbnail })
            .collect(),
        request_photos: counts.0,
        problem_photos: counts.1,
        message_photos: counts.2,
        messages,
    })
}

/// Deletes up to `limit` emails and texts sent (or given up on as expired) before `before`.
/// Parked messages stay for an admin to look at.
pub async fn erase_finished_outbox(
    db: &PgPool,
    before: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "delete from outbox_messages where id in (
             select id from outbox_messages
             where state in ('sent', 'expired') and finished_at < $1
             limit $2)",
    )
    .bind(before)
    .bind(limit)
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}
