//! Local file storage through its trait, with the upload check and expiring links in front,
//! as the server will use them for professionals' licences.

use std::sync::Arc;

use bytes::Bytes;
use chrono::{Duration, Utc};
use repairs_server::providers::{
    FileStorage,
    storage::{
        ContentKind, LocalFolderStorage, SignedUrlError, UploadError, sign_file_url, sniff_upload,
        verify_file_url,
    },
};

const SECRET: &[u8] = b"file-link secret of thirty-two bytes or more";
const FIVE_MB: usize = 5 * 1024 * 1024;

fn licence_pdf() -> Bytes {
    Bytes::from_static(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")
}

/// `(key, exp, sig)` from a `/files/{key}?exp=..&sig=..` link, as a route handler gets them.
fn read_link(link: &str) -> (String, i64, String) {
    let url = reqwest::Url::parse(&format!("http://localhost{link}")).unwrap();
    let key = url.path().strip_prefix("/files/").unwrap().to_owned();
    let query: std::collections::HashMap<_, _> = url.query_pairs().into_owned().collect();
    (key, query["exp"].parse().unwrap(), query["sig"].clone())
}

#[tokio::test]
async fn a_licence_is_checked_stored_and_served_by_an_expiring_link() {
    let dir = tempfile::tempdir().unwrap();
    let storage: Arc<dyn FileStorage> = Arc::new(LocalFolderStorage::new(dir.path()));
    let upload = licence_pdf();

    let kind = sniff_upload(
        &upload,
        "application/pdf",
        ContentKind::IMAGES_AND_PDF,
        FIVE_MB,
    )
    .unwrap();
    let key = format!("licences/0190c3a4/front.{}", kind.extension());
    storage
        .put(&key, kind.content_type(), upload.clone())
        .await
        .unwrap();

    let now = Utc::now();
    let link = sign_file_url(SECRET, &key, now + Duration::minutes(15)).unwrap();
    let (linked_key, exp, sig) = read_link(&link);
    assert_eq!(linked_key, key);
    verify_file_url(SECRET, &linked_key, exp, &sig, now).unwrap();
    let (content_type, bytes) = storage.get(&linked_key).await.unwrap().unwrap();
    assert_eq!(content_type, "application/pdf");
    assert_eq!(bytes, upload);

    assert_eq!(
        verify_file_url(SECRET, &linked_key, exp, &sig, now + Duration::hours(1)),
        Err(SignedUrlError::Expired)
    );
    assert_eq!(
        verify_file_url(SECRET, "licences/other/front.pdf", exp, &sig, now),
        Err(SignedUrlError::Invalid)
    );
}

#[tokio::test]
async fn files_outlive_the_storage_that_wrote_them() {
    let dir = tempfile::tempdir().unwrap();
    LocalFolderStorage::new(dir.path())
        .put(
            "icons/plumbing.png",
            "image/png",
            Bytes::from_static(b"png"),
        )
        .await
        .unwrap();
    let reopened = LocalFolderStorage::new(dir.path());
    let (content_type, _) = reopened.get("icons/plumbing.png").await.unwrap().unwrap();
    assert_eq!(content_type, "image/png");
}

#[tokio::test]
async fn many_uploads_at_once_each_land_whole() {
    let dir = tempfile::tempdir().unwrap();
    let storage = Arc::new(LocalFolderStorage::new(dir.path()));
    let writes = (0..16).map(|n| {
        let storage = storage.clone();
        tokio::spawn(async move {
            let body = Bytes::from(vec![n as u8; 64 * 1024]);
            storage
                .put(&format!("photos/{n}.jpg"), "image/jpeg", body)
                .await
        })
    });
    for write in writes {
        write.await.unwrap().unwrap();
    }
    for n in 0..16u8 {
        let (_, bytes) = storage
            .get(&format!("photos/{n}.jpg"))
            .await
            .unwrap()
            .unwrap();
        assert!(bytes.len() == 64 * 1024 && bytes.iter().all(|b| *b == n));
    }
}

#[test]
fn an_upload_that_is_not_what_it_claims_is_refused_before_storage() {
    let error = sniff_upload(
        b"MZ\x90\0 an executable",
        "image/jpeg",
        ContentKind::IMAGES_AND_PDF,
        FIVE_MB,
    )
    .unwrap_err();
    assert!(matches!(error, UploadError::Mismatch { .. }));
    assert_eq!(
        error.to_string(),
        "the file is not a real JPEG image; it must be a JPEG, PNG, WebP image or a PDF"
    );
}
