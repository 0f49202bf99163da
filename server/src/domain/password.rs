//! A new password: at least 8 characters, at most 128 (argon2 takes any length, but a
//! limit keeps hashing time bounded).

#[derive(Clone, PartialEq, Eq)]
pub struct NewPassword(String);

pub const MIN_PASSWORD_CHARS: usize = 8;
const MAX_PASSWORD_CHARS: usize = repairs_proto::limits::sign_up::PASSWORD_MAX_LEN;

impl NewPassword {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let chars = raw.chars().count();
        if chars < MIN_PASSWORD_CHARS {
            return Err(format!("use at least {MIN_PASSWORD_CHARS} characters"));
        }
        if chars > MAX_PASSWORD_CHARS {
            return Err(format!("use at most {MAX_PASSWORD_CHARS} characters"));
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

impl std::fmt::Debug for NewPassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NewPassword(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_rules() {
        assert!(NewPassword::parse("1234567").is_err());
        assert!(NewPassword::parse("12345678").is_ok());
        assert!(
            NewPassword::parse("éééééééé").is_ok(),
            "characters, not bytes"
        );
        assert!(NewPassword::parse(&"x".repeat(129)).is_err());
        assert_eq!(
            format!("{:?}", NewPassword::parse("secret-pass").unwrap()),
            "NewPassword(<redacted>)"
        );
    }
}
