//! How far apart two points are, for display (GetDistance, the legacy get-distance call).
//! Local stand-in and default: great-circle distance; production may choose road distance
//! from an OSRM server ([`super::osrm::OsrmDistance`]). Who is listed or notified is decided
//! in SQL on great-circle distance alone (`crate::matching`), never by these calls.

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
