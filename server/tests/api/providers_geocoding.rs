//! The shipped gazetteer as the server uses it: behind the `Geocoder` trait.

use std::sync::Arc;

use repairs_server::{
    domain::{great_circle_meters, to_whole_km},
    providers::{Gazetteer, Geocoder},
};

fn geocoder() -> Arc<dyn Geocoder> {
    Arc::new(Gazetteer::shipped().unwrap())
}

#[tokio::test]
async fn a_customer_postal_code_and_a_professional_city_are_a_distance_apart() {
    let geocoder = geocoder();
    let customer = geocoder
        .locate_postal_code("T2P 1J9")
        .await
        .unwrap()
        .unwrap();
    let professional = geocoder
        .locate_city("Edmonton", Some("Alberta"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(professional.time_zone, "America/Edmonton");
    let km = to_whole_km(great_circle_meters(
        customer.coordinates(),
        professional.coordinates(),
    ));
    assert!((270..=290).contains(&km), "{km} km");
}

#[tokio::test]
async fn places_in_other_time_zones_keep_their_own() {
    let geocoder = geocoder();
    for (code, zone) in [
        ("A1C 5M2", "America/St_Johns"),
        ("B3H 4R2", "America/Halifax"),
        ("R3C 4T3", "America/Winnipeg"),
        ("V6B 1A1", "America/Vancouver"),
    ] {
        let place = geocoder.locate_postal_code(code).await.unwrap().unwrap();
        assert_eq!(place.time_zone, zone, "{code}");
    }
}

#[tokio::test]
async fn what_is_not_canadian_is_not_found() {
    let geocoder = geocoder();
    for code in ["D1A 1A1", "12345", "SW1A 1AA"] {
        assert!(
            geocoder.locate_postal_code(code).await.unwrap().is_none(),
            "{code}"
        );
    }
    assert!(
        geocoder
            .locate_city("Paris", Some("QC"))
            .await
            .unwrap()
            .is_none()
    );
}

#[test]
fn the_data_ships_with_its_attribution() {
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/geo/README.md"),
    )
    .unwrap();
    assert!(readme.contains("Contains data from GeoNames (geonames.org), CC BY 4.0"));
}
