//! Refresh tokens: 32 random bytes, written as 43 characters of unpadded base64url. Opaque to
//! clients, single-use, and stored only as their SHA-256 (`store::refresh_tokens`).

use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// The length of every refresh token.
pub const REFRESH_TOKEN_CHARS: usize = 43;

/// A refresh token, made here or read from a request.
#[derive(Clone, PartialEq, Eq)]
pub struct RefreshToken(String);

impl std::fmt::Debug for RefreshToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RefreshToken(<redacted>)")
    }
}

impl RefreshToken {
    /// A new random token.
    pub fn generate() -> Self {
        let mut raw = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut raw);
        Self(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw))
    }

    /// A token as a client sends it back (surrounding blanks ignored); anything that cannot be
    /// one of ours is refused before any look-up.
    pub fn parse(text: &str) -> Result<Self, &'static str> {
        let text = text.trim();
        if text.is_empty() {
            return Err("send the session's refresh token");
        }
        let well_formed = text.len() == REFRESH_TOKEN_CHARS
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !well_formed {
            return Err("this is not a refresh token");
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What the database keeps of it.
    pub fn hash(&self) -> [u8; 32] {
        Sha256::digest(self.0.as_bytes()).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_tokens_parse_back_and_differ() {
        let one = RefreshToken::generate();
        let two = RefreshToken::generate();
        assert_ne!(one, two);
        assert_eq!(one.as_str().len(), REFRESH_TOKEN_CHARS);
        assert_eq!(
            RefreshToken::parse(&format!(" {} ", one.as_str())),
            Ok(one.clone())
        );
        assert_ne!(one.hash(), two.hash());
        assert_ne!(one.hash().as_slice(), one.as_str().as_bytes());
    }

    #[test]
    fn what_cannot_be_a_token_is_refused() {
        let good = RefreshToken::generate();
        for bad in [
            String::new(),
            "  ".to_owned(),
            good.as_str()[1..].to_owned(),
            format!("{}A", good.as_str()),
            format!("{}=", &good.as_str()[1..]),
            "é".repeat(REFRESH_TOKEN_CHARS),
            "x".repeat(5000),
        ] {
            assert!(RefreshToken::parse(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_token_never_shows_in_logs() {
        let token = RefreshToken::generate();
        assert!(!format!("{token:?}").contains(token.as_str()));
    }
}
