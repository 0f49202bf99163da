//! Photos as they are kept: the storage keys of a photo's two sizes and its row.

use chrono::{DateTime, Utc};
use uuid::Uuid;

/// Where the two sizes of one stored photo are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhotoKeys {
    pub large: String,
    pub thumbnail: String,
}

impl PhotoKeys {
    /// The keys of a photo stored under `prefix` (such as `repair-requests/{id}/photos/{id}`).
    pub fn under(prefix: &str) -> Self {
        Self {
            large: format!("{prefix}/large.jpg"),
            thumbnail: format!("{prefix}/thumbnail.jpg"),
        }
    }
}

/// A stored photo as replies show it (`api::photo_view`): what the rows of request photos
/// and message photos read into. Photos are checked and written by `crate::photos`.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct StoredPhoto {
    pub id: Uuid,
    pub large_key: String,
    pub thumbnail_key: String,
    pub width: i32,
    pub height: i32,
    pub created_at: DateTime<Utc>,
}

impl StoredPhoto {
    /// Photo `id`, of `width` by `height` pixels, now stored at `keys`.
    pub fn stored(id: Uuid, keys: PhotoKeys, width: u32, height: u32) -> Self {
        Self {
            id,
            large_key: keys.large,
            thumbnail_key: keys.thumbnail,
            width: i32::try_from(width).unwrap_or(i32::MAX),
            height: i32::try_from(height).unwrap_or(i32::MAX),
            created_at: Utc::now(),
        }
    }

    pub fn keys(&self) -> PhotoKeys {
        PhotoKeys {
            large: self.large_key.clone(),
            thumbnail: self.thumbnail_key.clone(),
        }
    }
}
