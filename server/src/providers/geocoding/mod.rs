//! Geocoding: where a postal code, a city or a street address is. Local stand-in and
//! default: the [`Gazetteer`](gazetteer::Gazetteer) shipped with the server; street
//! addresses come from Photon ([`photon`]) when configured, through
//! [`service::GeocoderService`], which every caller goes through. Points and the distance
//! between them are `crate::domain::coordinates`.

pub mod gazetteer;
pub mod photon;
pub mod service;

pub use gazetteer::Gazetteer;

use crate::{
    domain::Coordinates,
    error::{ApiError, ErrorReason},
};

use async_trait::async_trait;

/// A located place: an area of postal codes or a town.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    pub name: String,
    /// Two-letter code: `AB`, `QC`, ...
    pub province: String,
    pub latitude: f64,
    pub longitude: f64,
    /// IANA zone, `America/Edmonton`: a professional's hours are read in it.
    pub time_zone: String,
}

impl Place {
    pub fn coordinates(&self) -> Coordinates {
        Coordinates {
            latitude: self.latitude,
            longitude: self.longitude,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum GeocodeError {
    /// The service could not be asked; `detail` is for the log.
    #[error("the map service is not answering right now; please try again")]
    Unavailable { detail: String },
}

/// How precisely an address was placed, best first. Stored with each located address
/// (`repair_requests.placed_by`, `professionals.home_placed_by`) as [`Precision::as_str`].
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Precision {
    /// The door: a house number on its street.
    Address,
    /// Somewhere on the street.
    Street,
    /// The full postal code's point (a block face in a city, a post office in the country).
    PostalCode,
    /// The centre of the postal area (the code's first three characters).
    PostalArea,
    /// The town's centre.
    Town,
}

impl Precision {
    pub fn as_str(self) -> &'static str {
        match self {
            Precision::Address => "address",
            Precision::Street => "street",
            Precision::PostalCode => "postal_code",
            Precision::PostalArea => "postal_area",
            // Stored as `city` since before streets were known.
            Precision::Town => "city",
        }
    }

    pub fn parse(stored: &str) -> Option<Self> {
        [
            Precision::Address,
            Precision::Street,
            Precision::PostalCode,
            Precision::PostalArea,
            Precision::Town,
        ]
        .into_iter()
        .find(|p| p.as_str() == stored)
    }
}

/// What an address suggestion is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuggestionKind {
    PostalCode,
    PostalArea,
    Place,
    /// A house number on a street (Photon).
    Address,
    /// A street (Photon).
    Street,
}

/// One entry offered by the address field's autocomplete.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    pub kind: SuggestionKind,
    /// "T2P 1J9, Calgary, AB", "T2P (Calgary, AB)", "Calgary, AB".
    pub display_name: String,
    /// The postal code or area; empty for a place.
    pub postal_code: String,
    pub city: String,
    pub province: String,
    /// The house number and street, for an address or a street; empty otherwise.
    pub line1: String,
}

#[async_trait]
pub trait Geocoder: Send + Sync + 'static {
    /// The point of one full postal code ("T2P 1J9"), when the geocoder knows single codes
    /// (a maps API does). The shipped gazetteer knows areas only and answers `None`, so
    /// callers fall back to [`Geocoder::locate_postal_code`].
    async fn locate_full_postal_code(
        &self,
        _postal_code: &str,
    ) -> Result<Option<Place>, GeocodeError> {
        Ok(None)
    }
    /// The area of a Canadian postal code ("T2P 1J9" or just "T2P"); `None` when the text is
    /// not a Canadian postal code or the area is unknown.
    async fn locate_postal_code(&self, postal_code: &str) -> Result<Option<Place>, GeocodeError>;
    /// A town by name, in a province when one is given (code or English/French name).
    async fn locate_city(
        &self,
        city: &str,
        province: Option<&str>,
    ) -> Result<Option<Place>, GeocodeError>;
    /// Postal codes, areas and places starting with `query` (already bounded by the caller),
    /// in `province` (a code) when given; at most `limit`.
    async fn suggest(
        &self,
        query: &str,
        province: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Suggestion>, GeocodeError>;
}

impl From<GeocodeError> for ApiError {
    fn from(error: GeocodeError) -> Self {
        tracing::error!(?error, "geocoder unavailable");
        Self::Unavailable {
            reason: ErrorReason::GeocoderUnavailable,
            message: error.to_string(),
        }
    }
}
