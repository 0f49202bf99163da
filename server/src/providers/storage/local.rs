//! Files in a folder: `<data dir>/files/<key>`, with the content type in `<key>~type` beside
//! it ('~' cannot occur in a key, so the two never collide).

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use bytes::Bytes;

use super::{FileStorage, StorageResult, validate_content_type, validate_key};

/// Used when a file's content type was lost (stored by hand, say).
const UNKNOWN_CONTENT_TYPE: &str = "application/octet-stream";

#[derive(Debug, Clone)]
pub struct LocalFolderStorage {
    root: PathBuf,
}

impl LocalFolderStorage {
    /// Files go to `<data_dir>/files/`, made when the first file is stored.
    pub fn new(data_dir: &Path) -> Self {
        Self {
            root: data_dir.join("files"),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file's path and its content-type path, once the key is known to be safe.
    fn paths(&self, key: &str) -> StorageResult<(PathBuf, PathBuf)> {
        validate_key(key)?;
        Ok((self.root.join(key), self.root.join(format!("{key}~type"))))
    }
}

/// Writes beside the target and renames, so a reader never sees half a file.
async fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!("~tmp-{}", uuid::Uuid::now_v7().simple()));
    let temporary = PathBuf::from(temporary);
    tokio::fs::write(&temporary, bytes).await?;
    if let Err(error) = tokio::fs::rename(&temporary, path).await {
        let _ = tokio::fs::remove_file(&temporary).await;
        return Err(error);
    }
    Ok(())
}

async fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match tokio::fs::remove_file(path).await {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

#[async_trait]
impl FileStorage for LocalFolderStorage {
    async fn put(&self, key: &str, content_type: &str, bytes: Bytes) -> StorageResult<()> {
        let (file, type_file) = self.paths(key)?;
        validate_content_type(content_type)?;
        if let Some(folder) = file.parent() {
            tokio::fs::create_dir_all(folder).await?;
        }
        write_whole(&type_file, content_type.as_bytes()).await?;
        write_whole(&file, &bytes).await?;
        Ok(())
    }

    async fn get(&self, key: &str) -> StorageResult<Option<(String, Bytes)>> {
        let (file, type_file) = self.paths(key)?;
        let bytes = match tokio::fs::read(&file).await {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error.into()),
        };
        let content_type = match tokio::fs::read_to_string(&type_file).await {
            Ok(content_type) => content_type,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                UNKNOWN_CONTENT_TYPE.to_owned()
            }
            Err(error) => return Err(error.into()),
        };
        Ok(Some((content_type, Bytes::from(bytes))))
    }

    async fn delete(&self, key: &str) -> StorageResult<()> {
        let (file, type_file) = self.paths(key)?;
        remove_if_present(&file).await?;
        remove_if_present(&type_file).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::storage::StorageError;

    #[tokio::test]
    async fn a_stored_file_comes_back_with_its_type_until_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let storage = LocalFolderStorage::new(dir.path());
        crate::providers::storage::assert_behaves_as_a_store(&storage, "licences/0190c3/front.pdf")
            .await;
        storage
            .put(
                "licences/1/back.pdf",
                "application/pdf",
                Bytes::from_static(b"%PDF-"),
            )
            .await
            .unwrap();
        assert!(dir.path().join("files/licences/1/back.pdf").is_file());
        assert!(!dir.path().join("files/licences/0190c3/front.pdf").exists());
    }

    #[tokio::test]
    async fn a_missing_file_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let storage = LocalFolderStorage::new(dir.path());
        assert!(storage.get("nothing/here.png").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn nothing_escapes_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let storage = LocalFolderStorage::new(&dir.path().join("inner"));
        let error = storage
            .put("../outside", "text/plain", Bytes::from_static(b"x"))
            .await
            .unwrap_err();
        assert!(matches!(error, StorageError::InvalidKey(_)));
        assert!(!dir.path().join("outside").exists());
        assert!(storage.get("../../etc/passwd").await.is_err());
        assert!(storage.delete("/etc/passwd").await.is_err());
    }
}
