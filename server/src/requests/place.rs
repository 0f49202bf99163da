//! Placing a request's address on the map: by the full postal code, else its postal area
//! (the first three characters), else the city in its province. The coordinates are stored
//! with the request, so matching never geocodes.

use super::draft::Draft;
use crate::{
    error::{ApiError, ApiResult, ErrorReason, FieldViolation},
    providers::{Geocoder, Place},
};

/// How precisely an address was placed (stored as `repair_requests.placed_by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlacedBy {
    PostalCode,
    PostalArea,
    City,
}

impl PlacedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            PlacedBy::PostalCode => "postal_code",
            PlacedBy::PostalArea => "postal_area",
            PlacedBy::City => "city",
        }
    }
}

/// Where an address was placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub place: Place,
    pub by: PlacedBy,
}

/// The first step of the chain that finds the address. ADDRESS_NOT_FOUND (INVALID_ARGUMENT
/// on `draft.address`) when none does; UNAVAILABLE when the geocoder cannot be asked.
pub async fn place(geocoder: &dyn Geocoder, draft: &Draft) -> ApiResult<Placed> {
    let found = |place: Option<Place>, by| place.map(|place| Placed { place, by });
    if let Some(code) = &draft.postal_code {
        let full = geocoder.locate_full_postal_code(code.as_str()).await?;
        if let Some(placed) = found(full, PlacedBy::PostalCode) {
            return Ok(placed);
        }
        let area = geocoder.locate_postal_code(&code.as_str()[..3]).await?;
        if let Some(placed) = found(area, PlacedBy::PostalArea) {
            return Ok(placed);
        }
    }
    let city = geocoder
        .locate_city(&draft.city, Some(&draft.province))
        .await?;
    found(city, PlacedBy::City).ok_or_else(|| ApiError::InvalidArgument {
        reason: ErrorReason::AddressNotFound,
        violations: vec![FieldViolation::new(
            "draft.address",
            "we could not find this address: check the postal code, or the city and province",
        )],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        domain::{PostalCode, Urgency},
        providers::gazetteer::shipped_for_tests as gazetteer,
    };

    fn draft(postal_code: Option<&str>, city: &str, province: &str) -> Draft {
        Draft {
            service_id: uuid::Uuid::nil(),
            description: "Leak".into(),
            urgency: Urgency::Immediate,
            line1: "1 Main St".into(),
            line2: String::new(),
            city: city.into(),
            province: province.into(),
            postal_code: postal_code.map(|c| PostalCode::parse(c).unwrap()),
        }
    }

    #[tokio::test]
    async fn the_shipped_gazetteer_places_by_postal_area_then_city() {
        let by_area = place(gazetteer(), &draft(Some("T2P 1J9"), "Nowhere", "AB"))
            .await
            .unwrap();
        assert_eq!(by_area.by, PlacedBy::PostalArea);
        assert_eq!(by_area.place.time_zone, "America/Edmonton");
        // X0X is a real-shaped code of no area in the data: the city places it.
        let by_city = place(gazetteer(), &draft(Some("X0X 0X0"), "Edmonton", "AB"))
            .await
            .unwrap();
        assert_eq!(by_city.by, PlacedBy::City);
        let no_code = place(gazetteer(), &draft(None, "Montreal", "QC"))
            .await
            .unwrap();
        assert_eq!(no_code.place.name, "Montréal");
    }

    #[tokio::test]
    async fn an_address_nothing_places_is_address_not_found() {
        let error = place(gazetteer(), &draft(None, "Atlantis", "AB"))
            .await
            .unwrap_err();
        let ApiError::InvalidArgument { reason, violations } = error else {
            panic!("{error:?}");
        };
        assert_eq!(reason, ErrorReason::AddressNotFound);
        assert_eq!(violations[0].field, "draft.address");
        // A city of another province does not count.
        assert!(
            place(gazetteer(), &draft(None, "Calgary", "QC"))
                .await
                .is_err()
        );
    }
}
