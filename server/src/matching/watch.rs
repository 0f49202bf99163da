//! New open requests pushed to professionals who keep their list open (WatchOpenRequests).
//! Every request insert notifies Postgres channel [`CHANNEL`](crate::live::open_requests::CHANNEL) (a trigger, see
//! `migrations/20261123000076_announce_request_reach.sql`) with the request's id, service
//! and place, so requests placed through any server replica reach every replica; one hub
//! per process ([`crate::live::notify_hub`]) hands each [`Opened`] to the open streams. Each
//! stream first skips, in memory, the requests its professional cannot match ([`Reach::may_match`]: another
//! service, or farther than their radius), and checks the rule ([`super::matches`]) in the
//! database for the rest only.
//! Streams are bounded per professional and in all, and end when the server stops or with
//! the professional's session or standing (`auth::stream`).

use std::time::{Duration, Instant};

use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    domain::{Coordinates, great_circle_meters},
    live::open_requests::Opened,
};

/// How long a stream trusts the professional's services and reach it read before reading
/// them again: a change shows on streams within this time (and on the list at once).
const REACH_FRESH_FOR: Duration = Duration::from_secs(60);

/// Metres the in-memory distance may be off from the database's (rounding, the Earth
/// radius of `earth()`): it only skips requests clearly out of reach.
const REACH_SLACK_METERS: f64 = 1_000.0;

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

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
