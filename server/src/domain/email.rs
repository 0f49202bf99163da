//! An email address: trimmed, at most 254 characters, one `@` with a plausible local part
//! and a dotted domain. Deliverability is proven by the messages we send, not here.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("enter a valid email address, such as name@example.com")]
pub struct InvalidEmail;

impl Email {
    pub fn parse(raw: &str) -> Result<Self, InvalidEmail> {
        let email = raw.trim();
        // Length first: nothing longer is looked at.
        if email.len() > repairs_proto::limits::sign_up::EMAIL_MAX_LEN {
            return Err(InvalidEmail);
        }
        let (local, domain) = email.split_once('@').ok_or(InvalidEmail)?;
        let domain_ok = domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains("..")
            && domain
                .chars()
                .all(|c| c.is_alphanumeric() || c == '.' || c == '-');
        let local_ok = !local.is_empty()
            && local.len() <= 64
            && !local
                .chars()
                .any(|c| c.is_whitespace() || c == '@' || c.is_control());
        if !domain_ok || !local_ok {
            return Err(InvalidEmail);
        }
        Ok(Self(email.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_addresses_and_trims() {
        assert_eq!(
            Email::parse(" Ana.B+x@Example.ca ").unwrap().as_str(),
            "Ana.B+x@Example.ca"
        );
        assert!(Email::parse("jean@réparations.qc.ca").is_ok());
    }

    #[test]
    fn refuses_what_cannot_be_an_address() {
        for bad in [
            "", "plain", "@x.ca", "a@", "a@ca", "a@.ca", "a@x..ca", "a b@x.ca", "a@x.ca.",
        ] {
            assert_eq!(Email::parse(bad), Err(InvalidEmail), "{bad:?}");
        }
        let long = format!("{}@x.ca", "a".repeat(65));
        assert!(Email::parse(&long).is_err());
    }
}
