//! Professionals' opens of requests (`requests::reach`), written in batches by one task per
//! process. A read hands its open over and answers at once; the writer inserts every open
//! waiting in one statement ([`record_opens`]). However many reads come at once, their opens
//! take one pooled connection at a time, and a professional reading the same request again
//! before the write costs nothing.
//!
//! At most [`MAX_WAITING`] opens wait; beyond that they are dropped (and logged) until the
//! writer catches up: an open is a figure of reach, not worth the memory or the pool. A batch
//! that fails is tried [`TRIES`] times, [`RETRY_AFTER`] apart; opens waiting when the process
//! stops are lost, as before, when each was written by a task of its own.

use std::{
    collections::HashSet,
    sync::{
        Arc, Mutex, MutexGuard, PoisonError,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use sqlx::PgPool;
use uuid::Uuid;

/// Opens waiting to be written, at most.
pub const MAX_WAITING: usize = 10_000;
/// Opens one statement writes at most.
pub const MAX_BATCH: usize = 500;
/// Writes of one batch before it is given up.
const TRIES: u32 = 3;
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// The opens of one process waiting to be written (cheap to clone: the clones share them).
#[derive(Clone)]
pub struct OpenRecorder {
    inner: Arc<Inner>,
}

struct Inner {
    db: PgPool,
    waiting: Mutex<Waiting>,
    statements_run: AtomicU64,
}

#[derive(Default)]
struct Waiting {
    opens: HashSet<Open>,
    /// The writer task is running (it empties `opens` before it ends).
    writing: bool,
    /// Opens dropped since the writer last said so.
    dropped: u64,
}

impl OpenRecorder {
    pub fn new(db: PgPool) -> Self {
        Self {
            inner: Arc::new(Inner {
                db,
                waiting: Mutex::default(),
                statements_run: AtomicU64::new(0),
            }),
        }
    }

    /// Queues `open` for the writer, starting it when it is not running.
    pub fn record(&self, open: Open) {
        let start_writer = {
            let mut waiting = lock(&self.inner.waiting);
            if waiting.opens.len() >= MAX_WAITING && !waiting.opens.contains(&open) {
                waiting.dropped += 1;
            } else {
                waiting.opens.insert(open);
            }
            !std::mem::replace(&mut waiting.writing, true)
        };
        if start_writer {
            tokio::spawn(write(self.inner.clone()));
        }
    }

    /// Statements run so far (each wrote one or more opens).
    pub fn statements_run(&self) -> u64 {
        self.inner.statements_run.load(Ordering::Relaxed)
    }
}

fn lock(waiting: &Mutex<Waiting>) -> MutexGuard<'_, Waiting> {
    waiting.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes batches until nothing waits.
async fn write(inner: Arc<Inner>) {
    let mut writer = Writer {
        waiting: &inner.waiting,
        running: true,
    };
    loop {
        let (mut batch, dropped) = {
            let mut waiting = lock(&inner.waiting);
            if waiting.opens.is_empty() {
                // Under the same lock as the look: an open queued after it starts a writer.
                waiting.writing = false;
                writer.running = false;
                return;
            }
            let batch: Vec<Open> = waiting.opens.iter().take(MAX_BATCH).copied().collect();
            for open in &batch {
                waiting.opens.remove(open);
            }
            (batch, std::mem::take(&mut waiting.dropped))
        };
        if dropped > 0 {
            tracing::warn!(
                dropped,
                "opens of requests dropped: more than {MAX_WAITING} were waiting"
            );
        }
        // In one order in every process, so two writers meeting on the same rows wait for
        // each other rather than deadlock.
        batch.sort_unstable();
        write_batch(&inner, &batch).await;
    }
}

async fn write_batch(inner: &Inner, batch: &[Open]) {
    for attempt in 1..=TRIES {
        inner.statements_run.fetch_add(1, Ordering::Relaxed);
        match record_opens(&inner.db, batch).await {
            Ok(_) => return,
            Err(error) if attempt < TRIES => {
                tracing::warn!(%error, attempt, "could not record opens of requests; trying again");
                tokio::time::sleep(RETRY_AFTER).await;
            }
            Err(error) => {
                tracing::warn!(%error, lost = batch.len(), "could not record opens of requests");
            }
        }
    }
}

/// A writer that panicked is counted out, so the next open starts another.
struct Writer<'a> {
    waiting: &'a Mutex<Waiting>,
    running: bool,
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        if self.running {
            lock(self.waiting).writing = false;
        }
    }
}

/// A professional's read of a request, kept as an open the first time only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Open {
    pub repair_request_id: Uuid,
    pub professional_id: Uuid,
}

/// Records `opens`, each the first time only (and none of a request or professional deleted
/// since the read); how many were first times.
pub async fn record_opens(db: &PgPool, opens: &[Open]) -> sqlx::Result<u64> {
    let (requests, professionals): (Vec<Uuid>, Vec<Uuid>) = opens
        .iter()
        .map(|open| (open.repair_request_id, open.professional_id))
        .unzip();
    let done = sqlx::query(
        "insert into request_opens (repair_request_id, professional_id)
         select open.request, open.professional
         from unnest($1::uuid[], $2::uuid[]) with ordinality as open (request, professional, n)
         where exists (select 1 from repair_requests where id = open.request)
           and exists (select 1 from professionals where id = open.professional)
         order by open.n
         on conflict do nothing",
    )
    .bind(requests)
    .bind(professionals)
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}
