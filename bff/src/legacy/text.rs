//! How the old clients' text is read: names compared as people type them, comma-separated
//! lists, and the English or French side of a localized text. The lowest of the legacy
//! helpers: the catalogue and the record shapes both read text through these.

use repairs_proto::types::LocalizedText;

/// Lower case, accents and punctuation folded, so "québec", "Quebec" and "QUÉBEC" compare
/// equal (the contract's folding, the one province names are read with).
pub use repairs_proto::province::fold;

/// The items of comma-separated values, trimmed, empty ones left out.
pub fn split_list(values: &[String]) -> impl Iterator<Item = &str> {
    values
        .iter()
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .filter(|item| !item.is_empty())
}

/// The English side of a localized text; "" when there is none.
pub fn english(text: Option<&LocalizedText>) -> String {
    text.map(|t| t.en.clone()).unwrap_or_default()
}

/// The French side of a localized text, or the English one where it was never translated.
pub fn french(text: Option<&LocalizedText>) -> String {
    text.map(|t| {
        if t.fr.is_empty() {
            t.en.clone()
        } else {
            t.fr.clone()
        }
    })
    .unwrap_or_default()
}
