//! Sales tax registration numbers, as the Canada Revenue Agency and Revenu Québec issue them:
//! a GST/HST number is the 9-digit business number, `RT` and a 4-digit account
//! (123456789RT0001); a QST number is 10 digits, `TQ` and a 4-digit file (1234567890TQ0001).
//! People type them with spaces and in lower case; they are kept without spaces, upper case.

use std::fmt;

/// A GST/HST registration number, "123456789RT0001".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GstHstNumber(String);

/// A Quebec sales tax (QST) registration number, "1234567890TQ0001".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct QstNumber(String);

impl GstHstNumber {
    pub fn parse(raw: &str) -> Result<Self, String> {
        GST_HST.read(raw).map(Self)
    }

    /// A number that may be left out: blank (spaces alone included) is none.
    pub fn parse_optional(raw: &str) -> Result<Option<Self>, String> {
        optional(raw, Self::parse)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl QstNumber {
    pub fn parse(raw: &str) -> Result<Self, String> {
        QST.read(raw).map(Self)
    }

    /// A number that may be left out: blank (spaces alone included) is none.
    pub fn parse_optional(raw: &str) -> Result<Option<Self>, String> {
        optional(raw, Self::parse)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GstHstNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for QstNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn optional<T>(raw: &str, parse: fn(&str) -> Result<T, String>) -> Result<Option<T>, String> {
    if raw.trim().is_empty() {
        Ok(None)
    } else {
        parse(raw).map(Some)
    }
}

/// The shape both numbers share: digits, two program letters, a 4-digit account.
struct Layout {
    name: &'static str,
    digits: usize,
    letters: &'static str,
    example: &'static str,
}

const GST_HST: Layout = Layout {
    name: "GST/HST number",
    digits: 9,
    letters: "RT",
    example: "123456789 RT 0001",
};

const QST: Layout = Layout {
    name: "QST number",
    digits: 10,
    letters: "TQ",
    example: "1234567890 TQ 0001",
};

const ACCOUNT_DIGITS: usize = 4;

impl Layout {
    /// The number without spaces, in upper case, or words saying what to fix.
    fn read(&self, raw: &str) -> Result<String, String> {
        let Self {
            name,
            digits,
            letters,
            example,
        } = self;
        let number: String = raw
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_uppercase();
        if number.is_empty() {
            return Err(format!("enter the {name}, such as {example}"));
        }
        let shape = || {
            format!(
                "a {name} is {digits} digits, then {letters} and {ACCOUNT_DIGITS} digits, \
                 such as {example}"
            )
        };
        // ASCII only from here, so splitting at byte counts stays on characters.
        if !number.is_ascii() {
            return Err(shape());
        }
        let leading = number.chars().take_while(char::is_ascii_digit).count();
        let (first, rest) = number.split_at(leading);
        if first.len() == *digits && rest.is_empty() {
            // The business number alone: the program account is missing.
            return Err(format!(
                "add {letters} and the {ACCOUNT_DIGITS}-digit account after the {digits} \
                 digits, such as {example}"
            ));
        }
        let (program, account) = rest.split_at(rest.len().min(2));
        let account_ok =
            account.len() == ACCOUNT_DIGITS && account.chars().all(|c| c.is_ascii_digit());
        let letters_ok = program.len() == 2 && program.chars().all(|c| c.is_ascii_uppercase());
        match (first.len() == *digits, letters_ok, account_ok) {
            (true, true, true) if program == *letters => Ok(number),
            // Another program account of the same business (RP is payroll, for one).
            (true, true, true) => Err(format!(
                "a {name} has {letters} after the {digits} digits, not {program}, \
                 such as {example}"
            )),
            _ => Err(shape()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_kept_without_spaces_in_upper_case() {
        for typed in [
            "123456789RT0001",
            " 123456789 rt 0001 ",
            "123 456 789 Rt 0001",
        ] {
            assert_eq!(
                GstHstNumber::parse(typed).map(|n| n.to_string()),
                Ok("123456789RT0001".to_owned()),
                "{typed:?}"
            );
        }
        for typed in [
            "1234567890TQ0001",
            "1234567890 tq 0001",
            " 1234567890 TQ0001",
        ] {
            assert_eq!(
                QstNumber::parse(typed).map(|n| n.as_str().to_owned()),
                Ok("1234567890TQ0001".to_owned()),
                "{typed:?}"
            );
        }
    }

    #[test]
    fn a_wrong_number_says_what_a_right_one_looks_like() {
        let shape = "a GST/HST number is 9 digits, then RT and 4 digits, such as 123456789 RT 0001";
        for typed in [
            "12345678RT0001",
            "1234567890RT0001",
            "123456789RT001",
            "123456789RT00011",
            "123456789R0001",
            "123456789-RT-0001",
            "123456789RTabcd",
            "ＲＴ",
        ] {
            assert_eq!(
                GstHstNumber::parse(typed),
                Err(shape.to_owned()),
                "{typed:?}"
            );
        }
        assert_eq!(
            QstNumber::parse("123456789RT0001"),
            Err(
                "a QST number is 10 digits, then TQ and 4 digits, such as 1234567890 TQ 0001"
                    .to_owned()
            )
        );
    }

    #[test]
    fn a_blank_number_is_none_and_a_typed_one_is_read_the_same() {
        assert_eq!(GstHstNumber::parse_optional(""), Ok(None));
        assert_eq!(QstNumber::parse_optional(" \t "), Ok(None));
        assert_eq!(
            GstHstNumber::parse_optional(" 123456789 rt 0001").map(|n| n.map(|n| n.to_string())),
            Ok(Some("123456789RT0001".to_owned()))
        );
        assert_eq!(
            QstNumber::parse_optional("1234567890tq0001").map(|n| n.map(|n| n.to_string())),
            Ok(Some("1234567890TQ0001".to_owned()))
        );
        assert!(GstHstNumber::parse_optional("123").is_err());
        assert!(QstNumber::parse_optional("123456789RT0001").is_err());
    }

    #[test]
    fn the_common_slips_are_named() {
        assert_eq!(
            GstHstNumber::parse("  "),
            Err("enter the GST/HST number, such as 123456789 RT 0001".to_owned())
        );
        assert_eq!(
            GstHstNumber::parse("123456789"),
            Err(
                "add RT and the 4-digit account after the 9 digits, such as 123456789 RT 0001"
                    .to_owned()
            )
        );
        assert_eq!(
            GstHstNumber::parse("123456789 RP 0001"),
            Err(
                "a GST/HST number has RT after the 9 digits, not RP, such as 123456789 RT 0001"
                    .to_owned()
            )
        );
        assert_eq!(
            QstNumber::parse("1234567890 RT 0001"),
            Err(
                "a QST number has TQ after the 10 digits, not RT, such as 1234567890 TQ 0001"
                    .to_owned()
            )
        );
    }
}
