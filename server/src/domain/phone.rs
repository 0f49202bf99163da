//! Phone numbers in E.164, from the two countries the product accepts: Canada (+1, NANP:
//! 10 digits, area code and exchange not starting with 0 or 1) and India (+91, 10 digits
//! starting with 6 to 9).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Phone(String);

impl Phone {
    /// From the form's country code ("+1", "+91") and the typed number; spaces, dashes,
    /// dots and brackets are ignored, and a leading trunk prefix ("1" or "0") is dropped.
    pub fn parse(country_code: &str, number: &str) -> Result<Self, String> {
        let digits: String = number
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '.' | '(' | ')'))
            .collect();
        if digits.is_empty() {
            return Err("enter a phone number".into());
        }
        if !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err("a phone number has only digits".into());
        }
        match country_code.trim() {
            "+1" | "1" => {
                let national = if digits.len() == 11 {
                    digits.strip_prefix('1').unwrap_or(&digits)
                } else {
                    &digits
                };
                let b = national.as_bytes();
                if national.len() != 10 || b[0] < b'2' || b[3] < b'2' {
                    return Err("enter a 10-digit Canadian number, such as 403 555 0100".into());
                }
                Ok(Self(format!("+1{national}")))
            }
            "+91" | "91" => {
                let national = if digits.len() == 11 {
                    digits.strip_prefix('0').unwrap_or(&digits)
                } else {
                    &digits
                };
                if national.len() != 10 || !matches!(national.as_bytes()[0], b'6'..=b'9') {
                    return Err("enter a 10-digit Indian mobile number, such as 98765 43210".into());
                }
                Ok(Self(format!("+91{national}")))
            }
            _ => Err("choose +1 (Canada) or +91 (India)".into()),
        }
    }

    /// From an E.164 string ("+14035550100").
    pub fn parse_e164(raw: &str) -> Result<Self, String> {
        let raw = raw.trim();
        if let Some(rest) = raw.strip_prefix("+91") {
            Self::parse("+91", rest)
        } else if let Some(rest) = raw.strip_prefix("+1") {
            Self::parse("+1", rest)
        } else {
            Err("enter the phone number with its country code, +1 or +91".into())
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The country calling code, without its plus: "1" or "91".
    pub fn calling_code(&self) -> &'static str {
        if self.0.starts_with("+91") { "91" } else { "1" }
    }
}

impl fmt::Display for Phone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canadian_numbers() {
        assert_eq!(
            Phone::parse("+1", "(403) 555-0100").unwrap().as_str(),
            "+14035550100"
        );
        assert_eq!(
            Phone::parse("+1", "1 403 555 0100").unwrap().as_str(),
            "+14035550100"
        );
        assert!(Phone::parse("+1", "403 555 010").is_err());
        assert!(
            Phone::parse("+1", "003 555 0100").is_err(),
            "area codes do not start with 0"
        );
        assert!(
            Phone::parse("+1", "403 155 0100").is_err(),
            "exchanges do not start with 1"
        );
    }

    #[test]
    fn indian_numbers() {
        assert_eq!(
            Phone::parse("+91", "98765 43210").unwrap().as_str(),
            "+919876543210"
        );
        assert_eq!(
            Phone::parse("+91", "098765 43210").unwrap().as_str(),
            "+919876543210"
        );
        assert!(Phone::parse("+91", "58765 43210").is_err());
    }

    #[test]
    fn other_countries_and_junk_are_refused() {
        assert!(Phone::parse("+44", "7700 900123").is_err());
        assert!(Phone::parse("+1", "403-555-O100").is_err());
        assert!(Phone::parse("+1", "").is_err());
        assert_eq!(
            Phone::parse_e164("+14035550100").unwrap().as_str(),
            "+14035550100"
        );
        assert!(Phone::parse_e164("4035550100").is_err());
    }
}
