//! What a payment is made of: the amount before tax, the sales taxes on it (the rules are
//! [`crate::tax`]'s) and the total the card is charged. Amounts in integer cents throughout.

use anyhow::Context;
use chrono::NaiveDate;

use crate::{
    domain::{Cents, Currency, Money, Province},
    error::{ApiError, ApiResult, ErrorReason},
    store::payments::{NewPaymentTax, StoredTax},
    tax::{Rate, RateTable, Registrations, Supply, TaxLine, TaxName},
};

/// One tax charged, with the seller's registration number it is collected under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargedTax {
    pub line: TaxLine,
    pub registration_number: String,
}

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
    /// The day the taxes became payable; `None` where no tax rule was applied (hires and
    /// test charges, so far).
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
        Some(place) => RateTable::shipped()
            .map_err(|e| ApiError::Internal(e.into()))?
            .taxes(
                Supply::PlatformToProfessional,
                seller,
                place,
                date,
                subtotal,
            )
            .map_err(|e| ApiError::Internal(e.into()))?
            .into_iter()
            .map(|line| charged(seller, line))
            .collect::<ApiResult<_>>()?,
    };
    Ok(Sale {
        subtotal,
        taxes,
        place,
        date: Some(date),
    })
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
pub fn from_store(stored: Vec<StoredTax>, currency: Currency) -> anyhow::Result<Vec<ChargedTax>> {
    let mut taxes = stored
        .into_iter()
        .map(|tax| {
            let name = TaxName::from_name(&tax.tax)
                .with_context(|| format!("unknown stored tax {:?}", tax.tax))?;
            let rate = u32::try_from(tax.rate_thousandths_percent)
                .map_err(|e| e.to_string())
                .and_then(Rate::from_thousandths_percent)
                .map_err(|e| anyhow::anyhow!("stored tax rate: {e}"))?;
            let amount = Cents::new(tax.amount_cents)
                .map(|cents| Money::new(cents, currency))
                .context("stored tax amount")?;
            Ok(ChargedTax {
                line: TaxLine { name, rate, amount },
                registration_number: tax.registration_number,
            })
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
