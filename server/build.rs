//! Rebuilds the server when a migration is added or changed: `sqlx::migrate!` embeds the
//! files of `migrations/` at compile time, and cargo does not watch that folder by itself.
//!
//! Also packs the full postal codes (`data/geo/ca-postal-full.csv.gz`, 891,909 rows) into a
//! sorted table of fixed-width records that the gazetteer searches in place (see
//! `src/providers/gazetteer/full.rs` for the layout): nothing is parsed at start, and only
//! the pages a look-up touches are read into memory.

use std::{
    env,
    fs::File,
    io::{BufRead, BufReader, Write},
    path::PathBuf,
};

const FULL_CODES: &str = "data/geo/ca-postal-full.csv.gz";

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
    println!("cargo:rerun-if-changed={FULL_CODES}");
    if let Err(error) = pack_full_codes() {
        panic!("packing {FULL_CODES}: {error}");
    }
}

/// `A1A 1A1` as a number that sorts as the code does; `None` for another shape.
fn code_number(code: &str) -> Option<u32> {
    let bytes = code.as_bytes();
    if bytes.len() != 7 || bytes[3] != b' ' {
        return None;
    }
    let mut number: u32 = 0;
    for (i, &b) in bytes.iter().filter(|&&b| b != b' ').enumerate() {
        let digit = if i % 2 == 0 {
            b.is_ascii_uppercase().then(|| u32::from(b - b'A'))?
        } else {
            b.is_ascii_digit().then(|| u32::from(b - b'0'))?
        };
        number = number * if i % 2 == 0 { 26 } else { 10 } + digit;
    }
    Some(number)
}

fn pack_full_codes() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(env::var("OUT_DIR")?);
    let reader = BufReader::new(flate2::read::GzDecoder::new(File::open(FULL_CODES)?));
    let mut rows: Vec<(u32, u32, u32, String)> = Vec::with_capacity(900_000);
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if i == 0 {
            if line != "postal_code,name,province,lat,lon" {
                return Err(format!("unexpected header {line:?}").into());
            }
            continue;
        }
        let fields: Vec<&str> = line.split(',').collect();
        let [code, name, _province, lat, lon] = fields[..] else {
            return Err(format!("line {}: {line:?}", i + 1).into());
        };
        let code = code_number(code).ok_or_else(|| format!("line {}: code {code:?}", i + 1))?;
        let (lat, lon): (f64, f64) = (lat.parse()?, lon.parse()?);
        // Reserved codes (H0H 0H0, Santa's, at the North Pole) are no place to send anyone.
        if !(40.0..84.0).contains(&lat) || !(-142.0..-50.0).contains(&lon) {
            continue;
        }
        let lat = ((lat - 40.0) * 10_000.0).round() as u32;
        let lon = ((lon + 142.0) * 10_000.0).round() as u32;
        rows.push((code, lat, lon, name.to_owned()));
    }
    rows.sort_by_key(|row| row.0);
    rows.dedup_by_key(|row| row.0);
    let mut names: Vec<&str> = rows.iter().map(|row| row.3.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let mut table = Vec::with_capacity(rows.len() * 12);
    for (code, lat, lon, name) in &rows {
        let name = u16::try_from(names.binary_search(&name.as_str()).unwrap_or_default())?;
        table.extend_from_slice(&code.to_be_bytes());
        table.extend_from_slice(&lat.to_be_bytes()[1..]);
        table.extend_from_slice(&lon.to_be_bytes()[1..]);
        table.extend_from_slice(&name.to_be_bytes());
    }
    File::create(out.join("ca-postal-full.bin"))?.write_all(&table)?;
    File::create(out.join("ca-postal-names.txt"))?.write_all(names.join("\n").as_bytes())?;
    Ok(())
}
