//! Short texts people type: names, labels, reasons. Trimmed, never empty, bounded.

use std::fmt;

/// Parses a trimmed text of 1..=`max` characters; the error names what is wrong.
pub fn bounded_text(raw: &str, what: &str, max: usize) -> Result<String, String> {
    let text = raw.trim();
    if text.is_empty() {
        return Err(format!("enter {what}"));
    }
    if text.chars().count() > max {
        return Err(format!("{what} must be at most {max} characters"));
    }
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(format!("{what} contains characters that are not allowed"));
    }
    Ok(text.to_owned())
}

/// At most `max` characters of `text`, cut on a character boundary.
pub fn truncated(text: &str, max: usize) -> &str {
    text.char_indices()
        .nth(max)
        .map_or(text, |(at, _)| &text[..at])
}

/// Like [`bounded_text`], but empty is allowed (and kept empty).
pub fn optional_text(raw: &str, what: &str, max: usize) -> Result<String, String> {
    if raw.trim().is_empty() {
        Ok(String::new())
    } else {
        bounded_text(raw, what, max)
    }
}

/// A person's name, 1 to 100 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonName(String);

impl PersonName {
    pub fn parse(raw: &str) -> Result<Self, String> {
        bounded_text(raw, "a name", 100).map(Self)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PersonName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(
            PersonName::parse("  Élise Tremblay ").unwrap().as_str(),
            "Élise Tremblay"
        );
        assert!(PersonName::parse("   ").is_err());
        assert!(PersonName::parse(&"a".repeat(101)).is_err());
        assert!(PersonName::parse("bad\u{0}name").is_err());
    }
}
