//! Requests just opened (or moved), announced by Postgres on [`CHANNEL`] by a trigger on every
//! request insert (see `migrations/20261123000076_announce_request_reach.sql`) with the
//! request's id, service and place, so requests placed through any replica reach every
//! replica; the hub hands each [`Opened`] to this process's WatchOpenRequests streams
//! (`matching::watch` says which may match).

use std::sync::Arc;

use uuid::Uuid;

use super::notify_hub::{NotifyHub, StreamLimits};
use crate::domain::Coordinates;

/// The Postgres channel new open requests are announced on (payload:
/// `id|service_id|latitude|longitude`).
pub const CHANNEL: &str = "repair_requests_opened";

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

pub type OpenRequestsHub = NotifyHub<Opened>;

pub fn hub(limits: StreamLimits) -> Arc<OpenRequestsHub> {
    NotifyHub::new(CHANNEL, Opened::parse, limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_that_are_not_an_id_a_service_and_a_point_are_dropped() {
        let (id, service) = (Uuid::now_v7(), Uuid::now_v7());
        assert_eq!(
            Opened::parse(&format!("{id}|{service}|51.5|-114.25")),
            Some(Opened {
                id,
                service_id: service,
                point: Coordinates {
                    latitude: 51.5,
                    longitude: -114.25
                }
            })
        );
        assert_eq!(Opened::parse("junk"), None);
        assert_eq!(Opened::parse(&format!("{id}|x|1|2")), None);
        assert_eq!(Opened::parse(&format!("{id}|{service}|1|2|3")), None);
    }
}
