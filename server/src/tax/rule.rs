//! The rule, in one place: the taxes a seller charges on a supply, each computed on the
//! amount before tax (QST too, on the price without GST) and rounded to the cent on its own.

use chrono::NaiveDate;

use super::{Rate, RateTable, Registrations, Supply, TaxError, TaxName};
use crate::domain::{Money, Province};

/// One tax on a receipt: "QST 9.975%: $19.95".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaxLine {
    pub name: TaxName,
    pub rate: Rate,
    /// In the base's currency.
    pub amount: Money,
}

/// One tax charged, with the seller's registration number it is collected under (a receipt
/// prints it beside the tax).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargedTax {
    pub line: TaxLine,
    pub registration_number: String,
}

impl ChargedTax {
    /// A tax as the ledger or a quote keeps it: the name as [`TaxName::as_str`] writes it,
    /// the rate in thousandths of a percent, the amount and the number; what is wrong
    /// otherwise.
    pub fn stored(
        name: &str,
        rate_thousandths_percent: i32,
        amount: Money,
        registration_number: String,
    ) -> Result<Self, String> {
        let name = TaxName::from_name(name).ok_or_else(|| format!("unknown tax {name:?}"))?;
        let rate = u32::try_from(rate_thousandths_percent)
            .map_err(|e| e.to_string())
            .and_then(Rate::from_thousandths_percent)?;
        Ok(Self {
            line: TaxLine { name, rate, amount },
            registration_number,
        })
    }
}

impl RateTable {
    /// The taxes `seller` charges on `base` (the amount after any coupon) for `supply` made
    /// in `place` (the professional's business for what the platform sells them, the
    /// property for repair work), at the rates in force on `date` (the day the tax becomes
    /// payable: invoiced or paid, whichever comes first). In receipt order; a tax at 0%
    /// gives no line. An unregistered seller's list is empty.
    pub fn taxes(
        &self,
        supply: Supply,
        seller: &Registrations,
        place: Province,
        date: NaiveDate,
        base: Money,
    ) -> Result<Vec<TaxLine>, TaxError> {
        let mut lines: Vec<TaxLine> = self
            .in_force(supply, place, date)?
            .filter(|row| !row.rate.is_zero() && seller.collects(row.tax, place))
            .map(|row| TaxLine {
                name: row.tax,
                rate: row.rate,
                amount: row.rate.tax_on(base),
            })
            .collect();
        lines.sort_by_key(|line| line.name);
        Ok(lines)
    }
}
