//! How far apart two points are and how long the drive takes: for display (GetDistance, the
//! legacy get-distance call), for the order in which matching professionals are alerted, and
//! for a trip's arrival time. Local stand-in and default: great-circle distance, and for
//! drives that distance with a road factor at town speed ([`straight_line_drive`]), which is
//! also the fallback whenever the router cannot answer; production may choose an OSRM server
//! ([`super::osrm::OsrmDistance`]). Who may be listed or notified at all is decided in SQL on
//! great-circle distance (`crate::matching`), never by these calls.

mod cached;

pub use cached::DistanceService;

use crate::error::{ApiError, ErrorReason};

use async_trait::async_trait;

use crate::domain::{Coordinates, great_circle_meters};

#[derive(Debug, thiserror::Error)]
pub enum DistanceError {
    /// The service could not be asked or did not answer in time; `detail` is for the log.
    #[error("the distance service is not answering right now; please try again")]
    Unavailable { detail: String },
    /// The service answered that no road joins the two places.
    #[error("no road route joins these two places")]
    NoRoute,
}

#[async_trait]
pub trait DistanceProvider: Send + Sync + 'static {
    /// Names the kind of distance, so cached figures of one provider never answer for another.
    fn kind(&self) -> &'static str;
    /// Metres from `a` to `b`.
    async fn meters(&self, a: Coordinates, b: Coordinates) -> Result<f64, DistanceError>;
    /// The drive from each of `from` to `to` (OSRM's table service), in `from`'s order;
    /// `None` where no road joins them. At most [`MAX_DRIVES_PER_CALL`] places.
    async fn drives(
        &self,
        from: &[Coordinates],
        to: Coordinates,
    ) -> Result<Vec<Option<Drive>>, DistanceError>;
    /// The drive from `a` to `b` along the route a driver would take (OSRM's route service).
    async fn route(&self, a: Coordinates, b: Coordinates) -> Result<Drive, DistanceError>;
    /// True when answers cost no outside call (nothing to cache or to bound).
    fn is_local(&self) -> bool {
        false
    }
}

/// Places one drive look-up may carry: OSRM's default `--max-table-size`.
pub const MAX_DRIVES_PER_CALL: usize = 100;

/// How far and how long by car.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drive {
    pub meters: f64,
    pub seconds: f64,
    /// False when this is the straight-line estimate ([`straight_line_drive`]), not a road
    /// router's answer.
    pub by_road: bool,
}

impl Drive {
    /// Whole minutes, rounded up: "about 12 min" never promises sooner than the estimate.
    pub fn whole_minutes(&self) -> i32 {
        (self.seconds / 60.0).ceil().clamp(0.0, f64::from(i32::MAX)) as i32
    }
}

/// Roads wander: a drive is about this much longer than the straight line in Canadian towns.
pub const ROAD_FACTOR: f64 = 1.3;
/// Average town driving speed for the straight-line estimate: 40 km/h, in metres a second.
pub const TOWN_SPEED_MPS: f64 = 40_000.0 / 3600.0;

/// The drive estimated without a router: the straight line times [`ROAD_FACTOR`], at
/// [`TOWN_SPEED_MPS`].
pub fn straight_line_drive(a: Coordinates, b: Coordinates) -> Drive {
    let meters = great_circle_meters(a, b) * ROAD_FACTOR;
    Drive {
        meters,
        seconds: meters / TOWN_SPEED_MPS,
        by_road: false,
    }
}

/// Distance along the Earth's surface: no outside call.
#[derive(Debug, Clone, Copy, Default)]
pub struct GreatCircle;

#[async_trait]
impl DistanceProvider for GreatCircle {
    fn kind(&self) -> &'static str {
        "great-circle"
    }

    async fn meters(&self, a: Coordinates, b: Coordinates) -> Result<f64, DistanceError> {
        Ok(great_circle_meters(a, b))
    }

    async fn drives(
        &self,
        from: &[Coordinates],
        to: Coordinates,
    ) -> Result<Vec<Option<Drive>>, DistanceError> {
        Ok(from
            .iter()
            .map(|&a| Some(straight_line_drive(a, to)))
            .collect())
    }

    async fn route(&self, a: Coordinates, b: Coordinates) -> Result<Drive, DistanceError> {
        Ok(straight_line_drive(a, b))
    }

    fn is_local(&self) -> bool {
        true
    }
}

impl From<DistanceError> for ApiError {
    fn from(error: DistanceError) -> Self {
        match error {
            DistanceError::Unavailable { ref detail } => {
                tracing::error!(%detail, "distance provider failed");
                Self::Unavailable {
                    reason: ErrorReason::DistanceUnavailable,
                    message: error.to_string(),
                }
            }
            DistanceError::NoRoute => Self::FailedPrecondition {
                reason: ErrorReason::NoRoute,
                message: error.to_string(),
            },
        }
    }
}

/// How far a request is from a professional's home base (great-circle).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distance {
    pub meters: f64,
}

impl Distance {
    /// Whole km, metres / 1000 rounded, as the spec shows and compares distances.
    pub fn whole_km(&self) -> i32 {
        crate::domain::to_whole_km(self.meters)
    }

    /// Whole metres, as the contract carries them.
    pub fn whole_meters(&self) -> i64 {
        self.meters.round() as i64
    }
}
