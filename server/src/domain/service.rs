//! What a service of the catalogue holds in each language: a name of 1 to 100 characters and a
//! description of at most 5000 (may be empty), both trimmed.

use super::text::{bounded_text, optional_text};

/// A service's name in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceName(String);

impl ServiceName {
    pub const MAX_CHARS: usize = 100;

    pub fn parse(raw: &str) -> Result<Self, String> {
        bounded_text(raw, "a name", Self::MAX_CHARS).map(Self)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A service's description in one language; may be empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceDescription(String);

impl ServiceDescription {
    pub const MAX_CHARS: usize = 5000;

    pub fn parse(raw: &str) -> Result<Self, String> {
        optional_text(raw, "the description", Self::MAX_CHARS).map(Self)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `(en, fr)` where an empty (or blank) one takes the other's text: a new service sent with
/// one language reads the same in both until someone translates it.
pub fn fill_from_other<'a>(en: &'a str, fr: &'a str) -> (&'a str, &'a str) {
    match (en.trim().is_empty(), fr.trim().is_empty()) {
        (true, false) => (fr, fr),
        (false, true) => (en, en),
        _ => (en, fr),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_one_to_a_hundred_characters() {
        assert_eq!(
            ServiceName::parse("  Serrurerie ").unwrap().as_str(),
            "Serrurerie"
        );
        assert!(ServiceName::parse(" ").is_err());
        assert!(ServiceName::parse(&"é".repeat(100)).is_ok());
        assert!(ServiceName::parse(&"é".repeat(101)).is_err());
    }

    #[test]
    fn descriptions_may_be_empty_and_hold_five_thousand_characters() {
        assert_eq!(ServiceDescription::parse("  ").unwrap().as_str(), "");
        assert!(ServiceDescription::parse(&"a".repeat(5000)).is_ok());
        assert!(ServiceDescription::parse(&"a".repeat(5001)).is_err());
    }

    #[test]
    fn an_empty_language_takes_the_other() {
        assert_eq!(fill_from_other("Locksmith", ""), ("Locksmith", "Locksmith"));
        assert_eq!(
            fill_from_other(" ", "Serrurier"),
            ("Serrurier", "Serrurier")
        );
        assert_eq!(fill_from_other("A", "B"), ("A", "B"));
        assert_eq!(fill_from_other("", ""), ("", ""));
    }
}
