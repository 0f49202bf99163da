//! One value loaded on demand and kept for a short while, in this process only: what many
//! requests ask the server for and every caller is answered alike (the service catalogue of
//! the legacy calls). Concurrent misses share one load, so a burst after expiry costs the
//! server one call, not one per request. A failed load is never kept: every caller that waited
//! for it gets the error, and the next call loads again.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::FutureExt;
use futures::future::{BoxFuture, Shared};
use tokio::time::Instant;

/// A load under way, which every caller that missed meanwhile awaits.
type Load<T, E> = Shared<BoxFuture<'static, Result<Arc<T>, E>>>;

enum Slot<T, E> {
    Empty,
    /// Numbered so that only the load the slot still names stores its result: one started
    /// before an [`Cached::invalidate`] may have read what the invalidation was for.
    Loading(u64, Load<T, E>),
    Fresh {
        value: Arc<T>,
        until: Instant,
    },
}

struct Inner<T, E> {
    slot: Slot<T, E>,
    loads: u64,
}

/// Cheap to clone; the clones share the value.
pub struct Cached<T, E> {
    ttl: Duration,
    inner: Arc<Mutex<Inner<T, E>>>,
}

impl<T, E> Clone for Cached<T, E> {
    fn clone(&self) -> Self {
        Self {
            ttl: self.ttl,
            inner: self.inner.clone(),
        }
    }
}

/// Off: every call loads.
impl<T, E> Default for Cached<T, E> {
    fn default() -> Self {
        Self::new(Duration::ZERO)
    }
}

impl<T, E> Cached<T, E> {
    /// Keeps each loaded value for `ttl`; `Duration::ZERO` keeps nothing (every call loads).
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            inner: Arc::new(Mutex::new(Inner {
                slot: Slot::Empty,
                loads: 0,
            })),
        }
    }

    /// Forgets the value (and any load under way), so the next call loads again: after a
    /// change made through this process, which its callers must see at once.
    pub fn invalidate(&self) {
        self.lock().slot = Slot::Empty;
    }

    /// The lock is only ever held for a few statements, never across an await; a panic
    /// under it cannot leave the slot half-written, so a poisoned lock is used as it is.
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<T, E>> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<T, E> Cached<T, E>
where
    T: Send + Sync + 'static,
    E: Clone + Send + Sync + 'static,
{
    /// The kept value while it is fresh; otherwise the load under way, or a new one made with
    /// `load`. The load runs to its end even when the caller that started it goes away (the
    /// next caller takes it over), so it must not borrow from the caller.
    pub async fn get<F>(&self, load: impl FnOnce() -> F) -> Result<Arc<T>, E>
    where
        F: Future<Output = Result<T, E>> + Send + 'static,
    {
        if self.ttl.is_zero() {
            return load().await.map(Arc::new);
        }
        let (number, pending) = {
            let mut inner = self.lock();
            match &inner.slot {
                Slot::Fresh { value, until } if Instant::now() < *until => {
                    return Ok(value.clone());
                }
                Slot::Loading(number, pending) => (*number, pending.clone()),
                Slot::Empty | Slot::Fresh { .. } => {
                    inner.loads += 1;
                    let number = inner.loads;
                    let pending = load().map(|loaded| loaded.map(Arc::new)).boxed().shared();
                    inner.slot = Slot::Loading(number, pending.clone());
                    (number, pending)
                }
            }
        };
        let loaded = pending.await;
        let mut inner = self.lock();
        // The first waiter to wake stores the result; the others find it already done.
        if matches!(inner.slot, Slot::Loading(current, _) if current == number) {
            inner.slot = match &loaded {
                Ok(value) => Slot::Fresh {
                    value: value.clone(),
                    until: Instant::now() + self.ttl,
                },
                Err(_) => Slot::Empty,
            };
        }
        loaded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use tokio::sync::watch;

    /// A loader that counts who asked and what it loaded, and answers once its gate is open:
    /// the load's number, or while `fail` holds an error naming it.
    #[derive(Clone)]
    struct Fake {
        asked: Arc<AtomicUsize>,
        loads: Arc<AtomicUsize>,
        gate: Arc<watch::Sender<bool>>,
        fail: Arc<AtomicBool>,
    }

    impl Fake {
        fn new(open: bool) -> Self {
            Self {
                asked: Arc::default(),
                loads: Arc::default(),
                gate: Arc::new(watch::Sender::new(open)),
                fail: Arc::default(),
            }
        }

        fn open(&self) {
            self.gate.send_replace(true);
        }

        fn loads(&self) -> usize {
            self.loads.load(Ordering::SeqCst)
        }

        fn fail(&self, fail: bool) {
            self.fail.store(fail, Ordering::SeqCst);
        }

        async fn get(&self, cache: &Cached<usize, String>) -> Result<Arc<usize>, String> {
            self.asked.fetch_add(1, Ordering::SeqCst);
            let fake = self.clone();
            cache
                .get(move || async move {
                    let number = fake.loads.fetch_add(1, Ordering::SeqCst) + 1;
                    let _ = fake.gate.subscribe().wait_for(|open| *open).await;
                    if fake.fail.load(Ordering::SeqCst) {
                        Err(format!("load {number} failed"))
                    } else {
                        Ok(number)
                    }
                })
                .await
        }

        /// Runs `count` gets at once behind the closed gate and opens it once every one of
        /// them waits (the runtime is single-threaded: a task that has asked has also reached
        /// its first await), then returns their answers.
        async fn concurrent_gets(
            &self,
            cache: &Cached<usize, String>,
            count: usize,
        ) -> Vec<Result<Arc<usize>, String>> {
            let gets: Vec<_> = (0..count)
                .map(|_| {
                    let (cache, fake) = (cache.clone(), self.clone());
                    tokio::spawn(async move { fake.get(&cache).await })
                })
                .collect();
            while self.asked.load(Ordering::SeqCst) < count {
                tokio::task::yield_now().await;
            }
            self.open();
            let mut answers = Vec::new();
            for get in gets {
                answers.push(get.await.unwrap());
            }
            answers
        }
    }

    const LONG: Duration = Duration::from_secs(60);

    #[tokio::test]
    async fn concurrent_misses_share_one_load() {
        let cache = Cached::new(LONG);
        let fake = Fake::new(false);
        let answers = fake.concurrent_gets(&cache, 50).await;
        assert_eq!(fake.loads(), 1);
        let first = answers[0].clone().unwrap();
        assert_eq!(*first, 1);
        assert!(
            answers
                .iter()
                .all(|answer| Arc::ptr_eq(answer.as_ref().unwrap(), &first))
        );
        // And it is kept: gets within the TTL load nothing.
        for _ in 0..3 {
            assert_eq!(*fake.get(&cache).await.unwrap(), 1);
        }
        assert_eq!(fake.loads(), 1);
    }

    /// Real time, each TTL chosen so that a slow machine cannot change the outcome: kept for
    /// a minute, or gone after a millisecond.
    #[tokio::test]
    async fn a_value_is_kept_for_the_ttl_only() {
        let fake = Fake::new(true);
        let kept = Cached::new(LONG);
        assert_eq!(*fake.get(&kept).await.unwrap(), 1);
        assert_eq!(*fake.get(&kept).await.unwrap(), 1);
        assert_eq!(fake.loads(), 1);

        let fake = Fake::new(true);
        let short = Cached::new(Duration::from_millis(1));
        assert_eq!(*fake.get(&short).await.unwrap(), 1);
        tokio::time::sleep(Duration::from_millis(5)).await;
        assert_eq!(*fake.get(&short).await.unwrap(), 2);
        assert_eq!(fake.loads(), 2);
    }

    #[tokio::test]
    async fn an_error_reaches_every_waiter_and_is_not_kept() {
        let cache = Cached::new(LONG);
        let fake = Fake::new(false);
        fake.fail(true);
        let answers = fake.concurrent_gets(&cache, 10).await;
        assert_eq!(fake.loads(), 1);
        assert!(
            answers
                .iter()
                .all(|answer| answer.as_ref().unwrap_err() == "load 1 failed")
        );
        fake.fail(false);
        assert_eq!(*fake.get(&cache).await.unwrap(), 2);
        assert_eq!(*fake.get(&cache).await.unwrap(), 2);
        assert_eq!(fake.loads(), 2);
    }

    #[tokio::test]
    async fn invalidate_makes_the_next_get_load() {
        let fake = Fake::new(true);
        let cache = Cached::new(LONG);
        assert_eq!(*fake.get(&cache).await.unwrap(), 1);
        cache.invalidate();
        assert_eq!(*fake.get(&cache).await.unwrap(), 2);
        assert_eq!(*fake.get(&cache).await.unwrap(), 2);
        assert_eq!(fake.loads(), 2);
    }

    #[tokio::test]
    async fn a_load_under_way_when_invalidated_is_not_kept() {
        let cache = Cached::new(LONG);
        let fake = Fake::new(false);
        let started = {
            let (cache, fake) = (cache.clone(), fake.clone());
            tokio::spawn(async move { fake.get(&cache).await })
        };
        while fake.loads() < 1 {
            tokio::task::yield_now().await;
        }
        cache.invalidate();
        fake.open();
        // Its own caller still gets what it read; the cache does not keep it.
        assert_eq!(*started.await.unwrap().unwrap(), 1);
        assert_eq!(*fake.get(&cache).await.unwrap(), 2);
        assert_eq!(*fake.get(&cache).await.unwrap(), 2);
        assert_eq!(fake.loads(), 2);
    }

    #[tokio::test]
    async fn ttl_zero_loads_every_time() {
        let fake = Fake::new(true);
        let cache = Cached::default();
        for number in 1..=3 {
            assert_eq!(*fake.get(&cache).await.unwrap(), number);
        }
        assert_eq!(fake.loads(), 3);
    }
}
