//! Stored files: photos, professionals' licences, service icons. Local stand-in: a folder in
//! the data directory. (An S3-compatible adapter comes later.) Also what every upload goes
//! through first ([`sniff_upload`]) and the expiring links that serve private files
//! ([`sign_file_url`]).

use crate::error::ApiError;

mod local;
mod signed_url;
mod sniff;

use async_trait::async_trait;
use bytes::Bytes;

pub use local::LocalFolderStorage;
pub use signed_url::{SignedUrlError, sign_file_url, verify_file_url};
pub use sniff::{ContentKind, UploadError, sniff_upload};

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
