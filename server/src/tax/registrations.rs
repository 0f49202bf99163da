//! A seller's sales tax registrations, and which taxes they make the seller collect.

use super::{Registration, TaxName};
use crate::domain::{GstHstNumber, Province, QstNumber};

/// The platform as a seller: the name its receipts give and the registrations it collects
/// taxes under (`Config::seller`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seller {
    pub name: String,
    pub registrations: Registrations,
}

/// The registrations a seller holds; none by default (a small supplier charges no tax).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Registrations {
    pub gst_hst: Option<GstHstNumber>,
    pub qst: Option<QstNumber>,
}

impl Registrations {
    /// The number the seller collects under `registration`, when they hold one (a receipt
    /// shows it beside each tax).
    pub fn number(&self, registration: Registration) -> Option<&str> {
        match registration {
            Registration::GstHst => self.gst_hst.as_ref().map(GstHstNumber::as_str),
            Registration::Qst => self.qst.as_ref().map(QstNumber::as_str),
            // No PST registration is recorded; the rate table holds PST at 0.
            Registration::Pst => None,
        }
    }

    /// Whether the seller collects `tax` on a supply made in `place`: GST/HST when
    /// registered for it; QST when registered for it and the supply is made in Quebec.
    pub fn collects(&self, tax: TaxName, place: Province) -> bool {
        let registration = tax.registration();
        self.number(registration).is_some()
            && (registration != Registration::Qst || place == Province::Quebec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both() -> Registrations {
        Registrations {
            gst_hst: Some(GstHstNumber::parse("123456789RT0001").unwrap()),
            qst: Some(QstNumber::parse("1234567890TQ0001").unwrap()),
        }
    }

    #[test]
    fn each_tax_is_collected_under_its_own_registration() {
        let seller = both();
        assert_eq!(seller.number(Registration::GstHst), Some("123456789RT0001"));
        assert_eq!(seller.number(Registration::Qst), Some("1234567890TQ0001"));
        assert_eq!(seller.number(Registration::Pst), None);
        for tax in [TaxName::Gst, TaxName::Hst, TaxName::Qst] {
            assert!(seller.collects(tax, Province::Quebec), "{tax:?}");
            assert!(
                !Registrations::default().collects(tax, Province::Quebec),
                "{tax:?}"
            );
        }
        assert!(!seller.collects(TaxName::Pst, Province::BritishColumbia));
    }

    #[test]
    fn qst_is_collected_in_quebec_only() {
        assert!(!both().collects(TaxName::Qst, Province::Ontario));
        let qst_only = Registrations {
            gst_hst: None,
            ..both()
        };
        assert!(qst_only.collects(TaxName::Qst, Province::Quebec));
        assert!(!qst_only.collects(TaxName::Gst, Province::Quebec));
    }
}
