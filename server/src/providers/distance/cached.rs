//! Distances and drives from the configured provider, through the cache: one look-up per
//! pair of places. Places are rounded to 4 decimals (about 10 m), so two addresses a few
//! metres apart share one entry; a distance's pair is ordered (A->B is B->A), a drive's is
//! not (one-way streets). Who matches stays great-circle in SQL (`crate::store::match_rule`);
//! drives only order those who match, and give a trip its arrival time.
//!
//! A drive always has an answer: when the router is down, slow, over its budget of calls in
//! flight, or finds no road, the straight-line estimate stands in
//! ([`super::straight_line_drive`], `by_road: false`) and is not cached.

use std::{sync::Arc, time::Duration};

use tokio::sync::Semaphore;

use super::{Distance, DistanceProvider, Drive, MAX_DRIVES_PER_CALL, straight_line_drive};
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

    fn drive_key(&self, from: Rounded, to: Rounded) -> String {
        format!(
            "drive:{}:{},{}:{},{}",
            self.provider.kind(),
            from.0,
            from.1,
            to.0,
            to.1
        )
    }

    /// A turn to call the provider, waiting up to `wait`.
    async fn turn(&self) -> ApiResult<tokio::sync::SemaphorePermit<'_>> {
        tokio::time::timeout(self.wait, self.outside_calls.acquire())
            .await
            .map_err(|_| ApiError::Unavailable {
                reason: ErrorReason::DistanceUnavailable,
                message: "the distance service is busy; please try again".to_owned(),
            })?
            .map_err(|e| ApiError::Internal(e.into()))
    }

    /// The drive from each of `from` to `to`, in `from`'s order: cached ones from the cache
    /// (one round trip), the others from the provider (one call per
    /// [`MAX_DRIVES_PER_CALL`]), each falling back to the straight-line estimate.
    pub async fn drives_to(&self, from: &[Coordinates], to: Coordinates) -> Vec<Drive> {
        if self.provider.is_local() {
            return from.iter().map(|&a| straight_line_drive(a, to)).collect();
        }
        let to = Rounded::of(to);
        let from: Vec<Rounded> = from.iter().map(|&a| Rounded::of(a)).collect();
        let keys: Vec<String> = from.iter().map(|&a| self.drive_key(a, to)).collect();
        let cached = self.cache.get_many(&keys).await.unwrap_or_else(|error| {
            tracing::warn!(%error, "drive cache unreadable; asking the router");
            vec![None; keys.len()]
        });
        let mut drives: Vec<Option<Drive>> = cached
            .iter()
            .map(|value| value.as_deref().and_then(parse_drive))
            .collect();
        let missing: Vec<usize> = (0..from.len()).filter(|&i| drives[i].is_none()).collect();
        // The look-ups of one call go side by side, each waiting for its turn.
        let places = &from;
        let asked = missing.chunks(MAX_DRIVES_PER_CALL).map(|chunk| async move {
            let points: Vec<Coordinates> = chunk.iter().map(|&i| places[i].coordinates()).collect();
            let answered = match self.turn().await {
                Ok(_permit) => self.provider.drives(&points, to.coordinates()).await,
                Err(_) => Err(super::DistanceError::Unavailable {
                    detail: "every router call in flight".to_owned(),
                }),
            };
            (chunk, answered)
        });
        for (chunk, answered) in futures::future::join_all(asked).await {
            match answered {
                Ok(answers) => {
                    for (&i, answer) in chunk.iter().zip(answers) {
                        if let Some(drive) = answer {
                            self.keep(&keys[i], &drive).await;
                            drives[i] = Some(drive);
                        }
                    }
                }
                Err(error) => {
                    tracing::warn!(%error, "road router did not answer; straight-line drives")
                }
            }
        }
        drives
            .into_iter()
            .zip(&from)
            .map(|(drive, a)| {
                drive.unwrap_or_else(|| straight_line_drive(a.coordinates(), to.coordinates()))
            })
            .collect()
    }

    /// The route from `a` to `b` (a trip's estimate), from the cache or the provider, else
    /// the straight-line estimate.
    pub async fn route(&self, a: Coordinates, b: Coordinates) -> Drive {
        if self.provider.is_local() {
            return straight_line_drive(a, b);
        }
        let (from, to) = (Rounded::of(a), Rounded::of(b));
        let key = format!("route:{}", self.drive_key(from, to));
        if let Some(drive) = crate::cache::cached_json::<StoredDrive>(&*self.cache, &key).await {
            return drive.into();
        }
        let answered = match self.turn().await {
            Ok(_permit) => {
                self.provider
                    .route(from.coordinates(), to.coordinates())
                    .await
            }
            Err(_) => Err(super::DistanceError::Unavailable {
                detail: "every router call in flight".to_owned(),
            }),
        };
        match answered {
            Ok(drive) => {
                self.keep(&key, &drive).await;
                drive
            }
            Err(error) => {
                tracing::warn!(%error, "road router did not answer; straight-line route");
                straight_line_drive(a, b)
            }
        }
    }

    /// Keeps a router's drive; a cache that cannot be reached only costs the next look-up.
    async fn keep(&self, key: &str, drive: &Drive) {
        crate::cache::keep_json(&*self.cache, key, &StoredDrive::from(*drive), CACHE_TTL).await;
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
            let _permit = self.turn().await?;
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

/// A router's drive as cached (only router answers are: `by_road` is implied).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct StoredDrive {
    m: f64,
    s: f64,
}

impl From<Drive> for StoredDrive {
    fn from(drive: Drive) -> Self {
        Self {
            m: drive.meters,
            s: drive.seconds,
        }
    }
}

impl From<StoredDrive> for Drive {
    fn from(stored: StoredDrive) -> Self {
        Drive {
            meters: stored.m,
            seconds: stored.s,
            by_road: true,
        }
    }
}

fn parse_drive(value: &str) -> Option<Drive> {
    serde_json::from_str::<StoredDrive>(value)
        .ok()
        .map(Drive::from)
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
