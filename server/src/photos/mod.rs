//! Photos people upload: of the damage on a repair request, and in messages. Every one goes
//! through [`process`]: known by its bytes (JPEG, PNG or WebP, at most 15 MiB), decoded within
//! bounds set before decoding, turned upright and written again as JPEG in two sizes
//! ([`rewrite`]), on the blocking pool under its own bound (`PHOTO_CONCURRENCY` at once,
//! `PHOTO_QUEUE` waiting, the rest refused), so uploads never starve the async threads. Then
//! [`store`] puts both sizes in the file storage under a key prefix of the caller's, and
//! [`discard`] removes them. Links are signed where replies are made (`api::photo_view`).

mod rewrite;

pub use rewrite::{Bounds, LARGE_SIDE, ProcessedPhoto, RewriteError, THUMBNAIL_SIDE};

use crate::{
    blocking::{BlockingLane, LaneError},
    domain::PhotoKeys,
    error::{ApiError, ErrorReason, FieldViolation},
    providers::storage::{self, ContentKind, FileStorage, sniff_content},
};

/// The largest photo file accepted.
pub const MAX_PHOTO_BYTES: usize = 15 * 1024 * 1024;
/// The field every photo upload carries its bytes in.
const CONTENT_FIELD: &str = "content";

/// Photos decoded at once and waiting, and how large they may be.
pub struct PhotoPipeline {
    lane: BlockingLane,
    bounds: Bounds,
}

impl PhotoPipeline {
    /// `concurrency` photos at once (at least one), `queue` more waiting, each of at most
    /// `max_megapixels` million pixels.
    pub fn new(concurrency: usize, queue: usize, max_megapixels: u32) -> Self {
        Self {
            lane: BlockingLane::new(concurrency, queue),
            bounds: Bounds::megapixels(max_megapixels),
        }
    }
}

/// Checks, decodes and writes again one uploaded photo (see the module comment). Refusals
/// are INVALID_ARGUMENT on `content`: FILE_TOO_LARGE, FILE_EMPTY, FILE_TYPE_NOT_ALLOWED,
/// PHOTO_TOO_MANY_PIXELS, PHOTO_UNREADABLE; a full queue is RESOURCE_EXHAUSTED SERVER_BUSY.
pub async fn process(
    pipeline: &PhotoPipeline,
    content: Vec<u8>,
) -> Result<ProcessedPhoto, ApiError> {
    let kind = sniff(&content)?;
    let bounds = pipeline.bounds;
    pipeline
        .lane
        .run(move || rewrite::rewrite(&content, kind, bounds))
        .await
        .map_err(|error| match error {
            LaneError::Busy => ApiError::ResourceExhausted {
                reason: ErrorReason::ServerBusy,
                message: "too many photos are being uploaded at this moment; please try again \
                          in a few seconds"
                    .to_owned(),
            },
            LaneError::Failed(e) => ApiError::Internal(anyhow::anyhow!("photo task: {e}")),
        })?
        .map_err(ApiError::from)
}

/// The first checks of [`process`], cheap, for a caller to make before its own (whether the
/// record may take a photo at all): its size (FILE_TOO_LARGE, FILE_EMPTY), then its kind by
/// its first bytes (FILE_TYPE_NOT_ALLOWED).
pub fn sniff(content: &[u8]) -> Result<ContentKind, ApiError> {
    sniff_content(content, ContentKind::IMAGES, MAX_PHOTO_BYTES)
        .map_err(|e| ApiError::upload(CONTENT_FIELD, e))
}

impl From<RewriteError> for ApiError {
    fn from(error: RewriteError) -> Self {
        let reason = match &error {
            RewriteError::TooManyPixels { .. } => ErrorReason::PhotoTooManyPixels,
            RewriteError::Unreadable(_) => ErrorReason::PhotoUnreadable,
            RewriteError::Encoding(_) => return ApiError::Internal(anyhow::Error::new(error)),
        };
        ApiError::InvalidArgument {
            reason,
            violations: vec![FieldViolation::new(CONTENT_FIELD, error.to_string())],
        }
    }
}

/// Stores both sizes of `photo` under `prefix`; the thumbnail first, and removed again when
/// the large copy cannot be stored, so a failure leaves nothing behind.
pub async fn store(
    storage: &dyn FileStorage,
    prefix: &str,
    photo: &ProcessedPhoto,
) -> Result<PhotoKeys, ApiError> {
    const JPEG: &str = "image/jpeg";
    let keys = PhotoKeys::under(prefix);
    storage
        .put(&keys.thumbnail, JPEG, photo.thumbnail.clone())
        .await?;
    if let Err(error) = storage.put(&keys.large, JPEG, photo.large.clone()).await {
        storage::discard(storage, &keys.thumbnail).await;
        return Err(error.into());
    }
    Ok(keys)
}

/// Removes both sizes of a photo no row refers to (any more); a failure is logged, not the
/// caller's.
pub async fn discard(storage: &dyn FileStorage, keys: &PhotoKeys) {
    storage::discard(storage, &keys.large).await;
    storage::discard(storage, &keys.thumbnail).await;
}
