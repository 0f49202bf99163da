//! A small key-value cache with expiry: phone codes, attempt counters, cooldowns and cached
//! distances live here. Two implementations with the same semantics: Redis (shared by every
//! server replica) and an in-process map (the embedded default, one process).

use crate::error::{ApiError, ErrorReason};

mod memory;
mod redis_cache;

use std::{sync::Arc, time::Duration};

use async_trait::async_trait;

pub use memory::MemoryCache;
pub use redis_cache::RedisCache;

#[derive(Debug, thiserror::Error)]
#[error("cache unavailable: {0}")]
pub struct CacheError(String);

pub type CacheResult<T> = Result<T, CacheError>;

/// Every method is atomic on its own. Keys are namespaced by the implementation's prefix.
#[async_trait]
pub trait Cache: Send + Sync + 'static {
    /// The value, unless missing or expired.
    async fn get(&self, key: &str) -> CacheResult<Option<String>>;
    /// The values of `keys`, in their order (one round trip where the cache allows).
    async fn get_many(&self, keys: &[String]) -> CacheResult<Vec<Option<String>>> {
        let mut values = Vec::with_capacity(keys.len());
        for key in keys {
            values.push(self.get(key).await?);
        }
        Ok(values)
    }
    /// Stores a value that expires after `ttl`, replacing any other.
    async fn set(&self, key: &str, value: &str, ttl: Duration) -> CacheResult<()>;
    /// Stores a value only when the key is absent; tells whether it was stored.
    async fn set_if_absent(&self, key: &str, value: &str, ttl: Duration) -> CacheResult<bool>;
    /// Adds one and returns the new count. A key that did not exist starts at 1 and expires
    /// after `ttl`; an existing key keeps its expiry (a fixed window).
    async fn increment(&self, key: &str, ttl: Duration) -> CacheResult<i64> {
        self.add(key, 1, ttl).await
    }
    /// Adds `amount` (negative to give some back) and returns the new count, as
    /// [`Cache::increment`]: a missing key starts from 0 and expires after `ttl`.
    async fn add(&self, key: &str, amount: i64, ttl: Duration) -> CacheResult<i64>;
    /// How long until the key expires; `None` when missing.
    async fn time_to_live(&self, key: &str) -> CacheResult<Option<Duration>>;
    /// Removes a key (no error when missing).
    async fn delete(&self, key: &str) -> CacheResult<()>;
    /// Answers when the cache can be reached (readiness); the in-process one always can.
    async fn ping(&self) -> CacheResult<()> {
        Ok(())
    }
}

/// Opens Redis when a URL is given, else the in-process cache.
pub async fn open(redis_url: Option<&str>, prefix: &str) -> anyhow::Result<Arc<dyn Cache>> {
    Ok(match redis_url {
        Some(url) => Arc::new(RedisCache::connect(url, prefix).await?),
        None => Arc::new(MemoryCache::new(prefix)),
    })
}

/// A copy kept as JSON (a translation, a geocoder's answer): `None` when missing, unreadable
/// or the cache is down (logged: the caller asks the provider instead).
pub async fn cached_json<T: serde::de::DeserializeOwned>(
    cache: &dyn Cache,
    key: &str,
) -> Option<T> {
    match cache.get(key).await {
        Ok(Some(value)) => serde_json::from_str(&value).ok(),
        Ok(None) => None,
        Err(error) => {
            tracing::warn!(%error, key, "cache unreadable; asking the provider");
            None
        }
    }
}

/// Keeps a copy as JSON for `ttl`; a failure is logged, the copy is only lost.
pub async fn keep_json<T: serde::Serialize>(
    cache: &dyn Cache,
    key: &str,
    value: &T,
    ttl: Duration,
) {
    let stored = match serde_json::to_string(value) {
        Ok(value) => cache.set(key, &value, ttl).await.map_err(|e| e.to_string()),
        Err(error) => Err(error.to_string()),
    };
    if let Err(error) = stored {
        tracing::warn!(%error, key, "copy not cached");
    }
}

impl From<CacheError> for ApiError {
    fn from(error: CacheError) -> Self {
        tracing::error!(%error, "cache failure");
        Self::Unavailable {
            reason: ErrorReason::CacheUnavailable,
            message: "the service is briefly unavailable; please try again".to_owned(),
        }
    }
}
