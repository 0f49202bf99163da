//! Sales taxes as the contracts carry them (memberships, quotes, payments).

use crate::billing::sale::{ChargedTax, Sale};

/// A sale's taxes as the contract lists them: the English code, the rate as a short decimal,
/// the amount and the seller's number.
pub(super) fn tax_lines_to_proto(sale: &Sale) -> Vec<repairs_proto::types::TaxLine> {
    charged_to_proto(&sale.taxes)
}

/// A sale's taxes as the membership replies list them (billing's TaxLine, the same fields).
pub(super) fn membership_tax_lines(sale: &Sale) -> Vec<repairs_proto::billing::TaxLine> {
    tax_lines_to_proto(sale)
        .into_iter()
        .map(|tax| repairs_proto::billing::TaxLine {
            name: tax.name,
            rate_percent: tax.rate_percent,
            amount: tax.amount,
            registration_number: tax.registration_number,
        })
        .collect()
}

/// Charged taxes as the contract lists them.
pub(super) fn charged_to_proto(taxes: &[ChargedTax]) -> Vec<repairs_proto::types::TaxLine> {
    taxes
        .iter()
        .map(|tax| repairs_proto::types::TaxLine {
            name: tax.line.name.as_str().to_owned(),
            rate_percent: tax.line.rate.rate_percent(),
            amount: Some(tax.line.amount.into()),
            registration_number: tax.registration_number.clone(),
        })
        .collect()
}
