//! Password hashing with argon2id, run off the async runtime (a hash costs tens of
//! milliseconds of CPU). Checking against an unknown account still verifies a dummy hash so
//! that timing does not tell which emails exist.

use std::sync::LazyLock;

use anyhow::Context;
use argon2::{
    Argon2, PasswordHash, PasswordHasher, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};

/// A hash of a random password nobody knows, verified when the account does not exist.
static DUMMY_HASH: LazyLock<Option<String>> = LazyLock::new(|| {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(uuid::Uuid::new_v4().as_bytes(), &salt)
        .ok()
        .map(|h| h.to_string())
});

/// Hashes a password into a PHC string (algorithm, parameters and salt included).
pub async fn hash(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))
    })
    .await
    .context("password hashing task")?
}

/// Whether `password` matches `stored`. With `stored` = `None` (no such account) the same
/// work is done against a dummy hash and the answer is always false.
pub async fn verify(password: String, stored: Option<String>) -> anyhow::Result<bool> {
    tokio::task::spawn_blocking(move || {
        let known = stored.is_some();
        let phc = stored
            .or_else(|| DUMMY_HASH.clone())
            .context("no dummy hash")?;
        let parsed = PasswordHash::new(&phc).map_err(|e| anyhow::anyhow!("stored hash: {e}"))?;
        let matches = Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        Ok(known && matches)
    })
    .await
    .context("password verification task")?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let stored = hash("correct horse".into()).await.unwrap();
        assert!(stored.starts_with("$argon2id$"));
        assert!(
            verify("correct horse".into(), Some(stored.clone()))
                .await
                .unwrap()
        );
        assert!(!verify("wrong horse".into(), Some(stored)).await.unwrap());
    }

    #[tokio::test]
    async fn an_unknown_account_never_verifies() {
        assert!(!verify("anything".into(), None).await.unwrap());
    }
}
