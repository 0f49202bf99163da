//! Stripe's webhook signatures. The `Stripe-Signature` header reads
//! `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`; each `v1` is HMAC-SHA256 of `"{t}.{body}"` under
//! the endpoint's signing secret (`whsec_...`). A signature older or newer than the tolerance
//! is refused so a captured request cannot be replayed later.

use subtle::ConstantTimeEq;

use crate::providers::secret::{hmac_sha256, to_hex};

/// Stripe's own default tolerance.
pub const TOLERANCE_SECS: i64 = 300;

/// The longest header we read: a timestamp and a few signatures (Stripe sends one `v1` per
/// active secret, two while a secret is rolled).
const MAX_HEADER_LEN: usize = 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("the Stripe-Signature header is missing or malformed")]
    Malformed,
    #[error("no v1 signature of the Stripe-Signature header matches the body")]
    Mismatch,
    #[error("the Stripe-Signature timestamp is outside the {TOLERANCE_SECS} s tolerance")]
    Stale,
}

/// Checks `header` against `payload` (the raw body, byte for byte) at `now_unix`.
pub fn verify(
    payload: &[u8],
    header: &str,
    secret: &str,
    now_unix: i64,
) -> Result<(), SignatureError> {
    if header.len() > MAX_HEADER_LEN {
        return Err(SignatureError::Malformed);
    }
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<i64>().ok(),
            Some(("v1", value)) => signatures.push(value),
            _ => {}
        }
    }
    let (Some(timestamp), false) = (timestamp, signatures.is_empty()) else {
        return Err(SignatureError::Malformed);
    };
    let expected = to_hex(&hmac_sha256(
        secret.as_bytes(),
        &signed_payload(timestamp, payload),
    ));
    let matches = signatures
        .iter()
        .any(|given| bool::from(given.as_bytes().ct_eq(expected.as_bytes())));
    if !matches {
        return Err(SignatureError::Mismatch);
    }
    // Checked after the signature, so a forged header learns nothing from the clock.
    if (now_unix - timestamp).abs() > TOLERANCE_SECS {
        return Err(SignatureError::Stale);
    }
    Ok(())
}

/// The header Stripe would send for `payload` at `timestamp` (for tests and local tools).
pub fn sign(payload: &[u8], secret: &str, timestamp: i64) -> String {
    let mac = hmac_sha256(secret.as_bytes(), &signed_payload(timestamp, payload));
    format!("t={timestamp},v1={}", to_hex(&mac))
}

fn signed_payload(timestamp: i64, payload: &[u8]) -> Vec<u8> {
    let mut signed = format!("{timestamp}.").into_bytes();
    signed.extend_from_slice(payload);
    signed
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test_secret";
    const BODY: &[u8] = br#"{"id":"evt_1","type":"payment_intent.succeeded"}"#;
    const NOW: i64 = 1_800_000_000;

    #[test]
    fn a_fresh_signature_of_the_body_verifies() {
        let header = sign(BODY, SECRET, NOW - 10);
        assert_eq!(verify(BODY, &header, SECRET, NOW), Ok(()));
    }

    #[test]
    fn matches_a_signature_computed_independently() {
        // printf '1800000000.{body}' | openssl dgst -sha256 -hmac whsec_test_secret
        let header =
            "t=1800000000,v1=334f9dbfd609cf6c38f112f028756732c80faa7fdbeab117549d6303a5dcf896";
        assert_eq!(sign(BODY, SECRET, NOW), header);
        assert_eq!(verify(BODY, header, SECRET, NOW), Ok(()));
    }

    #[test]
    fn one_matching_signature_among_several_is_enough() {
        let good = sign(BODY, SECRET, NOW);
        let v1 = good.split_once(",v1=").unwrap().1;
        let header = format!("t={NOW},v1={},v0=abc,v1={v1}", "00".repeat(32));
        assert_eq!(verify(BODY, &header, SECRET, NOW), Ok(()));
    }

    #[test]
    fn another_body_or_secret_does_not_verify() {
        let header = sign(BODY, SECRET, NOW);
        assert_eq!(
            verify(b"{\"id\":\"evt_2\"}", &header, SECRET, NOW),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify(BODY, &header, "whsec_other", NOW),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn a_signature_past_the_tolerance_is_stale() {
        let header = sign(BODY, SECRET, NOW - TOLERANCE_SECS - 1);
        assert_eq!(
            verify(BODY, &header, SECRET, NOW),
            Err(SignatureError::Stale)
        );
        let edge = sign(BODY, SECRET, NOW - TOLERANCE_SECS);
        assert_eq!(verify(BODY, &edge, SECRET, NOW), Ok(()));
        let future = sign(BODY, SECRET, NOW + TOLERANCE_SECS + 1);
        assert_eq!(
            verify(BODY, &future, SECRET, NOW),
            Err(SignatureError::Stale)
        );
    }

    #[test]
    fn headers_without_a_timestamp_or_signature_are_malformed() {
        for header in ["", "t=12", "v1=abcd", "t=x,v1=abcd", &"a".repeat(2000)] {
            assert_eq!(
                verify(BODY, header, SECRET, NOW),
                Err(SignatureError::Malformed),
                "{header:?}"
            );
        }
    }
}
