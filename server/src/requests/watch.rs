//! One request watched live (WatchRepairRequest): a snapshot at its revision, then each
//! change. Every change of a request or of one of its quotes raises `repair_requests.revision`
//! and notifies Postgres channel [`CHANNEL`](crate::live::request_changes::CHANNEL) with "<id>:<revision>:<quote id>" at commit (see
//! `migrations/20261123000080_hires.sql`); the hub ([`crate::live::notify_hub`]) hands it to every
//! stream of every server process, and each stream reads the request again as its caller may
//! see it ([`super::get`]). A burst of changes, a lost notification or a stream that fell
//! behind gets a fresh snapshot instead of single changes, so a client never misses one.
//! For the request's customer and admins the stream also carries its reach
//! ([`super::reach`]): in its first message, and whenever the counts changed.

use tokio::sync::mpsc;
use uuid::Uuid;

use super::{
    Viewed,
    reach::{ReachCounts, ReachWatch, ReachWoken},
};
use crate::{
    auth::{Caller, access},
    domain::RepairRequestState,
    error::ApiResult,
    live::{
        notify_hub::{Heard, Subscription},
        request_changes::Changed,
    },
    state::AppState,
    store::{quotes, quotes::QuoteRow},
};

/// Quotes a snapshot carries at most (a request gets a handful).
const MAX_SNAPSHOT_QUOTES: i64 = 200;

/// One message of the stream, at `viewed.request.revision`.
pub enum Update {
    Snapshot {
        viewed: Viewed,
        quotes: Vec<QuoteRow>,
        /// Its reach, when the caller may see it.
        reach: Option<ReachCounts>,
    },
    Change {
        viewed: Viewed,
        /// The quote that changed, when the caller may see it.
        quote: Option<Box<QuoteRow>>,
    },
    /// The reach changed; the request is still at `revision`.
    Reach { revision: i64, reach: ReachCounts },
}

impl Update {
    pub fn revision(&self) -> i64 {
        match self {
            Update::Snapshot { viewed, .. } | Update::Change { viewed, .. } => {
                viewed.request.revision
            }
            Update::Reach { revision, .. } => *revision,
        }
    }

    fn is_final(&self) -> bool {
        match self {
            Update::Snapshot { viewed, .. } | Update::Change { viewed, .. } => is_final(viewed),
            Update::Reach { .. } => false,
        }
    }
}

/// What one stream listens to: changes of requests, and of their reach.
pub struct Subscriptions {
    changes: Subscription<Changed>,
    reach: ReachWatch,
}

/// Checks that `caller` may watch request `id` and takes a stream slot (subscribed before
/// the first read, so no change falls between the snapshot and the stream).
pub async fn open(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
) -> ApiResult<(Viewed, Subscriptions)> {
    let viewed = super::get(state, caller, id).await?;
    let changes = state.request_changes.subscribe(caller.account_id)?;
    let reach = ReachWatch::open(state, caller, &viewed.request)?;
    // Read again after subscribing: a change in between is then either in this read or heard.
    let viewed = super::get(state, caller, viewed.request.id).await?;
    Ok((viewed, Subscriptions { changes, reach }))
}

/// The quotes `caller` may see on the request: all of them for its customer and admins, a
/// professional's own only.
async fn visible_quotes(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<Vec<QuoteRow>> {
    let only = access::quotes_only_of(caller);
    Ok(quotes::live_for_request(&state.db, id, only, MAX_SNAPSHOT_QUOTES).await?)
}

async fn visible_quote(
    state: &AppState,
    caller: &Caller,
    quote_id: Uuid,
) -> ApiResult<Option<QuoteRow>> {
    Ok(quotes::get(&state.db, quote_id).await?.filter(|quote| {
        access::quotes_only_of(caller).is_none_or(|own| own == quote.professional_id)
    }))
}

async fn snapshot(
    state: &AppState,
    caller: &Caller,
    viewed: Viewed,
    reach: &mut ReachWatch,
) -> ApiResult<Update> {
    let quotes = visible_quotes(state, caller, viewed.request.id).await?;
    let reach = reach.read(state).await?;
    Ok(Update::Snapshot {
        viewed,
        quotes,
        reach,
    })
}

fn is_final(viewed: &Viewed) -> bool {
    matches!(
        viewed.request.state(),
        RepairRequestState::Completed | RepairRequestState::Cancelled | RepairRequestState::Expired
    )
}

/// What a batch of heard events asks of a stream that last sent `last`.
enum Wanted {
    Nothing,
    /// Exactly one change, at this revision, of this quote (if any).
    One(i64, Option<Uuid>),
    /// Several changes, or possibly missed ones: read everything again.
    Everything,
}

fn wanted(id: Uuid, last: i64, heard: &[Heard<Changed>]) -> Wanted {
    let mut found = Wanted::Nothing;
    for event in heard {
        match event {
            Heard::Gap => return Wanted::Everything,
            Heard::Event(changed) if changed.request_id == id && changed.revision > last => {
                if matches!(found, Wanted::One(..)) {
                    return Wanted::Everything;
                }
                found = Wanted::One(changed.revision, changed.quote_id);
            }
            Heard::Event(_) => {}
        }
    }
    found
}

/// The reach as a message of its own, at revision `last`, when the caller may see it and
/// (`only_changed`) it changed since sent.
async fn reach_update(
    state: &AppState,
    reach: &mut ReachWatch,
    last: i64,
    only_changed: bool,
) -> Option<ApiResult<Update>> {
    let counts = if only_changed {
        reach.changed(state).await
    } else {
        reach.read(state).await
    };
    counts
        .map(|counts| {
            counts.map(|reach| Update::Reach {
                revision: last,
                reach,
            })
        })
        .transpose()
}

/// What woke a stream up.
enum Woken {
    Changes(Option<Heard<Changed>>),
    Reach(ReachWoken),
}

/// Feeds one stream from revision `since` until the client leaves (or the stream ends with
/// its session: `auth::stream`), the server stops or the request reaches a final state. An
/// error (the caller may no longer see the request) is sent and ends it.
pub async fn run(
    state: AppState,
    caller: Caller,
    since: i64,
    first: Viewed,
    subscriptions: Subscriptions,
    sender: mpsc::Sender<ApiResult<Update>>,
) {
    let Subscriptions {
        changes: mut subscription,
        mut reach,
    } = subscriptions;
    let id = first.request.id;
    let mut last = since;
    // The first message carries the reach: in the snapshot, or alone without one.
    let mut next = if first.request.revision == since {
        reach_update(&state, &mut reach, last, false).await
    } else {
        Some(snapshot(&state, &caller, first, &mut reach).await)
    };
    loop {
        if let Some(update) = next.take() {
            let end = match &update {
                Ok(update) => {
                    last = update.revision();
                    update.is_final()
                }
                Err(_) => true,
            };
            if sender.send(update).await.is_err() || end {
                return;
            }
        }
        let woken = tokio::select! {
            () = sender.closed() => return,
            heard = subscription.recv() => Woken::Changes(heard),
            woken = reach.wait() => Woken::Reach(woken),
        };
        let heard = match woken {
            Woken::Changes(Some(heard)) => heard,
            Woken::Changes(None) | Woken::Reach(ReachWoken::Stopping) => return,
            Woken::Reach(ReachWoken::Heard) => continue,
            Woken::Reach(ReachWoken::Due) => {
                next = reach_update(&state, &mut reach, last, true).await;
                continue;
            }
        };
        let mut heard = vec![heard];
        heard.extend(subscription.drain());
        let wanted = wanted(id, last, &heard);
        if matches!(wanted, Wanted::Nothing) {
            continue;
        }
        next = match reread(&state, &caller, (id, last), wanted, &mut reach).await {
            Ok(None) => None,
            other => other.transpose(),
        };
    }
}

/// The request read again and what to send of it; `None` when nothing is newer than `last`.
async fn reread(
    state: &AppState,
    caller: &Caller,
    (id, last): (Uuid, i64),
    wanted: Wanted,
    reach: &mut ReachWatch,
) -> ApiResult<Option<Update>> {
    let viewed = super::get(state, caller, id).await?;
    let revision = viewed.request.revision;
    if revision <= last {
        return Ok(None);
    }
    Ok(Some(match wanted {
        // Only when that one change is all that happened since `last`.
        Wanted::One(heard, quote_id) if heard == revision => {
            let quote = match quote_id {
                Some(quote_id) => visible_quote(state, caller, quote_id).await?.map(Box::new),
                None => None,
            };
            Update::Change { viewed, quote }
        }
        _ => snapshot(state, caller, viewed, reach).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_new_change_is_sent_alone_a_burst_or_a_gap_as_a_snapshot() {
        let (id, other) = (Uuid::now_v7(), Uuid::now_v7());
        let event = |request_id, revision| {
            Heard::Event(Changed {
                request_id,
                revision,
                quote_id: None,
            })
        };
        assert!(matches!(
            wanted(id, 3, &[event(other, 9), event(id, 3)]),
            Wanted::Nothing
        ));
        assert!(matches!(
            wanted(id, 3, &[event(id, 4)]),
            Wanted::One(4, None)
        ));
        assert!(matches!(
            wanted(id, 3, &[event(id, 4), event(id, 5)]),
            Wanted::Everything
        ));
        assert!(matches!(wanted(id, 3, &[Heard::Gap]), Wanted::Everything));
    }
}
