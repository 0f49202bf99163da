//! Transactions that read through themselves. A task that holds a transaction and asks the
//! pool for a second connection waits for a connection while holding one (and often a row
//! lock): under load the holders wait for each other until the pool's acquire timeout, and
//! everyone else's calls fail with them. So every transaction is begun with [`begin`], which
//! counts the transactions the current task holds, and the pool's hooks ([`watch_pool`])
//! record any connection handed to a task that holds one. Tests fail on such a record
//! (`testing::TestServer::stop`); in production it is logged as an error with a backtrace.

use std::{
    cell::Cell,
    ops::{Deref, DerefMut},
    sync::{
        Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use sqlx::{PgConnection, PgPool, Postgres, Transaction, postgres::PgPoolOptions};

tokio::task_local! {
    /// Transactions the current task holds (only inside [`tracked`]).
    static HELD: Cell<u32>;
}

/// Second connections handed to a task that held a transaction, since the process started.
static SECOND_CONNECTIONS: AtomicU64 = AtomicU64::new(0);

/// Where they were taken (this crate's frames of each distinct backtrace, the first few).
static SEEN_AT: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Second connections handed to a task that held a transaction since the process started,
/// and where (this crate's frames); `None` when there was none.
pub fn second_connections() -> Option<(u64, String)> {
    match SECOND_CONNECTIONS.load(Ordering::Relaxed) {
        0 => None,
        count => {
            let seen = SEEN_AT
                .lock()
                .map(|seen| seen.join("\n\n"))
                .unwrap_or_default();
            Some((count, seen))
        }
    }
}

/// Runs `future` with its transactions counted: every RPC and every background task.
pub fn tracked<F: Future>(future: F) -> tokio::task::futures::TaskLocalFuture<Cell<u32>, F> {
    HELD.scope(Cell::new(0), future)
}

/// Runs every call of the wrapped service under [`tracked`].
#[derive(Debug, Clone, Copy, Default)]
pub struct TrackedLayer;

impl<S> tower::Layer<S> for TrackedLayer {
    type Service = Tracked<S>;

    fn layer(&self, inner: S) -> Tracked<S> {
        Tracked(inner)
    }
}

#[derive(Debug, Clone)]
pub struct Tracked<S>(S);

impl<S: tower::Service<R>, R> tower::Service<R> for Tracked<S> {
    type Response = S::Response;
    type Error = S::Error;
    type Future = tokio::task::futures::TaskLocalFuture<Cell<u32>, S::Future>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), S::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: R) -> Self::Future {
        tracked(self.0.call(request))
    }
}

/// The lines of a backtrace that name this crate's own code.
fn frames_of_this_crate(backtrace: &str) -> String {
    backtrace
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("at ./src/") || line.contains("/server/src/"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn held_by_this_task() -> u32 {
    HELD.try_with(Cell::get).unwrap_or(0)
}

fn add_held(delta: i32) {
    let _ = HELD.try_with(|held| held.set(held.get().saturating_add_signed(delta)));
}

/// Called by the pool whenever it hands out a connection.
pub(super) fn on_connection_handed_out() {
    if held_by_this_task() > 0 {
        SECOND_CONNECTIONS.fetch_add(1, Ordering::Relaxed);
        let backtrace = std::backtrace::Backtrace::force_capture().to_string();
        tracing::error!(
            %backtrace,
            "a task holding a transaction took a second database connection; read through the transaction"
        );
        let frames = frames_of_this_crate(&backtrace);
        if let Ok(mut seen) = SEEN_AT.lock()
            && seen.len() < 20
            && !seen.contains(&frames)
        {
            seen.push(frames);
        }
    }
}

/// The pool's hooks that report a second connection taken by a transaction's task, and
/// that check a connection that sat idle still answers. sqlx's own check
/// (`test_before_acquire`) pings every connection it hands out: a round trip to Postgres
/// before each query, as long as the query itself for a one-row read. A connection in
/// steady use has just answered; one that sat idle may have been cut off meanwhile (a
/// Postgres restart, a proxy's idle timeout), so only those are pinged, and a dead one is
/// closed and another taken: those idle at least `ping_when_idle_for`.
pub fn watch_pool(
    options: PgPoolOptions,
    ping_when_idle_for: std::time::Duration,
) -> PgPoolOptions {
    options
        .test_before_acquire(false)
        .after_connect(|_, _| {
            on_connection_handed_out();
            Box::pin(async { Ok(()) })
        })
        .before_acquire(move |connection, metadata| {
            on_connection_handed_out();
            Box::pin(async move {
                if metadata.idle_for >= ping_when_idle_for {
                    sqlx::Connection::ping(connection).await?;
                }
                Ok(true)
            })
        })
}

/// A transaction counted as held by its task until it is committed or dropped.
pub struct Tx {
    inner: Option<Transaction<'static, Postgres>>,
}

/// Begins a transaction on `pool` (the only way this crate begins one).
pub async fn begin(pool: &PgPool) -> sqlx::Result<Tx> {
    let inner = pool.begin().await?;
    add_held(1);
    Ok(Tx { inner: Some(inner) })
}

impl Tx {
    pub async fn commit(mut self) -> sqlx::Result<()> {
        match self.inner.take() {
            Some(inner) => {
                add_held(-1);
                inner.commit().await
            }
            None => Ok(()),
        }
    }

    pub async fn rollback(mut self) -> sqlx::Result<()> {
        match self.inner.take() {
            Some(inner) => {
                add_held(-1);
                inner.rollback().await
            }
            None => Ok(()),
        }
    }

    fn transaction(&mut self) -> &mut Transaction<'static, Postgres> {
        #[allow(clippy::expect_used, reason = "only commit takes it, consuming self")]
        self.inner
            .as_mut()
            .expect("a transaction is held until commit")
    }
}

impl Deref for Tx {
    type Target = PgConnection;

    fn deref(&self) -> &PgConnection {
        #[allow(clippy::expect_used, reason = "only commit takes it, consuming self")]
        self.inner
            .as_ref()
            .expect("a transaction is held until commit")
    }
}

impl DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut PgConnection {
        self.transaction()
    }
}

impl Drop for Tx {
    fn drop(&mut self) {
        if self.inner.is_some() {
            add_held(-1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_transaction_is_held_until_dropped_within_its_task_only() {
        tracked(async {
            assert_eq!(held_by_this_task(), 0);
            add_held(1);
            add_held(1);
            assert_eq!(held_by_this_task(), 2);
            add_held(-1);
            assert_eq!(held_by_this_task(), 1);
            let other = tokio::spawn(tracked(async { held_by_this_task() }));
            assert_eq!(other.await.unwrap(), 0);
        })
        .await;
        assert_eq!(
            held_by_this_task(),
            0,
            "outside a tracked task nothing is held"
        );
    }
}
