//! Reads of one row by id that arrive while others of their kind run are answered together:
//! one statement for all their ids (`where id = any($1)`) on a read connection (`reads`).
//! Alone, a read goes at once, as before; under load, one round trip to Postgres answers many
//! calls, so both processes spend their CPU on the calls rather than on passing messages
//! (a one-row read's profile was half the kernel's loopback sends and wake-ups).
//!
//! Each batch runs in a task of its own, at most one per read connection: a call that is
//! cancelled takes its answer's channel with it and leaves the others' answers whole.

use std::sync::{
    Arc, Mutex, MutexGuard, PoisonError,
    atomic::{AtomicU64, Ordering},
};

use sqlx::{FromRow, postgres::PgRow};
use tokio::sync::oneshot;
use uuid::Uuid;

use super::reads::Reads;

/// Ids one statement asks for at most.
pub const MAX_BATCH: usize = 64;

/// The rows of one statement by id (cheap to clone: every clone shares the queue).
pub struct Batched<R> {
    inner: Arc<Inner<R>>,
}

impl<R> Clone for Batched<R> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

struct Inner<R> {
    reads: Reads,
    /// Takes the ids as `$1` (`uuid[]`), gives each row with its id.
    statement: Arc<str>,
    id_of: fn(&R) -> Uuid,
    /// Batches running at once at most.
    runners: usize,
    queue: Mutex<Queue<R>>,
    statements_run: AtomicU64,
}

struct Queue<R> {
    waiting: Vec<Waiting<R>>,
    running: usize,
}

struct Waiting<R> {
    id: Uuid,
    answer: oneshot::Sender<sqlx::Result<Option<R>>>,
}

impl<R> Batched<R>
where
    R: for<'r> FromRow<'r, PgRow> + Clone + Send + Unpin + 'static,
{
    /// Reads by `statement` on `reads`, at most `runners` statements at once.
    pub fn new(reads: Reads, statement: Arc<str>, id_of: fn(&R) -> Uuid, runners: u32) -> Self {
        Self {
            inner: Arc::new(Inner {
                reads,
                statement,
                id_of,
                runners: usize::try_from(runners.max(1)).unwrap_or(1),
                queue: Mutex::new(Queue {
                    waiting: Vec::new(),
                    running: 0,
                }),
                statements_run: AtomicU64::new(0),
            }),
        }
    }

    /// The row of `id`, if any.
    pub async fn get(&self, id: Uuid) -> sqlx::Result<Option<R>> {
        let (answer, answered) = oneshot::channel();
        let start_runner = {
            let mut queue = lock(&self.inner.queue);
            queue.waiting.push(Waiting { id, answer });
            let start = queue.running < self.inner.runners;
            if start {
                queue.running += 1;
            }
            start
        };
        if start_runner {
            tokio::spawn(run(self.inner.clone()));
        }
        // A runner that panicked dropped the answer: as a crashed worker (UNAVAILABLE).
        answered.await.unwrap_or(Err(sqlx::Error::WorkerCrashed))
    }

    /// Statements run so far (each answered one or more reads).
    pub fn statements_run(&self) -> u64 {
        self.inner.statements_run.load(Ordering::Relaxed)
    }
}

fn lock<R>(queue: &Mutex<Queue<R>>) -> MutexGuard<'_, Queue<R>> {
    queue.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Answers batches of the queue until it is empty.
async fn run<R>(inner: Arc<Inner<R>>)
where
    R: for<'r> FromRow<'r, PgRow> + Clone + Send + Unpin + 'static,
{
    let mut running = Running {
        queue: &inner.queue,
        counted: true,
    };
    loop {
        let batch: Vec<Waiting<R>> = {
            let mut queue = lock(&inner.queue);
            if queue.waiting.is_empty() {
                // Counted out under the same lock as the look at the queue: a read queued
                // after it starts a runner of its own.
                queue.running -= 1;
                running.counted = false;
                return;
            }
            let take = queue.waiting.len().min(MAX_BATCH);
            queue.waiting.drain(..take).collect()
        };
        let mut ids: Vec<Uuid> = batch.iter().map(|waiting| waiting.id).collect();
        ids.sort_unstable();
        ids.dedup();
        inner.statements_run.fetch_add(1, Ordering::Relaxed);
        let rows = inner
            .reads
            .fetch_all(
                sqlx::query_as::<_, R>(sqlx::AssertSqlSafe(inner.statement.clone())).bind(ids),
            )
            .await;
        for waiting in batch {
            let answer = match &rows {
                Ok(rows) => Ok(rows
                    .iter()
                    .find(|row| (inner.id_of)(row) == waiting.id)
                    .cloned()),
                Err(error) => Err(copy_error(error)),
            };
            // The caller may have gone (cancelled): nothing to do.
            let _ = waiting.answer.send(answer);
        }
    }
}

/// A runner that panicked is counted out, and the reads still waiting are dropped (they
/// answer as a crashed worker) rather than left for a runner that may not come.
struct Running<'a, R> {
    queue: &'a Mutex<Queue<R>>,
    counted: bool,
}

impl<R> Drop for Running<'_, R> {
    fn drop(&mut self) {
        if self.counted {
            let mut queue = lock(self.queue);
            queue.running -= 1;
            queue.waiting.clear();
        }
    }
}

/// The error of a batch for each of its reads (sqlx's errors cannot be cloned), keeping
/// what the error mapping tells apart: a database that cannot serve now stays so.
fn copy_error(error: &sqlx::Error) -> sqlx::Error {
    if crate::error::database_unavailable(error) {
        sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::ConnectionAborted,
            error.to_string(),
        ))
    } else {
        sqlx::Error::Protocol(error.to_string())
    }
}
