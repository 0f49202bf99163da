//! A tax rate, exact: a whole number of thousandths of a percent (9.975% is 9975), and the
//! tax it puts on an amount, rounded to the nearest cent with half a cent up, as the Canada
//! Revenue Agency and Revenu Québec count fractions of a cent. Integers only.

use crate::domain::{Cents, Money};

/// Thousandths of a percent in one percent.
const PER_PERCENT: u32 = 1_000;
/// Thousandths of a percent in the whole amount (100%).
const WHOLE: u32 = 100 * PER_PERCENT;

/// From 0 to 100%, in thousandths of a percent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rate(u32);

impl Rate {
    pub fn from_thousandths_percent(thousandths: u32) -> Result<Self, String> {
        if thousandths > WHOLE {
            return Err(format!(
                "a rate is at most 100% ({WHOLE} thousandths of a percent), not {thousandths}"
            ));
        }
        Ok(Self(thousandths))
    }

    pub fn thousandths_percent(self) -> u32 {
        self.0
    }

    pub fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// The percent as a decimal without trailing zeros: "9.975", "5", "12.5".
    pub fn rate_percent(self) -> String {
        let whole = self.0 / PER_PERCENT;
        let fraction = self.0 % PER_PERCENT;
        if fraction == 0 {
            return whole.to_string();
        }
        let digits = format!("{fraction:03}");
        format!("{whole}.{}", digits.trim_end_matches('0'))
    }

    /// This rate of `base`, to the nearest cent, half a cent up, in `base`'s currency.
    pub fn tax_on(self, base: Money) -> Money {
        let cents = base.cents().get();
        let (rate, whole) = (i64::from(self.0), i64::from(WHOLE));
        // base = q * WHOLE + r, so base * rate / WHOLE = q * rate + r * rate / WHOLE: no
        // product above base (rate <= WHOLE) or WHOLE², so no overflow for any amount.
        let (q, r) = (cents / whole, cents % whole);
        let tax = q * rate + (r * rate + whole / 2) / whole;
        // Non-negative: a non-negative base times a non-negative rate.
        Money::new(Cents::new(tax).unwrap_or(Cents::ZERO), base.currency())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Currency;

    fn rate(thousandths: u32) -> Rate {
        Rate::from_thousandths_percent(thousandths).unwrap()
    }

    fn cad(cents: i64) -> Money {
        Money::new(Cents::new(cents).unwrap(), Currency::Cad)
    }

    fn tax(thousandths: u32, base: i64) -> i64 {
        rate(thousandths).tax_on(cad(base)).cents().get()
    }

    #[test]
    fn rates_read_as_short_decimals() {
        for (thousandths, percent) in [
            (9_975, "9.975"),
            (5_000, "5"),
            (14_000, "14"),
            (12_500, "12.5"),
            (10, "0.01"),
            (0, "0"),
            (100_000, "100"),
        ] {
            assert_eq!(rate(thousandths).rate_percent(), percent);
        }
    }

    #[test]
    fn rates_stop_at_100_percent() {
        assert!(Rate::from_thousandths_percent(100_001).is_err());
        assert_eq!(rate(100_000).thousandths_percent(), 100_000);
    }

    #[test]
    fn half_a_cent_rounds_up_and_less_rounds_down() {
        for (thousandths, base, expected) in [
            // 5%: 0.45, 0.5 and 0.55 of a cent; 1.45, 1.5, 1.55.
            (5_000, 9, 0),
            (5_000, 10, 1),
            (5_000, 11, 1),
            (5_000, 29, 1),
            (5_000, 30, 2),
            (5_000, 31, 2),
            // 9.975%: 239.49975, 199.5 and 159.50025 cents.
            (9_975, 2_401, 239),
            (9_975, 2_000, 200),
            (9_975, 1_599, 160),
            // Revenu Québec's example: 9.975% of $100 is $9.98.
            (9_975, 10_000, 998),
            // 13% of 50 cents, 14% of 25, 15% of 10: 6.5, 3.5, 1.5.
            (13_000, 50, 7),
            (14_000, 25, 4),
            (15_000, 10, 2),
            (14_000, 24, 3),
        ] {
            assert_eq!(tax(thousandths, base), expected, "{thousandths} of {base}");
        }
    }

    #[test]
    fn nothing_is_taxed_on_nothing_and_huge_amounts_do_not_overflow() {
        assert_eq!(tax(15_000, 0), 0);
        assert_eq!(tax(0, 123_456), 0);
        assert_eq!(tax(100_000, i64::MAX), i64::MAX);
        // 9.975% of $92,233,720,368,547,758.07 is $9,200,313,606,762,638.86825.
        assert_eq!(tax(9_975, i64::MAX), 920_031_360_676_263_887);
    }

    #[test]
    fn the_tax_keeps_the_currency() {
        let base = Money::new(Cents::new(1_000).unwrap(), Currency::Eur);
        assert_eq!(rate(5_000).tax_on(base).currency(), Currency::Eur);
    }
}
