//! The in-process cache: a map behind a mutex, entries expiring lazily on read and swept
//! now and then on write. Cached copies (what [`Cache::set`] stores: distances and
//! translations kept for 30 days, pages, session versions, phone codes) are also bounded in
//! memory: past [`DEFAULT_MAX_BYTES`] of them, the least recently used go first. What a rule
//! counts or claims ([`Cache::add`]'s counters, [`Cache::set_if_absent`]'s cooldowns) is never
//! evicted, as losing it would reset a limit: it only expires, and its short lifetimes and the
//! limits themselves bound it.

use std::{
    collections::{BTreeMap, HashMap},
    sync::Mutex,
    time::{Duration, Instant},
};

use async_trait::async_trait;

use super::{Cache, CacheError, CacheResult};

/// How many writes between sweeps of expired entries.
const SWEEP_EVERY: u32 = 1024;

/// Bytes of cached copies the cache keeps at most (keys, values and their bookkeeping).
pub const DEFAULT_MAX_BYTES: usize = 32 * 1024 * 1024;

/// What an entry costs beyond its key and value: the map's slot, the recency index's node
/// and the allocations' headers (an estimate, on the high side).
const ENTRY_OVERHEAD: usize = 128;

#[derive(Debug)]
struct Entry {
    value: String,
    expires_at: Instant,
    /// When a cached copy was last used (a tick of [`State::recency`]); `None` for counters
    /// and claims, which are never evicted.
    used: Option<u64>,
}

/// Whether an entry may be evicted before it expires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
    Evictable,
    UntilExpiry,
}

fn cost(key: &str, value: &str) -> usize {
    // The key is held twice: in the map and in the recency index.
    2 * key.len() + value.len() + ENTRY_OVERHEAD
}

#[derive(Debug)]
struct State {
    entries: HashMap<String, Entry>,
    /// Cached copies by last use, least recent first.
    recency: BTreeMap<u64, String>,
    tick: u64,
    /// What the cached copies cost, by [`cost`].
    evictable_bytes: usize,
    max_bytes: usize,
    writes_since_sweep: u32,
}

impl State {
    fn new(max_bytes: usize) -> Self {
        Self {
            entries: HashMap::new(),
            recency: BTreeMap::new(),
            tick: 0,
            evictable_bytes: 0,
            max_bytes,
            writes_since_sweep: 0,
        }
    }

    fn next_tick(&mut self) -> u64 {
        self.tick += 1;
        self.tick
    }

    /// The entry, unless missing or expired; a cached copy counts as used.
    fn live(&mut self, key: &str, now: Instant) -> Option<&mut Entry> {
        let used = match self.entries.get(key) {
            None => return None,
            Some(entry) if entry.expires_at <= now => {
                self.remove(key);
                return None;
            }
            Some(entry) => entry.used,
        };
        if let Some(before) = used {
            let tick = self.next_tick();
            if let Some(name) = self.recency.remove(&before) {
                self.recency.insert(tick, name);
            }
            if let Some(entry) = self.entries.get_mut(key) {
                entry.used = Some(tick);
            }
        }
        self.entries.get_mut(key)
    }

    fn remove(&mut self, key: &str) -> Option<Entry> {
        let entry = self.entries.remove(key)?;
        if let Some(tick) = entry.used {
            self.recency.remove(&tick);
            self.evictable_bytes -= cost(key, &entry.value);
        }
        Some(entry)
    }

    fn sweep(&mut self, now: Instant) {
        let expired: Vec<String> = self
            .entries
            .iter()
            .filter(|(_, entry)| entry.expires_at <= now)
            .map(|(key, _)| key.clone())
            .collect();
        for key in expired {
            self.remove(&key);
        }
    }

    /// Stores an entry, first making room for a cached copy by evicting the least recently
    /// used ones. A cached copy larger than the whole bound is not kept.
    fn insert(
        &mut self,
        key: String,
        value: String,
        expires_at: Instant,
        keep: Keep,
        now: Instant,
    ) {
        self.writes_since_sweep += 1;
        if self.writes_since_sweep >= SWEEP_EVERY {
            self.sweep(now);
            self.writes_since_sweep = 0;
        }
        self.remove(&key);
        let used = match keep {
            Keep::UntilExpiry => None,
            Keep::Evictable => {
                let added = cost(&key, &value);
                if added > self.max_bytes {
                    return;
                }
                while self.evictable_bytes + added > self.max_bytes {
                    let Some((_, oldest)) = self.recency.pop_first() else {
                        break;
                    };
                    if let Some(entry) = self.entries.remove(&oldest) {
                        self.evictable_bytes -= cost(&oldest, &entry.value);
                    }
                }
                self.evictable_bytes += added;
                let tick = self.next_tick();
                self.recency.insert(tick, key.clone());
                Some(tick)
            }
        };
        self.entries.insert(
            key,
            Entry {
                value,
                expires_at,
                used,
            },
        );
    }
}

#[derive(Debug)]
pub struct MemoryCache {
    prefix: String,
    state: Mutex<State>,
}

impl MemoryCache {
    pub fn new(prefix: &str) -> Self {
        Self::with_max_bytes(prefix, DEFAULT_MAX_BYTES)
    }

    /// A cache whose cached copies take at most `max_bytes` (see [`DEFAULT_MAX_BYTES`]).
    pub fn with_max_bytes(prefix: &str, max_bytes: usize) -> Self {
        Self {
            prefix: prefix.to_owned(),
            state: Mutex::new(State::new(max_bytes)),
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
        self.with_state(|s, now| s.insert(key, value.to_owned(), now + ttl, Keep::Evictable, now))
    }

    async fn set_if_absent(&self, key: &str, value: &str, ttl: Duration) -> CacheResult<bool> {
        let key = self.key(key);
        self.with_state(|s, now| {
            if s.live(&key, now).is_some() {
                return false;
            }
            s.insert(key, value.to_owned(), now + ttl, Keep::UntilExpiry, now);
            true
        })
    }

    async fn add(&self, key: &str, amount: i64, ttl: Duration) -> CacheResult<i64> {
        let key = self.key(key);
        self.with_state(|s, now| {
            let (count, expires_at) = match s.live(&key, now) {
                Some(entry) => (
                    entry
                        .value
                        .parse::<i64>()
                        .unwrap_or(0)
                        .saturating_add(amount),
                    entry.expires_at,
                ),
                None => (amount, now + ttl),
            };
            s.insert(key, count.to_string(), expires_at, Keep::UntilExpiry, now);
            count
        })
    }

    async fn time_to_live(&self, key: &str) -> CacheResult<Option<Duration>> {
        let key = self.key(key);
        self.with_state(|s, now| s.live(&key, now).map(|e| e.expires_at - now))
    }

    async fn delete(&self, key: &str) -> CacheResult<()> {
        let key = self.key(key);
        self.with_state(|s, _| {
            s.remove(&key);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAYS_30: Duration = Duration::from_secs(30 * 24 * 3600);

    fn held(cache: &MemoryCache) -> (usize, usize) {
        let state = cache.state.lock().unwrap();
        (state.entries.len(), state.evictable_bytes)
    }

    #[tokio::test]
    async fn cached_copies_stay_within_the_bound_least_recently_used_going_first() {
        // Room for about ten distances.
        let max_bytes = 10 * cost("p:distance:000000", "123456");
        let cache = MemoryCache::with_max_bytes("p:", max_bytes);
        cache
            .set("distance:000000", "123456", DAYS_30)
            .await
            .unwrap();
        for n in 1..1_000 {
            cache
                .set(&format!("distance:{n:06}"), "123456", DAYS_30)
                .await
                .unwrap();
            // The first one is read all along: the most recently used, never the one to go.
            assert!(cache.get("distance:000000").await.unwrap().is_some());
            let (entries, bytes) = held(&cache);
            assert!(bytes <= max_bytes, "{bytes} bytes held");
            assert!(entries <= 10, "{entries} entries held");
        }
        assert!(cache.get("distance:000500").await.unwrap().is_none());
        assert!(cache.get("distance:000999").await.unwrap().is_some());
        // A value larger than the whole bound is not kept, and evicts nothing.
        let huge = "x".repeat(max_bytes);
        cache.set("translation:long", &huge, DAYS_30).await.unwrap();
        assert!(cache.get("translation:long").await.unwrap().is_none());
        assert!(cache.get("distance:000999").await.unwrap().is_some());
    }

    #[tokio::test]
    async fn counters_and_claims_are_never_evicted_and_replaced_copies_are_counted_once() {
        let max_bytes = 4 * cost("p:copy:0000", "v");
        let cache = MemoryCache::with_max_bytes("p:", max_bytes);
        let minute = Duration::from_secs(60);
        assert_eq!(cache.increment("tries", minute).await.unwrap(), 1);
        assert!(cache.set_if_absent("cooldown", "1", minute).await.unwrap());
        for n in 0..100 {
            cache
                .set(&format!("copy:{n:04}"), "v", minute)
                .await
                .unwrap();
            cache.set("copy:same", "v", minute).await.unwrap();
        }
        assert_eq!(cache.increment("tries", minute).await.unwrap(), 2);
        assert!(!cache.set_if_absent("cooldown", "1", minute).await.unwrap());
        let (_, bytes) = held(&cache);
        assert!(bytes <= max_bytes);
        cache.delete("copy:same").await.unwrap();
        cache.delete("copy:0099").await.unwrap();
        let (entries, _) = held(&cache);
        let state_bytes = held(&cache).1;
        let listed: usize = {
            let state = cache.state.lock().unwrap();
            state
                .entries
                .iter()
                .filter(|(_, e)| e.used.is_some())
                .map(|(k, e)| cost(k, &e.value))
                .sum()
        };
        assert_eq!(state_bytes, listed, "the running total matches the entries");
        assert!(entries >= 2, "the counter and the claim are still there");
    }
}
