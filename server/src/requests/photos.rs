//! Photos of the damage on a request: its customer adds up to [`MAX_PHOTOS`] while it is
//! open, and removes them while it is open. Each goes through the photo pipeline
//! (`crate::photos`) before anything is stored; its two files are stored before its row, and
//! deleted again when the row cannot be written (the request filled up or closed meanwhile,
//! or the database failed), so no file is left that no row names. Whoever may read the
//! request sees its photos: they are read with it (`store::repair_requests`).

use uuid::Uuid;

use super::not_open;
use crate::{
    domain::StoredPhoto,
    error::{ApiError, ApiResult, ErrorReason, not_found},
    photos,
    state::AppState,
    store::request_photos::{self, PhotoAdded, PhotoRemoved},
};

/// The most photos one request holds.
pub const MAX_PHOTOS: i32 = 8;

/// How many photos a customer adds right after placing a request (0 to [`MAX_PHOTOS`]): its
/// alerts wait for them, so they count them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhotosToFollow(i16);

impl PhotosToFollow {
    pub fn new(count: i32) -> ApiResult<Self> {
        match i16::try_from(count) {
            Ok(count) if (0..=MAX_PHOTOS).contains(&i32::from(count)) => Ok(Self(count)),
            _ => Err(ApiError::invalid(
                "photos_to_follow",
                format!("say how many photos follow, 0 to {MAX_PHOTOS}"),
            )),
        }
    }

    pub fn count(self) -> i16 {
        self.0
    }
}

/// Adds a photo (the uploaded file's bytes) to the customer's open request `id`.
pub async fn add(
    state: &AppState,
    customer_id: Uuid,
    id: Uuid,
    content: Vec<u8>,
) -> ApiResult<StoredPhoto> {
    // A look before the costly decode; the insert checks again, atomically.
    refusal(request_photos::may_add(&state.db, customer_id, id, MAX_PHOTOS).await?)?;
    let processed = photos::process(&state.photos, content).await?;
    let photo_id = Uuid::now_v7();
    let prefix = format!("repair-requests/{id}/photos/{photo_id}");
    let keys = photos::store(state.storage.as_ref(), &prefix, &processed).await?;
    let photo = StoredPhoto::stored(photo_id, keys.clone(), processed.width, processed.height);
    let added = request_photos::add(&state.db, customer_id, id, &photo, MAX_PHOTOS).await;
    let refused = match added {
        Ok(outcome) => match refusal(outcome) {
            Ok(()) => {
                if outcome == PhotoAdded::AddedAndReleasedAlerts {
                    state.outbox.wake();
                }
                return Ok(photo);
            }
            Err(refused) => refused,
        },
        Err(error) => error.into(),
    };
    // The files were stored first; nothing refers to them now.
    photos::discard(state.storage.as_ref(), &keys).await;
    Err(refused)
}

/// Removes photo `photo_id` from the customer's open request `id`, and its files.
pub async fn remove(
    state: &AppState,
    customer_id: Uuid,
    id: Uuid,
    photo_id: Uuid,
) -> ApiResult<()> {
    match request_photos::remove(&state.db, customer_id, id, photo_id).await? {
        PhotoRemoved::Removed(keys) => {
            photos::discard(state.storage.as_ref(), &keys).await;
            Ok(())
        }
        PhotoRemoved::NoSuchRequest => Err(not_found("request")),
        PhotoRemoved::NotOpen => Err(not_open()),
        PhotoRemoved::NoSuchPhoto => Err(not_found("photo")),
    }
}

/// `Ok` when the photo was (or may be) added, else why not.
fn refusal(outcome: PhotoAdded) -> ApiResult<()> {
    match outcome {
        PhotoAdded::Added | PhotoAdded::AddedAndReleasedAlerts => Ok(()),
        PhotoAdded::NoSuchRequest => Err(not_found("request")),
        PhotoAdded::NotOpen => Err(not_open()),
        PhotoAdded::Full => Err(ApiError::FailedPrecondition {
            reason: ErrorReason::TooManyPhotos,
            message: format!("a request holds at most {MAX_PHOTOS} photos; remove one first"),
        }),
    }
}
