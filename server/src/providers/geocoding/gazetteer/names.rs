//! Place and province names compared the way people type them: case, accents, hyphens and
//! "St."/"Saint" do not matter ("st-jerome" finds "Saint-Jérôme").

use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};

use crate::domain::professional::PROVINCES;

/// The comparison form of a name: lower case, accents dropped, apostrophes removed, any other
/// punctuation a word break, "st"/"ste" spelled out.
pub fn fold(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in name.nfd().filter(|c| !is_combining_mark(*c)) {
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if !matches!(c, '\'' | '\u{2019}' | '\u{02BC}') && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    let spelled_out = words.iter().map(|word| match word.as_str() {
        "st" => "saint",
        "ste" => "sainte",
        other => other,
    });
    spelled_out.collect::<Vec<_>>().join(" ")
}

/// True for a two-letter code as the data files write it: "AB", not "ab".
pub fn is_province_code(code: &str) -> bool {
    PROVINCES.iter().any(|(known, _, _)| *known == code)
}

/// The two-letter code of a province given by code or by English or French name.
pub fn province_code(input: &str) -> Option<&'static str> {
    let wanted = fold(input);
    PROVINCES
        .iter()
        .find(|(code, english, french)| {
            wanted == code.to_ascii_lowercase() || wanted == fold(english) || wanted == fold(french)
        })
        .map(|(code, _, _)| *code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_ignores_case_accents_and_punctuation() {
        assert_eq!(fold("Montréal"), fold("MONTREAL"));
        assert_eq!(fold("Saint-Jérôme"), "saint jerome");
        assert_eq!(fold("St. Jérôme"), "saint jerome");
        assert_eq!(fold("St. John's"), fold("st johns"));
        assert_eq!(
            fold("Sainte-Anne-des-Plaines"),
            fold("ste anne des plaines")
        );
        assert_eq!(fold("  Trois–Rivières "), "trois rivieres");
    }

    #[test]
    fn provinces_are_known_by_code_and_both_names() {
        assert_eq!(province_code("qc"), Some("QC"));
        assert_eq!(province_code("Quebec"), Some("QC"));
        assert_eq!(province_code("Île-du-Prince-Édouard"), Some("PE"));
        assert_eq!(province_code("colombie britannique"), Some("BC"));
        assert_eq!(province_code("Ontario"), Some("ON"));
        assert_eq!(province_code("Texas"), None);
    }
}
