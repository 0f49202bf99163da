//! Road distances and drive times from an OSRM server (open source, self-hosted).
//! - `table`: `GET {base}/table/v1/driving/{lng},{lat};...?sources=..&destinations=..&annotations=..`
//!   answers `{"code": "Ok", "distances": [[metres]], "durations": [[seconds]]}`, one row per
//!   source; `null` in the matrix means no route.
//! - `route`: `GET {base}/route/v1/driving/{lng},{lat};{lng},{lat}?overview=false` answers
//!   `{"code": "Ok", "routes": [{"distance": metres, "duration": seconds}]}`.
//!
//! Any other `code` is an error with a `message` (`NoRoute`, `NoTable`: no road joins them).

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;

use super::{
    distance::{DistanceError, DistanceProvider, Drive},
    http_client,
};
use crate::domain::Coordinates;

#[derive(Debug, Clone)]
pub struct OsrmConfig {
    /// The server's base URL, without the service path: `http://osrm.internal:5000`.
    pub base_url: String,
    /// The routing profile the server was built with (`driving`).
    pub profile: String,
    /// How long one look-up may take.
    pub timeout: Duration,
}

impl OsrmConfig {
    pub fn new(base_url: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            profile: "driving".to_owned(),
            timeout: Duration::from_secs(2),
        }
    }
}

pub struct OsrmDistance {
    config: OsrmConfig,
    http: reqwest::Client,
}

impl OsrmDistance {
    pub fn new(config: OsrmConfig) -> Result<Self, reqwest::Error> {
        let http = http_client::client(config.timeout)?;
        Ok(Self { config, http })
    }

    /// The URL of `service` over `points`: OSRM takes longitude first.
    fn url(&self, service: &str, points: &[Coordinates]) -> String {
        let points: Vec<String> = points
            .iter()
            .map(|p| format!("{},{}", p.longitude, p.latitude))
            .collect();
        let path = format!("{service}/v1/{}/{}", self.config.profile, points.join(";"));
        http_client::endpoint(&self.config.base_url, &path)
    }

    fn table_url(&self, a: Coordinates, b: Coordinates) -> String {
        self.url("table", &[a, b])
    }

    /// Asks `url` with `query`; the reply once its `code` is "Ok".
    async fn ask<T: serde::de::DeserializeOwned + Coded>(
        &self,
        url: String,
        query: &[(&str, &str)],
    ) -> Result<T, DistanceError> {
        let response = self
            .http
            .get(url)
            .query(query)
            .send()
            .await
            .map_err(|e| unavailable(format!("OSRM request: {e}")))?;
        let status = response.status();
        // OSRM answers errors as JSON with a code too (400 InvalidQuery, ...).
        let reply: T = response
            .json()
            .await
            .map_err(|e| unavailable(format!("OSRM reply ({status}): {e}")))?;
        match reply.code() {
            "Ok" => Ok(reply),
            "NoRoute" | "NoTable" => Err(DistanceError::NoRoute),
            code => Err(unavailable(format!(
                "OSRM {status} {code}: {}",
                reply.message()
            ))),
        }
    }
}

/// What every OSRM reply carries.
trait Coded {
    fn code(&self) -> &str;
    fn message(&self) -> &str;
}

#[derive(Debug, Deserialize)]
struct TableReply {
    code: String,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    distances: Option<Vec<Vec<Option<f64>>>>,
    #[serde(default)]
    durations: Option<Vec<Vec<Option<f64>>>>,
}

#[derive(Debug, Deserialize)]
struct RouteReply {
    code: String,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    routes: Vec<RouteLeg>,
}

#[derive(Debug, Deserialize)]
struct RouteLeg {
    distance: f64,
    duration: f64,
}

impl Coded for TableReply {
    fn code(&self) -> &str {
        &self.code
    }
    fn message(&self) -> &str {
        self.message.as_deref().unwrap_or_default()
    }
}

impl Coded for RouteReply {
    fn code(&self) -> &str {
        &self.code
    }
    fn message(&self) -> &str {
        self.message.as_deref().unwrap_or_default()
    }
}

/// A figure OSRM gave: finite and not negative, or no route (`null`).
fn figure(cell: Option<&Option<f64>>) -> Result<Option<f64>, DistanceError> {
    match cell {
        None => Err(unavailable("OSRM reply shorter than asked")),
        Some(None) => Ok(None),
        Some(Some(value)) if value.is_finite() && *value >= 0.0 => Ok(Some(*value)),
        Some(Some(value)) => Err(unavailable(format!("OSRM figure {value}"))),
    }
}

/// Column 0 of each row of `matrix`, one row per source.
fn first_column(
    matrix: Option<&Vec<Vec<Option<f64>>>>,
    rows: usize,
) -> Result<Vec<Option<f64>>, DistanceError> {
    let matrix = matrix.ok_or_else(|| unavailable("OSRM reply without its matrix"))?;
    (0..rows)
        .map(|row| figure(matrix.get(row).and_then(|cells| cells.first())))
        .collect()
}

fn unavailable(detail: impl Into<String>) -> DistanceError {
    DistanceError::Unavailable {
        detail: detail.into(),
    }
}

#[async_trait]
impl DistanceProvider for OsrmDistance {
    fn kind(&self) -> &'static str {
        "osrm"
    }

    async fn meters(&self, a: Coordinates, b: Coordinates) -> Result<f64, DistanceError> {
        let query = [
            ("sources", "0"),
            ("destinations", "1"),
            ("annotations", "distance"),
        ];
        let reply: TableReply = self.ask(self.table_url(a, b), &query).await?;
        first_column(reply.distances.as_ref(), 1)?
            .remove(0)
            .ok_or(DistanceError::NoRoute)
    }

    async fn drives(
        &self,
        from: &[Coordinates],
        to: Coordinates,
    ) -> Result<Vec<Option<Drive>>, DistanceError> {
        if from.is_empty() {
            return Ok(Vec::new());
        }
        let mut points = from.to_vec();
        points.push(to);
        let sources: Vec<String> = (0..from.len()).map(|i| i.to_string()).collect();
        let destination = from.len().to_string();
        let query = [
            ("sources", sources.join(";")),
            ("destinations", destination),
            ("annotations", "duration,distance".to_owned()),
        ];
        let query: Vec<(&str, &str)> = query.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let reply: TableReply = self.ask(self.url("table", &points), &query).await?;
        let seconds = first_column(reply.durations.as_ref(), from.len())?;
        let meters = first_column(reply.distances.as_ref(), from.len())?;
        Ok(seconds
            .into_iter()
            .zip(meters)
            .map(|pair| match pair {
                (Some(seconds), Some(meters)) => Some(Drive {
                    meters,
                    seconds,
                    by_road: true,
                }),
                _ => None,
            })
            .collect())
    }

    async fn route(&self, a: Coordinates, b: Coordinates) -> Result<Drive, DistanceError> {
        let query = [("overview", "false")];
        let reply: RouteReply = self.ask(self.url("route", &[a, b]), &query).await?;
        let leg = reply.routes.first().ok_or(DistanceError::NoRoute)?;
        let (meters, seconds) = (leg.distance, leg.duration);
        if !(meters.is_finite() && seconds.is_finite() && meters >= 0.0 && seconds >= 0.0) {
            return Err(unavailable(format!("OSRM route {meters} m, {seconds} s")));
        }
        Ok(Drive {
            meters,
            seconds,
            by_road: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_url_puts_longitude_first() {
        let osrm = OsrmDistance::new(OsrmConfig::new("http://osrm.test/")).unwrap();
        let a = Coordinates {
            latitude: 51.05,
            longitude: -114.07,
        };
        let b = Coordinates {
            latitude: 53.55,
            longitude: -113.49,
        };
        assert_eq!(
            osrm.table_url(a, b),
            "http://osrm.test/table/v1/driving/-114.07,51.05;-113.49,53.55"
        );
    }
}
