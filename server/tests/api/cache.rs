//! One suite, run against both caches: Redis (`TEST_REDIS_URL`) and the in-process one.

use crate::helpers;
use std::{sync::Arc, time::Duration};

use repairs_server::cache::{Cache, MemoryCache, RedisCache};

fn prefix() -> String {
    format!("cache-test:{}:", uuid::Uuid::now_v7())
}

async fn redis() -> Arc<dyn Cache> {
    helpers::redis_cache().await
}

fn memory() -> Arc<dyn Cache> {
    Arc::new(MemoryCache::new(&prefix()))
}

const SHORT: Duration = Duration::from_millis(150);
const LONG: Duration = Duration::from_secs(60);

async fn values_expire(cache: Arc<dyn Cache>) {
    assert_eq!(cache.get("k").await.unwrap(), None);
    cache.set("k", "v1", SHORT).await.unwrap();
    assert_eq!(cache.get("k").await.unwrap().as_deref(), Some("v1"));
    cache.set("k", "v2", SHORT).await.unwrap();
    assert_eq!(cache.get("k").await.unwrap().as_deref(), Some("v2"));
    tokio::time::sleep(SHORT * 2).await;
    assert_eq!(cache.get("k").await.unwrap(), None);
}

async fn set_if_absent_stores_once_until_expiry(cache: Arc<dyn Cache>) {
    assert!(cache.set_if_absent("once", "a", SHORT).await.unwrap());
    assert!(!cache.set_if_absent("once", "b", SHORT).await.unwrap());
    assert_eq!(cache.get("once").await.unwrap().as_deref(), Some("a"));
    tokio::time::sleep(SHORT * 2).await;
    assert!(cache.set_if_absent("once", "c", SHORT).await.unwrap());
}

async fn increments_count_in_a_fixed_window(cache: Arc<dyn Cache>) {
    assert_eq!(cache.increment("n", SHORT * 2).await.unwrap(), 1);
    tokio::time::sleep(SHORT).await;
    // A later increment does not push the window's end back.
    assert_eq!(cache.increment("n", SHORT * 2).await.unwrap(), 2);
    tokio::time::sleep(SHORT + SHORT / 2).await;
    assert_eq!(
        cache.increment("n", SHORT * 2).await.unwrap(),
        1,
        "a new window starts at 1"
    );
}

async fn concurrent_increments_are_not_lost(cache: Arc<dyn Cache>) {
    let tasks: Vec<_> = (0..100)
        .map(|_| {
            let cache = cache.clone();
            tokio::spawn(async move { cache.increment("hits", LONG).await.unwrap() })
        })
        .collect();
    let mut seen: Vec<i64> = Vec::new();
    for task in tasks {
        seen.push(task.await.unwrap());
    }
    seen.sort_unstable();
    assert_eq!(seen, (1..=100).collect::<Vec<_>>());
}

async fn adds_amounts_and_gives_back(cache: Arc<dyn Cache>) {
    assert_eq!(cache.add("chars", 120, LONG).await.unwrap(), 120);
    assert_eq!(cache.add("chars", 80, LONG).await.unwrap(), 200);
    assert_eq!(cache.add("chars", -80, LONG).await.unwrap(), 120);
    assert!(cache.time_to_live("chars").await.unwrap().is_some());
}

async fn time_to_live_and_delete(cache: Arc<dyn Cache>) {
    assert_eq!(cache.time_to_live("t").await.unwrap(), None);
    cache.set("t", "x", LONG).await.unwrap();
    let ttl = cache.time_to_live("t").await.unwrap().unwrap();
    assert!(
        ttl <= LONG && ttl > LONG - Duration::from_secs(5),
        "{ttl:?}"
    );
    cache.delete("t").await.unwrap();
    assert_eq!(cache.get("t").await.unwrap(), None);
    assert_eq!(cache.time_to_live("t").await.unwrap(), None);
    cache.delete("never-set").await.unwrap();
}

/// Runs each case against a fresh cache of each kind.
macro_rules! both_caches {
    ($($case:ident),* $(,)?) => {
        mod on_redis {
            $(#[tokio::test] async fn $case() { super::$case(super::redis().await).await; })*
        }
        mod in_process {
            $(#[tokio::test] async fn $case() { super::$case(super::memory()).await; })*
        }
    };
}

both_caches!(
    values_expire,
    set_if_absent_stores_once_until_expiry,
    increments_count_in_a_fixed_window,
    concurrent_increments_are_not_lost,
    adds_amounts_and_gives_back,
    time_to_live_and_delete,
);

#[tokio::test]
async fn prefixes_keep_deployments_apart() {
    let url = helpers::test_redis_url();
    let a = RedisCache::connect(&url, &prefix()).await.unwrap();
    let b = RedisCache::connect(&url, &prefix()).await.unwrap();
    a.set("shared-name", "a", LONG).await.unwrap();
    assert_eq!(b.get("shared-name").await.unwrap(), None);
}
