//! A Canadian address as people type it, and checked: the one rule for a request's address,
//! a professional's home base and an address to place on the map. Its bounds are the
//! contract's (`repairs.type.v1.Address`).

use repairs_proto::limits::address::{CITY_MAX_LEN, LINE1_MAX_LEN, LINE2_MAX_LEN};

use super::{
    PostalCode,
    professional::parse_province,
    text::{bounded_text, optional_text},
};

/// An address as typed (the contract's `repairs.type.v1.Address`, transport-free).
#[derive(Debug, Clone, Default)]
pub struct AddressForm {
    pub line1: String,
    pub line2: String,
    pub city: String,
    pub province: String,
    pub postal_code: String,
}

/// A checked address: trimmed lines within their bounds and a province's two-letter code.
/// `P` is what the postal code is: `Option<PostalCode>` where it may be left out (a city
/// places a request), `PostalCode` where it is required (a professional's home base).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address<P = Option<PostalCode>> {
    pub line1: String,
    /// Empty when not given.
    pub line2: String,
    pub city: String,
    /// Two-letter code.
    pub province: String,
    pub postal_code: P,
}

/// What is wrong with an address: each part's name (`line1`, `postal_code`) and its words.
pub type AddressProblems = Vec<(&'static str, String)>;

const POSTAL_CODE_WORDS: &str = "enter a Canadian postal code, such as T2P 1J9";

/// A postal code, given or not.
pub trait PostalCodeOf {
    fn postal_code(&self) -> Option<&PostalCode>;
}

impl PostalCodeOf for Option<PostalCode> {
    fn postal_code(&self) -> Option<&PostalCode> {
        self.as_ref()
    }
}

impl PostalCodeOf for PostalCode {
    fn postal_code(&self) -> Option<&PostalCode> {
        Some(self)
    }
}

impl Address {
    /// The address with every part checked; a blank postal code is left out.
    pub fn parse(form: &AddressForm) -> Result<Self, AddressProblems> {
        Self::parse_parts(form, false)
    }

    /// The same, with the postal code required.
    pub fn parse_with_postal_code(
        form: &AddressForm,
    ) -> Result<Address<PostalCode>, AddressProblems> {
        let address = Self::parse_parts(form, true)?;
        let Some(postal_code) = address.postal_code else {
            return Err(vec![("postal_code", POSTAL_CODE_WORDS.to_owned())]);
        };
        Ok(Address {
            line1: address.line1,
            line2: address.line2,
            city: address.city,
            province: address.province,
            postal_code,
        })
    }

    fn parse_parts(
        form: &AddressForm,
        postal_code_required: bool,
    ) -> Result<Self, AddressProblems> {
        let mut problems = AddressProblems::new();
        let line1 = part(
            &mut problems,
            "line1",
            bounded_text(&form.line1, "the street address", LINE1_MAX_LEN),
        );
        let line2 = part(
            &mut problems,
            "line2",
            optional_text(&form.line2, "the second line", LINE2_MAX_LEN),
        );
        let city = part(
            &mut problems,
            "city",
            bounded_text(&form.city, "the city", CITY_MAX_LEN),
        );
        let province = part(&mut problems, "province", parse_province(&form.province));
        let postal_code = part(
            &mut problems,
            "postal_code",
            match form.postal_code.trim() {
                "" if !postal_code_required => Ok(None),
                given => PostalCode::parse(given).map(Some),
            },
        );
        match (line1, line2, city, province, postal_code) {
            (Some(line1), Some(line2), Some(city), Some(province), Some(postal_code)) => Ok(Self {
                line1,
                line2,
                city,
                province,
                postal_code,
            }),
            _ => Err(problems),
        }
    }
}

/// A part's value, or `None` with its words recorded.
fn part<T>(
    problems: &mut AddressProblems,
    name: &'static str,
    result: Result<T, String>,
) -> Option<T> {
    result.map_err(|words| problems.push((name, words))).ok()
}

impl<P: PostalCodeOf> Address<P> {
    /// The postal code as written ("T2P 1J9"), when there is one.
    pub fn postal_code_str(&self) -> Option<&str> {
        self.postal_code.postal_code().map(PostalCode::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> AddressForm {
        AddressForm {
            line1: " 100 8 Ave SW ".into(),
            line2: String::new(),
            city: "Calgary".into(),
            province: "Alberta".into(),
            postal_code: "t2p1j9".into(),
        }
    }

    #[test]
    fn a_good_address_is_trimmed_and_normalised() {
        let address = Address::parse(&form()).unwrap();
        assert_eq!(address.line1, "100 8 Ave SW");
        assert_eq!(address.province, "AB");
        assert_eq!(address.postal_code_str(), Some("T2P 1J9"));
    }

    #[test]
    fn every_bad_part_is_named_once() {
        let bad = AddressForm {
            line1: String::new(),
            line2: "x".repeat(LINE2_MAX_LEN + 1),
            city: " ".into(),
            province: "Narnia".into(),
            postal_code: "12345".into(),
        };
        let names: Vec<&str> = Address::parse(&bad)
            .unwrap_err()
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(names, ["line1", "line2", "city", "province", "postal_code"]);
    }

    #[test]
    fn a_postal_code_may_be_left_out_unless_required() {
        let without = AddressForm {
            postal_code: "  ".into(),
            ..form()
        };
        assert_eq!(Address::parse(&without).unwrap().postal_code, None);
        let problems = Address::parse_with_postal_code(&without).unwrap_err();
        assert_eq!(problems, [("postal_code", POSTAL_CODE_WORDS.to_owned())]);
        let bad_city = AddressForm {
            city: String::new(),
            ..without
        };
        let names: Vec<&str> = Address::parse_with_postal_code(&bad_city)
            .unwrap_err()
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(names, ["city", "postal_code"]);
        let required = Address::parse_with_postal_code(&form()).unwrap();
        assert_eq!(required.postal_code.as_str(), "T2P 1J9");
    }
}
