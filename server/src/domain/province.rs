//! A province or territory as a value the rules can match on (sales taxes differ by province).
//! Codes and names stay in the contract's one table (`repairs_proto::province`); addresses
//! keep holding the two-letter code.

use repairs_proto::province;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Province {
    Alberta,
    BritishColumbia,
    Manitoba,
    NewBrunswick,
    NewfoundlandAndLabrador,
    NovaScotia,
    NorthwestTerritories,
    Nunavut,
    Ontario,
    PrinceEdwardIsland,
    Quebec,
    Saskatchewan,
    Yukon,
}

impl Province {
    /// In the order of the contract's table.
    pub const ALL: [Self; 13] = [
        Self::Alberta,
        Self::BritishColumbia,
        Self::Manitoba,
        Self::NewBrunswick,
        Self::NewfoundlandAndLabrador,
        Self::NovaScotia,
        Self::NorthwestTerritories,
        Self::Nunavut,
        Self::Ontario,
        Self::PrinceEdwardIsland,
        Self::Quebec,
        Self::Saskatchewan,
        Self::Yukon,
    ];

    /// The two-letter code ("NS"), as addresses hold it.
    pub fn code(self) -> &'static str {
        match self {
            Self::Alberta => "AB",
            Self::BritishColumbia => "BC",
            Self::Manitoba => "MB",
            Self::NewBrunswick => "NB",
            Self::NewfoundlandAndLabrador => "NL",
            Self::NovaScotia => "NS",
            Self::NorthwestTerritories => "NT",
            Self::Nunavut => "NU",
            Self::Ontario => "ON",
            Self::PrinceEdwardIsland => "PE",
            Self::Quebec => "QC",
            Self::Saskatchewan => "SK",
            Self::Yukon => "YT",
        }
    }

    /// From a code exactly as stored ("NS", not "ns"): what data files and checked
    /// addresses hold.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|province| province.code() == code)
    }

    /// From a province as people type it: its code or its English or French name.
    pub fn parse(raw: &str) -> Result<Self, String> {
        province::code_of(raw)
            .and_then(Self::from_code)
            .ok_or_else(|| "choose a province or territory".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_province_is_the_contracts_code_in_its_order() {
        let codes: Vec<&str> = Province::ALL.into_iter().map(Province::code).collect();
        let contract: Vec<&str> = province::PROVINCES
            .iter()
            .map(|(code, _, _)| *code)
            .collect();
        assert_eq!(codes, contract);
        for province in Province::ALL {
            assert_eq!(Province::from_code(province.code()), Some(province));
        }
    }

    #[test]
    fn codes_are_exact_and_names_are_read_as_typed() {
        assert_eq!(Province::from_code("ns"), None);
        assert_eq!(Province::from_code("XX"), None);
        assert_eq!(Province::parse(" québec "), Ok(Province::Quebec));
        assert_eq!(Province::parse("ns"), Ok(Province::NovaScotia));
        assert!(Province::parse("Texas").is_err());
    }
}
