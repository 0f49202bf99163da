//! What the ledger holds and is asked: payments, their states and purposes, and the steps
//! that move them.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::{
    billing::sale::Sale,
    domain::Money,
    providers::payments::{Decline, GatewayStatus, IdempotencyKey, PaymentMethodRef},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Hire,
    Membership,
    TestCharge,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hire => "hire",
            Self::Membership => "membership",
            Self::TestCharge => "test_charge",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Self> {
        [Self::Hire, Self::Membership, Self::TestCharge]
            .into_iter()
            .find(|p| p.as_str() == text)
    }
}

/// When the money is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// Authorise now, capture later (hire, test charge).
    Hold,
    /// Charge at once (membership).
    Now,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentState {
    RequiresAction,
    Authorized,
    Captured,
    Canceled,
    Expired,
    Failed,
    Refunded,
    /// Captured, then disputed by the cardholder: no refund while it is open.
    Disputed,
    /// The dispute was lost: the bank took the money back.
    ChargedBack,
}

impl PaymentState {
    pub const ALL: [Self; 9] = [
        Self::RequiresAction,
        Self::Authorized,
        Self::Captured,
        Self::Canceled,
        Self::Expired,
        Self::Failed,
        Self::Refunded,
        Self::Disputed,
        Self::ChargedBack,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::RequiresAction => "requires_action",
            Self::Authorized => "authorized",
            Self::Captured => "captured",
            Self::Canceled => "canceled",
            Self::Expired => "expired",
            Self::Failed => "failed",
            Self::Refunded => "refunded",
            Self::Disputed => "disputed",
            Self::ChargedBack => "charged_back",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }

    pub(super) fn of(status: GatewayStatus) -> Self {
        match status {
            GatewayStatus::RequiresAction => Self::RequiresAction,
            GatewayStatus::Authorized => Self::Authorized,
            GatewayStatus::Captured => Self::Captured,
            GatewayStatus::Canceled { expired: false } => Self::Canceled,
            GatewayStatus::Canceled { expired: true } => Self::Expired,
            GatewayStatus::Failed => Self::Failed,
            GatewayStatus::Refunded => Self::Refunded,
        }
    }
}

/// A payment as the ledger holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    pub id: Uuid,
    pub purpose: Purpose,
    pub payer_id: Uuid,
    pub amount: Money,
    /// The gateway's id: the legacy `charge_id`.
    pub charge_id: String,
    pub state: PaymentState,
    /// Set while [`PaymentState::RequiresAction`].
    pub client_secret: Option<String>,
    pub decline: Option<Decline>,
    pub authorization_expires_at: Option<DateTime<Utc>>,
    pub captured_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Made on the offline test gateway.
    pub test_mode: bool,
    /// What `amount` is made of, as recorded with the payment: the subtotal and each tax
    /// (none for a payment made before taxes were kept).
    pub sale: Sale,
    /// What its refunds made so far add up to (all of `amount` once REFUNDED by refunds).
    pub refunded: Money,
}

/// The cardholder's answer on the offline test gateway's authentication step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestAuthentication {
    Approve,
    Refuse,
}

/// A new payment, its amount computed by the caller's rules (never taken from a client).
#[derive(Debug, Clone)]
pub struct StartPayment {
    pub purpose: Purpose,
    pub payer_id: Uuid,
    /// What it is made of: the card is charged its total, and the ledger keeps the subtotal
    /// and each tax beside the payment.
    pub sale: Sale,
    pub payment_method: PaymentMethodRef,
    pub timing: Timing,
    pub request_id: IdempotencyKey,
}

impl StartPayment {
    /// What the card is charged.
    pub fn amount(&self) -> Money {
        self.sale.total()
    }
}

/// The steps an admin takes on an existing payment, each with the states it starts from
/// (a refund, in full or in part, is [`super::Ledger::refund`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Capture,
    Void,
}

impl Step {
    pub(super) fn name(self) -> &'static str {
        match self {
            Self::Capture => "capture",
            Self::Void => "void",
        }
    }

    /// Past participle, for messages.
    pub(super) fn done(self) -> &'static str {
        match self {
            Self::Capture => "captured",
            Self::Void => "voided",
        }
    }

    pub(super) fn leads_to(self) -> PaymentState {
        match self {
            Self::Capture => PaymentState::Captured,
            Self::Void => PaymentState::Canceled,
        }
    }

    pub(super) fn allowed_from(self) -> &'static [PaymentState] {
        match self {
            Self::Capture => &[PaymentState::Authorized],
            Self::Void => &[PaymentState::Authorized, PaymentState::RequiresAction],
        }
    }
}

/// What became of an attempt to start a payment, as [`Ledger::made_by`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptSeen {
    /// Never made, or refused: no payment to care for.
    None,
    /// Not finished: running, or cut short (the gateway may hold a payment under its key).
    Running,
    /// It made this payment.
    Made(Box<Payment>),
}

/// A transition the gateway reports in an event (`billing::stripe_events`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reported {
    pub charge_id: String,
    pub from: &'static [PaymentState],
    pub to: PaymentState,
    pub decline: Option<Decline>,
}
