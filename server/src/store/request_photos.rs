//! Photos of the damage on repair requests (`repair_request_photos`), counted on their
//! request (`repair_requests.photo_count`). They are read with the request itself
//! (`repair_requests::SELECT`), so every reply that carries a request carries its photos.

use std::collections::HashMap;

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::domain::{PhotoKeys, RepairRequestState, StoredPhoto};

/// What adding a photo came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhotoAdded {
    Added,
    /// Added, and it was the last of the photos the request's alerts waited for: they are
    /// due now (`outbox::release_held`).
    AddedAndReleasedAlerts,
    /// No such request of this customer.
    NoSuchRequest,
    /// The request is past open.
    NotOpen,
    /// The request holds the most photos it may.
    Full,
}

/// What removing a photo came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhotoRemoved {
    /// Removed: its files are to be deleted.
    Removed(PhotoKeys),
    NoSuchRequest,
    NotOpen,
    /// No such photo on this request (removed already).
    NoSuchPhoto,
}

/// Whether the customer's request `id` could take a photo now (a cheap look before the
/// photo is decoded; [`add`] decides).
pub async fn may_add(
    db: &PgPool,
    customer_id: Uuid,
    id: Uuid,
    max: i32,
) -> sqlx::Result<PhotoAdded> {
    let mut conn = db.acquire().await?;
    standing(&mut conn, customer_id, id, max).await
}

/// Why the customer's request `id` takes no photo, or `Added` when it would.
async fn standing(
    conn: &mut PgConnection,
    customer_id: Uuid,
    id: Uuid,
    max: i32,
) -> sqlx::Result<PhotoAdded> {
    let found: Option<(String, i32)> = sqlx::query_as(
        "select state, photo_count from repair_requests where id = $1 and customer_id = $2",
    )
    .bind(id)
    .bind(customer_id)
    .fetch_optional(conn)
    .await?;
    Ok(match found {
        None => PhotoAdded::NoSuchRequest,
        Some((state, _)) if state != RepairRequestState::Open.as_str() => PhotoAdded::NotOpen,
        Some((_, count)) if count >= max => PhotoAdded::Full,
        Some(_) => PhotoAdded::Added,
    })
}

/// Adds `photo` to the customer's open request `id` unless it holds `max` already: the count
/// goes up in the statement that checks it and the request's state, so concurrent adds
/// cannot pass the limit together.
pub async fn add(
    db: &PgPool,
    customer_id: Uuid,
    id: Uuid,
    photo: &StoredPhoto,
    max: i32,
) -> sqlx::Result<PhotoAdded> {
    let mut tx = crate::store::transaction::begin(db).await?;
    let counted = sqlx::query(
        "update repair_requests set photo_count = photo_count + 1
         where id = $1 and customer_id = $2 and state = $3 and photo_count < $4",
    )
    .bind(id)
    .bind(customer_id)
    .bind(RepairRequestState::Open.as_str())
    .bind(max)
    .execute(&mut *tx)
    .await?;
    if counted.rows_affected() == 0 {
        let why = standing(&mut tx, customer_id, id, max).await?;
        // Between the two statements the request can only have filled up or closed.
        return Ok(if why == PhotoAdded::Added {
            PhotoAdded::Full
        } else {
            why
        });
    }
    sqlx::query(
        "insert into repair_request_photos
            (id, repair_request_id, large_key, thumbnail_key, width, height, created_at)
         values ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(photo.id)
    .bind(id)
    .bind(&photo.large_key)
    .bind(&photo.thumbnail_key)
    .bind(photo.width)
    .bind(photo.height)
    .bind(photo.created_at)
    .execute(&mut *tx)
    .await?;
    let released = super::outbox::release_held(&mut tx, id).await?;
    tx.commit().await?;
    Ok(if released > 0 {
        PhotoAdded::AddedAndReleasedAlerts
    } else {
        PhotoAdded::Added
    })
}

/// Removes photo `photo_id` from the customer's open request `id`, counting it down.
pub async fn remove(
    db: &PgPool,
    customer_id: Uuid,
    id: Uuid,
    photo_id: Uuid,
) -> sqlx::Result<PhotoRemoved> {
    let mut tx = crate::store::transaction::begin(db).await?;
    let state: Option<String> = sqlx::query_scalar(
        "select state from repair_requests where id = $1 and customer_id = $2 for update",
    )
    .bind(id)
    .bind(customer_id)
    .fetch_optional(&mut *tx)
    .await?;
    match state {
        None => return Ok(PhotoRemoved::NoSuchRequest),
        Some(state) if state != RepairRequestState::Open.as_str() => {
            return Ok(PhotoRemoved::NotOpen);
        }
        Some(_) => {}
    }
    let removed: Option<(String, String)> = sqlx::query_as(
        "delete from repair_request_photos where id = $1 and repair_request_id = $2
         returning large_key, thumbnail_key",
    )
    .bind(photo_id)
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((large, thumbnail)) = removed else {
        return Ok(PhotoRemoved::NoSuchPhoto);
    };
    sqlx::query(
        "update repair_requests set photo_count = photo_count - 1 where id = $1 and state = $2",
    )
    .bind(id)
    .bind(RepairRequestState::Open.as_str())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(PhotoRemoved::Removed(PhotoKeys { large, thumbnail }))
}

/// Removes the photos of every request of the customer (their account is being deleted), in
/// the caller's transaction; their files are to be deleted once it commits.
pub async fn remove_all_of_customer(
    tx: &mut PgConnection,
    customer_id: Uuid,
) -> sqlx::Result<Vec<PhotoKeys>> {
    let removed: Vec<(String, String)> = sqlx::query_as(
        "delete from repair_request_photos p using repair_requests r
         where r.id = p.repair_request_id and r.customer_id = $1
         returning p.large_key, p.thumbnail_key",
    )
    .bind(customer_id)
    .fetch_all(&mut *tx)
    .await?;
    sqlx::query(
        "update repair_requests set photo_count = 0 where customer_id = $1 and photo_count <> 0",
    )
    .bind(customer_id)
    .execute(&mut *tx)
    .await?;
    Ok(removed
        .into_iter()
        .map(|(large, thumbnail)| PhotoKeys { large, thumbnail })
        .collect())
}

/// How many photos each of the requests `ids` holds now (those that exist).
pub async fn counts(db: &PgPool, ids: &[Uuid]) -> sqlx::Result<HashMap<Uuid, i32>> {
    let rows: Vec<(Uuid, i32)> =
        sqlx::query_as("select id, photo_count from repair_requests where id = any($1)")
            .bind(ids)
            .fetch_all(db)
            .await?;
    Ok(rows.into_iter().collect())
}
