//! Photos in conversations' messages (`message_photos`): uploaded by one party into a
//! conversation (named by its request and professional), then taken by one of their
//! messages; read with the messages (`store::conversations`).

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::domain::{PhotoKeys, StoredPhoto};

/// The conversation a photo is uploaded into, and by whom.
#[derive(Debug, Clone, Copy)]
pub struct Upload {
    pub repair_request_id: Uuid,
    pub professional_id: Uuid,
    pub uploader_id: Uuid,
}

/// The uploader's photos in the conversation that no message took yet.
pub async fn unsent(db: &PgPool, upload: Upload) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select count(*) from message_photos
         where uploader_id = $1 and repair_request_id = $2 and professional_id = $3
           and message_id is null",
    )
    .bind(upload.uploader_id)
    .bind(upload.repair_request_id)
    .bind(upload.professional_id)
    .fetch_one(db)
    .await
}

/// Keeps `photo` for the uploader's next message unless they hold `max` unsent ones in the
/// conversation already (false then). The uploader's uploads take turns (a lock on them for
/// the transaction), so concurrent ones cannot pass the bound together.
pub async fn add(
    tx: &mut PgConnection,
    upload: Upload,
    photo: &StoredPhoto,
    max: i64,
) -> sqlx::Result<bool> {
    sqlx::query("select pg_advisory_xact_lock(hashtextextended($1::text, 0))")
        .bind(upload.uploader_id)
        .execute(&mut *tx)
        .await?;
    let added = sqlx::query(
        "insert into message_photos (id, repair_request_id, professional_id, uploader_id,
             large_key, thumbnail_key, width, height, created_at)
         select $1, $2, $3, $4, $5, $6, $7, $8, $9
         where (select count(*) from message_photos
                where uploader_id = $4 and repair_request_id = $2 and professional_id = $3
                  and message_id is null) < $10",
    )
    .bind(photo.id)
    .bind(upload.repair_request_id)
    .bind(upload.professional_id)
    .bind(upload.uploader_id)
    .bind(&photo.large_key)
    .bind(&photo.thumbnail_key)
    .bind(photo.width)
    .bind(photo.height)
    .bind(photo.created_at)
    .bind(max)
    .execute(&mut *tx)
    .await?;
    Ok(added.rows_affected() == 1)
}

/// Gives the uploader's unsent photos `ids` to message `message_id`, in the order given;
/// how many it took (fewer than asked: one is not theirs in this conversation, or was sent).
pub async fn attach(
    tx: &mut PgConnection,
    message_id: Uuid,
    upload: Upload,
    ids: &[Uuid],
) -> sqlx::Result<usize> {
    let positions: Vec<i16> = (0..).take(ids.len()).collect();
    let taken = sqlx::query(
        "update message_photos p set message_id = $1, position = chosen.position
         from unnest($5::uuid[], $6::smallint[]) as chosen (id, position)
         where p.id = chosen.id and p.uploader_id = $2 and p.repair_request_id = $3
           and p.professional_id = $4 and p.message_id is null",
    )
    .bind(message_id)
    .bind(upload.uploader_id)
    .bind(upload.repair_request_id)
    .bind(upload.professional_id)
    .bind(ids)
    .bind(positions)
    .execute(tx)
    .await?;
    Ok(usize::try_from(taken.rows_affected()).unwrap_or(usize::MAX))
}

/// Deletes every photo `uploader_id` uploaded, sent or not (their account is deleted): the
/// files to remove once the transaction commits.
pub async fn remove_all_of(
    tx: &mut PgConnection,
    uploader_id: Uuid,
) -> sqlx::Result<Vec<PhotoKeys>> {
    let keys: Vec<(String, String)> = sqlx::query_as(
        "delete from message_photos where uploader_id = $1 returning large_key, thumbnail_key",
    )
    .bind(uploader_id)
    .fetch_all(tx)
    .await?;
    Ok(into_keys(keys))
}

/// Deletes the photos no message took and uploaded before `before`: the files to remove.
pub async fn remove_unsent_before(
    db: &PgPool,
    before: DateTime<Utc>,
) -> sqlx::Result<Vec<PhotoKeys>> {
    let keys: Vec<(String, String)> = sqlx::query_as(
        "delete from message_photos where message_id is null and created_at < $1
         returning large_key, thumbnail_key",
    )
    .bind(before)
    .fetch_all(db)
    .await?;
    Ok(into_keys(keys))
}

fn into_keys(keys: Vec<(String, String)>) -> Vec<PhotoKeys> {
    keys.into_iter()
        .map(|(large, thumbnail)| PhotoKeys { large, thumbnail })
        .collect()
}
