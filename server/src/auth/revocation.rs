//! Ending sessions before they expire. Every account has a token version, written into the
//! tokens it is issued; an event after which no earlier session may go on (a password reset,
//! an admin's decision on a professional) moves the version on in its own transaction
//! (`store::session_versions::bump`), deleting the account removes it, and the auth layer
//! refuses tokens of another version, or of a deleted account, with `SESSION_REVOKED`.
//!
//! The current versions are cached, so a call costs one cache read, not a query. A miss reads
//! Postgres and fills the cache only if nobody wrote it meanwhile; after a change commits,
//! [`SessionVersions::refresh`] writes the new value over whatever is there, so a slower
//! reader cannot put an old one back.

use std::{sync::Arc, time::Duration};

use sqlx::PgPool;
use uuid::Uuid;

use super::token::VerifiedToken;
use crate::{
    cache::Cache,
    domain::Role,
    error::{ApiError, ApiResult, ErrorReason},
    store::session_versions,
};

/// How long a cached version is trusted without asking Postgres again (bumps overwrite it
/// at once; this only bounds what an unreachable cache write could leave behind).
const CACHED_FOR: Duration = Duration::from_secs(10 * 60);
/// Cached in place of a version for an account that no longer exists.
const GONE: &str = "gone";

fn key(role: Role, id: Uuid) -> String {
    format!("token-version:{role}:{id}")
}

/// What the cache holds for an account's version (`None`: the account is gone).
fn cached_value(version: Option<i32>) -> String {
    version.map_or_else(|| GONE.to_owned(), |v| v.to_string())
}

/// Current token versions, from the cache or Postgres.
#[derive(Clone)]
pub struct SessionVersions {
    db: PgPool,
    cache: Arc<dyn Cache>,
}

impl SessionVersions {
    pub fn new(db: PgPool, cache: Arc<dyn Cache>) -> Self {
        Self { db, cache }
    }

    /// The account's current version; `None` when the account does not exist (any more).
    pub async fn current(&self, role: Role, id: Uuid) -> ApiResult<Option<i32>> {
        let key = key(role, id);
        match self.cache.get(&key).await {
            Ok(Some(cached)) if cached == GONE => return Ok(None),
            Ok(Some(cached)) => {
                if let Ok(version) = cached.parse() {
                    return Ok(Some(version));
                }
            }
            Ok(None) => {}
            // The database holds the truth; the cache only saves the query.
            Err(error) => tracing::warn!(%error, "token version cache unreachable"),
        }
        let version = session_versions::current(&self.db, role, id).await?;
        if let Err(error) = self
            .cache
            .set_if_absent(&key, &cached_value(version), CACHED_FOR)
            .await
        {
            tracing::warn!(%error, "could not cache a token version");
        }
        Ok(version)
    }

    /// Whether a verified token is of its account's current version: `SESSION_REVOKED`
    /// when the version moved on or the account is gone.
    pub async fn check(&self, token: &VerifiedToken) -> ApiResult<()> {
        let caller = token.caller;
        match self.current(caller.role, caller.account_id).await? {
            Some(current) if current == token.version => Ok(()),
            Some(_) => Err(ApiError::Unauthenticated {
                reason: ErrorReason::SessionRevoked,
                message: "this session was ended because the account changed; sign in again"
                    .to_owned(),
            }),
            None => Err(ApiError::Unauthenticated {
                reason: ErrorReason::SessionRevoked,
                message: "this account no longer exists".to_owned(),
            }),
        }
    }

    /// After a change that moved the account's version on (in its own transaction) or deleted
    /// the account: the cache takes the new state at once, so tokens issued before stop
    /// working on every replica. Never fails: when Postgres cannot be read, the cached value
    /// is dropped and the next check reads Postgres.
    pub async fn refresh(&self, role: Role, id: Uuid) {
        match session_versions::current(&self.db, role, id).await {
            Ok(version) => self.overwrite(role, id, &cached_value(version)).await,
            Err(error) => {
                tracing::error!(%error, "could not read a new token version");
                if let Err(error) = self.cache.delete(&key(role, id)).await {
                    tracing::error!(%error, "could not drop an old token version");
                }
            }
        }
    }

    async fn overwrite(&self, role: Role, id: Uuid, value: &str) {
        let key = key(role, id);
        if let Err(error) = self.cache.set(&key, value, CACHED_FOR).await {
            // Without the new value, at least drop the old one; if that fails too, the old
            // value lives until CACHED_FOR runs out.
            tracing::error!(%error, "could not cache a new token version");
            if let Err(error) = self.cache.delete(&key).await {
                tracing::error!(%error, "could not drop an old token version");
            }
        }
    }
}
