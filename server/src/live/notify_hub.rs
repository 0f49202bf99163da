//! Postgres LISTEN/NOTIFY fanned out to the live streams of this process. Each hub hears
//! one channel ([`super::listener`], so changes written through any server replica reach
//! every replica), parses each payload into an event and hands it to every open stream; each
//! stream decides what its caller may see. Streams are bounded per caller and in all, and end
//! when the server stops (and with their caller's session: `auth::stream`). Used by
//! WatchOpenRequests (`matching::watch`) and WatchRepairRequest (`requests::watch`).

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use tokio::sync::{broadcast, watch};
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, ErrorReason};

/// Events a slow stream may fall behind by before it skips some (it then hears a
/// [`Heard::Gap`]).
const BACKLOG: usize = 256;

#[derive(Debug, Clone, Copy)]
pub struct StreamLimits {
    pub per_caller: usize,
    pub total: usize,
}

impl Default for StreamLimits {
    fn default() -> Self {
        Self {
            per_caller: 4,
            total: 1000,
        }
    }
}

/// What a stream hears: an event, or that some may have been missed (the listener lost its
/// connection, or the stream fell behind) and whatever it shows should be read again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard<E> {
    Event(E),
    Gap,
}

type Counts = Arc<Mutex<HashMap<Uuid, usize>>>;

pub struct NotifyHub<E> {
    channel: &'static str,
    parse: fn(&str) -> Option<E>,
    heard: broadcast::Sender<Heard<E>>,
    /// Events handed to streams, and database checks the streams ran on them (measured).
    announced: AtomicU64,
    checks: AtomicU64,
    closing: watch::Sender<bool>,
    streams: Counts,
    limits: StreamLimits,
}

/// One open stream: what is heard, the server's closing signal, and its slot (given back
/// when dropped).
pub struct Subscription<E> {
    heard: broadcast::Receiver<Heard<E>>,
    closing: watch::Receiver<bool>,
    _slot: Slot,
}

impl<E: Clone> Subscription<E> {
    /// The next event, [`Heard::Gap`] when some were skipped; `None` once the server is
    /// stopping (the stream should end).
    pub async fn recv(&mut self) -> Option<Heard<E>> {
        if *self.closing.borrow_and_update() {
            return None;
        }
        let received = tokio::select! {
            _ = self.closing.changed() => return None,
            received = self.heard.recv() => received,
        };
        match received {
            Ok(heard) => Some(heard),
            Err(broadcast::error::RecvError::Lagged(skipped)) => {
                tracing::warn!(skipped, "live stream fell behind");
                Some(Heard::Gap)
            }
            Err(broadcast::error::RecvError::Closed) => None,
        }
    }

    /// What was heard and not read yet, without waiting (to fold a burst into one reply).
    pub fn drain(&mut self) -> Vec<Heard<E>> {
        let mut heard = Vec::new();
        loop {
            match self.heard.try_recv() {
                Ok(event) => heard.push(event),
                Err(broadcast::error::TryRecvError::Lagged(_)) => heard.push(Heard::Gap),
                Err(_) => return heard,
            }
        }
    }
}

struct Slot {
    streams: Counts,
    caller_id: Uuid,
}

fn lock(streams: &Counts) -> std::sync::MutexGuard<'_, HashMap<Uuid, usize>> {
    // A panic while counting cannot leave the counts half-written: use them as they are.
    streams
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut streams = lock(&self.streams);
        if let Some(count) = streams.get_mut(&self.caller_id) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                streams.remove(&self.caller_id);
            }
        }
    }
}

impl<E: Clone + Send + 'static> NotifyHub<E> {
    /// A hub for Postgres channel `channel`; payloads `parse` refuses are logged and dropped.
    pub fn new(
        channel: &'static str,
        parse: fn(&str) -> Option<E>,
        limits: StreamLimits,
    ) -> Arc<Self> {
        let (heard, _) = broadcast::channel(BACKLOG);
        let (closing, _) = watch::channel(false);
        Arc::new(Self {
            channel,
            parse,
            heard,
            announced: AtomicU64::new(0),
            checks: AtomicU64::new(0),
            closing,
            streams: Counts::default(),
            limits,
        })
    }

    /// A stream slot for `caller_id`, or RESOURCE_EXHAUSTED when they (or everyone) already
    /// hold as many as allowed.
    pub fn subscribe(&self, caller_id: Uuid) -> ApiResult<Subscription<E>> {
        {
            let mut streams = lock(&self.streams);
            let total: usize = streams.values().sum();
            let mine = streams.get(&caller_id).copied().unwrap_or(0);
            if mine >= self.limits.per_caller {
                return Err(ApiError::ResourceExhausted {
                    reason: ErrorReason::TooManyStreams,
                    message: "this is already open in too many windows; close one".to_owned(),
                });
            }
            if total >= self.limits.total {
                return Err(ApiError::ResourceExhausted {
                    reason: ErrorReason::ServerBusy,
                    message: "too many pages are live right now; please reload later".to_owned(),
                });
            }
            streams.insert(caller_id, mine + 1);
        }
        Ok(Subscription {
            heard: self.heard.subscribe(),
            closing: self.closing.subscribe(),
            _slot: Slot {
                streams: Arc::clone(&self.streams),
                caller_id,
            },
        })
    }

    /// Hands what was heard to every open stream.
    pub fn announce(&self, heard: Heard<E>) {
        if matches!(heard, Heard::Event(_)) {
            self.announced.fetch_add(1, Ordering::Relaxed);
        }
        // No stream open: nobody to tell.
        let _ = self.heard.send(heard);
    }

    /// A stream checks one event in the database (counted for [`Self::checks`]).
    pub fn count_check(&self) {
        self.checks.fetch_add(1, Ordering::Relaxed);
    }

    /// (events announced, database checks streams ran) since the start.
    pub fn checks(&self) -> (u64, u64) {
        (
            self.announced.load(Ordering::Relaxed),
            self.checks.load(Ordering::Relaxed),
        )
    }

    /// Streams open now.
    pub fn open_streams(&self) -> usize {
        lock(&self.streams).values().sum()
    }

    /// Ends every stream (the server is stopping).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }
}

impl<E: Clone + Send + Sync + 'static> super::listener::Channel for NotifyHub<E> {
    fn name(&self) -> &'static str {
        self.channel
    }

    fn heard(&self, payload: &str) {
        match (self.parse)(payload) {
            Some(event) => self.announce(Heard::Event(event)),
            None => tracing::warn!(channel = self.channel, payload, "payload not understood"),
        }
    }

    fn missed(&self) {
        self.announce(Heard::Gap);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hub(limits: StreamLimits) -> Arc<NotifyHub<Uuid>> {
        NotifyHub::new("test", |payload| Uuid::parse_str(payload).ok(), limits)
    }

    #[test]
    fn streams_are_bounded_per_caller_and_in_all_and_given_back() {
        let hub = hub(StreamLimits {
            per_caller: 2,
            total: 3,
        });
        let (a, b) = (Uuid::now_v7(), Uuid::now_v7());
        let first = hub.subscribe(a).unwrap();
        let _second = hub.subscribe(a).unwrap();
        assert!(hub.subscribe(a).is_err());
        let _third = hub.subscribe(b).unwrap();
        assert!(hub.subscribe(b).is_err(), "the total is reached");
        drop(first);
        assert!(
            hub.subscribe(b).is_ok(),
            "a closed stream gives its slot back"
        );
    }

    #[tokio::test]
    async fn an_announced_event_reaches_every_open_stream() {
        let hub = hub(StreamLimits::default());
        let mut one = hub.subscribe(Uuid::now_v7()).unwrap();
        let mut two = hub.subscribe(Uuid::now_v7()).unwrap();
        let id = Uuid::now_v7();
        hub.announce(Heard::Event(id));
        assert_eq!(one.recv().await, Some(Heard::Event(id)));
        assert_eq!(two.recv().await, Some(Heard::Event(id)));
        hub.announce(Heard::Gap);
        assert_eq!(one.drain(), vec![Heard::Gap]);
        hub.close();
        assert_eq!(one.recv().await, None, "a stopping server ends the streams");
    }
}
