//! New open requests pushed to professionals who keep their list open (WatchOpenRequests).
//! Every request insert notifies Postgres channel [`CHANNEL`] (a trigger, see
//! `migrations/20261123000061_matching.sql`), so requests placed through any server replica
//! reach every replica; one listener per process hands each id to the open streams, and
//! each stream checks the rule for its professional ([`super::matches`]).
//! Streams are bounded per professional and in all, and end when the server stops.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use sqlx::{PgPool, postgres::PgListener};
use tokio::{
    sync::{broadcast, watch},
    task::JoinHandle,
};
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};

/// The Postgres channel new open requests are announced on (payload: the request id).
pub const CHANNEL: &str = "repair_requests_opened";

/// Ids a slow stream may fall behind by before it skips some (it then reloads nothing: the
/// professional's next list read has them).
const BACKLOG: usize = 256;

#[derive(Debug, Clone, Copy)]
pub struct StreamLimits {
    pub per_professional: usize,
    pub total: usize,
}

impl Default for StreamLimits {
    fn default() -> Self {
        Self {
            per_professional: 4,
            total: 1000,
        }
    }
}

pub struct OpenRequestsHub {
    opened: broadcast::Sender<Uuid>,
    closing: watch::Sender<bool>,
    streams: Mutex<HashMap<Uuid, usize>>,
    limits: StreamLimits,
}

/// One open stream: new request ids, the server's closing signal, and its slot (given
/// back when dropped).
pub struct Subscription {
    pub opened: broadcast::Receiver<Uuid>,
    pub closing: watch::Receiver<bool>,
    _slot: Slot,
}

struct Slot {
    hub: Arc<OpenRequestsHub>,
    professional_id: Uuid,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut streams = self.hub.lock_streams();
        if let Some(count) = streams.get_mut(&self.professional_id) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                streams.remove(&self.professional_id);
            }
        }
    }
}

impl OpenRequestsHub {
    pub fn new(limits: StreamLimits) -> Arc<Self> {
        let (opened, _) = broadcast::channel(BACKLOG);
        let (closing, _) = watch::channel(false);
        Arc::new(Self {
            opened,
            closing,
            streams: Mutex::new(HashMap::new()),
            limits,
        })
    }

    fn lock_streams(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, usize>> {
        // A panic while counting cannot leave the counts half-written: use them as they are.
        self.streams
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A stream slot for `professional_id`, or RESOURCE_EXHAUSTED when they (or everyone)
    /// already hold as many as allowed.
    pub fn subscribe(self: &Arc<Self>, professional_id: Uuid) -> ApiResult<Subscription> {
        {
            let mut streams = self.lock_streams();
            let total: usize = streams.values().sum();
            let mine = streams.get(&professional_id).copied().unwrap_or(0);
            if mine >= self.limits.per_professional {
                return Err(ApiError::ResourceExhausted {
                    reason: "TOO_MANY_STREAMS",
                    message: "this list is already open in too many windows; close one".to_owned(),
                });
            }
            if total >= self.limits.total {
                return Err(ApiError::ResourceExhausted {
                    reason: "SERVER_BUSY",
                    message: "too many lists are open right now; please reload later".to_owned(),
                });
            }
            streams.insert(professional_id, mine + 1);
        }
        Ok(Subscription {
            opened: self.opened.subscribe(),
            closing: self.closing.subscribe(),
            _slot: Slot {
                hub: Arc::clone(self),
                professional_id,
            },
        })
    }

    /// Hands a newly opened request to every open stream.
    pub fn announce(&self, request_id: Uuid) {
        // No stream open: nobody to tell.
        let _ = self.opened.send(request_id);
    }

    /// Ends every stream (the server is stopping).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Listens on [`CHANNEL`] until `stop`, announcing each id; reconnects after a lost
    /// connection (ids announced meanwhile are missed: the list shows them on its next read).
    pub fn spawn_listener(
        self: &Arc<Self>,
        db: PgPool,
        mut stop: watch::Receiver<bool>,
    ) -> JoinHandle<()> {
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = stop.changed() => return,
                    result = hub.listen(&db) => {
                        if let Err(error) = result {
                            tracing::warn!(%error, "new-request listener lost; reconnecting");
                        }
                    }
                }
                tokio::select! {
                    _ = stop.changed() => return,
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                }
            }
        })
    }

    async fn listen(&self, db: &PgPool) -> sqlx::Result<()> {
        let mut listener = PgListener::connect_with(db).await?;
        listener.listen(CHANNEL).await?;
        loop {
            let notification = listener.recv().await?;
            match Uuid::parse_str(notification.payload()) {
                Ok(id) => self.announce(id),
                Err(_) => tracing::warn!(payload = notification.payload(), "not a request id"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_bounded_per_professional_and_in_all_and_given_back() {
        let hub = OpenRequestsHub::new(StreamLimits {
            per_professional: 2,
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
    async fn an_announced_id_reaches_every_open_stream() {
        let hub = OpenRequestsHub::new(StreamLimits::default());
        let mut one = hub.subscribe(Uuid::now_v7()).unwrap();
        let mut two = hub.subscribe(Uuid::now_v7()).unwrap();
        let id = Uuid::now_v7();
        hub.announce(id);
        assert_eq!(one.opened.recv().await.unwrap(), id);
        assert_eq!(two.opened.recv().await.unwrap(), id);
        hub.close();
        assert!(*one.closing.borrow_and_update());
    }
}
