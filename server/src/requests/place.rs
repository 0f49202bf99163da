//! Placing a request's address on the map: its door or street (with Photon), else the full
//! postal code, its postal area (the first three characters), else the city in its province.
//! The point and how precisely it was placed are stored with the request, so matching never
//! geocodes.

use super::draft::Draft;
use crate::{
    domain::Language,
    error::{ApiError, ApiResult, ErrorReason, FieldViolation},
    providers::geocoding::service::{AddressText, GeocoderService, Located},
};

/// The address of a draft, as the geocoder reads it.
pub fn address_text(draft: &Draft) -> AddressText<'_> {
    AddressText::of(&draft.address)
}

/// ADDRESS_NOT_FOUND (INVALID_ARGUMENT on `field`) when nothing places the address;
/// UNAVAILABLE when the geocoder cannot be asked.
pub async fn locate(
    geocoding: &GeocoderService,
    address: AddressText<'_>,
    field: &str,
) -> ApiResult<Located> {
    // Only the point is kept: the names of the answer do not matter here.
    let found = geocoding.locate(address, Language::English).await?;
    found.ok_or_else(|| ApiError::InvalidArgument {
        reason: ErrorReason::AddressNotFound,
        violations: vec![FieldViolation::new(
            field,
            "we could not find this address: check the postal code, or the city and province",
        )],
    })
}

/// A draft's address placed.
pub async fn place(geocoding: &GeocoderService, draft: &Draft) -> ApiResult<Located> {
    locate(geocoding, address_text(draft), "draft.address").await
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{
        budgets::Budgets,
        cache::MemoryCache,
        domain::{Address, PostalCode, Urgency},
        metrics::Metrics,
        providers::{Gazetteer, Precision},
    };

    fn draft(postal_code: Option<&str>, city: &str, province: &str) -> Draft {
        Draft {
            service_id: uuid::Uuid::nil(),
            description: "Leak".into(),
            urgency: Urgency::Immediate,
            address: Address {
                line1: "1 Main St".into(),
                line2: String::new(),
                city: city.into(),
                province: province.into(),
                postal_code: postal_code.map(|c| PostalCode::parse(c).unwrap()),
            },
        }
    }

    /// The gazetteer alone (no Photon: nothing is counted, the pool is never used).
    fn geocoding() -> GeocoderService {
        let db = sqlx::PgPool::connect_lazy("postgres://unused/unused").unwrap();
        GeocoderService::new(
            Arc::new(Gazetteer::shipped().unwrap()),
            None,
            Arc::new(MemoryCache::new("test")),
            Budgets::new(db),
            Metrics::new(),
            10,
        )
    }

    #[tokio::test]
    async fn the_shipped_gazetteer_places_by_full_code_then_area_then_city() {
        let geocoding = geocoding();
        let by_code = place(&geocoding, &draft(Some("T0L 0K0"), "Nowhere", "AB"))
            .await
            .unwrap();
        assert_eq!(by_code.precision, Precision::PostalCode);
        assert_eq!(by_code.place.name, "Bragg Creek");
        assert_eq!(by_code.place.time_zone, "America/Edmonton");
        // T2P 9Z9 has the shape of a code but is none: its area places it.
        let by_area = place(&geocoding, &draft(Some("T2P 9Z9"), "Nowhere", "AB"))
            .await
            .unwrap();
        assert_eq!(by_area.precision, Precision::PostalArea);
        // X0X is a real-shaped code of no area in the data: the city places it.
        let by_city = place(&geocoding, &draft(Some("X0X 0X0"), "Edmonton", "AB"))
            .await
            .unwrap();
        assert_eq!(by_city.precision, Precision::Town);
        let no_code = place(&geocoding, &draft(None, "Montreal", "QC"))
            .await
            .unwrap();
        assert_eq!(no_code.place.name, "Montréal");
    }

    #[tokio::test]
    async fn an_address_nothing_places_is_address_not_found() {
        let geocoding = geocoding();
        let error = place(&geocoding, &draft(None, "Atlantis", "AB"))
            .await
            .unwrap_err();
        let ApiError::InvalidArgument { reason, violations } = error else {
            panic!("{error:?}");
        };
        assert_eq!(reason, ErrorReason::AddressNotFound);
        assert_eq!(violations[0].field, "draft.address");
        // A city of another province does not count.
        assert!(
            place(&geocoding, &draft(None, "Calgary", "QC"))
                .await
                .is_err()
        );
    }
}
