//! The in-process cache: a map behind a mutex, entries expiring lazily on read and swept
//! now and then on write so the map does not grow without bound.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use async_trait::async_trait;

use super::{Cache, CacheError, CacheResult};

/// How many writes between sweeps of expired entries.
const SWEEP_EVERY: u32 = 1024;

#[derive(Debug)]
struct Entry {
    value: String,
    expires_at: Instant,
}

#[derive(Debug, Default)]
struct State {
    entries: HashMap<String, Entry>,
    writes_since_sweep: u32,
}

impl State {
    fn live(&mut self, key: &str, now: Instant) -> Option<&mut Entry> {
        if self.entries.get(key).is_some_and(|e| e.expires_at <= now) {
            self.entries.remove(key);
        }
        self.entries.get_mut(key)
    }

    fn insert(&mut self, key: String, value: String, expires_at: Instant, now: Instant) {
        self.writes_since_sweep += 1;
        if self.writes_since_sweep >= SWEEP_EVERY {
            self.entries.retain(|_, e| e.expires_at > now);
            self.writes_since_sweep = 0;
        }
        self.entries.insert(key, Entry { value, expires_at });
    }
}

#[derive(Debug)]
pub struct MemoryCache {
    prefix: String,
    state: Mutex<State>,
}

impl MemoryCache {
    pub fn new(prefix: &str) -> Self {
        Self {
            prefix: prefix.to_owned(),
            state: Mutex::default(),
        }
    }

    fn with_state<T>(&self, f: impl FnOnce(&mut State, Instant) -> T) -> CacheResult<T> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| CacheError("in-process cache lock poisoned".into()))?;
        Ok(f(&mut state, Instant::now()))
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }
}

#[async_trait]
impl Cache for MemoryCache {
    async fn get(&self, key: &str) -> CacheResult<Option<String>> {
        let key = self.key(key);
        self.with_state(|s, now| s.live(&key, now).map(|e| e.value.clone()))
    }

    async fn set(&self, key: &str, value: &str, ttl: Duration) -> CacheResult<()> {
        let key = self.key(key);
        self.with_state(|s, now| s.insert(key, value.to_owned(), now + ttl, now))
    }

    async fn set_if_absent(&self, key: &str, value: &str, ttl: Duration) -> CacheResult<bool> {
        let key = self.key(key);
        self.with_state(|s, now| {
            if s.live(&key, now).is_some() {
                return false;
            }
            s.insert(key, value.to_owned(), now + ttl, now);
            true
        })
    }

    async fn add(&self, key: &str, amount: i64, ttl: Duration) -> CacheResult<i64> {
        let key = self.key(key);
        self.with_state(|s, now| match s.live(&key, now) {
            Some(entry) => {
                let next = entry
                    .value
                    .parse::<i64>()
                    .unwrap_or(0)
                    .saturating_add(amount);
                entry.value = next.to_string();
                next
            }
            None => {
                s.insert(key, amount.to_string(), now + ttl, now);
                amount
            }
        })
    }

    async fn time_to_live(&self, key: &str) -> CacheResult<Option<Duration>> {
        let key = self.key(key);
        self.with_state(|s, now| s.live(&key, now).map(|e| e.expires_at - now))
    }

    async fn delete(&self, key: &str) -> CacheResult<()> {
        let key = self.key(key);
        self.with_state(|s, _| {
            s.entries.remove(&key);
        })
    }
}
