//! What a service of the catalogue holds in each language: a name of 1 to 100 characters and a
//! description of at most 5000 (may be empty), both trimmed. A French name is stored typeset
//! as the product's French texts are (the typographic apostrophe: "Services d’extermination"),
//! so every page, prerendered or not, and every email shows it the same way.

use super::{
    preferences::Language,
    text::{bounded_text, optional_text},
};

/// A service's name in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceName(String);

impl ServiceName {
    pub const MAX_CHARS: usize = 100;

    /// A name in `language`, typeset.
    pub fn parse(raw: &str, language: Language) -> Result<Self, String> {
        let name = bounded_text(raw, "a name", Self::MAX_CHARS)?;
        Ok(Self(match language {
            Language::English => name,
            Language::French => typographic_apostrophes(&name),
        }))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `text` with each straight apostrophe between two letters made typographic (d'eau, l'a).
fn typographic_apostrophes(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let between_letters = |at: usize| {
        at > 0
            && chars[at - 1].is_alphabetic()
            && chars.get(at + 1).is_some_and(|c| c.is_alphabetic())
    };
    chars
        .iter()
        .enumerate()
        .map(|(at, &c)| {
            if c == '\'' && between_letters(at) {
                '’'
            } else {
                c
            }
        })
        .collect()
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
    fn french_names_take_the_typographic_apostrophe_and_english_ones_stay() {
        let cases = [
            ("Services d'extermination", "Services d’extermination"),
            (
                "Réparation d'électroménagers",
                "Réparation d’électroménagers",
            ),
            ("Déjà d’extermination", "Déjà d’extermination"),
            ("'Guillemets' simples", "'Guillemets' simples"),
            ("Plomberie", "Plomberie"),
        ];
        for (raw, typeset) in cases {
            let name = ServiceName::parse(raw, Language::French).unwrap();
            assert_eq!(name.as_str(), typeset, "{raw}");
        }
        let english = ServiceName::parse("Mike's Locksmiths", Language::English).unwrap();
        assert_eq!(english.as_str(), "Mike's Locksmiths");
    }

    #[test]
    fn names_are_trimmed_and_one_to_a_hundred_characters() {
        let parse = |raw: &str| ServiceName::parse(raw, Language::French);
        assert_eq!(parse("  Serrurerie ").unwrap().as_str(), "Serrurerie");
        assert!(parse(" ").is_err());
        assert!(parse(&"é".repeat(100)).is_ok());
        assert!(parse(&"é".repeat(101)).is_err());
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
