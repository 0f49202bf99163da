//! Why a gateway refused a card, as Stripe names it, and what the cardholder reads.

/// Why a card was refused, as Stripe's `decline_code` / `code` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decline {
    CardDeclined,
    InsufficientFunds,
    AuthenticationFailed,
    ExpiredCard,
    IncorrectCvc,
}

impl Decline {
    /// Stripe's code, stored in the ledger.
    pub fn code(self) -> &'static str {
        match self {
            Self::CardDeclined => "card_declined",
            Self::InsufficientFunds => "insufficient_funds",
            Self::AuthenticationFailed => "authentication_failed",
            Self::ExpiredCard => "expired_card",
            Self::IncorrectCvc => "incorrect_cvc",
        }
    }

    /// For the person paying.
    pub fn message(self) -> &'static str {
        match self {
            Self::CardDeclined => "Your card was declined.",
            Self::InsufficientFunds => "Your card has insufficient funds.",
            Self::AuthenticationFailed => "The card could not be authenticated.",
            Self::ExpiredCard => "Your card has expired.",
            Self::IncorrectCvc => "Your card's security code is incorrect.",
        }
    }

    /// Reads Stripe's `decline_code` or `code`; unknown codes are a plain decline.
    pub fn from_code(code: &str) -> Self {
        match code {
            "insufficient_funds" => Self::InsufficientFunds,
            "payment_intent_authentication_failure" | "authentication_failed" => {
                Self::AuthenticationFailed
            }
            "expired_card" => Self::ExpiredCard,
            "incorrect_cvc" => Self::IncorrectCvc,
            _ => Self::CardDeclined,
        }
    }
}
