//! Coupons: a code people type and the discount it gives.

use super::{Cents, Money};

/// A coupon code: 3 to 32 letters, digits, '-' or '_', matched ignoring case and kept in
/// upper case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CouponCode(String);

impl CouponCode {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let code = raw.trim().to_ascii_uppercase();
        let valid = (3..=32).contains(&code.len())
            && code
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
        if valid {
            Ok(Self(code))
        } else {
            Err("a coupon code is 3 to 32 letters, digits, '-' or '_'".to_owned())
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A discount in whole percent, 1 to 100.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscountPercent(u8);

impl DiscountPercent {
    pub fn parse(percent: i32) -> Result<Self, String> {
        u8::try_from(percent)
            .ok()
            .filter(|p| (1..=100).contains(p))
            .map(Self)
            .ok_or_else(|| "the discount is a whole percent from 1 to 100".to_owned())
    }

    pub fn get(self) -> i32 {
        i32::from(self.0)
    }

    /// `price` less this discount, rounded to the nearest cent (half a cent up), as the
    /// purchase screen always showed it: 20 % off 29.99 is 23.99.
    pub fn apply(self, price: Money) -> Money {
        let kept = 100 - i64::from(self.0);
        let cents = (price.cents().get() * kept + 50) / 100;
        // Non-negative: a non-negative price times 0..=99, over 100.
        Money::new(Cents::new(cents).unwrap_or(Cents::ZERO), price.currency())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Currency;

    fn eur(cents: i64) -> Money {
        Money::new(Cents::new(cents).unwrap(), Currency::Eur)
    }

    #[test]
    fn codes_ignore_case_and_surrounding_space() {
        assert_eq!(CouponCode::parse(" save-20 ").unwrap().as_str(), "SAVE-20");
        for bad in ["", "ab", "with space", "é20", &"A".repeat(33)] {
            assert!(CouponCode::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn discounts_are_whole_percents_from_1_to_100() {
        for bad in [-1, 0, 101, 256] {
            assert!(DiscountPercent::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(DiscountPercent::parse(100).unwrap().get(), 100);
    }

    #[test]
    fn the_discounted_price_is_rounded_to_the_nearest_cent() {
        let price = eur(2999);
        let after = |p| {
            DiscountPercent::parse(p)
                .unwrap()
                .apply(price)
                .cents()
                .get()
        };
        assert_eq!(after(20), 2399); // 2399.2
        assert_eq!(after(50), 1500); // 1499.5 rounds up
        assert_eq!(after(33), 2009); // 2009.33
        assert_eq!(after(99), 30); // 29.99
        assert_eq!(after(100), 0);
        assert_eq!(after(1), 2969); // 2969.01
    }
}
