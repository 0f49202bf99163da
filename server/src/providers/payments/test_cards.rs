//! Stripe's test cards, as the offline test gateway honours them: the `tok_*` and
//! `pm_card_*` test tokens and the test card numbers (spaces and dashes ignored).

use super::decline::Decline;

/// What a test card does when charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestCard {
    /// Authorised or charged.
    Succeeds,
    /// Refused with this reason.
    Declines(Decline),
    /// Needs 3-D Secure: the payment waits for the cardholder.
    RequiresAuthentication,
    /// Authorised or charged, then disputed by the cardholder once the money is taken.
    Disputed,
}

impl TestCard {
    /// The behaviour of a test token or number; `None` for anything else.
    pub fn of(method: &str) -> Option<Self> {
        let compact: String = method.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
        let card = match compact.as_str() {
            "tok_visa" | "pm_card_visa" | "4242424242424242" | "tok_mastercard"
            | "pm_card_mastercard" | "5555555555554444" => Self::Succeeds,
            "tok_chargeDeclined" | "pm_card_chargeDeclined" | "4000000000000002" => {
                Self::Declines(Decline::CardDeclined)
            }
            "tok_chargeDeclinedInsufficientFunds"
            | "pm_card_chargeDeclinedInsufficientFunds"
            | "4000000000009995" => Self::Declines(Decline::InsufficientFunds),
            "tok_chargeDeclinedExpiredCard"
            | "pm_card_chargeDeclinedExpiredCard"
            | "4000000000000069" => Self::Declines(Decline::ExpiredCard),
            "tok_chargeDeclinedIncorrectCvc"
            | "pm_card_chargeDeclinedIncorrectCvc"
            | "4000000000000127" => Self::Declines(Decline::IncorrectCvc),
            "pm_card_authenticationRequired"
            | "tok_threeDSecure2Required"
            | "pm_card_threeDSecure2Required"
            | "4000002500003155" => Self::RequiresAuthentication,
            "tok_createDispute" | "pm_card_createDispute" | "4000000000000259" => Self::Disputed,
            _ => return None,
        };
        Some(card)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Option<TestCard> {
        TestCard::of(text)
    }

    #[test]
    fn the_usual_test_cards_succeed() {
        for method in [
            "tok_visa",
            "pm_card_visa",
            "4242 4242 4242 4242",
            "4242-4242-4242-4242",
        ] {
            assert_eq!(card(method), Some(TestCard::Succeeds), "{method}");
        }
    }

    #[test]
    fn the_decline_cards_decline_with_their_reason() {
        assert_eq!(
            card("tok_chargeDeclined"),
            Some(TestCard::Declines(Decline::CardDeclined))
        );
        assert_eq!(
            card("4000 0000 0000 0002"),
            Some(TestCard::Declines(Decline::CardDeclined))
        );
        assert_eq!(
            card("4000 0000 0000 9995"),
            Some(TestCard::Declines(Decline::InsufficientFunds))
        );
    }

    #[test]
    fn the_3155_card_needs_authentication() {
        assert_eq!(
            card("4000 0025 0000 3155"),
            Some(TestCard::RequiresAuthentication)
        );
    }

    #[test]
    fn other_cards_are_unknown() {
        assert_eq!(card("4111 1111 1111 1112"), None);
        assert_eq!(card("pm_1Abc"), None);
    }
}
