//! Money: a whole number of cents that cannot be negative, always with its currency.

use std::fmt;

/// The currencies the product charges in: memberships in euros, everything else in
/// Canadian dollars.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Currency {
    Cad,
    Eur,
}

impl Currency {
    /// ISO 4217, upper case, as the contracts and the database hold it.
    pub fn code(self) -> &'static str {
        match self {
            Self::Cad => "CAD",
            Self::Eur => "EUR",
        }
    }

    /// Reads an ISO code in either case ("cad" is how Stripe writes it).
    pub fn parse(code: &str) -> Result<Self, MoneyError> {
        match code.to_ascii_uppercase().as_str() {
            "CAD" => Ok(Self::Cad),
            "EUR" => Ok(Self::Eur),
            _ => Err(MoneyError::UnknownCurrency(code.chars().take(8).collect())),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("an amount cannot be negative")]
    Negative,
    #[error("unknown currency {0:?}")]
    UnknownCurrency(String),
}

/// A non-negative amount in minor units (cents).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cents(i64);

impl Cents {
    pub const ZERO: Self = Self(0);

    pub fn new(cents: i64) -> Result<Self, MoneyError> {
        if cents < 0 {
            return Err(MoneyError::Negative);
        }
        Ok(Self(cents))
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

/// An amount and its currency: there is no amount without one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Money {
    cents: Cents,
    currency: Currency,
}

impl Money {
    pub fn new(cents: Cents, currency: Currency) -> Self {
        Self { cents, currency }
    }

    /// From the parts as stored or received: fails on a negative amount or an unknown code.
    pub fn parse(cents: i64, currency: &str) -> Result<Self, MoneyError> {
        Ok(Self::new(Cents::new(cents)?, Currency::parse(currency)?))
    }

    pub fn cents(self) -> Cents {
        self.cents
    }

    pub fn currency(self) -> Currency {
        self.currency
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cents = self.cents.get();
        write!(
            f,
            "{}.{:02} {}",
            cents / 100,
            cents % 100,
            self.currency.code()
        )
    }
}

impl From<Money> for repairs_proto::types::Money {
    fn from(money: Money) -> Self {
        Self {
            amount_cents: money.cents.get(),
            currency: money.currency.code().to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_cannot_be_negative() {
        assert_eq!(Cents::new(-1), Err(MoneyError::Negative));
        assert_eq!(Cents::new(0).map(Cents::get), Ok(0));
        assert!(Money::parse(-5, "CAD").is_err());
    }

    #[test]
    fn currencies_are_known_iso_codes_in_either_case() {
        assert_eq!(Currency::parse("eur"), Ok(Currency::Eur));
        assert_eq!(Currency::parse("CAD"), Ok(Currency::Cad));
        assert!(matches!(
            Currency::parse(""),
            Err(MoneyError::UnknownCurrency(_))
        ));
        assert!(Money::parse(100, "XYZ").is_err());
    }

    #[test]
    fn money_reads_as_units_and_cents() {
        let money = Money::parse(2999, "EUR").unwrap();
        assert_eq!(money.to_string(), "29.99 EUR");
    }
}
