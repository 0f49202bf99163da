//! What a review holds: a rating of 1 to 5 stars and an optional text of at most 2000
//! characters.

use super::text::optional_text;

/// 1 to 5 stars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rating(i16);

impl Rating {
    pub fn parse(stars: i32) -> Result<Self, String> {
        use repairs_proto::limits::create_review::{RATING_MAX, RATING_MIN};
        match i16::try_from(stars) {
            Ok(n) if (RATING_MIN..=RATING_MAX).contains(&stars) => Ok(Self(n)),
            _ => Err(format!(
                "give a rating from {RATING_MIN} to {RATING_MAX} stars"
            )),
        }
    }

    pub fn stars(self) -> i16 {
        self.0
    }
}

/// A review's text, trimmed; may be empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewText(String);

impl ReviewText {
    pub const MAX_CHARS: usize = repairs_proto::limits::create_review::TEXT_MAX_LEN;

    pub fn parse(raw: &str) -> Result<Self, String> {
        optional_text(raw, "the review", Self::MAX_CHARS).map(Self)
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_are_one_to_five_stars() {
        assert_eq!(Rating::parse(1).unwrap().stars(), 1);
        assert_eq!(Rating::parse(5).unwrap().stars(), 5);
        for wrong in [0, 6, -1, i32::MAX, 65_537] {
            assert!(Rating::parse(wrong).is_err(), "{wrong}");
        }
    }

    #[test]
    fn texts_are_trimmed_optional_and_bounded() {
        assert_eq!(
            ReviewText::parse("  Great  ").unwrap().into_inner(),
            "Great"
        );
        assert_eq!(ReviewText::parse("   ").unwrap().into_inner(), "");
        assert!(ReviewText::parse(&"é".repeat(2000)).is_ok());
        assert!(ReviewText::parse(&"é".repeat(2001)).is_err());
    }
}
