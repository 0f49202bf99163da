//! The offline geocoder: Canada's full postal codes, postal-code areas (FSAs) and towns, with
//! coordinates and time zones, from GeoNames (CC BY 4.0; see `server/data/geo/README.md`).
//! The files are built into the binary: areas and towns indexed once at start, the full codes
//! searched in place ([`full`]).

pub mod full;
mod names;
mod postal;
mod suggest;

use std::collections::HashMap;

use async_trait::async_trait;
use serde::Deserialize;

pub use names::province_code;
pub use postal::forward_sortation_area;

use super::{GeocodeError, Geocoder, Place, Suggestion};
use crate::domain::{Coordinates, great_circle_meters};
use full::{FullCode, FullCodes};

const FSA_CSV: &str = include_str!("../../../../data/geo/ca-fsa.csv");
const PLACES_CSV: &str = include_str!("../../../../data/geo/ca-places.csv");

#[derive(Debug, thiserror::Error)]
#[error("gazetteer file {file} is damaged: {detail}")]
pub struct GazetteerError {
    file: &'static str,
    detail: String,
}

#[derive(Debug, Deserialize)]
struct AreaRow {
    fsa: String,
    name: String,
    province: String,
    lat: f64,
    lon: f64,
    timezone: String,
}

#[derive(Debug, Deserialize)]
struct PlaceRow {
    name: String,
    province: String,
    lat: f64,
    lon: f64,
    population: u64,
    timezone: String,
}

#[derive(Debug)]
pub struct Gazetteer {
    /// By FSA, "T2P".
    areas: HashMap<String, Place>,
    /// By folded name; several places may share one (in different provinces, or a town and a
    /// neighbourhood), kept with their population to pick the likeliest.
    places: HashMap<String, Vec<(Place, u64)>>,
    /// By FSA, the town its codes are addressed in (what a person writes as the city), or
    /// none for a rural area spread over many towns. See [`town_of_area`].
    area_towns: HashMap<String, String>,
    full_codes: FullCodes,
}

impl Gazetteer {
    /// The gazetteer shipped with the server.
    pub fn shipped() -> Result<Self, GazetteerError> {
        Ok(Self {
            full_codes: FullCodes::shipped(),
            ..Self::from_csv(FSA_CSV, PLACES_CSV)?
        })
    }

    /// From CSV text in the shipped files' layout (`server/data/geo/README.md`).
    pub fn from_csv(fsa_csv: &str, places_csv: &str) -> Result<Self, GazetteerError> {
        let mut areas = HashMap::new();
        for row in read_rows::<AreaRow>("ca-fsa.csv", fsa_csv)? {
            let damaged = |detail: String| GazetteerError {
                file: "ca-fsa.csv",
                detail,
            };
            let fsa = forward_sortation_area(&row.fsa)
                .filter(|fsa| *fsa == row.fsa)
                .ok_or_else(|| damaged(format!("{:?} is not an FSA", row.fsa)))?;
            let place =
                place(row.name, row.province, row.lat, row.lon, row.timezone).map_err(damaged)?;
            areas.insert(fsa, place);
        }
        let mut places: HashMap<String, Vec<(Place, u64)>> = HashMap::new();
        for row in read_rows::<PlaceRow>("ca-places.csv", places_csv)? {
            let key = names::fold(&row.name);
            let place = place(row.name, row.province, row.lat, row.lon, row.timezone).map_err(
                |detail| GazetteerError {
                    file: "ca-places.csv",
                    detail,
                },
            )?;
            places.entry(key).or_default().push((place, row.population));
        }
        let area_towns = areas
            .iter()
            .filter_map(|(fsa, area)| Some((fsa.clone(), town_of_area(fsa, area, &places)?)))
            .collect();
        Ok(Self {
            areas,
            places,
            area_towns,
            full_codes: FullCodes::empty(),
        })
    }

    /// The town a postal area's codes are addressed in, for filling an address's city.
    pub fn town_of_area(&self, fsa: &str) -> Option<&str> {
        self.area_towns.get(fsa).map(String::as_str)
    }

    /// The area of a postal code: "t2p 1j9", "T2P1J9" or "T2P".
    pub fn lookup_postal_code(&self, code: &str) -> Option<Place> {
        self.areas.get(&forward_sortation_area(code)?).cloned()
    }

    /// The point of a whole postal code ("t2p 1j9"), named after its town, in its area's
    /// province and time zone; `None` for a code the data does not have.
    pub fn lookup_full_postal_code(&self, code: &str) -> Option<Place> {
        let found = self.full_codes.find(code)?;
        self.full_code_place(found)
    }

    fn full_code_place(&self, found: FullCode) -> Option<Place> {
        let area = self.areas.get(&found.code[..3])?;
        Some(Place {
            name: found.town.to_owned(),
            province: area.province.clone(),
            latitude: found.point.latitude,
            longitude: found.point.longitude,
            time_zone: area.time_zone.clone(),
        })
    }

    /// The time zone at a point: that of the postal area whose centre is nearest.
    pub fn time_zone_near(&self, point: Coordinates) -> Option<String> {
        self.areas
            .values()
            .min_by(|a, b| {
                let from = |area: &Place| great_circle_meters(area.coordinates(), point);
                from(a).total_cmp(&from(b))
            })
            .map(|area| area.time_zone.clone())
    }

    /// The full postal code nearest `point` (within 50 km; none farther out, at sea or
    /// abroad), and its place: looked for in the postal areas whose centres are nearest.
    pub fn nearest_postal_code(&self, point: Coordinates) -> Option<(String, Place)> {
        const AREAS_SEARCHED: usize = 8;
        const FARTHEST_METERS: f64 = 50_000.0;
        let mut areas: Vec<(&str, f64)> = self
            .areas
            .iter()
            .map(|(fsa, area)| {
                let meters = great_circle_meters(area.coordinates(), point);
                (fsa.as_str(), meters)
            })
            .collect();
        areas.sort_by(|a, b| a.1.total_cmp(&b.1));
        let nearest: Vec<&str> = areas.iter().take(AREAS_SEARCHED).map(|a| a.0).collect();
        let (found, meters) = self.full_codes.nearest_in(&nearest, point)?;
        if meters > FARTHEST_METERS {
            return None;
        }
        let code = found.code.clone();
        Some((code, self.full_code_place(found)?))
    }

    /// A town by name, case and accents ignored; in `province` (code or name) when given.
    /// When several match, the most populous.
    pub fn lookup_city(&self, name: &str, province: Option<&str>) -> Option<Place> {
        let province = match province {
            Some(given) => Some(province_code(given)?),
            None => None,
        };
        self.places
            .get(&names::fold(name))?
            .iter()
            .filter(|(place, _)| province.is_none_or(|code| place.province == code))
            .max_by_key(|(_, population)| *population)
            .map(|(place, _)| place.clone())
    }

    pub fn area_count(&self) -> usize {
        self.areas.len()
    }
}

/// How far from an urban area's centre its town's centre may lie.
const TOWN_OF_AREA_METERS: f64 = 15_000.0;

/// Canada Post names areas after a district ("Calgary (City Centre / Calgary Tower)",
/// "Downtown Toronto (CN Tower / ...)", "Plateau Mont-Royal Southeast"), not after the town an
/// address is written with. An urban area (second character not 0) is in the town its name
/// starts with when that is a town of the province, else in the most populous town of the
/// province within 15 km of its centre. Rural areas (second character 0) cover many towns:
/// none is guessed for them.
fn town_of_area(
    fsa: &str,
    area: &Place,
    places: &HashMap<String, Vec<(Place, u64)>>,
) -> Option<String> {
    if fsa.as_bytes().get(1) == Some(&b'0') {
        return None;
    }
    let in_province = |candidates: &Vec<(Place, u64)>| {
        candidates
            .iter()
            .filter(|(place, _)| place.province == area.province)
            .max_by_key(|(_, population)| *population)
            .map(|(place, _)| place.name.clone())
    };
    let leading = area.name.split(" (").next().unwrap_or_default();
    if let Some(town) = places.get(&names::fold(leading)).and_then(in_province) {
        return Some(town);
    }
    places
        .values()
        .flatten()
        .filter(|(place, _)| {
            place.province == area.province
                && great_circle_meters(place.coordinates(), area.coordinates())
                    <= TOWN_OF_AREA_METERS
        })
        .max_by_key(|(_, population)| *population)
        .map(|(place, _)| place.name.clone())
}

fn read_rows<T: serde::de::DeserializeOwned>(
    file: &'static str,
    text: &str,
) -> Result<Vec<T>, GazetteerError> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<Result<_, _>>()
        .map_err(|error| GazetteerError {
            file,
            detail: error.to_string(),
        })
}

/// A checked place: known province, coordinates on Earth, a time zone.
fn place(
    name: String,
    province: String,
    latitude: f64,
    longitude: f64,
    time_zone: String,
) -> Result<Place, String> {
    if !names::is_province_code(&province) {
        return Err(format!("{name}: unknown province {province:?}"));
    }
    if !(-90.0..=90.0).contains(&latitude) || !(-180.0..=180.0).contains(&longitude) {
        return Err(format!(
            "{name}: coordinates {latitude}, {longitude} are off the map"
        ));
    }
    if !time_zone.contains('/') {
        return Err(format!(
            "{name}: time zone {time_zone:?} is not an IANA zone"
        ));
    }
    Ok(Place {
        name,
        province,
        latitude,
        longitude,
        time_zone,
    })
}

#[async_trait]
impl Geocoder for Gazetteer {
    async fn locate_full_postal_code(
        &self,
        postal_code: &str,
    ) -> Result<Option<Place>, GeocodeError> {
        Ok(self.lookup_full_postal_code(postal_code))
    }

    async fn locate_postal_code(&self, postal_code: &str) -> Result<Option<Place>, GeocodeError> {
        Ok(self.lookup_postal_code(postal_code))
    }

    async fn locate_city(
        &self,
        city: &str,
        province: Option<&str>,
    ) -> Result<Option<Place>, GeocodeError> {
        Ok(self.lookup_city(city, province))
    }

    async fn suggest(
        &self,
        query: &str,
        province: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Suggestion>, GeocodeError> {
        Ok(self.suggestions(query, province, limit))
    }
}

/// The shipped gazetteer, loaded once for all unit tests.
#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests only: the shipped data must load")]
pub(crate) fn shipped_for_tests() -> &'static Gazetteer {
    static SHIPPED: std::sync::OnceLock<Gazetteer> = std::sync::OnceLock::new();
    SHIPPED.get_or_init(|| Gazetteer::shipped().unwrap())
}

#[cfg(test)]
mod tests {
    use super::{shipped_for_tests as gazetteer, *};
    use crate::domain::{great_circle_meters, to_whole_km};

    #[test]
    fn every_shipped_area_loads() {
        assert_eq!(gazetteer().area_count(), 1650);
    }

    #[test]
    fn t2p_is_downtown_calgary_on_mountain_time() {
        let place = gazetteer().lookup_postal_code("t2p 1j9").unwrap();
        assert!(place.name.contains("Calgary"), "{}", place.name);
        assert_eq!(place.province, "AB");
        assert_eq!(place.time_zone, "America/Edmonton");
        let calgary = gazetteer().lookup_city("Calgary", Some("AB")).unwrap();
        assert!(great_circle_meters(place.coordinates(), calgary.coordinates()) < 5_000.0);
    }

    #[test]
    fn a_full_code_is_placed_at_its_own_point_in_its_area_time_zone() {
        let place = gazetteer().lookup_full_postal_code("T0L 0K0").unwrap();
        assert_eq!(place.name, "Bragg Creek");
        assert_eq!(
            (place.province.as_str(), place.time_zone.as_str()),
            ("AB", "America/Edmonton")
        );
        // T0L spans southern Alberta: its centre is 50 km from Bragg Creek.
        let area = gazetteer().lookup_postal_code("T0L 0K0").unwrap();
        let km = to_whole_km(great_circle_meters(place.coordinates(), area.coordinates()));
        assert!(km > 40, "{km} km");
        assert!(gazetteer().lookup_full_postal_code("T0L 9Z9").is_none());
    }

    #[test]
    fn the_nearest_full_code_is_found_from_a_point() {
        let at = gazetteer().lookup_full_postal_code("T2P 1J9").unwrap();
        let (code, place) = gazetteer().nearest_postal_code(at.coordinates()).unwrap();
        assert_eq!(code, "T2P 1J9");
        assert_eq!(place.name, "Calgary");
        // Mid-Atlantic: nothing.
        let sea = Coordinates {
            latitude: 40.0,
            longitude: -40.0,
        };
        assert!(gazetteer().nearest_postal_code(sea).is_none());
    }

    #[test]
    fn h2x_is_montreal_on_eastern_time() {
        let place = gazetteer().lookup_postal_code("H2X 1Y4").unwrap();
        assert_eq!(place.province, "QC");
        assert_eq!(place.time_zone, "America/Toronto");
        let montreal = gazetteer().lookup_city("Montréal", Some("QC")).unwrap();
        assert!(great_circle_meters(place.coordinates(), montreal.coordinates()) < 5_000.0);
    }

    #[test]
    fn calgary_to_edmonton_is_about_280_km() {
        let calgary = gazetteer().lookup_postal_code("T2P").unwrap();
        let edmonton = gazetteer().lookup_postal_code("T5J 0N3").unwrap();
        let km = to_whole_km(great_circle_meters(
            calgary.coordinates(),
            edmonton.coordinates(),
        ));
        assert!((270..=290).contains(&km), "{km} km");
    }

    #[test]
    fn codes_that_are_not_canadian_find_nothing() {
        for code in ["D1A", "12345", "T2P 1J", "", "ZZZ"] {
            assert_eq!(gazetteer().lookup_postal_code(code), None, "{code:?}");
        }
    }

    #[test]
    fn cities_are_found_however_they_are_typed() {
        let montreal = gazetteer().lookup_city("MONTREAL", Some("Québec")).unwrap();
        assert_eq!(montreal.name, "Montréal");
        let stj = gazetteer().lookup_city("st-jerome", None).unwrap();
        assert_eq!(stj.name, "Saint-Jérôme");
        let st_johns = gazetteer().lookup_city("St Johns", Some("NL")).unwrap();
        assert_eq!(st_johns.time_zone, "America/St_Johns");
    }

    #[test]
    fn the_province_tells_namesakes_apart() {
        let ab = gazetteer().lookup_city("Montrose", Some("AB")).unwrap();
        let bc = gazetteer()
            .lookup_city("Montrose", Some("British Columbia"))
            .unwrap();
        assert_eq!((ab.province.as_str(), bc.province.as_str()), ("AB", "BC"));
        assert!(gazetteer().lookup_city("Montrose", Some("QC")).is_none());
        assert!(
            gazetteer()
                .lookup_city("Montrose", Some("Narnia"))
                .is_none()
        );
        assert!(gazetteer().lookup_city("Atlantis", None).is_none());
    }

    #[test]
    fn damaged_data_is_reported_not_guessed() {
        let fsa = "fsa,name,province,lat,lon,timezone\nD1A,Nowhere,AB,51,-114,America/Edmonton\n";
        let error =
            Gazetteer::from_csv(fsa, "name,province,lat,lon,population,timezone\n").unwrap_err();
        assert!(error.to_string().contains("ca-fsa.csv"), "{error}");
    }

    #[tokio::test]
    async fn the_gazetteer_is_a_geocoder() {
        let geocoder: &dyn Geocoder = gazetteer();
        let place = geocoder.locate_postal_code("T5J").await.unwrap().unwrap();
        assert_eq!(place.province, "AB");
        assert!(
            geocoder
                .locate_city("Edmonton", None)
                .await
                .unwrap()
                .is_some()
        );
    }
}
