//! Where the token-signing secret comes from: configuration, or (in the embedded default
//! only) a random secret generated once and kept in the data directory, so sessions survive
//! restarts without anyone choosing a secret.

use std::path::Path;

use anyhow::{Context, bail};
use base64::Engine;
use rand::RngCore;

const MIN_SECRET_BYTES: usize = 32;
const FILE_NAME: &str = "jwt-secret";

pub async fn load(
    configured: Option<&str>,
    uses_embedded_database: bool,
    data_dir: &Path,
) -> anyhow::Result<Vec<u8>> {
    if let Some(secret) = configured {
        if secret.len() < MIN_SECRET_BYTES {
            bail!("JWT_SECRET must be at least {MIN_SECRET_BYTES} bytes long");
        }
        return Ok(secret.as_bytes().to_vec());
    }
    if !uses_embedded_database {
        bail!("JWT_SECRET is required when DATABASE_URL is set (every replica must share it)");
    }
    let path = data_dir.join(FILE_NAME);
    let stored = kept_in(&path, "token secret", || {
        let mut secret = vec![0u8; 64];
        rand::thread_rng().fill_bytes(&mut secret);
        base64::engine::general_purpose::STANDARD.encode(&secret)
    })
    .await?;
    base64::engine::general_purpose::STANDARD
        .decode(stored.trim())
        .with_context(|| format!("{} is damaged; delete it to make a new one", path.display()))
}

/// The text kept in `path` (readable by this user only), written by `generate` on the first
/// start: a secret of the embedded default (the token secret, the VAPID key).
pub async fn kept_in(
    path: &Path,
    what: &str,
    generate: impl FnOnce() -> String,
) -> anyhow::Result<String> {
    match tokio::fs::read_to_string(path).await {
        Ok(stored) => Ok(stored),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            let made = generate();
            write_private(path, &made).await?;
            tracing::info!(path = %path.display(), "generated a new {what}");
            Ok(made)
        }
        Err(error) => Err(error).with_context(|| format!("reading {}", path.display())),
    }
}

/// A key for one purpose derived from the server secret (HMAC-SHA256 of the purpose), so
/// one configured secret serves tokens, phone codes and file links without reuse.
pub fn derive_key(secret: &[u8], purpose: &str) -> [u8; 32] {
    keyed_digest(secret, &[purpose.as_bytes()])
}

/// HMAC-SHA256 of `parts`, one after the other, under `key`.
pub fn keyed_digest(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    use hmac::{Hmac, Mac};
    let Ok(mut mac) = Hmac::<sha2::Sha256>::new_from_slice(key) else {
        unreachable!("HMAC takes keys of any length")
    };
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

async fn write_private(path: &Path, contents: &str) -> anyhow::Result<()> {
    use tokio::io::AsyncWriteExt;
    if let Some(parent) = path.parent() {
        tokio::fs::create_dir_all(parent).await?;
    }
    let mut options = tokio::fs::OpenOptions::new();
    options.write(true).create_new(true).mode(0o600);
    let mut file = options
        .open(path)
        .await
        .with_context(|| format!("creating {}", path.display()))?;
    file.write_all(contents.as_bytes()).await?;
    file.sync_all().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_generated_secret_is_kept_between_starts() {
        let dir = tempfile::tempdir().unwrap();
        let first = load(None, true, dir.path()).await.unwrap();
        let second = load(None, true, dir.path()).await.unwrap();
        assert_eq!(first.len(), 64);
        assert_eq!(first, second);
    }

    #[tokio::test]
    async fn an_external_database_needs_a_configured_secret() {
        let dir = tempfile::tempdir().unwrap();
        assert!(load(None, false, dir.path()).await.is_err());
        assert!(load(Some("short"), false, dir.path()).await.is_err());
        let long = "x".repeat(40);
        assert_eq!(
            load(Some(&long), false, dir.path()).await.unwrap(),
            long.as_bytes()
        );
    }
}
