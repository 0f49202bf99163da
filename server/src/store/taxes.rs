//! The sales taxes kept beside a payment (payment_taxes) or a quote (quote_taxes): one row
//! per tax, read back with their owner as one JSON column.

use serde::Deserialize;
use sqlx::types::Json;

use crate::{domain::Money, tax::ChargedTax};

/// The `taxes` column of a query over an owner row: `table`'s rows whose `key` is `owner`
/// (an SQL expression), in receipt order, each in `currency` (an SQL expression).
pub fn taxes_column(table: &str, key: &str, owner: &str, currency: &str) -> String {
    format!(
        "coalesce((select json_agg(json_build_object('tax', t.tax,
             'rate_thousandths_percent', t.rate_thousandths_percent,
             'amount_cents', t.amount_cents, 'currency', {currency},
             'registration_number', t.registration_number)
             order by array_position(array['GST', 'HST', 'QST', 'PST'], t.tax))
           from {table} t where t.{key} = {owner}), '[]') as taxes"
    )
}

/// One stored tax as [`taxes_column`] writes it.
#[derive(Debug, Clone, Deserialize)]
pub struct StoredTax {
    pub tax: String,
    pub rate_thousandths_percent: i32,
    pub amount_cents: i64,
    pub currency: String,
    pub registration_number: String,
}

/// The taxes of one payment or quote, in receipt order (empty when none was charged).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredTaxes(pub Vec<ChargedTax>);

impl TryFrom<Json<Vec<StoredTax>>> for StoredTaxes {
    type Error = String;

    fn try_from(Json(taxes): Json<Vec<StoredTax>>) -> Result<Self, String> {
        taxes
            .into_iter()
            .map(|tax| {
                let amount =
                    Money::parse(tax.amount_cents, &tax.currency).map_err(|e| e.to_string())?;
                ChargedTax::stored(
                    &tax.tax,
                    tax.rate_thousandths_percent,
                    amount,
                    tax.registration_number,
                )
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::TaxName;

    fn stored(tax: &str, rate: i32) -> StoredTax {
        StoredTax {
            tax: tax.to_owned(),
            rate_thousandths_percent: rate,
            amount_cents: 998,
            currency: "CAD".to_owned(),
            registration_number: "1234567890TQ0001".to_owned(),
        }
    }

    #[test]
    fn stored_taxes_are_read_back_or_refused() {
        let read = StoredTaxes::try_from(Json(vec![stored("QST", 9975)])).unwrap();
        assert_eq!(read.0[0].line.name, TaxName::Qst);
        assert_eq!(read.0[0].line.rate.rate_percent(), "9.975");
        assert_eq!(read.0[0].line.amount.cents().get(), 998);
        assert!(StoredTaxes::try_from(Json(vec![stored("VAT", 100)])).is_err());
        assert!(StoredTaxes::try_from(Json(vec![stored("GST", -1)])).is_err());
        assert_eq!(StoredTaxes::try_from(Json(vec![])), Ok(StoredTaxes(vec![])));
    }
}
