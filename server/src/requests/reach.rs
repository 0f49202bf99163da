//! How far a request reached, for its customer and admins: how many professionals were
//! alerted of it (by any channel) and how many opened it, counts only. A professional's read
//! of the request records their opening it, once per professional and request, beside the
//! read (which neither waits for nor fails with the record; `store::request_opens` writes
//! them). Watchers hear the counts' changes ([`crate::live::request_reach`]) and read them
//! again at most once a [`REREAD_EVERY`], however many changes they hear.

use std::time::Duration;

use tokio::time::Instant;
use uuid::Uuid;

use super::parties;
use crate::{
    auth::{Caller, access},
    error::ApiResult,
    live::notify_hub::{Heard, Subscription},
    state::AppState,
    store::{repair_requests::RepairRequestRow, request_opens, request_reach},
};

pub use crate::store::request_reach::ReachCounts;

/// A watcher reads the counts again at most this often, however many changes it hears.
pub const REREAD_EVERY: Duration = Duration::from_secs(1);

/// How long a watcher waits after a first change heard, to take a burst in as one read.
const SETTLE: Duration = Duration::from_millis(100);

/// The reach of `request`, when `caller` may see it (its customer, admins).
pub async fn of(
    state: &AppState,
    caller: &Caller,
    request: &RepairRequestRow,
) -> ApiResult<Option<ReachCounts>> {
    if !access::may_see_reach(caller, parties(request)) {
        return Ok(None);
    }
    Ok(Some(request_reach::counts(&state.db, request.id).await?))
}

/// Records that `caller` opened request `id`, which they just read, when their reading counts
/// as an open (a professional's). In the background (`store::request_opens`): the read answers
/// without waiting for it, and a record that cannot be written is logged, never the read's
/// failure.
pub fn record_open(state: &AppState, caller: &Caller, id: Uuid) {
    if access::read_counts_as_open(caller) {
        state.request_opens.record(request_opens::Open {
            repair_request_id: id,
            professional_id: caller.account_id,
        });
    }
}

/// When a watcher reads the counts again: [`SETTLE`] after the first change heard, and no
/// sooner than [`REREAD_EVERY`] after its last read.
#[derive(Debug, Default)]
struct Pace {
    last_read: Option<Instant>,
    due: Option<Instant>,
}

impl Pace {
    fn heard(&mut self, now: Instant) {
        if self.due.is_some() {
            return;
        }
        let settled = now + SETTLE;
        self.due = Some(match self.last_read {
            Some(last) => settled.max(last + REREAD_EVERY),
            None => settled,
        });
    }

    fn read(&mut self, now: Instant) {
        self.last_read = Some(now);
        self.due = None;
    }
}

/// The reach side of one WatchRepairRequest stream: what it hears, when it reads the counts
/// again, and what it sent last. Empty for a caller who may not see the reach.
pub struct ReachWatch {
    heard: Option<Subscription<Uuid>>,
    id: Uuid,
    pace: Pace,
    sent: Option<ReachCounts>,
}

impl ReachWatch {
    /// Listens for the reach of `request` when `caller` may see it (taking a stream slot).
    pub fn open(state: &AppState, caller: &Caller, request: &RepairRequestRow) -> ApiResult<Self> {
        let heard = if access::may_see_reach(caller, parties(request)) {
            Some(state.request_reach.subscribe(caller.account_id)?)
        } else {
            None
        };
        Ok(Self {
            heard,
            id: request.id,
            pace: Pace::default(),
            sent: None,
        })
    }

    /// The counts now, counted as sent; `None` when the caller may not see them.
    pub async fn read(&mut self, state: &AppState) -> ApiResult<Option<ReachCounts>> {
        if self.heard.is_none() {
            return Ok(None);
        }
        self.pace.read(Instant::now());
        state.request_reach.count_check();
        let counts = request_reach::counts(&state.db, self.id).await?;
        self.sent = Some(counts);
        Ok(Some(counts))
    }

    /// The counts now if they differ from those sent last.
    pub async fn changed(&mut self, state: &AppState) -> ApiResult<Option<ReachCounts>> {
        let before = self.sent;
        Ok(self.read(state).await?.filter(|now| Some(*now) != before))
    }

    /// Waits until a change of this request's reach is heard (a read is then due) or a read
    /// is due. Never resolves for a caller who may not see the reach.
    pub async fn wait(&mut self) -> ReachWoken {
        let due = self.pace.due;
        tokio::select! {
            going = self.hear() => if going { ReachWoken::Heard } else { ReachWoken::Stopping },
            () = sleep_until(due) => ReachWoken::Due,
        }
    }

    /// Waits for a change of this request's reach (or word that some may have been missed),
    /// and makes a read due; `false` once the server is stopping.
    async fn hear(&mut self) -> bool {
        let Some(heard) = self.heard.as_mut() else {
            return std::future::pending().await;
        };
        loop {
            match heard.recv().await {
                None => return false,
                Some(Heard::Event(other)) if other != self.id => {}
                Some(_) => {
                    self.pace.heard(Instant::now());
                    return true;
                }
            }
        }
    }
}

/// What woke a stream's reach up.
pub enum ReachWoken {
    Heard,
    Due,
    /// The server is stopping.
    Stopping,
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_one_read_and_reads_are_a_second_apart() {
        let start = Instant::now();
        let mut pace = Pace::default();
        for step in 0..200 {
            pace.heard(start + Duration::from_millis(step));
        }
        assert_eq!(pace.due, Some(start + SETTLE), "a burst is read once");
        pace.read(start + SETTLE);
        pace.heard(start + SETTLE + Duration::from_millis(10));
        assert_eq!(
            pace.due,
            Some(start + SETTLE + REREAD_EVERY),
            "the next read waits for its turn"
        );
        pace.read(start + SETTLE + REREAD_EVERY);
        let later = start + Duration::from_secs(10);
        pace.heard(later);
        assert_eq!(pace.due, Some(later + SETTLE));
    }
}
