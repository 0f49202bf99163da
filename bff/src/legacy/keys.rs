//! Idempotency keys for legacy calls, which carry none: the BFF names one (a UUID v5) from what
//! identifies the operation, so a retried call names the same key and the server answers it
//! with the first call's result (one payment, one placed request).

use uuid::Uuid;

use super::rpc::Rpc;

/// The namespace of the BFF's legacy idempotency keys.
const KEY_NAMESPACE: Uuid = Uuid::from_u128(0x5f1b_0c8e_3a7d_4c21_9e4b_6d2a_8f10_c3b7);

/// The `request_id` of a legacy call: a name-based UUID (v5) of the operation, the caller's
/// account (the token's subject; the server checks the token) and the call's own fields.
/// The same call sent again names the same key.
pub fn request_id(operation: &str, rpc: &Rpc, parts: &[&str]) -> String {
    let subject = rpc.token().unverified_subject().unwrap_or_default();
    name_key(operation, &subject, parts)
}

/// The parts are joined with a separator no legacy text field carries (U+001F), so
/// `["ab", "c"]` and `["a", "bc"]` name different keys.
fn name_key(operation: &str, subject: &str, parts: &[&str]) -> String {
    let mut name = format!("{operation}\u{1f}{subject}");
    for part in parts {
        name.push('\u{1f}');
        name.push_str(part);
    }
    Uuid::new_v5(&KEY_NAMESPACE, name.as_bytes()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_the_caller_and_the_operation() {
        let key = name_key("membership", "a", &["tok_visa", ""]);
        assert_eq!(key, name_key("membership", "a", &["tok_visa", ""]));
        assert!(Uuid::parse_str(&key).is_ok());
        assert_ne!(key, name_key("membership", "b", &["tok_visa", ""]));
        assert_ne!(key, name_key("membership", "a", &["tok_visa", "SAVE"]));
        assert_ne!(key, name_key("test_charge", "a", &["tok_visa", ""]));
        assert_ne!(
            name_key("membership", "a", &["ab", "c"]),
            name_key("membership", "a", &["a", "bc"])
        );
    }

    #[test]
    fn keys_stay_the_same_across_releases() {
        // Keys already sent to the server must keep naming the same operation.
        assert_eq!(
            name_key("membership", "a", &["tok_visa", ""]),
            Uuid::new_v5(
                &Uuid::from_u128(0x5f1b_0c8e_3a7d_4c21_9e4b_6d2a_8f10_c3b7),
                "membership\u{1f}a\u{1f}tok_visa\u{1f}".as_bytes()
            )
            .to_string()
        );
    }
}
