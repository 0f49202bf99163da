//! Photos in messages: a party uploads a photo into a conversation (AddMessagePhoto), through
//! the photo pipeline (`crate::photos`) like the photos of a request, while they could send a
//! message there; their next message names it (SendMessage's `photo_ids`, up to four). At
//! most [`MAX_UNSENT`] wait per uploader and conversation; one never sent is deleted, row and
//! files, a day after its upload by the housekeeping pass ([`purge_unsent`]). Deleting an
//! account deletes the photos it uploaded with the words it wrote ([`forget_author`]).

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use super::{blocks, place::Place, send::refuse_if_closed};
use crate::{
    domain::{PhotoKeys, StoredPhoto, conversation::Author},
    error::{ApiError, ApiResult, ErrorReason},
    photos,
    state::AppState,
    store::{
        conversations,
        message_photos::{self, Upload},
    },
};

/// Photos one party may hold uploaded and not sent yet, per conversation.
pub const MAX_UNSENT: i64 = 8;

/// How long a photo no message took is kept.
pub const UNSENT_KEPT: Duration = Duration::days(1);

fn too_many() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::TooManyPhotos,
        message: format!(
            "you have {MAX_UNSENT} photos waiting in this conversation; send them with a message first"
        ),
    }
}

/// Keeps an uploaded photo (the file's bytes) for the caller's next message at `place`.
pub async fn upload(state: &AppState, place: &Place, content: Vec<u8>) -> ApiResult<StoredPhoto> {
    let side = place.party()?;
    // The cheap refusals first, then the decode.
    photos::sniff(&content)?;
    refuse_if_closed(
        Author::Party(side),
        place.request.state(),
        (place.request.hired_professional_id, place.problem_open),
        place.professional_id,
    )?;
    let (customer_id, professional_id) = (place.request.customer_id, place.professional_id);
    blocks::refuse_between(&state.db, customer_id, professional_id).await?;
    let upload = Upload {
        repair_request_id: place.request.id,
        professional_id,
        uploader_id: place.account_of(side),
    };
    if message_photos::unsent(&state.db, upload).await? >= MAX_UNSENT {
        return Err(too_many());
    }
    let processed = photos::process(&state.photos, content).await?;
    let id = Uuid::now_v7();
    let prefix = format!(
        "conversations/{}/{professional_id}/photos/{id}",
        place.request.id
    );
    let keys = photos::store(state.storage.as_ref(), &prefix, &processed).await?;
    let photo = StoredPhoto::stored(id, keys.clone(), processed.width, processed.height);
    let kept = keep(state, upload, &photo).await;
    if !matches!(kept, Ok(true)) {
        // The files were stored first; nothing refers to them now.
        photos::discard(state.storage.as_ref(), &keys).await;
    }
    match kept {
        Ok(true) => Ok(photo),
        Ok(false) => Err(too_many()),
        Err(error) => Err(error),
    }
}

async fn keep(state: &AppState, upload: Upload, photo: &StoredPhoto) -> ApiResult<bool> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let kept = message_photos::add(&mut tx, upload, photo, MAX_UNSENT).await?;
    tx.commit().await?;
    Ok(kept)
}

/// Deletes the photos no message took within [`UNSENT_KEPT`] of their upload, before `now`;
/// how many.
pub async fn purge_unsent(state: &AppState, now: DateTime<Utc>) -> sqlx::Result<usize> {
    let removed = message_photos::remove_unsent_before(&state.db, now - UNSENT_KEPT).await?;
    for keys in &removed {
        photos::discard(state.storage.as_ref(), keys).await;
    }
    Ok(removed.len())
}

/// In the transaction that deletes account `author_id`: empties the messages it wrote and
/// deletes the photos it uploaded; the photos' files, to remove once it commits.
pub async fn forget_author(
    tx: &mut sqlx::PgConnection,
    author_id: Uuid,
) -> sqlx::Result<Vec<PhotoKeys>> {
    conversations::erase_author(&mut *tx, author_id).await?;
    message_photos::remove_all_of(tx, author_id).await
}
