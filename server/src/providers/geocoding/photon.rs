//! Street addresses from a Photon server (komoot/photon: open source, OpenStreetMap data,
//! self-hosted), which answers GeoJSON:
//! - search as you type: `GET {base}/api?q=800+Macl&lang=en&countrycode=CA&limit=5&lat=..&lon=..`
//! - reverse: `GET {base}/reverse?lat=..&lon=..&lang=en&limit=1`
//!
//! Each feature has a point (`geometry.coordinates`, longitude first) and `properties`:
//! `type` (`house`, `street`, `city`, ...), `housenumber`, `street`, `name`, `city`, `state`,
//! `postcode`, `countrycode`. Only Canadian features in a known province are kept. The
//! callers (`super::service`) cache, budget, pause and fall back to the gazetteer.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{
    Precision,
    gazetteer::{forward_sortation_area, province_code},
};
use crate::{
    domain::{Coordinates, Language},
    providers::http_client,
};

#[derive(Debug, Clone)]
pub struct PhotonConfig {
    /// The server's base URL: `http://photon.internal:2322`.
    pub base_url: String,
    /// How long a suggestion may take (the person is typing: a late answer is useless).
    pub suggest_timeout: Duration,
    /// How long placing an address being saved, or a position, may take.
    pub save_timeout: Duration,
}

impl PhotonConfig {
    pub fn new(base_url: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            suggest_timeout: Duration::from_millis(800),
            save_timeout: Duration::from_secs(5),
        }
    }
}

/// One Canadian address, street or place Photon found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Found {
    pub precision: Precision,
    /// "800 Maclaren Street" for an address, the street's name for a street, else empty.
    pub line1: String,
    pub city: String,
    /// Two-letter code.
    pub province: String,
    /// "K2P 0Y6" when Photon has a Canadian code, else empty.
    pub postal_code: String,
    pub latitude: f64,
    pub longitude: f64,
}

impl Found {
    pub fn point(&self) -> Coordinates {
        Coordinates {
            latitude: self.latitude,
            longitude: self.longitude,
        }
    }
}

/// Why a call failed; [`PhotonError::label`] is the metric's `reason`.
#[derive(Debug, thiserror::Error)]
pub enum PhotonError {
    #[error("Photon took longer than {0:?}")]
    Timeout(Duration),
    #[error("Photon is limiting our calls (429)")]
    TooManyRequests,
    #[error("Photon answered {status}: {body}")]
    Status { status: u16, body: String },
    #[error("Photon could not be reached: {0}")]
    Unreachable(String),
    #[error("Photon's answer is not GeoJSON we read: {0}")]
    Unreadable(String),
}

impl PhotonError {
    pub fn label(&self) -> &'static str {
        match self {
            PhotonError::Timeout(_) => "timeout",
            PhotonError::TooManyRequests => "rate_limited",
            PhotonError::Status { .. } => "status",
            PhotonError::Unreachable(_) => "unreachable",
            PhotonError::Unreadable(_) => "unreadable",
        }
    }
}

/// What to search for.
#[derive(Debug, Clone, Copy)]
pub struct Search<'a> {
    pub text: &'a str,
    pub language: Language,
    /// Bias toward this point (the person's area) when known.
    pub near: Option<Coordinates>,
    pub limit: usize,
}

pub struct Photon {
    config: PhotonConfig,
    http: reqwest::Client,
}

impl Photon {
    pub fn new(config: PhotonConfig) -> Result<Self, reqwest::Error> {
        // Each call sets its own, shorter or longer, timeout; this one bounds them all.
        let http = http_client::client(config.save_timeout.max(config.suggest_timeout))?;
        Ok(Self { config, http })
    }

    pub fn config(&self) -> &PhotonConfig {
        &self.config
    }

    /// Forward search, in Canada, within `timeout`.
    pub async fn search(
        &self,
        search: Search<'_>,
        timeout: Duration,
    ) -> Result<Vec<Found>, PhotonError> {
        let mut query: Vec<(&str, String)> = vec![
            ("q", search.text.to_owned()),
            ("lang", search.language.as_str().to_owned()),
            ("countrycode", "CA".to_owned()),
            ("limit", search.limit.to_string()),
        ];
        if let Some(near) = search.near {
            query.push(("lat", near.latitude.to_string()));
            query.push(("lon", near.longitude.to_string()));
        }
        self.get("api", &query, timeout).await
    }

    /// The addresses at a point, nearest first, within `timeout`.
    pub async fn reverse(
        &self,
        at: Coordinates,
        language: Language,
        timeout: Duration,
    ) -> Result<Vec<Found>, PhotonError> {
        let query = [
            ("lat", at.latitude.to_string()),
            ("lon", at.longitude.to_string()),
            ("lang", language.as_str().to_owned()),
            ("limit", "1".to_owned()),
        ];
        self.get("reverse", &query, timeout).await
    }

    async fn get(
        &self,
        path: &str,
        query: &[(&str, String)],
        timeout: Duration,
    ) -> Result<Vec<Found>, PhotonError> {
        let sent = self
            .http
            .get(http_client::endpoint(&self.config.base_url, path))
            .query(query)
            .timeout(timeout)
            .send()
            .await;
        let response = sent.map_err(|e| {
            if e.is_timeout() {
                PhotonError::Timeout(timeout)
            } else {
                PhotonError::Unreachable(e.to_string())
            }
        })?;
        let status = response.status();
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            return Err(PhotonError::TooManyRequests);
        }
        let body = response.text().await.map_err(|e| {
            if e.is_timeout() {
                PhotonError::Timeout(timeout)
            } else {
                PhotonError::Unreachable(e.to_string())
            }
        })?;
        if !status.is_success() {
            let body: String = body.chars().take(200).collect();
            return Err(PhotonError::Status {
                status: status.as_u16(),
                body,
            });
        }
        let collection: FeatureCollection =
            serde_json::from_str(&body).map_err(|e| PhotonError::Unreadable(e.to_string()))?;
        Ok(collection.features.into_iter().filter_map(found).collect())
    }
}

#[derive(Debug, Deserialize)]
struct FeatureCollection {
    features: Vec<Feature>,
}

#[derive(Debug, Deserialize)]
struct Feature {
    geometry: Geometry,
    #[serde(default)]
    properties: Properties,
}

#[derive(Debug, Deserialize)]
struct Geometry {
    /// Longitude, latitude.
    coordinates: Vec<f64>,
}

#[derive(Debug, Default, Deserialize)]
struct Properties {
    #[serde(default, rename = "type")]
    kind: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    housenumber: Option<String>,
    #[serde(default)]
    street: Option<String>,
    #[serde(default)]
    city: Option<String>,
    #[serde(default)]
    state: Option<String>,
    #[serde(default)]
    postcode: Option<String>,
    #[serde(default)]
    countrycode: Option<String>,
}

/// A feature as an address, or `None` when it is not in a Canadian province or has no point.
fn found(feature: Feature) -> Option<Found> {
    let p = feature.properties;
    if !p.countrycode.as_deref()?.eq_ignore_ascii_case("CA") {
        return None;
    }
    let province = province_code(p.state.as_deref()?)?.to_owned();
    let [longitude, latitude] = feature.geometry.coordinates[..] else {
        return None;
    };
    if !(-90.0..=90.0).contains(&latitude) || !(-180.0..=180.0).contains(&longitude) {
        return None;
    }
    let name = p.name.unwrap_or_default();
    let (precision, line1) = match (&p.housenumber, &p.street, p.kind.as_str()) {
        (Some(number), Some(street), _) => (Precision::Address, format!("{number} {street}")),
        (Some(number), None, "house") if !name.is_empty() => {
            (Precision::Address, format!("{number} {name}"))
        }
        (None, _, "street") if !name.is_empty() => (Precision::Street, name.clone()),
        (None, Some(street), _) => (Precision::Street, street.clone()),
        _ => (Precision::Town, String::new()),
    };
    let is_town = matches!(p.kind.as_str(), "city" | "town" | "village" | "locality");
    let city = p
        .city
        .or_else(|| is_town.then(|| name.clone()))
        .unwrap_or_default();
    if city.is_empty() && precision == Precision::Town {
        return None;
    }
    let postal_code = p
        .postcode
        .as_deref()
        .filter(|code| forward_sortation_area(code).is_some())
        .map(|code| {
            let compact: String = code
                .chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| c.to_ascii_uppercase())
                .collect();
            if compact.len() == 6 {
                format!("{} {}", &compact[..3], &compact[3..])
            } else {
                compact
            }
        })
        .unwrap_or_default();
    Some(Found {
        precision,
        line1,
        city,
        province,
        postal_code,
        latitude,
        longitude,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(json: &str) -> Vec<Found> {
        let collection: FeatureCollection = serde_json::from_str(json).unwrap();
        collection.features.into_iter().filter_map(found).collect()
    }

    #[test]
    fn houses_streets_and_towns_are_told_apart_and_foreign_ones_dropped() {
        let found = features(
            r#"{"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-75.69,45.41]},
             "properties":{"type":"house","housenumber":"800","street":"Maclaren Street",
               "city":"Ottawa","state":"Ontario","postcode":"k2p0y6","countrycode":"CA"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-73.6,45.5]},
             "properties":{"type":"street","name":"Rue Saint-Denis","city":"Montréal",
               "state":"Québec","countrycode":"CA"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-114.07,51.05]},
             "properties":{"type":"city","name":"Calgary","state":"Alberta","countrycode":"CA"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-77.0,38.9]},
             "properties":{"type":"house","housenumber":"800","street":"Maclaren St",
               "city":"Washington","state":"DC","countrycode":"US"}}]}"#,
        );
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].precision, Precision::Address);
        assert_eq!(found[0].line1, "800 Maclaren Street");
        assert_eq!(found[0].postal_code, "K2P 0Y6");
        assert_eq!(found[0].province, "ON");
        assert_eq!((found[0].latitude, found[0].longitude), (45.41, -75.69));
        assert_eq!(found[1].precision, Precision::Street);
        assert_eq!(found[1].province, "QC");
        assert_eq!(found[2].precision, Precision::Town);
        assert_eq!(found[2].city, "Calgary");
    }
}
