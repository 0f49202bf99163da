//! The Redis cache, through a connection manager that reconnects by itself.

use std::time::Duration;

use anyhow::Context;
use async_trait::async_trait;
use redis::{
    AsyncCommands,
    aio::{ConnectionManager, ConnectionManagerConfig},
};

use super::{Cache, CacheError, CacheResult};

#[derive(Clone)]
pub struct RedisCache {
    prefix: String,
    connection: ConnectionManager,
}

impl RedisCache {
    pub async fn connect(url: &str, prefix: &str) -> anyhow::Result<Self> {
        let client = redis::Client::open(url).context("parsing REDIS_URL")?;
        // Fail fast when Redis is down (the default retries a reconnect six times with
        // backoff inside every call, some ten seconds): callers decide what to do without
        // it, and the manager keeps reconnecting on later calls.
        let config = ConnectionManagerConfig::new()
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(100))
            .set_connection_timeout(Some(Duration::from_millis(500)))
            .set_response_timeout(Some(Duration::from_millis(500)));
        let connection = ConnectionManager::new_with_config(client, config)
            .await
            .context("connecting to Redis")?;
        Ok(Self {
            prefix: prefix.to_owned(),
            connection,
        })
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }
}

fn millis(ttl: Duration) -> u64 {
    // Redis refuses a zero expiry; the shortest it keeps is one millisecond.
    u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1)
}

impl From<redis::RedisError> for CacheError {
    fn from(error: redis::RedisError) -> Self {
        CacheError(error.to_string())
    }
}

#[async_trait]
impl Cache for RedisCache {
    async fn get(&self, key: &str) -> CacheResult<Option<String>> {
        Ok(self.connection.clone().get(self.key(key)).await?)
    }

    async fn get_many(&self, keys: &[String]) -> CacheResult<Vec<Option<String>>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = keys.iter().map(|key| self.key(key)).collect();
        Ok(redis::cmd("MGET")
            .arg(&keys)
            .query_async(&mut self.connection.clone())
            .await?)
    }

    async fn set(&self, key: &str, value: &str, ttl: Duration) -> CacheResult<()> {
        let _: () = self
            .connection
            .clone()
            .pset_ex(self.key(key), value, millis(ttl))
            .await?;
        Ok(())
    }

    async fn set_if_absent(&self, key: &str, value: &str, ttl: Duration) -> CacheResult<bool> {
        let reply: Option<String> = redis::cmd("SET")
            .arg(self.key(key))
            .arg(value)
            .arg("NX")
            .arg("PX")
            .arg(millis(ttl))
            .query_async(&mut self.connection.clone())
            .await?;
        Ok(reply.is_some())
    }

    async fn add(&self, key: &str, amount: i64, ttl: Duration) -> CacheResult<i64> {
        let key = self.key(key);
        // INCRBY and PEXPIRE ... NX in one transaction: the window starts at the first hit.
        let (count, _): (i64, i64) = redis::pipe()
            .atomic()
            .incr(&key, amount)
            .cmd("PEXPIRE")
            .arg(&key)
            .arg(millis(ttl))
            .arg("NX")
            .query_async(&mut self.connection.clone())
            .await?;
        Ok(count)
    }

    async fn time_to_live(&self, key: &str) -> CacheResult<Option<Duration>> {
        let ms: i64 = self.connection.clone().pttl(self.key(key)).await?;
        // -2: no such key; -1: no expiry (never set by this cache).
        Ok(u64::try_from(ms).ok().map(Duration::from_millis))
    }

    async fn delete(&self, key: &str) -> CacheResult<()> {
        let _: () = self.connection.clone().del(self.key(key)).await?;
        Ok(())
    }

    async fn ping(&self) -> CacheResult<()> {
        let _: String = redis::cmd("PING")
            .query_async(&mut self.connection.clone())
            .await?;
        Ok(())
    }
}
