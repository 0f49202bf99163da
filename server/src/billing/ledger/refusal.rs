//! How the ledger refuses: its error, the codes a refusal is stored under (so a replay
//! answers the same refusal), and what a caller reads of each.

use crate::{
    error::{ApiError, ErrorReason, FieldViolation},
    providers::payments::{Decline, PaymentError},
};

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// The card was refused; the failed payment is recorded.
    #[error("{}", .0.message())]
    Declined(Decline),
    #[error("the card is not one the payment gateway accepts")]
    InvalidPaymentMethod,
    #[error("the amount is below the smallest charge the gateway accepts")]
    AmountTooSmall,
    #[error("no such payment")]
    NotFound,
    /// The payment's state does not allow this step.
    #[error("this payment cannot be {0} in its current state")]
    State(&'static str),
    #[error("the card authorisation has lapsed; it can no longer be captured")]
    AuthorizationExpired,
    /// More than what is left of the payment was asked; what is left.
    #[error(
        "At most {} is left to refund on this payment",
        crate::words::of(crate::domain::Language::English).money(*.0)
    )]
    RefundExceedsRemaining(crate::domain::Money),
    #[error("a refund is made in the currency of its payment")]
    RefundCurrency,
    #[error("this request_id was already used for another payment call")]
    RequestIdReused,
    #[error("a call with this request_id is still running; retry with the same request_id")]
    InProgress,
    #[error(
        "a test authentication answer is taken only in test mode; with Stripe the cardholder \
         authenticates through Stripe.js"
    )]
    TestModeOnly,
    #[error("the payment gateway is unavailable; please try again")]
    GatewayUnavailable(#[source] anyhow::Error),
    /// Mapped to a status by the one mapping of database errors (a pool time-out is
    /// UNAVAILABLE there, not INTERNAL).
    #[error("the payments ledger could not reach its database")]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// A gateway error as the ledger reports it.
pub fn refusal(error: PaymentError, step: &'static str) -> LedgerError {
    match error {
        PaymentError::Declined { decline, .. } => LedgerError::Declined(decline),
        PaymentError::InvalidPaymentMethod => LedgerError::InvalidPaymentMethod,
        PaymentError::AmountTooSmall => LedgerError::AmountTooSmall,
        PaymentError::NotFound => LedgerError::NotFound,
        PaymentError::State { .. } => LedgerError::State(step),
        PaymentError::KeyReused => LedgerError::RequestIdReused,
        PaymentError::TestModeOnly => LedgerError::TestModeOnly,
        PaymentError::Unavailable(cause) => LedgerError::GatewayUnavailable(cause),
    }
}

/// The code a refusal is stored under, so a replay answers the same refusal; `None` for
/// failures that say nothing about the request (a retry may succeed).
pub(super) fn refusal_code(error: &LedgerError) -> Option<String> {
    let code = match error {
        LedgerError::Declined(decline) => format!("declined:{}", decline.code()),
        LedgerError::InvalidPaymentMethod => "invalid_payment_method".to_owned(),
        LedgerError::AmountTooSmall => "amount_too_small".to_owned(),
        LedgerError::NotFound => "not_found".to_owned(),
        LedgerError::State(step) => format!("state:{step}"),
        LedgerError::AuthorizationExpired => "authorization_expired".to_owned(),
        LedgerError::RefundExceedsRemaining(left) => {
            format!(
                "refund_exceeds:{}:{}",
                left.cents().get(),
                left.currency().code()
            )
        }
        LedgerError::RefundCurrency => "refund_currency".to_owned(),
        LedgerError::RequestIdReused
        | LedgerError::InProgress
        | LedgerError::TestModeOnly
        | LedgerError::GatewayUnavailable(_)
        | LedgerError::Database(_)
        | LedgerError::Internal(_) => return None,
    };
    Some(code)
}

pub(super) fn from_refusal_code(code: &str) -> LedgerError {
    const STEPS: [&str; 5] = ["captured", "voided", "refunded", "started", "confirmed"];
    match code.split_once(':') {
        Some(("declined", decline)) => LedgerError::Declined(Decline::from_code(decline)),
        Some(("refund_exceeds", left)) => left
            .split_once(':')
            .and_then(|(cents, currency)| {
                crate::domain::Money::parse(cents.parse().ok()?, currency).ok()
            })
            .map_or_else(
                || LedgerError::Internal(anyhow::anyhow!("unknown refusal code {code:?}")),
                LedgerError::RefundExceedsRemaining,
            ),
        Some(("state", step)) => STEPS
            .into_iter()
            .find(|s| *s == step)
            .map_or_else(|| LedgerError::State("changed"), LedgerError::State),
        _ => match code {
            "invalid_payment_method" => LedgerError::InvalidPaymentMethod,
            "amount_too_small" => LedgerError::AmountTooSmall,
            "not_found" => LedgerError::NotFound,
            "authorization_expired" => LedgerError::AuthorizationExpired,
            "refund_currency" => LedgerError::RefundCurrency,
            other => LedgerError::Internal(anyhow::anyhow!("unknown refusal code {other:?}")),
        },
    }
}

impl From<LedgerError> for ApiError {
    fn from(error: LedgerError) -> Self {
        use LedgerError as L;
        let message = error.to_string();
        let precondition = |reason| Self::FailedPrecondition {
            reason,
            message: message.clone(),
        };
        match error {
            L::Declined(_) => precondition(ErrorReason::PaymentDeclined),
            L::AmountTooSmall => precondition(ErrorReason::AmountTooSmall),
            L::State(_) => precondition(ErrorReason::PaymentState),
            L::AuthorizationExpired => precondition(ErrorReason::AuthorizationExpired),
            L::RefundExceedsRemaining(_) => precondition(ErrorReason::RefundExceedsRemaining),
            L::RefundCurrency => Self::invalid("amount.currency", message),
            L::RequestIdReused => precondition(ErrorReason::RequestIdReused),
            L::InvalidPaymentMethod => Self::InvalidArgument {
                reason: ErrorReason::PaymentMethodInvalid,
                violations: vec![FieldViolation::new("payment_method", message)],
            },
            L::TestModeOnly => Self::InvalidArgument {
                reason: ErrorReason::TestModeOnly,
                violations: vec![FieldViolation::new("test_authentication", message)],
            },
            L::NotFound => Self::NotFound {
                reason: ErrorReason::PaymentNotFound,
                message,
            },
            L::InProgress => Self::Unavailable {
                reason: ErrorReason::RequestInProgress,
                message,
            },
            L::GatewayUnavailable(cause) => {
                tracing::error!(error = ?cause, "payment gateway unavailable");
                Self::Unavailable {
                    reason: ErrorReason::PaymentGatewayUnavailable,
                    message,
                }
            }
            L::Database(error) => error.into(),
            L::Internal(cause) => Self::Internal(cause),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_that_cannot_serve_is_unavailable() {
        let status: tonic::Status =
            ApiError::from(LedgerError::Database(sqlx::Error::PoolTimedOut)).into();
        assert_eq!(status.code(), tonic::Code::Unavailable);
    }

    #[test]
    fn every_stored_refusal_reads_back_as_itself() {
        let refusals = [
            LedgerError::Declined(Decline::InsufficientFunds),
            LedgerError::InvalidPaymentMethod,
            LedgerError::AmountTooSmall,
            LedgerError::NotFound,
            LedgerError::State("captured"),
            LedgerError::AuthorizationExpired,
            LedgerError::RefundExceedsRemaining(crate::domain::Money::new(
                crate::domain::Cents::new(1234).unwrap(),
                crate::domain::Currency::Cad,
            )),
            LedgerError::RefundCurrency,
        ];
        for refusal in refusals {
            let code = refusal_code(&refusal).unwrap();
            let back = from_refusal_code(&code);
            assert_eq!(refusal_code(&back), Some(code));
            assert_eq!(back.to_string(), refusal.to_string());
        }
    }
}
