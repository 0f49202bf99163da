//! Reads of one statement outside any transaction, on a few long-lived connections of their
//! own. sqlx's pool takes each connection back in a task of its own that pings Postgres first
//! (sqlx 0.9 always does, whatever the pool's options): for a one-row read that is a second
//! round trip, and a task, for every query, during which the connection serves no one. Here a
//! connection whose statement ran to its end goes back at once, with no round trip: Postgres
//! has just answered on it. One whose statement did not end (the call was cancelled, or the
//! connection failed) is closed instead, and a new one is opened when needed; one idle for
//! a while is pinged before use, as in the main pool (`transaction::watch_pool`).

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use sqlx::{
    ConnectOptions, Connection, FromRow, PgConnection, PgPool, Postgres,
    postgres::{PgArguments, PgConnectOptions, PgRow},
    query::QueryAs,
};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How the read connections are kept.
#[derive(Debug, Clone, Copy)]
pub struct ReadsOptions {
    /// Connections open at most.
    pub max_connections: u32,
    /// How long a read waits for a connection before failing (as the pool's timeout does).
    pub acquire_timeout: Duration,
    /// A connection idle at least this long is pinged before use.
    pub ping_when_idle_for: Duration,
    /// A connection older than this is closed as it comes back.
    pub max_lifetime: Duration,
}

/// The read connections (cheap to clone: every clone shares them).
#[derive(Clone)]
pub struct Reads {
    inner: Arc<Inner>,
}

struct Inner {
    connect: Arc<PgConnectOptions>,
    options: ReadsOptions,
    permits: Arc<Semaphore>,
    idle: Mutex<Vec<Idle>>,
    closed: AtomicBool,
}

struct Idle {
    connection: PgConnection,
    created: Instant,
    since: Instant,
}

impl std::fmt::Debug for Reads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reads")
            .field("options", &self.inner.options)
            .field("idle", &self.num_idle())
            .finish_non_exhaustive()
    }
}

impl Reads {
    /// Read connections to the database `pool` connects to (opened as reads need them).
    pub fn new(pool: &PgPool, options: ReadsOptions) -> Self {
        let max = usize::try_from(options.max_connections.max(1)).unwrap_or(1);
        Self {
            inner: Arc::new(Inner {
                connect: pool.connect_options(),
                options,
                permits: Arc::new(Semaphore::new(max)),
                idle: Mutex::new(Vec::with_capacity(max)),
                closed: AtomicBool::new(false),
            }),
        }
    }

    /// Connections open and waiting for a read.
    pub fn num_idle(&self) -> usize {
        self.inner.idle.lock().map_or(0, |idle| idle.len())
    }

    /// A connection for one read, waiting at most the acquire timeout
    /// (`sqlx::Error::PoolTimedOut`, as the pool's own wait).
    pub async fn acquire(&self) -> sqlx::Result<ReadConnection> {
        if self.inner.closed.load(Ordering::Acquire) {
            return Err(sqlx::Error::PoolClosed);
        }
        let permit = match self.inner.permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => tokio::time::timeout(
                self.inner.options.acquire_timeout,
                self.inner.permits.clone().acquire_owned(),
            )
            .await
            .map_err(|_| sqlx::Error::PoolTimedOut)?
            .map_err(|_| sqlx::Error::PoolClosed)?,
        };
        super::transaction::on_connection_handed_out();
        let (connection, created) = self.idle_or_new().await?;
        Ok(ReadConnection {
            connection: Some(connection),
            created,
            keep: false,
            reads: self.inner.clone(),
            _permit: permit,
        })
    }

    /// An idle connection (pinged when it sat idle long enough, and closed when it no
    /// longer answers), or a new one.
    async fn idle_or_new(&self) -> sqlx::Result<(PgConnection, Instant)> {
        loop {
            let idle = self.inner.idle.lock().ok().and_then(|mut idle| idle.pop());
            let Some(mut idle) = idle else { break };
            if idle.since.elapsed() < self.inner.options.ping_when_idle_for {
                return Ok((idle.connection, idle.created));
            }
            if idle.connection.ping().await.is_ok() {
                return Ok((idle.connection, idle.created));
            }
        }
        let connection = self.inner.connect.connect().await?;
        Ok((connection, Instant::now()))
    }

    /// Runs `query` on a read connection: all its rows.
    pub async fn fetch_all<'q, O>(
        &self,
        query: QueryAs<'q, Postgres, O, PgArguments>,
    ) -> sqlx::Result<Vec<O>>
    where
        O: Send + Unpin + for<'r> FromRow<'r, PgRow>,
    {
        let mut connection = self.acquire().await?;
        let result = query.fetch_all(connection.connection()).await;
        connection.finish(result)
    }

    /// Closes the idle connections, and each busy one as it comes back; reads fail as
    /// `PoolClosed` from now on.
    pub async fn close(&self) {
        self.inner.closed.store(true, Ordering::Release);
        self.inner.permits.close();
        let idle = self
            .inner
            .idle
            .lock()
            .map(|mut idle| std::mem::take(&mut *idle))
            .unwrap_or_default();
        for idle in idle {
            close_quietly(idle.connection).await;
        }
    }
}

/// Tells Postgres the connection ends, without waiting long for it.
async fn close_quietly(connection: PgConnection) {
    let _ = tokio::time::timeout(Duration::from_secs(5), connection.close()).await;
}

/// One read connection, handed back as it is dropped: kept for the next read when
/// [`ReadConnection::finish`] saw its statement end, closed otherwise.
pub struct ReadConnection {
    connection: Option<PgConnection>,
    created: Instant,
    keep: bool,
    reads: Arc<Inner>,
    _permit: OwnedSemaphorePermit,
}

impl ReadConnection {
    /// The connection, for one statement.
    pub fn connection(&mut self) -> &mut PgConnection {
        #[allow(clippy::expect_used, reason = "only drop takes it")]
        self.connection
            .as_mut()
            .expect("a read connection is held until dropped")
    }

    /// Gives back the statement's result, and keeps the connection for the next read when
    /// Postgres answered (rows, or an error of the statement's own); a failure of the
    /// connection itself closes it.
    pub fn finish<T>(mut self, result: sqlx::Result<T>) -> sqlx::Result<T> {
        self.keep = match &result {
            Ok(_) => true,
            Err(error) => answered(error),
        };
        result
    }
}

/// Errors after which the connection is at a known point of the protocol: Postgres answered
/// (an error of the statement) or sqlx read the answer and found it wanting. sqlx reads any
/// rest of the answer before the connection's next statement.
fn answered(error: &sqlx::Error) -> bool {
    matches!(
        error,
        sqlx::Error::Database(_)
            | sqlx::Error::RowNotFound
            | sqlx::Error::ColumnNotFound(_)
            | sqlx::Error::ColumnIndexOutOfBounds { .. }
            | sqlx::Error::ColumnDecode { .. }
            | sqlx::Error::Decode(_)
            | sqlx::Error::TypeNotFound { .. }
    )
}

impl Drop for ReadConnection {
    fn drop(&mut self) {
        let Some(connection) = self.connection.take() else {
            return;
        };
        let reads = &self.reads;
        let young = self.created.elapsed() < reads.options.max_lifetime;
        if self.keep && young && !reads.closed.load(Ordering::Acquire) {
            if let Ok(mut idle) = reads.idle.lock() {
                idle.push(Idle {
                    connection,
                    created: self.created,
                    since: Instant::now(),
                });
            }
        } else if self.keep {
            // Old, or the reads are closing: end it properly.
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(close_quietly(connection));
            }
        }
        // Otherwise the connection is dropped: its socket closes, and Postgres ends the
        // backend (a statement cut off midway leaves nothing to reuse).
    }
}
