//! The sales tax report (GetTaxReport, admins): per seller (the platform on what it sells
//! professionals: memberships and platform fees; the professionals together on their repair
//! work), province, tax and rate, the taxable sales and the tax collected on captured (or
//! disputed, not yet lost), not refunded, payments whose day of supply falls in a period of
//! at most 366 days, less what the partial refunds made in it gave back; and the same lines
//! as CSV (RFC 4180) for an accountant.

use std::collections::BTreeMap;

use chrono::{Days, NaiveDate};

use super::{sale, statement::utc_span};
use crate::{
    domain::{Cents, Currency, Money},
    error::{ApiError, ApiResult},
    state::AppState,
    store::tax_report::{self as store, TaxSum},
    tax::Rate,
};

/// The longest period one report covers.
pub const MAX_DAYS: i64 = 366;

/// Who collected a tax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TaxSeller {
    Platform,
    Professionals,
}

impl TaxSeller {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Platform => "platform",
            Self::Professionals => "professionals",
        }
    }
}

/// One line: a seller, province, tax and rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub seller: TaxSeller,
    /// Its two-letter code.
    pub province: String,
    /// "GST", "HST", "QST".
    pub tax: String,
    pub rate: Rate,
    pub taxable_cents: i64,
    pub tax_cents: i64,
    pub sales: i64,
}

/// The period [`start`, `end`] from its two days.
pub fn parse_period(start: &str, end: &str) -> ApiResult<(NaiveDate, NaiveDate)> {
    let day = |field: &str, text: &str| {
        NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
            .ok()
            .filter(|_| text.trim().len() == 10)
            .ok_or_else(|| ApiError::invalid(field, "give the day as YYYY-MM-DD, e.g. 2026-12-31"))
    };
    let (start, end) = (day("start_date", start)?, day("end_date", end)?);
    if end < start {
        return Err(ApiError::invalid("end_date", "the end is before the start"));
    }
    if (end - start).num_days() + 1 > MAX_DAYS {
        return Err(ApiError::invalid(
            "end_date",
            format!("a report covers at most {MAX_DAYS} days"),
        ));
    }
    Ok((start, end))
}

pub async fn report(state: &AppState, start: &str, end: &str) -> ApiResult<Vec<Row>> {
    let (start, end) = parse_period(start, end)?;
    let after = end
        .checked_add_days(Days::new(1))
        .ok_or_else(|| ApiError::invalid("end_date", "the day is out of range"))?;
    let span = utc_span(start, after);
    let mut sums = store::payment_taxes(&state.db, start, end).await?;
    sums.extend(store::recorded_fee_taxes(&state.db, span).await?);
    // Fees without a payout record yet: their taxes as the payout entry reckons them now.
    let seller = state.config.registrations();
    let fee_percent = state.config.platform_fee_percent;
    for fees in store::unrecorded_fees(&state.db, span, fee_percent).await? {
        let fee = Money::new(
            Cents::new(fees.fee_cents).map_err(|e| ApiError::Internal(e.into()))?,
            Currency::Cad,
        );
        for tax in sale::fee_taxes(&seller, &fees.home_province, fees.day, fee)? {
            sums.push(TaxSum {
                seller: TaxSeller::Platform.as_str().to_owned(),
                province: fees.home_province.clone(),
                tax: tax.line.name.as_str().to_owned(),
                rate_thousandths_percent: tax.line.rate.thousandths_percent() as i32,
                taxable_cents: fees.fee_cents * fees.sales,
                tax_cents: tax.line.amount.cents().get() * fees.sales,
                sales: fees.sales,
            });
        }
    }
    merged(sums)
}

/// The sums per seller, province, tax and rate, in that order.
fn merged(sums: Vec<TaxSum>) -> ApiResult<Vec<Row>> {
    type Key = (TaxSeller, String, String, u32);
    let mut rows: BTreeMap<Key, Row> = BTreeMap::new();
    for sum in sums {
        let seller = match sum.seller.as_str() {
            "platform" => TaxSeller::Platform,
            _ => TaxSeller::Professionals,
        };
        let thousandths = u32::try_from(sum.rate_thousandths_percent).unwrap_or_default();
        let rate = Rate::from_thousandths_percent(thousandths)
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("stored rate: {e}")))?;
        let key = (seller, sum.province.clone(), sum.tax.clone(), thousandths);
        let row = rows.entry(key).or_insert_with(|| Row {
            seller,
            province: sum.province,
            tax: sum.tax,
            rate,
            taxable_cents: 0,
            tax_cents: 0,
            sales: 0,
        });
        row.taxable_cents += sum.taxable_cents;
        row.tax_cents += sum.tax_cents;
        row.sales += sum.sales;
    }
    Ok(rows.into_values().collect())
}

/// The report's header, as the contract gives it.
pub const CSV_HEADER: &str =
    "seller,province,tax,rate_percent,taxable_sales,tax_collected,sale_count";

/// The rows as CSV: RFC 4180 (CRLF line ends, fields quoted when they need it), amounts in
/// dollars with a point.
pub fn csv(rows: &[Row]) -> String {
    let mut text = format!("{CSV_HEADER}\r\n");
    for row in rows {
        let fields = [
            row.seller.as_str().to_owned(),
            row.province.clone(),
            row.tax.clone(),
            row.rate.rate_percent(),
            dollars(row.taxable_cents),
            dollars(row.tax_cents),
            row.sales.to_string(),
        ];
        let quoted: Vec<String> = fields.iter().map(|field| quote(field)).collect();
        text.push_str(&quoted.join(","));
        text.push_str("\r\n");
    }
    text
}

/// "12.34"; "-0.05" for a negative amount.
pub fn dollars(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    format!("{sign}{}.{:02}", cents / 100, cents % 100)
}

/// A field as RFC 4180 writes it: in double quotes (inner ones doubled) when it holds a
/// comma, a quote or a line break.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_period_is_two_days_in_order_and_at_most_366_days() {
        assert!(parse_period("2026-01-01", "2026-12-31").is_ok());
        assert!(parse_period("2024-01-01", "2024-12-31").is_ok());
        assert!(parse_period("2026-01-01", "2027-01-02").is_err());
        assert!(parse_period("2026-02-01", "2026-01-31").is_err());
        for bad in ["2026-1-01", "", "01/02/2026", "2026-02-30"] {
            assert!(parse_period(bad, "2026-12-31").is_err(), "{bad:?}");
        }
    }

    #[test]
    fn amounts_are_dollars_with_a_point_and_fields_are_quoted_as_rfc_4180_says() {
        assert_eq!(dollars(1234), "12.34");
        assert_eq!(dollars(5), "0.05");
        assert_eq!(dollars(-5), "-0.05");
        assert_eq!(quote("a,b"), "\"a,b\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quote("HST"), "HST");
    }
}
