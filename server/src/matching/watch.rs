//! New open requests pushed to professionals who keep their list open (WatchOpenRequests).
//! Every request insert notifies Postgres channel [`CHANNEL`] (a trigger, see
//! `migrations/20261123000076_announce_request_reach.sql`) with the request's id, service
//! and place, so requests placed through any server replica reach every replica; one
//! listener per process hands each [`Opened`] to the open streams. Each stream first skips,
//! in memory, the requests its professional cannot match ([`Reach::may_match`]: another
//! service, or farther than their radius), and checks the rule ([`super::matches`]) in the
//! database for the rest only.
//! Streams are bounded per professional and in all, and end when the server stops.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use sqlx::{PgPool, postgres::PgListener};
use tokio::{
    sync::{broadcast, watch},
    task::JoinHandle,
};
use uuid::Uuid;

use crate::{
    error::{ApiError, ApiResult},
    providers::geocoding::{Coordinates, great_circle_meters},
};

/// The Postgres channel new open requests are announced on (payload:
/// `id|service_id|latitude|longitude`).
pub const CHANNEL: &str = "repair_requests_opened";

/// How long a stream trusts the professional's services and reach it read before reading
/// them again: a change shows on streams within this time (and on the list at once).
const REACH_FRESH_FOR: Duration = Duration::from_secs(60);

/// Metres the in-memory distance may be off from the database's (rounding, the Earth
/// radius of `earth()`): it only skips requests clearly out of reach.
const REACH_SLACK_METERS: f64 = 1_000.0;

/// A request just opened (or moved), as announced.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Opened {
    pub id: Uuid,
    pub service_id: Uuid,
    pub point: Coordinates,
}

impl Opened {
    fn parse(payload: &str) -> Option<Self> {
        let mut parts = payload.split('|');
        let id = Uuid::parse_str(parts.next()?).ok()?;
        let service_id = Uuid::parse_str(parts.next()?).ok()?;
        let latitude = parts.next()?.parse().ok()?;
        let longitude = parts.next()?.parse().ok()?;
        if parts.next().is_some() {
            return None;
        }
        Some(Self {
            id,
            service_id,
            point: Coordinates {
                latitude,
                longitude,
            },
        })
    }
}

/// What a stream knows of its professional to skip requests they cannot match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reach {
    pub services: Vec<Uuid>,
    pub home: Option<Coordinates>,
    pub radius_km: Option<i32>,
}

/// Services, home latitude and longitude, radius.
type ReachRow = (Vec<Uuid>, Option<f64>, Option<f64>, Option<i32>);

impl Reach {
    /// Professional `professional_id`'s services, home base and radius now.
    pub async fn load(db: &PgPool, professional_id: Uuid) -> sqlx::Result<Self> {
        let row: Option<ReachRow> = sqlx::query_as(
            "select array(select service_id from professional_services
                          where professional_id = p.id),
                    p.home_latitude, p.home_longitude, p.radius_km
             from professionals p where p.id = $1",
        )
        .bind(professional_id)
        .fetch_optional(db)
        .await?;
        Ok(row
            .map(|(services, latitude, longitude, radius_km)| Self {
                services,
                home: latitude
                    .zip(longitude)
                    .map(|(latitude, longitude)| Coordinates {
                        latitude,
                        longitude,
                    }),
                radius_km,
            })
            .unwrap_or_default())
    }

    /// False when `opened` surely does not match: a service not offered, or farther than
    /// the radius (with some slack). True means the rule must be asked.
    pub fn may_match(&self, opened: &Opened) -> bool {
        let (Some(home), Some(radius_km)) = (self.home, self.radius_km) else {
            return false;
        };
        self.services.contains(&opened.service_id)
            && great_circle_meters(home, opened.point)
                < (f64::from(radius_km) + 0.5) * 1000.0 + REACH_SLACK_METERS
    }
}

/// A stream's [`Reach`], read again once [`REACH_FRESH_FOR`] has passed.
pub struct CachedReach {
    professional_id: Uuid,
    reach: Reach,
    read_at: Option<Instant>,
}

impl CachedReach {
    pub fn new(professional_id: Uuid) -> Self {
        Self {
            professional_id,
            reach: Reach::default(),
            read_at: None,
        }
    }

    pub async fn get(&mut self, db: &PgPool) -> sqlx::Result<&Reach> {
        if self
            .read_at
            .is_none_or(|at| at.elapsed() >= REACH_FRESH_FOR)
        {
            self.reach = Reach::load(db, self.professional_id).await?;
            self.read_at = Some(Instant::now());
        }
        Ok(&self.reach)
    }
}

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
    opened: broadcast::Sender<Opened>,
    /// Requests handed to streams, and rule checks the streams ran on them (for measuring).
    announced: AtomicU64,
    rule_checks: AtomicU64,
    closing: watch::Sender<bool>,
    streams: Mutex<HashMap<Uuid, usize>>,
    limits: StreamLimits,
}

/// One open stream: new request ids, the server's closing signal, and its slot (given
/// back when dropped).
pub struct Subscription {
    pub opened: broadcast::Receiver<Opened>,
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
            announced: AtomicU64::new(0),
            rule_checks: AtomicU64::new(0),
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
    pub fn announce(&self, opened: Opened) {
        self.announced.fetch_add(1, Ordering::Relaxed);
        // No stream open: nobody to tell.
        let _ = self.opened.send(opened);
    }

    /// A stream asks the rule about one request (counted for [`Self::checks`]).
    pub fn count_rule_check(&self) {
        self.rule_checks.fetch_add(1, Ordering::Relaxed);
    }

    /// (requests announced, rule checks streams ran) since the start.
    pub fn checks(&self) -> (u64, u64) {
        (
            self.announced.load(Ordering::Relaxed),
            self.rule_checks.load(Ordering::Relaxed),
        )
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
            match Opened::parse(notification.payload()) {
                Some(opened) => self.announce(opened),
                None => tracing::warn!(payload = notification.payload(), "not a request"),
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
        let opened = Opened::parse(&format!(
            "{}|{}|51.05|-114.07",
            Uuid::now_v7(),
            Uuid::now_v7()
        ))
        .unwrap();
        hub.announce(opened);
        assert_eq!(one.opened.recv().await.unwrap(), opened);
        assert_eq!(two.opened.recv().await.unwrap(), opened);
        hub.close();
        assert!(*one.closing.borrow_and_update());
    }

    #[test]
    fn only_requests_of_a_service_offered_within_the_radius_may_match() {
        let plumbing = Uuid::now_v7();
        let calgary = Coordinates {
            latitude: 51.0447,
            longitude: -114.0719,
        };
        let reach = Reach {
            services: vec![plumbing],
            home: Some(calgary),
            radius_km: Some(10),
        };
        let at = |km: f64, service_id| Opened {
            id: Uuid::now_v7(),
            service_id,
            point: Coordinates {
                latitude: calgary.latitude + (km / 6_371.008_8).to_degrees(),
                longitude: calgary.longitude,
            },
        };
        assert!(reach.may_match(&at(10.49, plumbing)));
        // Near the edge the database decides.
        assert!(reach.may_match(&at(11.2, plumbing)));
        assert!(!reach.may_match(&at(12.0, plumbing)));
        assert!(!reach.may_match(&at(1.0, Uuid::now_v7())));
        let homeless = Reach {
            home: None,
            ..reach
        };
        assert!(!homeless.may_match(&at(1.0, plumbing)));
        assert_eq!(Opened::parse("junk"), None);
        assert_eq!(Opened::parse(&format!("{}|x|1|2", Uuid::now_v7())), None);
    }
}
