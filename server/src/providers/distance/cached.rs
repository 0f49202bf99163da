//! Distances for display (GetDistance), from the configured provider, through the cache:
//! one look-up per pair of places. Places are rounded to 4 decimals (about 10 m) and the
//! pair is ordered, so A->B and B->A, or two addresses a few metres apart, share one entry.
//! The list and fan-out rule stays great-circle in SQL (`super::rule`); road distance is
//! shown, never used to decide a match.

use std::{sync::Arc, time::Duration};

use tokio::sync::Semaphore;

use super::{Distance, DistanceProvider};
use crate::{
    cache::Cache,
    domain::Coordinates,
    error::{ApiError, ApiResult, ErrorReason},
};

/// How long a cached distance is kept: roads change slowly.
const CACHE_TTL: Duration = Duration::from_secs(30 * 24 * 3600);

pub struct DistanceService {
    provider: Arc<dyn DistanceProvider>,
    cache: Arc<dyn Cache>,
    /// Outside calls in flight at once; beyond them a call waits up to `wait`.
    outside_calls: Arc<Semaphore>,
    wait: Duration,
}

/// A place rounded to 1e-4 degrees, as whole units so it compares and prints exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Rounded(i64, i64);

impl Rounded {
    fn of(point: Coordinates) -> Self {
        let unit = |degrees: f64| (degrees * 1e4).round() as i64;
        Self(unit(point.latitude), unit(point.longitude))
    }

    fn coordinates(self) -> Coordinates {
        Coordinates {
            latitude: self.0 as f64 / 1e4,
            longitude: self.1 as f64 / 1e4,
        }
    }
}

impl DistanceService {
    pub fn new(
        provider: Arc<dyn DistanceProvider>,
        cache: Arc<dyn Cache>,
        concurrency: usize,
        wait: Duration,
    ) -> Self {
        Self {
            provider,
            cache,
            outside_calls: Arc::new(Semaphore::new(concurrency.max(1))),
            wait,
        }
    }

    fn cache_key(&self, a: Rounded, b: Rounded) -> String {
        let (first, second) = if a <= b { (a, b) } else { (b, a) };
        format!(
            "distance:{}:{},{}:{},{}",
            self.provider.kind(),
            first.0,
            first.1,
            second.0,
            second.1
        )
    }

    /// The distance between two places, from the cache or else from the provider (then
    /// cached). A cache that cannot be reached only costs the look-up.
    pub async fn between(&self, a: Coordinates, b: Coordinates) -> ApiResult<Distance> {
        let (a, b) = (Rounded::of(a), Rounded::of(b));
        let key = self.cache_key(a, b);
        match self.cache.get(&key).await {
            Ok(Some(cached)) => {
                if let Ok(meters) = cached.parse::<f64>() {
                    return Ok(Distance { meters });
                }
            }
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, "distance cache unreadable; asking the provider"),
        }
        let meters = {
            let _permit = tokio::time::timeout(self.wait, self.outside_calls.acquire())
                .await
                .map_err(|_| ApiError::Unavailable {
                    reason: ErrorReason::DistanceUnavailable,
                    message: "the distance service is busy; please try again".to_owned(),
                })?
                .map_err(|e| ApiError::Internal(e.into()))?;
            self.provider
                .meters(a.coordinates(), b.coordinates())
                .await?
        };
        if let Err(error) = self.cache.set(&key, &meters.to_string(), CACHE_TTL).await {
            tracing::warn!(%error, "distance not cached");
        }
        Ok(Distance { meters })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{cache::MemoryCache, providers::distance::GreatCircle};

    fn service() -> DistanceService {
        DistanceService::new(
            Arc::new(GreatCircle),
            Arc::new(MemoryCache::new("t:")),
            1,
            Duration::from_secs(1),
        )
    }

    fn at(latitude: f64, longitude: f64) -> Rounded {
        Rounded::of(Coordinates {
            latitude,
            longitude,
        })
    }

    #[test]
    fn a_pair_has_one_key_whatever_the_order_and_a_few_metres() {
        let s = service();
        let (calgary, edmonton) = (at(51.04473, -114.07188), at(53.54612, -113.49374));
        assert_eq!(
            s.cache_key(calgary, edmonton),
            s.cache_key(edmonton, calgary)
        );
        assert_eq!(
            s.cache_key(calgary, edmonton),
            s.cache_key(at(51.044734, -114.071876), edmonton)
        );
        assert_eq!(
            s.cache_key(calgary, edmonton),
            "distance:great-circle:510447,-1140719:535461,-1134937"
        );
    }
}
