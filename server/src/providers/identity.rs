//! What can go wrong when signing in with an outside account (Google, Facebook). Each case is
//! its own variant so the API can answer precisely; [`IdentityError::reason`] gives the
//! stable code the clients translate.

use crate::error::ErrorReason;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    /// No client id / app id configured: the sign-in button is hidden.
    #[error("{provider} sign-in is not available on this site")]
    NotConfigured { provider: &'static str },
    #[error("the {provider} sign-in is not valid; please sign in again")]
    InvalidToken { provider: &'static str },
    #[error("the {provider} sign-in has expired; please sign in again")]
    Expired { provider: &'static str },
    #[error("the {provider} sign-in was made for another application")]
    WrongAudience { provider: &'static str },
    #[error("the sign-in was not issued by {provider}")]
    WrongIssuer { provider: &'static str },
    #[error("the {provider} sign-in carries a signature that does not check out")]
    BadSignature { provider: &'static str },
    #[error("the {provider} sign-in was signed with a key {provider} does not publish")]
    UnknownKey { provider: &'static str },
    #[error("the email address of this {provider} account is not verified")]
    EmailNotVerified { provider: &'static str },
    #[error(
        "this {provider} account does not share an email address; allow it, or sign up with email"
    )]
    MissingEmail { provider: &'static str },
    /// The provider could not be asked; `detail` is for the log, not for the person.
    #[error("{provider} sign-in is not answering right now; please try again")]
    Unavailable {
        provider: &'static str,
        detail: String,
    },
}

impl IdentityError {
    /// The reason of this failure, for `ErrorInfo.reason`.
    pub fn reason(&self) -> ErrorReason {
        match self {
            Self::NotConfigured { .. } => ErrorReason::SignInProviderNotConfigured,
            Self::InvalidToken { .. } => ErrorReason::SignInTokenInvalid,
            Self::Expired { .. } => ErrorReason::SignInTokenExpired,
            Self::WrongAudience { .. } => ErrorReason::SignInTokenWrongAudience,
            Self::WrongIssuer { .. } => ErrorReason::SignInTokenWrongIssuer,
            Self::BadSignature { .. } => ErrorReason::SignInTokenBadSignature,
            Self::UnknownKey { .. } => ErrorReason::SignInTokenUnknownKey,
            Self::EmailNotVerified { .. } => ErrorReason::SignInEmailNotVerified,
            Self::MissingEmail { .. } => ErrorReason::SignInEmailMissing,
            Self::Unavailable { .. } => ErrorReason::SignInProviderUnavailable,
        }
    }

    /// Logs the detail (never shown to the person) and makes the error.
    pub(crate) fn unavailable(provider: &'static str, detail: impl std::fmt::Display) -> Self {
        let detail = detail.to_string();
        tracing::warn!(provider, %detail, "sign-in provider unavailable");
        Self::Unavailable { provider, detail }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_detail_of_an_outage_stays_out_of_the_message() {
        let error = IdentityError::unavailable("Google", "connection refused to 10.0.0.1");
        assert_eq!(
            error.to_string(),
            "Google sign-in is not answering right now; please try again"
        );
        assert_eq!(error.reason(), ErrorReason::SignInProviderUnavailable);
    }
}
