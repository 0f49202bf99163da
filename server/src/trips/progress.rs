//! Where a trip stands at a given instant: on the way with an arrival time, or arrived. The
//! estimate comes from the latest position while it is fresh, and otherwise from the route
//! reckoned when the trip started, which clients then say is not live.

use chrono::{DateTime, Duration, Utc};

use crate::store::trips::TripRow;

/// How long a position keeps the estimate live.
pub const POSITION_FRESH_FOR: Duration = Duration::minutes(10);

/// What an arrival time is reckoned from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EstimateSource {
    /// The route from the home base when the trip started: no position yet, or none fresh.
    Route,
    /// The route from the latest position.
    Position,
}

/// A trip at one instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Progress {
    OnTheWay {
        arrive_at: DateTime<Utc>,
        meters_left: i32,
        source: EstimateSource,
        /// False when no road router answered the route used.
        by_road: bool,
    },
    Arrived {
        at: DateTime<Utc>,
    },
}

impl TripRow {
    /// Where the trip stands at `now`.
    pub fn progress(&self, now: DateTime<Utc>) -> Progress {
        if let Some(at) = self.arrived_at {
            return Progress::Arrived { at };
        }
        let fresh = self
            .position_at
            .filter(|at| now.signed_duration_since(*at) < POSITION_FRESH_FOR);
        match (fresh, self.left_seconds, self.left_meters) {
            (Some(at), Some(seconds), Some(meters)) => Progress::OnTheWay {
                arrive_at: at + Duration::seconds(i64::from(seconds)),
                meters_left: meters,
                source: EstimateSource::Position,
                by_road: self.left_by_road.unwrap_or(false),
            },
            _ => Progress::OnTheWay {
                arrive_at: self.started_at + Duration::seconds(i64::from(self.route_seconds)),
                meters_left: self.route_meters,
                source: EstimateSource::Route,
                by_road: self.route_by_road,
            },
        }
    }

    /// The whole minutes until arrival at `now`, rounded up; 0 once due or arrived.
    pub fn minutes_left(&self, now: DateTime<Utc>) -> i32 {
        match self.progress(now) {
            Progress::OnTheWay { arrive_at, .. } => {
                let seconds = arrive_at.signed_duration_since(now).num_seconds().max(0);
                i32::try_from((seconds + 59) / 60).unwrap_or(i32::MAX)
            }
            Progress::Arrived { .. } => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    fn trip(started_at: DateTime<Utc>) -> TripRow {
        TripRow {
            quote_id: Uuid::nil(),
            repair_request_id: Uuid::nil(),
            professional_id: Uuid::nil(),
            started_at,
            route_seconds: 1200,
            route_meters: 12_000,
            route_by_road: true,
            left_seconds: None,
            left_meters: None,
            left_by_road: None,
            position_at: None,
            latitude: None,
            longitude: None,
            accuracy_m: None,
            arrived_at: None,
        }
    }

    #[test]
    fn the_route_answers_until_a_position_comes_and_again_when_it_is_ten_minutes_old() {
        let start = Utc::now();
        let mut t = trip(start);
        assert_eq!(
            t.progress(start),
            Progress::OnTheWay {
                arrive_at: start + Duration::seconds(1200),
                meters_left: 12_000,
                source: EstimateSource::Route,
                by_road: true,
            }
        );
        let seen = start + Duration::minutes(2);
        t.position_at = Some(seen);
        (t.left_seconds, t.left_meters, t.left_by_road) = (Some(300), Some(4000), Some(false));
        t.latitude = Some(45.5);
        assert_eq!(
            t.progress(seen + Duration::minutes(9)),
            Progress::OnTheWay {
                arrive_at: seen + Duration::seconds(300),
                meters_left: 4000,
                source: EstimateSource::Position,
                by_road: false,
            }
        );
        assert!(matches!(
            t.progress(seen + Duration::minutes(10)),
            Progress::OnTheWay {
                source: EstimateSource::Route,
                ..
            }
        ));
        assert_eq!(t.minutes_left(seen), 5);
        assert_eq!(t.minutes_left(seen + Duration::seconds(241)), 1);
        assert_eq!(t.minutes_left(seen + Duration::minutes(6)), 0);
        t.arrived_at = Some(seen + Duration::minutes(6));
        assert_eq!(
            t.progress(seen + Duration::minutes(7)),
            Progress::Arrived {
                at: seen + Duration::minutes(6)
            }
        );
    }
}
