//! The places GetDistance measures between: a postal code, a free-text address (its postal
//! code, else a town in it, looked up in the gazetteer) or a point.

use crate::{
    domain::Coordinates,
    error::{ApiError, ApiResult, ErrorReason},
    providers::{Geocoder, Place},
};

/// Longest free-text address read.
const MAX_ADDRESS_CHARS: usize = repairs_proto::limits::place::ADDRESS_MAX_LEN;

/// A place as the caller names it.
#[derive(Debug, Clone, PartialEq)]
pub enum PlaceQuery {
    PostalCode(String),
    Address(String),
    Point(Coordinates),
}

/// Where a place is, and how it was understood (for display).
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub point: Coordinates,
    pub name: String,
}

fn not_found(field: &str) -> ApiError {
    ApiError::NotFound {
        reason: ErrorReason::AddressNotFound,
        message: format!("we could not find the {field} on the map; check the postal code"),
    }
}

fn from_place(place: Place) -> Resolved {
    Resolved {
        point: place.coordinates(),
        name: format!("{}, {}", place.name, place.province),
    }
}

/// The first Canadian postal code in `text` ("T2P 1J9", "t2p1j9"), else a standalone postal
/// area ("T2P"), in the form the gazetteer reads.
fn postal_code_in(text: &str) -> Option<String> {
    let letters: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let shaped = |w: &[char]| {
        w.iter().enumerate().all(|(i, c)| {
            if i % 2 == 0 {
                c.is_ascii_alphabetic()
            } else {
                c.is_ascii_digit()
            }
        })
    };
    if let Some(code) = letters.windows(6).find(|w| shaped(w)) {
        return Some(code.iter().collect());
    }
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_uppercase)
        .find(|token| token.len() == 3 && shaped(&token.chars().collect::<Vec<_>>()))
}

/// Finds `query` in the gazetteer; `field` names it in errors (`origin`, `destination`).
pub async fn resolve(
    geocoder: &dyn Geocoder,
    field: &str,
    query: Option<&PlaceQuery>,
) -> ApiResult<Resolved> {
    let unavailable = |e: crate::providers::geocoding::GeocodeError| ApiError::Unavailable {
        reason: ErrorReason::GeocoderUnavailable,
        message: e.to_string(),
    };
    match query {
        None => Err(ApiError::invalid(field, "say where to measure from and to")),
        Some(PlaceQuery::Point(point)) => {
            let valid = point.latitude.is_finite()
                && point.longitude.is_finite()
                && (-90.0..=90.0).contains(&point.latitude)
                && (-180.0..=180.0).contains(&point.longitude);
            if !valid {
                return Err(ApiError::invalid(
                    format!("{field}.point"),
                    "latitude runs from -90 to 90 and longitude from -180 to 180",
                ));
            }
            Ok(Resolved {
                point: *point,
                name: format!("{:.4}, {:.4}", point.latitude, point.longitude),
            })
        }
        Some(PlaceQuery::PostalCode(code)) => {
            let code = postal_code_in(code).ok_or_else(|| {
                ApiError::invalid(
                    format!("{field}.postal_code"),
                    "enter a Canadian postal code such as T2P 1J9",
                )
            })?;
            let place = geocoder
                .locate_postal_code(&code)
                .await
                .map_err(unavailable)?;
            place.map(from_place).ok_or_else(|| not_found(field))
        }
        Some(PlaceQuery::Address(text)) => {
            if text.chars().count() > MAX_ADDRESS_CHARS {
                return Err(ApiError::invalid(
                    format!("{field}.address"),
                    format!("an address has at most {MAX_ADDRESS_CHARS} characters"),
                ));
            }
            if let Some(code) = postal_code_in(text)
                && let Some(place) = geocoder
                    .locate_postal_code(&code)
                    .await
                    .map_err(unavailable)?
            {
                return Ok(from_place(place));
            }
            // "12 Main St, Calgary, AB": each part as a town, with the next as its province.
            let parts: Vec<&str> = text.split(',').map(str::trim).collect();
            for (i, part) in parts.iter().enumerate().filter(|(_, p)| !p.is_empty()) {
                let province = parts.get(i + 1).copied().filter(|p| !p.is_empty());
                let found = geocoder
                    .locate_city(part, province)
                    .await
                    .map_err(unavailable)?;
                if let Some(place) = found {
                    return Ok(from_place(place));
                }
            }
            Err(not_found(field))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postal_codes_are_found_in_free_text() {
        assert_eq!(
            postal_code_in("100 9 Ave SW, Calgary, AB t2p 1j9").as_deref(),
            Some("T2P1J9")
        );
        assert_eq!(postal_code_in("Calgary T2P").as_deref(), Some("T2P"));
        assert_eq!(postal_code_in("12 Main Street, Calgary"), None);
    }
}
