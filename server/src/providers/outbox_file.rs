//! Appends JSON lines to a file: the local stand-in for sending SMS and email. People and
//! tests read codes and links from `<data dir>/outbox/sms.jsonl` and `email.jsonl`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;
use tokio::{io::AsyncWriteExt, sync::Mutex};

#[derive(Debug)]
pub struct JsonLinesFile {
    path: PathBuf,
    // One writer at a time, so lines never interleave.
    lock: Mutex<()>,
}

impl JsonLinesFile {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            lock: Mutex::new(()),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub async fn append(&self, record: &impl Serialize) -> anyhow::Result<()> {
        let mut line = serde_json::to_vec(record)?;
        line.push(b'\n');
        let _guard = self.lock.lock().await;
        if let Some(dir) = self.path.parent() {
            tokio::fs::create_dir_all(dir).await?;
        }
        let mut file = tokio::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .await
            .with_context(|| format!("opening {}", self.path.display()))?;
        file.write_all(&line).await?;
        file.flush().await?;
        Ok(())
    }
}
