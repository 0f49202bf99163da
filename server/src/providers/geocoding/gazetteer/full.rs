//! Every full postal code with its point (891,909 of them, GeoNames, CC BY 4.0), as a table
//! `build.rs` packs into the binary: 12 bytes a code, sorted by code, searched in place.
//! Nothing is parsed at start and the table is never copied: it stays in the binary's
//! read-only pages, of which only those a look-up touches are read into memory.
//!
//! A record: the code as a number that sorts as the code does (4 bytes), the latitude less
//! 40 and the longitude plus 142, each in ten-thousandths of a degree (3 bytes each, the
//! source's precision), and the index of its town's name (2 bytes); big-endian.

use crate::domain::{Coordinates, great_circle_meters};

const TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/ca-postal-full.bin"));
const NAMES: &str = include_str!(concat!(env!("OUT_DIR"), "/ca-postal-names.txt"));
const RECORD: usize = 12;
/// Codes of one postal area: three more characters, digit letter digit.
const CODES_PER_AREA: u32 = 10 * 26 * 10;

/// One full postal code.
#[derive(Debug, Clone, PartialEq)]
pub struct FullCode {
    /// "T2P 1J9".
    pub code: String,
    /// The town it is addressed in, as the source names it.
    pub town: &'static str,
    pub point: Coordinates,
}

#[derive(Debug)]
pub struct FullCodes {
    table: &'static [u8],
    names: Vec<&'static str>,
}

impl FullCodes {
    pub fn shipped() -> Self {
        Self {
            table: TABLE,
            names: NAMES.split('\n').collect(),
        }
    }

    /// None at all (gazetteers built from other data, in tests).
    pub fn empty() -> Self {
        Self {
            table: &[],
            names: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.table.len() / RECORD
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    fn number_at(&self, i: usize) -> u32 {
        let r = &self.table[i * RECORD..];
        u32::from_be_bytes([r[0], r[1], r[2], r[3]])
    }

    fn record(&self, i: usize) -> FullCode {
        let r = &self.table[i * RECORD..(i + 1) * RECORD];
        let lat = u32::from_be_bytes([0, r[4], r[5], r[6]]);
        let lon = u32::from_be_bytes([0, r[7], r[8], r[9]]);
        let name = usize::from(u16::from_be_bytes([r[10], r[11]]));
        FullCode {
            code: code_text(self.number_at(i)),
            town: self.names.get(name).copied().unwrap_or_default(),
            point: Coordinates {
                latitude: 40.0 + f64::from(lat) / 10_000.0,
                longitude: f64::from(lon) / 10_000.0 - 142.0,
            },
        }
    }

    /// The `i`th code in code order (the matching benchmark draws codes by it).
    pub fn get(&self, i: usize) -> Option<FullCode> {
        (i < self.len()).then(|| self.record(i))
    }

    /// The first record whose number is at least `number`.
    fn first_from(&self, number: u32) -> usize {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = (low + high) / 2;
            if self.number_at(mid) < number {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        low
    }

    /// A whole code, however typed ("t2p1j9").
    pub fn find(&self, code: &str) -> Option<FullCode> {
        let number = code_number(code)?;
        let i = self.first_from(number);
        (i < self.len() && self.number_at(i) == number).then(|| self.record(i))
    }

    /// The codes starting with `prefix` (compact, upper case: "T2P", "T2P1", "T2P1J"), in
    /// order, at most `limit`.
    pub fn starting_with(&self, prefix: &str, limit: usize) -> Vec<FullCode> {
        let Some((from, to)) = prefix_range(prefix) else {
            return Vec::new();
        };
        (self.first_from(from)..self.first_from(to))
            .take(limit)
            .map(|i| self.record(i))
            .collect()
    }

    /// The code nearest `point` among those of the postal areas `areas` ("T2P"), with its
    /// distance in metres.
    pub fn nearest_in(&self, areas: &[&str], point: Coordinates) -> Option<(FullCode, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for area in areas {
            let Some((from, to)) = prefix_range(area) else {
                continue;
            };
            for i in self.first_from(from)..self.first_from(to) {
                let meters = great_circle_meters(self.record(i).point, point);
                if best.is_none_or(|(_, m)| meters < m) {
                    best = Some((i, meters));
                }
            }
        }
        best.map(|(i, meters)| (self.record(i), meters))
    }
}

/// "T2P 1J9" or "t2p1j9" as the table's number; `None` for another shape.
fn code_number(code: &str) -> Option<u32> {
    let compact: Vec<u8> = code
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| b.to_ascii_uppercase())
        .collect();
    if compact.len() != 6 {
        return None;
    }
    prefix_number(&compact)
}

/// The number of the first `prefix.len()` characters, in the positions' own bases.
fn prefix_number(prefix: &[u8]) -> Option<u32> {
    let mut number: u32 = 0;
    for (i, &b) in prefix.iter().enumerate() {
        let (digit, base) = if i % 2 == 0 {
            (b.is_ascii_uppercase().then(|| u32::from(b - b'A'))?, 26)
        } else {
            (b.is_ascii_digit().then(|| u32::from(b - b'0'))?, 10)
        };
        number = number * base + digit;
    }
    Some(number)
}

/// The numbers of the codes starting with `prefix` (1 to 6 characters): from, until.
fn prefix_range(prefix: &str) -> Option<(u32, u32)> {
    let bytes = prefix.as_bytes();
    if bytes.is_empty() || bytes.len() > 6 {
        return None;
    }
    let start = prefix_number(bytes)?;
    // What the remaining positions multiply by: their bases, alternating 26 and 10.
    let span: u32 = (bytes.len()..6)
        .map(|i| if i % 2 == 0 { 26 } else { 10 })
        .product();
    debug_assert!(bytes.len() != 3 || span == CODES_PER_AREA);
    Some((start * span, (start + 1) * span))
}

fn code_text(mut number: u32) -> String {
    let mut chars = [b' '; 7];
    for position in (0..6).rev() {
        let (base, first) = if position % 2 == 0 {
            (26, b'A')
        } else {
            (10, b'0')
        };
        let at = if position >= 3 {
            position + 1
        } else {
            position
        };
        chars[at] = first + u8::try_from(number % base).unwrap_or_default();
        number /= base;
    }
    String::from_utf8_lossy(&chars).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_full_code_is_in_the_table_in_order() {
        let codes = FullCodes::shipped();
        // 891,909 codes less H0H 0H0, which is Santa's at the North Pole.
        assert_eq!(codes.len(), 891_909);
        assert!((1..codes.len()).all(|i| codes.number_at(i - 1) < codes.number_at(i)));
        assert_eq!(codes.names.len(), 6_839);
    }

    #[test]
    fn a_whole_code_is_found_however_typed_at_its_point() {
        let codes = FullCodes::shipped();
        let found = codes.find("t0l0a0").unwrap();
        assert_eq!(found.code, "T0L 0A0");
        assert_eq!(found.town, "Aldersyde");
        assert!((found.point.latitude - 50.682).abs() < 1e-9);
        assert!((found.point.longitude + 113.8457).abs() < 1e-9);
        assert_eq!(codes.find("A0A 0A1").unwrap().town, "Avondale");
        assert!(codes.find("H0H 0H0").is_none());
        assert!(codes.find("T2P 1J").is_none());
        assert!(codes.find("ZZZ ZZZ").is_none());
    }

    #[test]
    fn prefixes_list_codes_in_order_and_the_nearest_is_found() {
        let codes = FullCodes::shipped();
        let listed = codes.starting_with("T2P1J", 50);
        assert!(!listed.is_empty());
        assert!(listed.iter().all(|c| c.code.starts_with("T2P 1J")));
        assert!(listed.windows(2).all(|w| w[0].code < w[1].code));
        assert_eq!(codes.starting_with("T2P", 3).len(), 3);
        let at = codes.find("T0L 0K0").unwrap();
        let (nearest, meters) = codes.nearest_in(&["T0L", "T1Z"], at.point).unwrap();
        assert_eq!((nearest.code.as_str(), meters), ("T0L 0K0", 0.0));
    }

    #[test]
    fn codes_round_trip_through_their_numbers() {
        for code in ["A0A 0A0", "T2P 1J9", "Z9Z 9Z9"] {
            assert_eq!(code_text(code_number(code).unwrap()), code);
        }
    }
}
