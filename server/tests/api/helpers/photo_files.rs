//! Stored photos as the tests read them: the file behind a signed link, and the files the
//! local store holds under a folder, whatever the database says.

use std::path::{Path, PathBuf};

use super::TestServer;

/// The file behind a signed link, read from the server's HTTP listener (the BFF serves the
/// same path under PUBLIC_URL); `None` when it answers anything but 200.
pub async fn fetch(server: &TestServer, link: &str) -> Option<Vec<u8>> {
    let path = link
        .strip_prefix("http://127.0.0.1:8080")
        .unwrap_or_else(|| panic!("a link under PUBLIC_URL: {link}"));
    let url = format!("http://{}{path}", server.server.http_addr);
    let response = reqwest::get(url).await.unwrap();
    if response.status() != reqwest::StatusCode::OK {
        return None;
    }
    assert_eq!(response.headers()["content-type"], "image/jpeg");
    Some(response.bytes().await.unwrap().to_vec())
}

/// The stored photos (the local store keeps each file's type beside it) under `folder` of
/// the store (`repair-requests/<id>`, `conversations/<id>`).
pub fn stored_under(server: &TestServer, folder: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "jpg") {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(&server.data_dir().join("files").join(folder), &mut found);
    found
}
