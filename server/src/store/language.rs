//! `Language` as its columns hold it: text, 'en' or 'fr' (every `language` column's check).
//! Rows read it as a `Language` and queries bind it as one, so no caller reads the code.

use sqlx::{
    Decode, Encode, Postgres, Type,
    encode::IsNull,
    error::BoxDynError,
    postgres::{PgArgumentBuffer, PgTypeInfo, PgValueRef},
};

use crate::domain::Language;

/// A stored value no check admits today (none can be written) reads as English, the
/// product's default, as it always has; the one place that decides it.
fn stored(code: &str) -> Language {
    Language::from_code(code).unwrap_or_default()
}

impl Type<Postgres> for Language {
    fn type_info() -> PgTypeInfo {
        <&str as Type<Postgres>>::type_info()
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        <&str as Type<Postgres>>::compatible(ty)
    }
}

impl<'r> Decode<'r, Postgres> for Language {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        <&str as Decode<Postgres>>::decode(value).map(stored)
    }
}

impl Encode<'_, Postgres> for Language {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        <&str as Encode<Postgres>>::encode(self.as_str(), buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_as_their_language_and_anything_else_as_english() {
        assert_eq!(stored("fr"), Language::French);
        assert_eq!(stored("en"), Language::English);
        assert_eq!(stored("eng"), Language::English);
        assert_eq!(stored(""), Language::English);
        assert_eq!(stored("de"), Language::English);
    }
}
