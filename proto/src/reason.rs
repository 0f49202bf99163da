//! How an [`ErrorReason`] travels: as its name in the contract without buf's `ERROR_REASON_`
//! prefix (`ErrorReason::SessionRevoked` is "SESSION_REVOKED"), in `ErrorInfo.reason` and
//! in the legacy replies' `code`. The only place a reason becomes a string and back.

use crate::errors::ErrorReason;

/// The prefix buf's style gives every value of [`ErrorReason`]; the wire string goes without it.
const REASON_PREFIX: &str = "ERROR_REASON_";

impl ErrorReason {
    /// The reason's code on the wire.
    pub fn code(self) -> &'static str {
        let name = self.as_str_name();
        name.strip_prefix(REASON_PREFIX).unwrap_or(name)
    }

    /// The reason a code on the wire names, if it is one of this contract's.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::from_str_name(&format!("{REASON_PREFIX}{code}"))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// Every value of the contract's enum, in order.
    fn every_reason() -> Vec<ErrorReason> {
        (0..).map_while(|n| ErrorReason::try_from(n).ok()).collect()
    }

    #[test]
    fn a_reason_travels_as_its_name_in_the_contract_without_the_prefix() {
        assert_eq!(ErrorReason::SessionRevoked.code(), "SESSION_REVOKED");
        assert_eq!(ErrorReason::Internal.code(), "INTERNAL");
        let reasons = every_reason();
        assert!(reasons.len() > 100, "{}", reasons.len());
        let mut codes = HashSet::new();
        for reason in reasons {
            let code = reason.code();
            assert_eq!(format!("{REASON_PREFIX}{code}"), reason.as_str_name());
            assert_eq!(ErrorReason::from_code(code), Some(reason));
            assert!(
                !code.is_empty()
                    && code
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'),
                "{code}"
            );
            assert!(codes.insert(code), "{code} twice");
        }
    }

    #[test]
    fn a_code_of_no_reason_is_none() {
        assert_eq!(ErrorReason::from_code("NO_SUCH_REASON"), None);
        assert_eq!(ErrorReason::from_code("ERROR_REASON_INTERNAL"), None);
    }
}
