//! The rate table: rates as data with the days they are in force, read from
//! `server/data/sales-tax-rates.csv` (built into the binary) and checked whole when read, so
//! a damaged file stops the server at start and fails the tests, never taxes wrongly.

use std::{collections::BTreeSet, sync::OnceLock};

use chrono::NaiveDate;
use serde::Deserialize;

use super::{
    Rate, Registration, Supply, TaxName,
    periods::{Period, check_cover},
};
use crate::domain::Province;

const SHIPPED_CSV: &str = include_str!("../../data/sales-tax-rates.csv");

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the sales tax rate table is damaged: {0}")]
pub struct RateTableError(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TaxError {
    #[error("the sales tax rate table starts on {starts}; it has no rates for {date}")]
    BeforeTable { date: NaiveDate, starts: NaiveDate },
}

/// Every rate row, checked: each province's GST/HST (and Quebec's QST, and any PST the
/// table names) has exactly one rate on each day from the table's first, for each supply.
#[derive(Debug)]
pub struct RateTable {
    rows: Vec<RateRow>,
    starts: NaiveDate,
}

/// One line of the file, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CsvRow {
    province: String,
    tax: String,
    rate_thousandths_percent: u32,
    supply_kind: String,
    effective_from: NaiveDate,
    effective_until: Option<NaiveDate>,
    note: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RateRow {
    pub(super) province: Province,
    pub(super) tax: TaxName,
    pub(super) applies_to: AppliesTo,
    pub(super) rate: Rate,
    pub(super) period: Period,
}

/// The supplies a row's rate is for (`supply_kind`: "any" or one supply's name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AppliesTo {
    Every,
    Only(Supply),
}

impl AppliesTo {
    fn parse(name: &str) -> Result<Self, String> {
        match name {
            "any" => Ok(Self::Every),
            name => Supply::from_name(name).map(Self::Only).ok_or_else(|| {
                format!(
                    "supply_kind is \"any\", \"{}\" or \"{}\", not {name:?}",
                    Supply::PlatformToProfessional.as_str(),
                    Supply::RepairWork.as_str()
                )
            }),
        }
    }

    pub(super) fn includes(self, supply: Supply) -> bool {
        self == Self::Every || self == Self::Only(supply)
    }
}

impl RateRow {
    fn read(raw: CsvRow) -> Result<Self, String> {
        let province = Province::from_code(&raw.province)
            .ok_or_else(|| format!("{:?} is not a province's two-letter code", raw.province))?;
        let tax = TaxName::from_name(&raw.tax)
            .ok_or_else(|| format!("tax is GST, HST, QST or PST, not {:?}", raw.tax))?;
        let rate = Rate::from_thousandths_percent(raw.rate_thousandths_percent)?;
        let period = Period::new(raw.effective_from, raw.effective_until)?;
        if rate.is_zero() && raw.note.trim().is_empty() {
            return Err("a rate of 0 says why in its note".into());
        }
        // The rule collects QST in Quebec only and PST never (no seller's PST registration
        // is recorded): a row saying otherwise would be silently ignored.
        if tax == TaxName::Qst && province != Province::Quebec {
            return Err(format!("QST is Quebec's tax, not {}'s", province.code()));
        }
        if tax == TaxName::Pst && !rate.is_zero() {
            return Err("PST stays at 0: no seller's PST registration is recorded".into());
        }
        Ok(Self {
            province,
            tax,
            applies_to: AppliesTo::parse(&raw.supply_kind)?,
            rate,
            period,
        })
    }
}

impl RateTable {
    /// The table built into the server, read once.
    pub fn shipped() -> Result<&'static Self, RateTableError> {
        static SHIPPED: OnceLock<Result<RateTable, RateTableError>> = OnceLock::new();
        SHIPPED
            .get_or_init(|| Self::parse(SHIPPED_CSV))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// From CSV text in the shipped file's layout (`docs/sales-tax.md`).
    pub fn parse(csv_text: &str) -> Result<Self, RateTableError> {
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .from_reader(csv_text.as_bytes());
        let headers = reader
            .headers()
            .map_err(|error| RateTableError(error.to_string()))?
            .clone();
        let mut rows = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|error| RateTableError(error.to_string()))?;
            let line = record.position().map_or(0, csv::Position::line);
            let row = record
                .deserialize::<CsvRow>(Some(&headers))
                .map_err(|error| error.to_string())
                .and_then(RateRow::read)
                .map_err(|problem| RateTableError(format!("line {line}: {problem}")))?;
            rows.push(row);
        }
        let starts = rows
            .iter()
            .map(|row| row.period.from())
            .min()
            .ok_or_else(|| RateTableError("it has no rates".into()))?;
        check_every_day_has_one_rate(&rows, starts).map_err(RateTableError)?;
        Ok(Self { rows, starts })
    }

    /// The first day the table has rates for.
    pub fn starts(&self) -> NaiveDate {
        self.starts
    }

    /// The rows for `supply` in `place` on `date`, one per tax.
    pub(super) fn in_force(
        &self,
        supply: Supply,
        place: Province,
        date: NaiveDate,
    ) -> Result<impl Iterator<Item = &RateRow>, TaxError> {
        if date < self.starts {
            return Err(TaxError::BeforeTable {
                date,
                starts: self.starts,
            });
        }
        Ok(self.rows.iter().filter(move |row| {
            row.province == place && row.applies_to.includes(supply) && row.period.contains(date)
        }))
    }

    #[cfg(test)]
    pub(super) fn rows(&self) -> &[RateRow] {
        &self.rows
    }
}

/// Every province has a GST/HST rate and Quebec a QST rate, and each (province,
/// registration) the table names has one rate a day for each supply from `starts` on.
fn check_every_day_has_one_rate(rows: &[RateRow], starts: NaiveDate) -> Result<(), String> {
    let required = Province::ALL
        .into_iter()
        .map(|province| (province, Registration::GstHst))
        .chain([(Province::Quebec, Registration::Qst)]);
    let named = rows
        .iter()
        .map(|row| (row.province, row.tax.registration()));
    let series: BTreeSet<(Province, Registration)> = required.chain(named).collect();
    for (province, registration) in series {
        for supply in Supply::ALL {
            let periods = rows
                .iter()
                .filter(|row| {
                    row.province == province
                        && row.tax.registration() == registration
                        && row.applies_to.includes(supply)
                })
                .map(|row| row.period)
                .collect();
            check_cover(periods, starts).map_err(|problem| {
                let (place, supply) = (province.code(), supply.as_str());
                format!("{place} {registration} for {supply}: {problem}")
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        "province,tax,rate_thousandths_percent,supply_kind,effective_from,effective_until,note\n";

    /// A valid table: GST everywhere, HST in Nova Scotia, QST in Quebec.
    fn valid_rows() -> String {
        Province::ALL
            .into_iter()
            .filter(|province| *province != Province::NovaScotia)
            .map(|province| format!("{},GST,5000,any,2020-01-01,,GST\n", province.code()))
            .chain([
                "NS,HST,15000,any,2020-01-01,2025-03-31,\n".to_owned(),
                "NS,HST,14000,any,2025-04-01,,\n".to_owned(),
                "QC,QST,9975,any,2020-01-01,,\"QST, on the price before GST\"\n".to_owned(),
            ])
            .collect()
    }

    fn parse(rows: &str) -> Result<RateTable, String> {
        RateTable::parse(&format!("{HEADER}{rows}")).map_err(|error| error.to_string())
    }

    #[test]
    fn the_shipped_table_reads() {
        assert_eq!(
            RateTable::shipped().unwrap().starts(),
            NaiveDate::from_ymd_opt(2020, 1, 1).unwrap()
        );
    }

    #[test]
    fn a_valid_table_reads_with_spaces_and_quoted_notes() {
        assert_eq!(parse(&valid_rows()).unwrap().rows().len(), 15);
        let spaced = valid_rows().replace(
            "YT,GST,5000,any,2020-01-01,,GST",
            " YT , GST , 5000 , any , 2020-01-01 ,  , GST ",
        );
        assert_eq!(parse(&spaced).unwrap().rows().len(), 15);
    }

    #[test]
    fn a_bad_field_names_its_line() {
        let valid = valid_rows();
        for (extra, problem) in [
            (
                "XX,GST,5000,any,2020-01-01,,x",
                "line 17: \"XX\" is not a province",
            ),
            (
                "AB,VAT,5000,any,2020-01-01,,x",
                "line 17: tax is GST, HST, QST or PST",
            ),
            ("AB,GST,5.5,any,2020-01-01,,x", "line 17: "),
            (
                "AB,GST,100001,any,2020-01-01,,x",
                "line 17: a rate is at most 100%",
            ),
            (
                "AB,GST,5000,all,2020-01-01,,x",
                "line 17: supply_kind is \"any\"",
            ),
            ("AB,GST,5000,any,2020-13-01,,x", "line 17: "),
            (
                "AB,GST,5000,any,2020-01-01,2019-01-01,x",
                "line 17: it ends on 2019-01-01",
            ),
            (
                "AB,PST,0,any,2020-01-01,, ",
                "line 17: a rate of 0 says why",
            ),
            (
                "ON,QST,9975,any,2020-01-01,,x",
                "line 17: QST is Quebec's tax, not ON's",
            ),
            ("BC,PST,7000,any,2020-01-01,,x", "line 17: PST stays at 0"),
        ] {
            let error = parse(&format!("{valid}{extra}\n")).unwrap_err();
            assert!(error.contains(problem), "{extra}: {error}");
        }
        let short = parse(&format!("{valid}AB,GST,5000,any,2020-01-01,\n")).unwrap_err();
        assert!(
            short.contains("line: 17") && short.contains("6 fields"),
            "{short}"
        );
        let extra: String = valid.lines().map(|line| format!("{line},y\n")).collect();
        let unknown = RateTable::parse(&format!("{},extra\n{extra}", HEADER.trim_end()))
            .unwrap_err()
            .to_string();
        assert!(
            unknown.contains("line 2: ") && unknown.contains("unknown field"),
            "{unknown}"
        );
    }

    #[test]
    fn a_day_with_two_rates_or_none_stops_the_table() {
        let valid = valid_rows();
        for (change, problem) in [
            (
                valid.replace("NS,HST,14000,any,2025-04-01", "NS,HST,14000,any,2025-04-02"),
                "NS GST/HST for platform_to_professional: no rate from 2025-04-01 to 2025-04-01",
            ),
            (
                format!("{valid}NS,GST,5000,repair_work,2020-01-01,,x\n"),
                "NS GST/HST for repair_work: two rates on 2020-01-01",
            ),
            (
                valid.replace("AB,GST,5000,any,2020-01-01,,GST\n", ""),
                "AB GST/HST for platform_to_professional: no rate from 2020-01-01 on",
            ),
            (
                valid.replace("QC,QST", "QC,GST"),
                "QC GST/HST for platform_to_professional: two rates on 2020-01-01",
            ),
            (
                format!("{valid}SK,PST,0,repair_work,2020-01-01,,not charged\n"),
                "SK PST for platform_to_professional: no rate from 2020-01-01 on",
            ),
            (
                valid.replace(
                    "NS,HST,14000,any,2025-04-01,,",
                    "NS,HST,14000,any,2025-04-01,2030-12-31,",
                ),
                "NS GST/HST for platform_to_professional: no rate from 2031-01-01 on",
            ),
            (String::new(), "it has no rates"),
        ] {
            let error = parse(&change).unwrap_err();
            assert!(error.contains(problem), "{error}");
        }
    }
}
