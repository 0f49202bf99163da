//! Links to private files (licences) that work for a while and cannot be forged or altered:
//! `/files/{key}?exp={unix seconds}&sig={hex HMAC-SHA256 of key and exp}`.

use chrono::{DateTime, Utc};
use subtle::ConstantTimeEq;

use super::{StorageResult, validate_key};
use crate::providers::secret::{hmac_sha256, to_hex};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignedUrlError {
    #[error("this link is not valid")]
    Invalid,
    #[error("this link has expired; open the file again from the site to get a new one")]
    Expired,
}

/// The path and query of a link to `key` that works until `expires_at`.
pub fn sign_file_url(secret: &[u8], key: &str, expires_at: DateTime<Utc>) -> StorageResult<String> {
    validate_key(key)?;
    let exp = expires_at.timestamp();
    Ok(format!(
        "/files/{key}?exp={exp}&sig={}",
        to_hex(&signature(secret, key, exp))
    ))
}

/// Checks the `key` (from the path) and `exp`, `sig` (from the query) of a link at `now`.
pub fn verify_file_url(
    secret: &[u8],
    key: &str,
    exp: i64,
    sig: &str,
    now: DateTime<Utc>,
) -> Result<(), SignedUrlError> {
    let given = from_hex(sig).ok_or(SignedUrlError::Invalid)?;
    let expected = signature(secret, key, exp);
    if validate_key(key).is_err() || !bool::from(given.as_slice().ct_eq(&expected)) {
        return Err(SignedUrlError::Invalid);
    }
    if now.timestamp() >= exp {
        return Err(SignedUrlError::Expired);
    }
    Ok(())
}

/// Signs key and expiry together, under a label of their own, so that a MAC made for
/// anything else with the same secret never passes as a file link.
fn signature(secret: &[u8], key: &str, exp: i64) -> [u8; 32] {
    hmac_sha256(secret, format!("file-url\n{key}\n{exp}").as_bytes())
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;

    const SECRET: &[u8] = b"a secret of at least thirty-two bytes!!";

    fn parts(url: &str) -> (String, i64, String) {
        let (path, query) = url.split_once('?').unwrap();
        let key = path.strip_prefix("/files/").unwrap().to_owned();
        let (exp, sig) = query.split_once('&').unwrap();
        let exp = exp.strip_prefix("exp=").unwrap().parse().unwrap();
        let sig = sig.strip_prefix("sig=").unwrap().to_owned();
        (key, exp, sig)
    }

    #[test]
    fn a_link_works_until_it_expires() {
        let now = Utc::now();
        let url =
            sign_file_url(SECRET, "licences/42/front.pdf", now + Duration::minutes(10)).unwrap();
        assert!(url.starts_with("/files/licences/42/front.pdf?exp="));
        let (key, exp, sig) = parts(&url);
        assert_eq!(verify_file_url(SECRET, &key, exp, &sig, now), Ok(()));
        assert_eq!(
            verify_file_url(SECRET, &key, exp, &sig, now + Duration::minutes(10)),
            Err(SignedUrlError::Expired)
        );
    }

    #[test]
    fn altered_links_are_refused() {
        let now = Utc::now();
        let url =
            sign_file_url(SECRET, "licences/42/front.pdf", now + Duration::minutes(10)).unwrap();
        let (key, exp, sig) = parts(&url);
        let invalid = Err(SignedUrlError::Invalid);
        assert_eq!(
            verify_file_url(SECRET, "licences/43/front.pdf", exp, &sig, now),
            invalid
        );
        assert_eq!(
            verify_file_url(SECRET, &key, exp + 3600, &sig, now),
            invalid
        );
        assert_eq!(
            verify_file_url(b"another secret", &key, exp, &sig, now),
            invalid
        );
        assert_eq!(verify_file_url(SECRET, &key, exp, &sig[2..], now), invalid);
        assert_eq!(verify_file_url(SECRET, &key, exp, "zz", now), invalid);
        assert_eq!(verify_file_url(SECRET, &key, exp, "é1", now), invalid);
    }

    #[test]
    fn only_valid_keys_are_signed() {
        assert!(sign_file_url(SECRET, "../secret", Utc::now()).is_err());
    }
}
