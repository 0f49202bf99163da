//! Card payments behind one trait, shaped after Stripe's PaymentIntents: authorise for later
//! capture (a hold), charge at once, capture, void, refund and read back. Amounts come only
//! from the server as [`Money`]. Every call that moves money carries an [`IdempotencyKey`]
//! the gateway honours (Stripe's `Idempotency-Key`), so a retried call never charges twice.
//!
//! | adapter | when |
//! | --- | --- |
//! | [`stripe::StripeGateway`] | `STRIPE_SECRET_KEY` is set |
//! | [`test_gateway::TestGateway`] | otherwise: offline, Stripe's test cards, state in Postgres |

use crate::error::ApiError;

pub mod clock;
mod decline;
pub mod disputes;
pub mod metered;
pub mod stripe;
pub mod test_cards;
pub mod test_gateway;
pub mod webhook;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

pub use clock::{Clock, SystemClock};
pub use decline::Decline;
pub use disputes::{DisputeSubmission, GatewayDispute};

use crate::domain::Money;

/// What a gateway must do. Errors that are about the card or the payment's state are
/// [`PaymentError`] variants the rules turn into messages; anything else is `Unavailable`.
#[async_trait]
pub trait PaymentGateway: Send + Sync {
    /// Which gateway this is: the contract's `PaymentMode` and the ledger's `gateway` column.
    fn kind(&self) -> GatewayKind;

    /// Authorises `amount` on the card for a later [`capture`](Self::capture) (Stripe's
    /// `capture_method=manual`).
    async fn authorize(&self, charge: &NewCharge) -> Result<GatewayPayment, PaymentError>;

    /// Charges `amount` at once.
    async fn charge(&self, charge: &NewCharge) -> Result<GatewayPayment, PaymentError>;

    /// Takes the whole authorised amount.
    async fn capture(&self, id: &str, key: &IdempotencyKey)
    -> Result<GatewayPayment, PaymentError>;

    /// Releases an authorisation (or a payment still waiting for the cardholder).
    async fn void(&self, id: &str, key: &IdempotencyKey) -> Result<GatewayPayment, PaymentError>;

    /// Refunds `amount` of a captured payment (what is left of it, or part of it). A
    /// repeated key answers the first refund.
    async fn refund(
        &self,
        id: &str,
        amount: Money,
        key: &IdempotencyKey,
    ) -> Result<GatewayRefund, PaymentError>;

    /// The payment as the gateway sees it now (after 3-D Secure, or to reconcile).
    async fn retrieve(&self, id: &str) -> Result<GatewayPayment, PaymentError>;

    /// The cardholder's answer on the test-mode authentication step of a payment waiting
    /// for it. Only the offline test gateway has such a step: real gateways ask the
    /// cardholder themselves (Stripe.js), so by default it is refused.
    async fn answer_authentication(
        &self,
        _id: &str,
        _approved: bool,
    ) -> Result<GatewayPayment, PaymentError> {
        Err(PaymentError::TestModeOnly)
    }

    /// Sends `evidence` for dispute `id` and submits it (no further change is taken); the
    /// dispute after it. A repeated key answers the first submission.
    async fn submit_dispute_evidence(
        &self,
        id: &str,
        evidence: &DisputeSubmission,
        key: &IdempotencyKey,
    ) -> Result<GatewayDispute, PaymentError>;

    /// Disputes that changed at the gateway and that the platform has not applied yet, as
    /// events to play. Only the offline test gateway keeps such a list: Stripe sends its
    /// events to the webhook.
    async fn played_disputes(&self, _limit: i64) -> Result<Vec<GatewayDispute>, PaymentError> {
        Ok(Vec::new())
    }

    /// The platform applied `dispute` as [`Self::played_disputes`] gave it.
    async fn dispute_applied(&self, _dispute: &GatewayDispute) -> Result<(), PaymentError> {
        Ok(())
    }
}

/// A refund the gateway made: its id (Stripe's `re_...`) and the payment after it.
#[derive(Debug, Clone)]
pub struct GatewayRefund {
    pub id: String,
    pub payment: GatewayPayment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatewayKind {
    /// The offline test gateway: no money moves.
    Test,
    Stripe,
}

impl GatewayKind {
    /// As stored in the ledger.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Test => "test",
            Self::Stripe => "stripe",
        }
    }
}

/// A UUID the caller made once per attempt (AIP-155 `request_id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(uuid::Uuid);

impl IdempotencyKey {
    /// Reads a `request_id`: a UUID in its usual text form.
    pub fn parse(text: &str) -> Result<Self, PaymentInputError> {
        uuid::Uuid::try_parse(text.trim())
            .map(Self)
            .map_err(|_| PaymentInputError::RequestId)
    }

    pub fn new(uuid: uuid::Uuid) -> Self {
        Self(uuid)
    }

    pub fn uuid(self) -> uuid::Uuid {
        self.0
    }

    /// The key to send the gateway for `actor`'s call: callers' keys are theirs alone, but
    /// the gateway has one key space, so two callers' equal keys must not meet there.
    pub fn scoped_to(self, actor: uuid::Uuid) -> Self {
        use sha2::{Digest, Sha256};
        let digest = Sha256::new()
            .chain_update(actor.as_bytes())
            .chain_update(self.0.as_bytes())
            .finalize();
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&digest[..16]);
        Self(uuid::Builder::from_custom_bytes(bytes).into_uuid())
    }

    /// The key for one step (`capture`, `refund`, ...) of the gateway call of this request,
    /// so the steps of one request never collide at the gateway.
    pub fn for_step(self, step: &str) -> String {
        format!("{}:{step}", self.0)
    }
}

/// A card as the client sends it: a Stripe PaymentMethod id (`pm_...`), a legacy card token
/// (`tok_...`) or, for the test gateway, a test card number. Bounded and plain ASCII.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentMethodRef(String);

impl PaymentMethodRef {
    const MAX_LEN: usize = 255;

    pub fn parse(text: &str) -> Result<Self, PaymentInputError> {
        let text = text.trim();
        let valid = !text.is_empty()
            && text.len() <= Self::MAX_LEN
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' '));
        if valid {
            Ok(Self(text.to_owned()))
        } else {
            Err(PaymentInputError::PaymentMethod)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The reference as it may be kept, to resume a payment cut short under its own key: a
    /// gateway's reference (`pm_...`, `tok_...`) or one of the test gateway's published test
    /// cards; `None` for any other card number, which is never stored.
    pub fn keepable(&self) -> Option<&str> {
        let reference = self.0.starts_with("pm_") || self.is_token();
        (reference || test_cards::TestCard::of(self.as_str()).is_some()).then_some(self.as_str())
    }

    /// A legacy single-use card token (`tok_visa`, ...) rather than a PaymentMethod.
    pub fn is_token(&self) -> bool {
        self.0.starts_with("tok_")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PaymentInputError {
    #[error("request_id must be a UUID")]
    RequestId,
    #[error("payment_method must be a card token or payment method id")]
    PaymentMethod,
}

/// A new payment: what, on which card, under which key.
#[derive(Debug, Clone)]
pub struct NewCharge {
    pub amount: Money,
    pub payment_method: PaymentMethodRef,
    pub key: IdempotencyKey,
}

/// Where a payment is at the gateway (Stripe's PaymentIntent statuses, folded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatewayStatus {
    /// The cardholder must authenticate (3-D Secure).
    RequiresAction,
    /// Authorised, waiting for capture.
    Authorized,
    /// Money taken.
    Captured,
    /// Released before capture; `expired` tells a lapsed hold from a void.
    Canceled { expired: bool },
    /// Declined or authentication failed.
    Failed,
    /// Captured, then refunded in full.
    Refunded,
}

/// A payment as the gateway answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayPayment {
    /// The gateway's id (a PaymentIntent id, `pi_...`): the legacy `charge_id`.
    pub id: String,
    pub amount: Money,
    pub status: GatewayStatus,
    /// Set while [`GatewayStatus::RequiresAction`]: what the client needs to finish.
    pub client_secret: Option<String>,
    /// Until when an authorisation can be captured.
    pub capture_before: Option<DateTime<Utc>>,
    /// Why it failed, when it did.
    pub decline: Option<Decline>,
}

#[derive(Debug, thiserror::Error)]
pub enum PaymentError {
    /// The card was refused. `payment` is the failed payment when the gateway made one.
    #[error("{}", .decline.message())]
    Declined {
        decline: Decline,
        payment: Option<Box<GatewayPayment>>,
    },
    /// The gateway does not know this card or token.
    #[error("the card is not one the payment gateway accepts")]
    InvalidPaymentMethod,
    /// Below the gateway's minimum charge (50 cents at Stripe).
    #[error("the amount is below the smallest charge the gateway accepts")]
    AmountTooSmall,
    #[error("the payment gateway knows no such payment")]
    NotFound,
    /// The payment is not in a state that allows this step.
    #[error("the payment cannot be {step} now")]
    State { step: &'static str },
    /// A step only the offline test gateway has (its authentication answer).
    #[error("only the offline test gateway takes a test authentication answer")]
    TestModeOnly,
    /// The gateway refused a reused idempotency key with other parameters.
    #[error("the payment gateway refused a reused idempotency key")]
    KeyReused,
    /// Network trouble, a gateway failure or an answer we cannot read: try again later.
    #[error("the payment gateway is unavailable")]
    Unavailable(#[source] anyhow::Error),
}

impl PaymentError {
    /// The offline test gateway's database failed (`what` it was reading or writing).
    pub(crate) fn test_gateway_database(error: sqlx::Error, what: &'static str) -> Self {
        Self::Unavailable(anyhow::Error::new(error).context(what))
    }
}

/// Stripe's smallest charge in CAD and EUR, in cents.
pub const MINIMUM_CHARGE_CENTS: i64 = 50;

/// A create call's answer as Stripe gives it: a payment that failed at once is the decline
/// error (carrying the failed payment), anything else the payment.
pub(crate) fn as_created(payment: GatewayPayment) -> Result<GatewayPayment, PaymentError> {
    match (payment.status, payment.decline) {
        (GatewayStatus::Failed, Some(decline)) => Err(PaymentError::Declined {
            decline,
            payment: Some(Box::new(payment)),
        }),
        _ => Ok(payment),
    }
}

impl From<PaymentInputError> for ApiError {
    fn from(error: PaymentInputError) -> Self {
        use PaymentInputError as P;
        let field = match error {
            P::RequestId => "request_id",
            P::PaymentMethod => "payment_method",
        };
        Self::invalid(field, error.to_string())
    }
}
