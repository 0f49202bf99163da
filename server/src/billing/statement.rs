//! A professional's monthly statement (GetMonthlyStatement): the hires captured in a
//! calendar month (UTC) and still captured, each with the job's taxes and the platform's fee
//! and the fee's taxes (their input tax credits), and the payouts paid in it. The
//! professional themself or an admin; another professional learns nothing, as for payouts.

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, Months, NaiveDate, Utc};
use uuid::Uuid;

use super::{
    payouts::{self, Entry},
    sale::{self, ChargedTax},
};
use crate::{
    auth::Caller,
    domain::{Cents, Currency, Language, Money},
    error::{ApiError, ApiResult},
    state::AppState,
    store::{
        payouts::{self as ledger, Moment},
        tax_report as store,
    },
    tax::Seller,
};

/// A captured hire on the statement.
#[derive(Debug, Clone)]
pub struct Job {
    pub entry: Entry,
    /// The request's service in the statement's language.
    pub service: String,
    pub customer: String,
    /// The job's taxes, which the professional collected.
    pub taxes: Vec<ChargedTax>,
}

#[derive(Debug, Clone)]
pub struct Statement {
    pub professional_id: Uuid,
    pub professional_name: String,
    /// "YYYY-MM".
    pub month: String,
    /// Oldest capture first.
    pub jobs: Vec<Job>,
    /// Oldest payment first.
    pub payouts: Vec<Entry>,
    /// The platform, seller of its fees.
    pub platform: Seller,
}

impl Statement {
    pub fn jobs_subtotal_cents(&self) -> i64 {
        self.jobs
            .iter()
            .map(|job| job.entry.row.subtotal_cents)
            .sum()
    }

    pub fn jobs_taxes(&self) -> Vec<ChargedTax> {
        summed(self.jobs.iter().flat_map(|job| &job.taxes))
    }

    pub fn platform_fees_cents(&self) -> i64 {
        self.jobs.iter().map(|job| job.entry.row.fee_cents).sum()
    }

    pub fn platform_fee_taxes(&self) -> Vec<ChargedTax> {
        summed(self.jobs.iter().flat_map(|job| &job.entry.fee_taxes))
    }

    pub fn paid_out_cents(&self) -> i64 {
        self.payouts.iter().map(Entry::net_cents).sum()
    }
}

/// Taxes summed per tax and rate, in receipt order (each keeps its first number).
pub fn summed<'a>(taxes: impl Iterator<Item = &'a ChargedTax>) -> Vec<ChargedTax> {
    let mut sums: BTreeMap<(crate::tax::TaxName, u32), ChargedTax> = BTreeMap::new();
    for tax in taxes {
        let key = (tax.line.name, tax.line.rate.thousandths_percent());
        match sums.get_mut(&key) {
            Some(sum) => {
                let cents = sum.line.amount.cents().get() + tax.line.amount.cents().get();
                let currency = sum.line.amount.currency();
                sum.line.amount = Money::new(Cents::new(cents).unwrap_or(Cents::ZERO), currency);
            }
            None => {
                sums.insert(key, tax.clone());
            }
        }
    }
    sums.into_values().collect()
}

/// The first day of `month` ("YYYY-MM"), if it is one and not in the future.
pub fn parse_month(month: &str, today: NaiveDate) -> ApiResult<NaiveDate> {
    let first = NaiveDate::parse_from_str(&format!("{}-01", month.trim()), "%Y-%m-%d")
        .ok()
        .filter(|_| month.trim().len() == 7)
        .ok_or_else(|| ApiError::invalid("month", "give the month as YYYY-MM, e.g. 2026-12"))?;
    if first > today.with_day(1).unwrap_or(today) {
        return Err(ApiError::invalid(
            "month",
            "the month is in the future: a statement covers a month begun",
        ));
    }
    Ok(first)
}

/// The instants [start, end) of the days [`first`, `last`] in UTC.
pub fn utc_span(first: NaiveDate, after_last: NaiveDate) -> (DateTime<Utc>, DateTime<Utc>) {
    (
        first.and_time(chrono::NaiveTime::MIN).and_utc(),
        after_last.and_time(chrono::NaiveTime::MIN).and_utc(),
    )
}

pub async fn statement(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
    month: &str,
    language: Language,
) -> ApiResult<Statement> {
    let first = parse_month(month, Utc::now().date_naive())?;
    let id = payouts::readable(state, caller, id).await?;
    let next = first
        .checked_add_months(Months::new(1))
        .ok_or_else(|| ApiError::invalid("month", "the month is out of range"))?;
    let span = utc_span(first, next);
    let fee_percent = state.config.platform_fee_percent;
    let seller = state.config.registrations();
    let captured = ledger::between(&state.db, id, fee_percent, Moment::Captured, span).await?;
    let captured: Vec<_> = captured
        .into_iter()
        .filter(|row| row.payment_state == "captured")
        .collect();
    let orders: Vec<Uuid> = captured.iter().map(|row| row.order_id).collect();
    let mut facts: BTreeMap<Uuid, store::JobFacts> = store::job_facts(&state.db, &orders)
        .await?
        .into_iter()
        .map(|facts| (facts.order_id, facts))
        .collect();
    let mut jobs = Vec::with_capacity(captured.len());
    for entry in payouts::priced_all(&seller, captured)? {
        let facts = facts
            .remove(&entry.row.order_id)
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("a job without its request")))?;
        let taxes = sale::from_store(facts.taxes.0, Currency::Cad).map_err(ApiError::Internal)?;
        jobs.push(Job {
            service: language
                .pick(&facts.service_name_en, &facts.service_name_fr)
                .clone(),
            customer: facts.customer_name,
            taxes,
            entry,
        });
    }
    let paid = ledger::between(&state.db, id, fee_percent, Moment::Paid, span).await?;
    Ok(Statement {
        professional_id: id,
        professional_name: store::professional_name(&state.db, id).await?,
        month: first.format("%Y-%m").to_string(),
        jobs,
        payouts: payouts::priced_all(&seller, paid)?,
        platform: state.config.seller(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn a_month_is_yyyy_mm_and_begun() {
        let today = day("2026-12-02");
        assert_eq!(parse_month("2026-12", today).unwrap(), day("2026-12-01"));
        assert_eq!(parse_month("2026-01", today).unwrap(), day("2026-01-01"));
        for bad in ["2026-13", "2026-1", "26-12", "", "2026-12-01", "december"] {
            assert!(parse_month(bad, today).is_err(), "{bad:?}");
        }
        assert!(parse_month("2027-01", today).is_err());
    }
}
