//! What an admin types to find people in a list: part of a name, an email or a phone.

use super::text::bounded_text;

/// The longest search accepted; longer than any name, email or phone we hold.
pub const MAX_SEARCH_CHARS: usize = repairs_proto::limits::list_customers::QUERY_MAX_LEN;

/// A search, ready for `ilike`: the text with the pattern characters escaped and wrapped in
/// `%`, and for a search that looks like a phone number, its digits alone, so "(403)
/// 555-0100" finds "+14035550100".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeopleSearch {
    pub pattern: String,
    pub phone_pattern: Option<String>,
}

impl PeopleSearch {
    /// `None` for an empty search (list everyone); an error names what is wrong.
    pub fn parse(raw: &str) -> Result<Option<Self>, String> {
        if raw.trim().is_empty() {
            return Ok(None);
        }
        let text = bounded_text(raw, "the search", MAX_SEARCH_CHARS)?;
        let looks_like_phone = text
            .chars()
            .all(|c| c.is_ascii_digit() || " +-().".contains(c));
        let digits: String = text.chars().filter(char::is_ascii_digit).collect();
        Ok(Some(Self {
            pattern: contains(&text),
            phone_pattern: (looks_like_phone && !digits.is_empty()).then(|| contains(&digits)),
        }))
    }
}

/// `%text%` with `\`, `%` and `_` escaped, for `ilike` (whose escape character is `\`).
fn contains(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('%');
    for c in text.chars() {
        if matches!(c, '\\' | '%' | '_') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_means_no_search() {
        assert_eq!(PeopleSearch::parse("  "), Ok(None));
    }

    #[test]
    fn wildcards_are_searched_for_as_themselves() {
        let search = PeopleSearch::parse(" 50%_off\\ ").unwrap().unwrap();
        assert_eq!(search.pattern, "%50\\%\\_off\\\\%");
        assert_eq!(search.phone_pattern, None);
    }

    #[test]
    fn a_phone_is_searched_by_its_digits() {
        let search = PeopleSearch::parse("(403) 555-0100").unwrap().unwrap();
        assert_eq!(search.phone_pattern.as_deref(), Some("%4035550100%"));
        let name = PeopleSearch::parse("Ana").unwrap().unwrap();
        assert_eq!(name.phone_pattern, None);
    }

    #[test]
    fn too_long_is_refused() {
        assert!(PeopleSearch::parse(&"a".repeat(MAX_SEARCH_CHARS + 1)).is_err());
        assert!(PeopleSearch::parse(&"a".repeat(MAX_SEARCH_CHARS)).is_ok());
    }
}
