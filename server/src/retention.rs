//! Retention: what the platform stops keeping once its time is over, erased by the
//! housekeeping pass in bounded batches and counted in the metrics
//! (`repairs_retention_erased_total`).
//!
//! - The photos and message words of a request closed (cancelled, expired or marked done)
//!   more than `RETENTION_REQUEST_MONTHS` ago (default 24). The request's row stays: the
//!   books, the receipts and the reviews name it. A request with an open problem report or
//!   a card dispute not yet decided is held until it ends.
//! - Emails and texts sent (or given up on) more than `RETENTION_OUTBOX_DAYS` ago (default
//!   30) leave the outbox.
//! - Sign-in history (`session_families`) never reaches 12 months: a sign-in lasts 30 days
//!   at most and its row goes a week after (`crate::housekeeping`).
//!
//! Safe in every server process at once: a batch locks its requests and skips locked ones.

use chrono::{DateTime, Duration, Months, Utc};

use crate::{error::ApiResult, state::AppState, store::retention as store};

/// Requests erased per transaction: short enough not to hold row locks for long.
pub const REQUEST_BATCH: i64 = 100;
/// Outbox messages deleted per statement.
pub const OUTBOX_BATCH: i64 = 1_000;
/// Batches of each kind one pass runs at most; the next pass goes on where it stopped.
const MOST_BATCHES_PER_PASS: usize = 20;

/// What a pass (or one batch) erased.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Erased {
    pub requests: u64,
    pub request_photos: u64,
    pub problem_photos: u64,
    pub message_photos: u64,
    pub messages: u64,
    pub outbox_messages: u64,
}

impl Erased {
    fn add(&mut self, other: Erased) {
        self.requests += other.requests;
        self.request_photos += other.request_photos;
        self.problem_photos += other.problem_photos;
        self.message_photos += other.message_photos;
        self.messages += other.messages;
        self.outbox_messages += other.outbox_messages;
    }
}

/// When requests closed before now stop being kept: `now` less the configured months.
fn requests_cutoff(state: &AppState, now: DateTime<Utc>) -> DateTime<Utc> {
    now.checked_sub_months(Months::new(state.config.retention_request_months))
        .unwrap_or(DateTime::<Utc>::MIN_UTC)
}

/// One housekeeping pass: batches of requests, then of the outbox, each until a batch comes
/// back short or the pass has run its most.
pub async fn erase_due(state: &AppState, now: DateTime<Utc>) -> ApiResult<Erased> {
    let mut erased = Erased::default();
    for _ in 0..MOST_BATCHES_PER_PASS {
        let batch = erase_requests_batch(state, now, REQUEST_BATCH).await?;
        erased.add(batch);
        if batch.requests < REQUEST_BATCH as u64 {
            break;
        }
    }
    for _ in 0..MOST_BATCHES_PER_PASS {
        let batch = erase_outbox_batch(state, now, OUTBOX_BATCH).await?;
        erased.add(batch);
        if batch.outbox_messages < OUTBOX_BATCH as u64 {
            break;
        }
    }
    Ok(erased)
}

/// Erases the photos and messages of at most `size` requests past their time, in one
/// transaction; their files are removed from the storage once it is committed.
pub async fn erase_requests_batch(
    state: &AppState,
    now: DateTime<Utc>,
    size: i64,
) -> ApiResult<Erased> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let due = store::lock_due_requests(&mut tx, requests_cutoff(state, now), size).await?;
    if due.is_empty() {
        return Ok(Erased::default());
    }
    let content = store::erase_content(&mut tx, &due).await?;
    tx.commit().await?;
    for keys in &content.files {
        crate::photos::discard(state.storage.as_ref(), keys).await;
    }
    let erased = Erased {
        requests: due.len() as u64,
        request_photos: content.request_photos,
        problem_photos: content.problem_photos,
        message_photos: content.message_photos,
        messages: content.messages,
        outbox_messages: 0,
    };
    count(state, &erased);
    Ok(erased)
}

/// Deletes at most `size` outbox messages finished more than the configured days before `now`.
pub async fn erase_outbox_batch(
    state: &AppState,
    now: DateTime<Utc>,
    size: i64,
) -> ApiResult<Erased> {
    let before = now - Duration::days(i64::from(state.config.retention_outbox_days));
    let erased = Erased {
        outbox_messages: store::erase_finished_outbox(&state.db, before, size).await?,
        ..Erased::default()
    };
    count(state, &erased);
    Ok(erased)
}

fn count(state: &AppState, erased: &Erased) {
    for (kind, n) in [
        ("requests", erased.requests),
        ("request_photos", erased.request_photos),
        ("problem_photos", erased.problem_photos),
        ("message_photos", erased.message_photos),
        ("messages", erased.messages),
        ("outbox_messages", erased.outbox_messages),
    ] {
        state.metrics.retention_erased(kind, n);
    }
}
