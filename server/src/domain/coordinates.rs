//! Points on the map and how far apart they are, as the product's distance rules use them.

/// Mean Earth radius (IUGG), as the product's distance rules use.
pub const EARTH_RADIUS_METERS: f64 = 6_371_008.8;

/// A point in decimal degrees (WGS 84).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coordinates {
    pub latitude: f64,
    pub longitude: f64,
}

/// Distance along the Earth's surface (haversine on a sphere of [`EARTH_RADIUS_METERS`]).
pub fn great_circle_meters(a: Coordinates, b: Coordinates) -> f64 {
    let (lat_a, lat_b) = (a.latitude.to_radians(), b.latitude.to_radians());
    let half_dlat = (lat_b - lat_a) / 2.0;
    let half_dlon = (b.longitude - a.longitude).to_radians() / 2.0;
    let h = half_dlat.sin().powi(2) + lat_a.cos() * lat_b.cos() * half_dlon.sin().powi(2);
    // Rounding can push h a hair above 1 for antipodal points.
    2.0 * EARTH_RADIUS_METERS * h.sqrt().min(1.0).asin()
}

/// Whole kilometres, rounded half away from zero, as distances are shown and compared.
pub fn to_whole_km(meters: f64) -> i32 {
    (meters / 1000.0).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(latitude: f64, longitude: f64) -> Coordinates {
        Coordinates {
            latitude,
            longitude,
        }
    }

    #[test]
    fn one_degree_of_latitude_is_about_111_km() {
        let meters = great_circle_meters(at(45.0, -75.0), at(46.0, -75.0));
        assert!((meters - 111_195.0).abs() < 10.0, "{meters}");
        assert_eq!(to_whole_km(meters), 111);
    }

    #[test]
    fn distance_is_symmetric_and_zero_to_itself() {
        let (a, b) = (at(51.0477, -114.0696), at(45.5119, -73.5684));
        assert_eq!(great_circle_meters(a, b), great_circle_meters(b, a));
        assert_eq!(great_circle_meters(a, a), 0.0);
    }

    #[test]
    fn antipodes_are_half_way_round() {
        let meters = great_circle_meters(at(0.0, 0.0), at(0.0, 180.0));
        assert!((meters - std::f64::consts::PI * EARTH_RADIUS_METERS).abs() < 1e-3);
    }

    #[test]
    fn kilometres_round_to_nearest() {
        assert_eq!(to_whole_km(0.0), 0);
        assert_eq!(to_whole_km(499.9), 0);
        assert_eq!(to_whole_km(500.0), 1);
        assert_eq!(to_whole_km(12_499.0), 12);
        assert_eq!(to_whole_km(12_500.0), 13);
    }
}
