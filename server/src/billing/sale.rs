//! What a payment is made of: the amount before tax, the sales taxes on it (the rules are
//! [`crate::tax`]'s) and the total the card is charged. Amounts in integer cents throughout.

use anyhow::Context;
use chrono::NaiveDate;

use crate::{
    domain::{Cents, Currency, Money, Province, QuoteTaxTreatment},
    error::{ApiError, ApiResult, ErrorReason},
    store::{
        payments::{NewPaymentTax, TaxRow},
        quotes::QuoteRow,
    },
    tax::{RateTable, Registrations, Supply, TaxLine},
};

pub use crate::tax::ChargedTax;

/// An amount before tax and the taxes charged on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sale {
    /// Before tax, after any coupon.
    pub subtotal: Money,
    /// In receipt order; empty when none applies.
    pub taxes: Vec<ChargedTax>,
    /// The place of supply, where the taxes were reckoned; `None` where no tax rule was
    /// applied or the place was not needed (the seller collects no tax).
    pub place: Option<Province>,
    /// The day the taxes became payable; `None` where no tax rule was applied (test
    /// charges, and hires on a quote without taxes).
    pub date: Option<NaiveDate>,
}

impl Sale {
    /// An amount no tax rule applies to: its own subtotal and total.
    pub fn untaxed(amount: Money) -> Self {
        Self {
            subtotal: amount,
            taxes: Vec::new(),
            place: None,
            date: None,
        }
    }

    /// What the card is charged: the subtotal plus every tax.
    pub fn total(&self) -> Money {
        let cents = self
            .taxes
            .iter()
            .map(|tax| tax.line.amount.cents().get())
            .fold(self.subtotal.cents().get(), i64::saturating_add);
        Money::new(
            Cents::new(cents).unwrap_or(Cents::ZERO),
            self.subtotal.currency(),
        )
    }
}

/// The place of supply of what the platform sells a professional: the province of their
/// business address (`province_code`, their home base's code; empty until their profile is
/// saved). Without one the taxes cannot be known, so the sale is refused, unless the
/// platform collects no tax anywhere (then the place changes nothing and is `None`).
pub fn platform_place(seller: &Registrations, province_code: &str) -> ApiResult<Option<Province>> {
    if let Some(province) = Province::from_code(province_code) {
        return Ok(Some(province));
    }
    if *seller == Registrations::default() {
        return Ok(None);
    }
    Err(ApiError::FailedPrecondition {
        reason: ErrorReason::BusinessAddressRequired,
        message: "add your business address (your home base) to your profile first: the \
                  membership's sales taxes depend on its province"
            .to_owned(),
    })
}

/// What the platform charges a professional whose business is in `place` for `subtotal`
/// (after any coupon), on `date` (the day the tax becomes payable): the taxes the platform's
/// registrations make it collect there, at that day's rates.
pub fn platform_sale(
    seller: &Registrations,
    place: Option<Province>,
    date: NaiveDate,
    subtotal: Money,
) -> ApiResult<Sale> {
    let taxes = match place {
        None => Vec::new(),
        Some(place) => taxes_of(
            Supply::PlatformToProfessional,
            seller,
            place,
            date,
            subtotal,
        )?,
    };
    Ok(Sale {
        subtotal,
        taxes,
        place,
        date: Some(date),
    })
}

/// What a professional registered as `seller` charges for repair work at a property in
/// `place` for `fee`, quoted on `date`: the taxes of the property's province that day, each
/// under the professional's number.
pub fn repair_sale(
    seller: &Registrations,
    place: Province,
    date: NaiveDate,
    fee: Money,
) -> ApiResult<Sale> {
    Ok(Sale {
        subtotal: fee,
        taxes: taxes_of(Supply::RepairWork, seller, place, date, fee)?,
        place: Some(place),
        date: Some(date),
    })
}

/// What a quote asks: its fee and the taxes fixed when it was sent (none unless the
/// professional added them). A hire holds, then charges, its total.
pub fn quote_sale(quote: &QuoteRow) -> Sale {
    let fee = quote.fee();
    match quote.tax_treatment {
        QuoteTaxTreatment::Added => Sale {
            subtotal: fee,
            taxes: quote.taxes.0.clone(),
            place: quote.tax_province.as_deref().and_then(Province::from_code),
            date: quote.tax_date,
        },
        QuoteTaxTreatment::NotAdded | QuoteTaxTreatment::NotRegistered => Sale::untaxed(fee),
    }
}

/// The taxes `seller` collects on `subtotal` for `supply` made in `place` on `date`.
fn taxes_of(
    supply: Supply,
    seller: &Registrations,
    place: Province,
    date: NaiveDate,
    subtotal: Money,
) -> ApiResult<Vec<ChargedTax>> {
    RateTable::shipped()
        .map_err(|e| ApiError::Internal(e.into()))?
        .taxes(supply, seller, place, date, subtotal)
        .map_err(|e| ApiError::Internal(e.into()))?
        .into_iter()
        .map(|line| charged(seller, line))
        .collect()
}

fn charged(seller: &Registrations, line: TaxLine) -> ApiResult<ChargedTax> {
    // The rule gives only the taxes the seller holds a registration for.
    let number = seller
        .number(line.name.registration())
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("{:?} without its number", line.name)))?;
    Ok(ChargedTax {
        line,
        registration_number: number.to_owned(),
    })
}

/// Taxes as the store records them (with a payment, or with a payout's fee).
pub fn to_store(taxes: &[ChargedTax]) -> Vec<NewPaymentTax<'_>> {
    taxes
        .iter()
        .map(|tax| NewPaymentTax {
            tax: tax.line.name.as_str(),
            rate_thousandths_percent: tax.line.rate.thousandths_percent(),
            amount_cents: tax.line.amount.cents().get(),
            registration_number: &tax.registration_number,
        })
        .collect()
}

/// Taxes as the store recorded them, in `currency`, back as charged taxes in receipt order.
pub fn from_store(stored: Vec<TaxRow>, currency: Currency) -> anyhow::Result<Vec<ChargedTax>> {
    let mut taxes = stored
        .into_iter()
        .map(|tax| {
            let amount = Cents::new(tax.amount_cents)
                .map(|cents| Money::new(cents, currency))
                .context("stored tax amount")?;
            ChargedTax::stored(
                &tax.tax,
                tax.rate_thousandths_percent,
                amount,
                tax.registration_number,
            )
            .map_err(|e| anyhow::anyhow!("stored tax: {e}"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    taxes.sort_by_key(|tax| tax.line.name);
    Ok(taxes)
}

/// The taxes on the platform's fee of `fee` sold to a professional whose home base is in
/// `province_code`, on `day` (the capture's, UTC): none for a fee of 0, nor without a home
/// base (nothing to reckon them by), nor when the platform is not registered.
pub fn fee_taxes(
    seller: &Registrations,
    province_code: &str,
    day: NaiveDate,
    fee: Money,
) -> ApiResult<Vec<ChargedTax>> {
    let Some(place) = Province::from_code(province_code) else {
        return Ok(Vec::new());
    };
    if fee.cents() == Cents::ZERO {
        return Ok(Vec::new());
    }
    Ok(platform_sale(seller, Some(place), day, fee)?.taxes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::{
        TaxName,
        tests::{cad, day, registered},
    };

    /// One month at `cents` sold by `seller` to a professional in `place` on `date`.
    fn sold(seller: &Registrations, place: Province, date: &str, cents: i64) -> Sale {
        platform_sale(seller, Some(place), day(date), cad(cents)).unwrap()
    }

    fn taxes(sale: &Sale) -> Vec<(TaxName, String, i64, &str)> {
        sale.taxes
            .iter()
            .map(|t| {
                (
                    t.line.name,
                    t.line.rate.rate_percent(),
                    t.line.amount.cents().get(),
                    t.registration_number.as_str(),
                )
            })
            .collect()
    }

    #[test]
    fn halifax_pays_hst_on_the_subtotal() {
        let sale = sold(
            &registered(true, true),
            Province::NovaScotia,
            "2026-12-03",
            2999,
        );
        assert_eq!(
            taxes(&sale),
            [(TaxName::Hst, "14".to_owned(), 420, "123456789RT0001")]
        );
        assert_eq!(sale.total(), cad(3419));
        assert_eq!(sale.date, Some(day("2026-12-03")));
        // Before Nova Scotia's cut, 15%.
        let before = sold(
            &registered(true, false),
            Province::NovaScotia,
            "2025-03-31",
            2999,
        );
        assert_eq!(before.total(), cad(2999 + 450));
    }

    #[test]
    fn quebec_pays_gst_and_qst_each_under_its_number() {
        let both = sold(
            &registered(true, true),
            Province::Quebec,
            "2026-12-03",
            2999,
        );
        assert_eq!(
            taxes(&both),
            [
                (TaxName::Gst, "5".to_owned(), 150, "123456789RT0001"),
                (TaxName::Qst, "9.975".to_owned(), 299, "1234567890TQ0001"),
            ]
        );
        assert_eq!(both.total(), cad(2999 + 150 + 299));
        let gst_only = sold(
            &registered(true, false),
            Province::Quebec,
            "2026-12-03",
            2999,
        );
        assert_eq!(gst_only.total(), cad(2999 + 150));
    }

    #[test]
    fn an_unregistered_platform_and_a_free_month_charge_no_tax() {
        let none = sold(
            &registered(false, false),
            Province::Ontario,
            "2026-12-03",
            2999,
        );
        assert!(none.taxes.is_empty());
        assert_eq!(none.total(), cad(2999));
        let free = sold(&registered(true, true), Province::Quebec, "2026-12-03", 0);
        assert!(free.taxes.iter().all(|t| t.line.amount == cad(0)));
        assert_eq!(free.total(), cad(0));
        assert_eq!(Sale::untaxed(cad(100)).total(), cad(100));
    }

    /// A 200 $ job at a property in `place` by a professional registered as `seller`.
    fn job(seller: &Registrations, place: Province) -> Sale {
        repair_sale(seller, place, day("2026-12-03"), cad(20000)).unwrap()
    }

    #[test]
    fn repair_work_is_taxed_at_the_property_under_the_professionals_numbers() {
        let montreal = job(&registered(true, true), Province::Quebec);
        assert_eq!(
            taxes(&montreal),
            [
                (TaxName::Gst, "5".to_owned(), 1000, "123456789RT0001"),
                (TaxName::Qst, "9.975".to_owned(), 1995, "1234567890TQ0001"),
            ]
        );
        assert_eq!(montreal.total(), cad(22995));
        assert_eq!(montreal.place, Some(Province::Quebec));
        let halifax = job(&registered(true, true), Province::NovaScotia);
        assert_eq!(
            taxes(&halifax),
            [(TaxName::Hst, "14".to_owned(), 2800, "123456789RT0001")]
        );
        let unregistered = job(&registered(false, false), Province::Quebec);
        assert!(unregistered.taxes.is_empty());
        assert_eq!(unregistered.total(), cad(20000));
    }

    #[test]
    fn without_a_province_only_an_unregistered_platform_sells() {
        assert_eq!(
            platform_place(&registered(true, false), "NS").unwrap(),
            Some(Province::NovaScotia)
        );
        assert_eq!(platform_place(&registered(false, false), "").unwrap(), None);
        let unregistered = platform_sale(
            &registered(false, false),
            None,
            day("2026-12-03"),
            cad(2999),
        );
        assert_eq!(unregistered.unwrap().total(), cad(2999));
        for seller in [registered(true, false), registered(false, true)] {
            let refused = platform_place(&seller, "").unwrap_err();
            assert!(
                matches!(
                    refused,
                    ApiError::FailedPrecondition {
                        reason: ErrorReason::BusinessAddressRequired,
                        ..
                    }
                ),
                "{refused:?}"
            );
        }
    }
}
