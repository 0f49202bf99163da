//! Stored files: photos, professionals' licences, service icons, in an S3 bucket every replica
//! shares ([`S3Storage`], with FILES_BUCKET) or, in the embedded default, a folder in the data
//! directory ([`LocalFolderStorage`]). Also what every upload goes
//! through first ([`sniff_upload`]) and the expiring links that serve private files
//! ([`sign_file_url`]).

use crate::error::ApiError;

mod local;
mod s3;
mod signed_url;
mod sniff;

use async_trait::async_trait;
use bytes::Bytes;

pub use local::LocalFolderStorage;
pub use s3::{S3Config, S3Storage};
pub use signed_url::{SignedUrlError, sign_file_url, verify_file_url};
pub use sniff::{ContentKind, UploadError, sniff_content, sniff_upload};

/// Longest key we accept; S3 allows 1024 bytes, paths on disk want less.
const MAX_KEY_LEN: usize = 200;

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error(
        "file name {0:?} is not allowed: use a-z, 0-9, '/', '_', '-', '.', without '..' or empty parts"
    )]
    InvalidKey(String),
    #[error("content type {0:?} is not a valid media type")]
    InvalidContentType(String),
    #[error("file storage failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("object storage failed: {0}")]
    ObjectStore(#[from] object_store::Error),
}

pub type StorageResult<T> = Result<T, StorageError>;

/// Keys are paths like `licences/0190c3.../front.pdf`; the caller makes them, never the person.
#[async_trait]
pub trait FileStorage: Send + Sync + 'static {
    /// Stores the bytes and their content type, replacing any file under the same key.
    async fn put(&self, key: &str, content_type: &str, bytes: Bytes) -> StorageResult<()>;
    /// The content type and bytes, or `None` when there is no such file.
    async fn get(&self, key: &str) -> StorageResult<Option<(String, Bytes)>>;
    /// Removes the file; no error when it is already gone.
    async fn delete(&self, key: &str) -> StorageResult<()>;
}

/// Removes a stored file that no row refers to (any more). A failure leaves an unreachable
/// file behind, named in the log for whoever cleans up; it is not the caller's failure.
pub async fn discard(storage: &dyn FileStorage, key: &str) {
    if let Err(error) = storage.delete(key).await {
        tracing::warn!(%error, key, "could not remove an unreferenced file");
    }
}

/// Refuses keys that could leave the storage folder or mean different things on different
/// stores: only `[a-z0-9/_.-]`, no `..`, no empty or `.` segment, no leading or trailing `/`.
pub fn validate_key(key: &str) -> StorageResult<()> {
    let allowed = |c: char| matches!(c, 'a'..='z' | '0'..='9' | '/' | '_' | '-' | '.');
    let valid = !key.is_empty()
        && key.len() <= MAX_KEY_LEN
        && key.chars().all(allowed)
        && !key.contains("..")
        && key
            .split('/')
            .all(|segment| !segment.is_empty() && segment != ".");
    if valid {
        Ok(())
    } else {
        Err(StorageError::InvalidKey(key.to_owned()))
    }
}

/// A media type fit to store and send back as a header: `type/subtype`, printable ASCII.
fn validate_content_type(content_type: &str) -> StorageResult<()> {
    let valid = content_type.len() <= 127
        && content_type.contains('/')
        && content_type
            .bytes()
            .all(|b| b.is_ascii_graphic() || b == b' ');
    if valid {
        Ok(())
    } else {
        Err(StorageError::InvalidContentType(content_type.to_owned()))
    }
}

/// What every store must do, for each adapter's tests: a file stored under `key` comes back
/// with its type, is replaced by the next one stored there, is gone once deleted (twice is
/// no error), and keys that could escape are refused.
#[cfg(any(test, feature = "test-support"))]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test support fails loudly"
)]
pub async fn assert_behaves_as_a_store(storage: &dyn FileStorage, key: &str) {
    assert!(storage.get(key).await.unwrap().is_none());
    let first = Bytes::from_static(b"%PDF-1.7 ...");
    storage
        .put(key, "application/pdf", first.clone())
        .await
        .unwrap();
    assert_eq!(
        storage.get(key).await.unwrap(),
        Some(("application/pdf".to_owned(), first))
    );
    storage
        .put(key, "image/png", Bytes::from_static(b"new"))
        .await
        .unwrap();
    assert_eq!(storage.get(key).await.unwrap().unwrap().0, "image/png");
    storage.delete(key).await.unwrap();
    assert!(storage.get(key).await.unwrap().is_none());
    storage.delete(key).await.unwrap();
    let refused = storage
        .put("../outside", "text/plain", Bytes::from_static(b"x"))
        .await;
    assert!(
        matches!(refused, Err(StorageError::InvalidKey(_))),
        "{refused:?}"
    );
}

/// The file storage failing is ours to fix, never the caller's.
impl From<StorageError> for ApiError {
    fn from(error: StorageError) -> Self {
        Self::Internal(anyhow::Error::new(error).context("file storage"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_keys_are_accepted() {
        for key in ["a", "licences/0190c3/front.pdf", "icons/plumbing_2-x.webp"] {
            assert!(validate_key(key).is_ok(), "{key}");
        }
    }

    #[test]
    fn keys_that_could_escape_are_refused() {
        for key in [
            "",
            "../etc/passwd",
            "a/../../b",
            "/abs",
            "a//b",
            "a/",
            "./a",
            "a/./b",
            "A.pdf",
            "a b",
            "a\\b",
            "é",
            "a\0b",
            "...",
        ] {
            assert!(validate_key(key).is_err(), "{key:?}");
        }
        assert!(validate_key(&"a".repeat(MAX_KEY_LEN + 1)).is_err());
    }

    #[test]
    fn content_types_must_look_like_media_types() {
        assert!(validate_content_type("image/png").is_ok());
        assert!(validate_content_type("text/plain; charset=utf-8").is_ok());
        assert!(validate_content_type("png").is_err());
        assert!(validate_content_type("image/png\r\nx: y").is_err());
    }
}
