//! Road distance from an OSRM server (open source, self-hosted) through its `table` service:
//! `GET {base}/table/v1/driving/{lng},{lat};{lng},{lat}?sources=0&destinations=1&annotations=distance`
//! answers `{"code": "Ok", "distances": [[metres]]}`; `null` in the matrix means no route,
//! any other `code` is an error with a `message`.

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;

use super::{
    distance::{DistanceError, DistanceProvider},
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

    fn table_url(&self, a: Coordinates, b: Coordinates) -> String {
        // OSRM takes longitude first.
        let path = format!(
            "table/v1/{}/{},{};{},{}",
            self.config.profile, a.longitude, a.latitude, b.longitude, b.latitude
        );
        http_client::endpoint(&self.config.base_url, &path)
    }
}

#[derive(Debug, Deserialize)]
struct TableReply {
    code: String,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    distances: Option<Vec<Vec<Option<f64>>>>,
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
        let response = self
            .http
            .get(self.table_url(a, b))
            .query(&[
                ("sources", "0"),
                ("destinations", "1"),
                ("annotations", "distance"),
            ])
            .send()
            .await
            .map_err(|e| unavailable(format!("OSRM request: {e}")))?;
        let status = response.status();
        // OSRM answers errors as JSON with a code too (400 InvalidQuery, ...).
        let reply: TableReply = response
            .json()
            .await
            .map_err(|e| unavailable(format!("OSRM reply ({status}): {e}")))?;
        match reply.code.as_str() {
            "Ok" => {}
            "NoRoute" | "NoTable" => return Err(DistanceError::NoRoute),
            code => {
                let message = reply.message.unwrap_or_default();
                return Err(unavailable(format!("OSRM {status} {code}: {message}")));
            }
        }
        let cell = reply
            .distances
            .as_ref()
            .and_then(|rows| rows.first())
            .and_then(|row| row.first())
            .ok_or_else(|| unavailable("OSRM reply without a distance matrix"))?;
        match cell {
            Some(meters) if meters.is_finite() && *meters >= 0.0 => Ok(*meters),
            Some(meters) => Err(unavailable(format!("OSRM distance {meters}"))),
            None => Err(DistanceError::NoRoute),
        }
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
