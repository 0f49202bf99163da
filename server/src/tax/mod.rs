//! Canadian sales taxes: which taxes a supply carries, at what rates, and how much. Pure
//! rules over the rate table shipped in `server/data/sales-tax-rates.csv` (its sources and
//! the date it was checked: `docs/sales-tax.md`); no database, no clock.
//!
//! ```text
//! RateTable::shipped()?.taxes(Supply::RepairWork, &seller, Province::Quebec, date, fee)
//!   -> [GST 5%, QST 9.975%], each rounded to the cent on its own
//! ```

mod periods;
mod rate;
mod registrations;
mod rule;
mod table;
/// Its table tests, whose helpers other rules' tests share.
#[cfg(test)]
pub(crate) mod tests;

use std::fmt;

pub use rate::Rate;
pub use registrations::{Registrations, Seller};
pub use rule::{ChargedTax, TaxLine};
pub use table::{RateTable, RateTableError, TaxError};

/// What is sold, which decides the rates that apply (the table's `supply_kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Supply {
    /// The platform's membership or fee, sold to a professional; taxed where the
    /// professional's business is.
    PlatformToProfessional,
    /// A professional's repair work, sold to a customer; taxed where the property is.
    RepairWork,
}

impl Supply {
    pub const ALL: [Self; 2] = [Self::PlatformToProfessional, Self::RepairWork];

    /// The name the rate table uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PlatformToProfessional => "platform_to_professional",
            Self::RepairWork => "repair_work",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|supply| supply.as_str() == name)
    }
}

/// A sales tax, in the order a receipt lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TaxName {
    Gst,
    Hst,
    Qst,
    Pst,
}

impl TaxName {
    const ALL: [Self; 4] = [Self::Gst, Self::Hst, Self::Qst, Self::Pst];

    /// As receipts and the rate table write it: "GST".
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Gst => "GST",
            Self::Hst => "HST",
            Self::Qst => "QST",
            Self::Pst => "PST",
        }
    }

    /// The registration the seller collects this tax under.
    pub fn registration(self) -> Registration {
        match self {
            Self::Gst | Self::Hst => Registration::GstHst,
            Self::Qst => Registration::Qst,
            Self::Pst => Registration::Pst,
        }
    }

    /// From its name as [`Self::as_str`] writes it ("GST"), as the ledger stores it.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|tax| tax.as_str() == name)
    }
}

/// A registration a seller collects taxes under: GST and HST share the GST/HST one (HST is
/// the GST with a province's part added), so a province charges one or the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Registration {
    GstHst,
    Qst,
    Pst,
}

impl fmt::Display for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::GstHst => "GST/HST",
            Self::Qst => "QST",
            Self::Pst => "PST",
        })
    }
}
