//! Canada's provinces and territories, beside the contract that names them: an `Address`'s
//! `province` is one of these two-letter codes (`repairs.type.v1.Address`). The one table of
//! codes and English and French names, and the one reading of a province as people type it
//! (by code or by either name) back to its code, for the server and the BFF alike.

/// Every province and territory: two-letter code, English name, French name.
pub const PROVINCES: [(&str, &str, &str); 13] = [
    ("AB", "Alberta", "Alberta"),
    ("BC", "British Columbia", "Colombie-Britannique"),
    ("MB", "Manitoba", "Manitoba"),
    ("NB", "New Brunswick", "Nouveau-Brunswick"),
    ("NL", "Newfoundland and Labrador", "Terre-Neuve-et-Labrador"),
    ("NS", "Nova Scotia", "Nouvelle-Écosse"),
    ("NT", "Northwest Territories", "Territoires du Nord-Ouest"),
    ("NU", "Nunavut", "Nunavut"),
    ("ON", "Ontario", "Ontario"),
    ("PE", "Prince Edward Island", "Île-du-Prince-Édouard"),
    ("QC", "Quebec", "Québec"),
    ("SK", "Saskatchewan", "Saskatchewan"),
    ("YT", "Yukon", "Yukon"),
];

/// The form in which a name typed by a person is compared: trimmed, lower case, French accents
/// dropped, hyphens and dots as spaces, runs of spaces as one. "Québec", "QUEBEC" and " quebec "
/// fold alike, and so do "Colombie-Britannique" and "colombie britannique".
pub fn fold(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'î' | 'ï' => 'i',
            'ô' => 'o',
            'à' | 'â' => 'a',
            'ç' => 'c',
            '-' | '.' => ' ',
            other => other,
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The two-letter code of the province `text` names: its code or its English or French name,
/// in any case, with or without accents and hyphens (see [`fold`]). `None` when it names none.
pub fn code_of(text: &str) -> Option<&'static str> {
    let folded = fold(text);
    PROVINCES
        .iter()
        .find(|(code, english, french)| {
            folded == code.to_ascii_lowercase() || folded == fold(english) || folded == fold(french)
        })
        .map(|(code, _, _)| *code)
}

/// The English name of the province whose code is `code` ("AB" -> "Alberta"); `None` for
/// anything that is not one of the codes, as written ("AB", not "ab").
pub fn english_name(code: &str) -> Option<&'static str> {
    PROVINCES
        .iter()
        .find(|(known, _, _)| *known == code)
        .map(|(_, english, _)| *english)
}

/// The French name of the province whose code is `code` ("QC" -> "Québec"); `None` as for
/// [`english_name`].
pub fn french_name(code: &str) -> Option<&'static str> {
    PROVINCES
        .iter()
        .find(|(known, _, _)| *known == code)
        .map(|(_, _, french)| *french)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_and_name_reads_back_to_its_code() {
        for (code, english, french) in PROVINCES {
            assert_eq!(code.len(), 2, "{code}");
            for text in [code, english, french] {
                assert_eq!(code_of(text), Some(code), "{text}");
                assert_eq!(code_of(&text.to_lowercase()), Some(code), "{text}");
                assert_eq!(code_of(&text.to_uppercase()), Some(code), "{text}");
            }
            assert_eq!(english_name(code), Some(english));
            assert_eq!(french_name(code), Some(french));
        }
    }

    #[test]
    fn names_are_read_as_people_type_them() {
        for (text, code) in [
            ("ab", "AB"),
            (" Alberta ", "AB"),
            ("Québec", "QC"),
            ("quebec", "QC"),
            ("QUÉBEC", "QC"),
            ("Colombie-Britannique", "BC"),
            ("colombie britannique", "BC"),
            ("british columbia", "BC"),
            ("Île-du-Prince-Édouard", "PE"),
            ("ile du prince edouard", "PE"),
            ("Newfoundland  and Labrador", "NL"),
            ("Nouvelle Ecosse", "NS"),
        ] {
            assert_eq!(code_of(text), Some(code), "{text}");
        }
        for text in ["", "XX", "Texas", "Quebec City", "A B", "Canada"] {
            assert_eq!(code_of(text), None, "{text}");
        }
    }

    #[test]
    fn names_are_only_given_for_codes_as_written() {
        assert_eq!(english_name("QC"), Some("Quebec"));
        assert_eq!(french_name("NL"), Some("Terre-Neuve-et-Labrador"));
        for code in ["qc", "XX", "", "Quebec"] {
            assert_eq!(english_name(code), None, "{code}");
            assert_eq!(french_name(code), None, "{code}");
        }
    }

    #[test]
    fn folding() {
        assert_eq!(fold(" Nouvelle-Écosse "), "nouvelle ecosse");
        assert_eq!(fold("St. Albert"), "st albert");
        assert_eq!(fold("Ça  va"), "ca va");
        assert_eq!(fold(""), "");
    }
}
