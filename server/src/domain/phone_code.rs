//! The 4-digit phone verification code: the first digit 1 to 9, then three digits.

use rand::Rng;

#[derive(Clone, PartialEq, Eq)]
pub struct PhoneCode(String);

impl PhoneCode {
    pub fn generate() -> Self {
        let n: u16 = rand::thread_rng().gen_range(1000..=9999);
        Self(n.to_string())
    }

    pub fn parse(raw: &str) -> Result<Self, String> {
        let code = raw.trim();
        let b = code.as_bytes();
        if b.len() != 4 || !b.iter().all(u8::is_ascii_digit) || b[0] == b'0' {
            return Err("enter the 4-digit code from the text message".into());
        }
        Ok(Self(code.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for PhoneCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PhoneCode(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_codes_follow_the_rule() {
        for _ in 0..1000 {
            let code = PhoneCode::generate();
            assert!(PhoneCode::parse(code.as_str()).is_ok(), "{}", code.as_str());
        }
    }

    #[test]
    fn parsing() {
        assert!(PhoneCode::parse(" 1234 ").is_ok());
        for bad in ["0123", "123", "12345", "12a4", ""] {
            assert!(PhoneCode::parse(bad).is_err(), "{bad}");
        }
    }
}
