//! Card disputes: a cardholder asks their bank for a charge back. The gateway reports each
//! change (Stripe's `charge.dispute.*` events, or the offline test gateway's played ones),
//! and each is applied here, once per state, under the payment's row lock:
//!
//! | dispute state | payment moves |
//! | --- | --- |
//! | needs response, under review | CAPTURED -> DISPUTED (no refund; the payout is held) |
//! | won | DISPUTED -> CAPTURED |
//! | lost | CAPTURED or DISPUTED -> CHARGED_BACK (nothing owed to the professional) |
//!
//! The admins are told when a dispute opens; they read the evidence the platform holds and
//! send it ([`evidence`], [`answer`]).

use uuid::Uuid;

use super::PaymentState;
use crate::{
    domain::text::truncated,
    error::ApiResult,
    outbox::{self, NewOutboxMessage},
    providers::payments::GatewayDispute,
    state::AppState,
    store::{
        disputes::{self as store, ReportedDispute},
        orders,
    },
    words::{self, DisputeOpened, Moment},
};

pub mod answer;
pub mod evidence;

/// Where a dispute is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisputeState {
    NeedsResponse,
    UnderReview,
    Won,
    Lost,
}

impl DisputeState {
    pub const ALL: [Self; 4] = [
        Self::NeedsResponse,
        Self::UnderReview,
        Self::Won,
        Self::Lost,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::NeedsResponse => "needs_response",
            Self::UnderReview => "under_review",
            Self::Won => "won",
            Self::Lost => "lost",
        }
    }

    pub fn parse(stored: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == stored)
    }

    /// Stripe's statuses folded: an inquiry (`warning_*`) holds the payout as a dispute
    /// does; one closed without a chargeback, or answered by a refund, leaves the money.
    pub fn of_gateway(status: &str) -> Option<Self> {
        Some(match status {
            "needs_response" | "warning_needs_response" => Self::NeedsResponse,
            "under_review" | "warning_under_review" => Self::UnderReview,
            "won" | "warning_closed" | "charge_refunded" => Self::Won,
            "lost" => Self::Lost,
            _ => return None,
        })
    }

    pub fn is_open(self) -> bool {
        matches!(self, Self::NeedsResponse | Self::UnderReview)
    }

    /// The payment states a dispute in this state moves a payment from.
    pub fn payment_from(self) -> &'static [PaymentState] {
        match self {
            Self::NeedsResponse | Self::UnderReview => &[PaymentState::Captured],
            Self::Won => &[PaymentState::Disputed],
            Self::Lost => &[PaymentState::Captured, PaymentState::Disputed],
        }
    }

    /// The state it moves the payment to.
    pub fn payment_to(self) -> PaymentState {
        match self {
            Self::NeedsResponse | Self::UnderReview => PaymentState::Disputed,
            Self::Won => PaymentState::Captured,
            Self::Lost => PaymentState::ChargedBack,
        }
    }
}

/// What applying a reported dispute came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Applied {
    /// The dispute's id; `None` when no payment of the platform's has its charge id.
    pub dispute_id: Option<Uuid>,
    /// Whether its payment moved.
    pub moved: bool,
}

/// Records `reported` and moves its payment, in one transaction under the payment's lock;
/// applying it again changes nothing. A status the platform does not know is left alone.
pub async fn apply(state: &AppState, reported: &GatewayDispute) -> ApiResult<Applied> {
    let Some(dispute_state) = DisputeState::of_gateway(&reported.status) else {
        tracing::warn!(status = %reported.status, "a dispute status the platform does not know");
        return Ok(Applied::default());
    };
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let Some((payment_id, _)) = store::lock_payment_by_charge(&mut tx, &reported.charge_id).await?
    else {
        return Ok(Applied::default());
    };
    let written = ReportedDispute {
        gateway_dispute_id: &reported.id,
        payment_id,
        amount_cents: reported.amount.cents().get(),
        currency: reported.amount.currency().code(),
        reason: truncated(&reported.reason, 100),
        state: dispute_state.as_str(),
        evidence_due_at: reported.evidence_due_by,
    };
    // The dispute's row is the record of what the gateway reported (and the webhook's
    // event is kept): no audit entry of the server's own.
    let (dispute_id, stored, opened) = store::upsert(&mut tx, &written).await?;
    // A decided dispute keeps its outcome: the payment follows what is stored.
    let now_in = DisputeState::parse(&stored).unwrap_or(dispute_state);
    let from: Vec<&str> = now_in.payment_from().iter().map(|s| s.as_str()).collect();
    let to = now_in.payment_to().as_str();
    let moved = store::move_payment(&mut tx, payment_id, &from, to).await?;
    if opened {
        let told = tell_admins(&mut tx, state, dispute_id, reported).await?;
        outbox::enqueue_many(&mut *tx, &told).await?;
    }
    tx.commit().await?;
    Ok(Applied {
        dispute_id: Some(dispute_id),
        moved,
    })
}

/// Applies the disputes the offline test gateway played (Stripe's come by webhook): each
/// marked applied after it was, so one cut short is played again. How many were applied.
pub async fn apply_played(state: &AppState) -> ApiResult<usize> {
    let played = state.payments.played_disputes(50).await.map_err(|e| {
        crate::error::ApiError::Internal(anyhow::anyhow!("reading played disputes: {e}"))
    })?;
    for dispute in &played {
        apply(state, dispute).await?;
        state.payments.dispute_applied(dispute).await.map_err(|e| {
            crate::error::ApiError::Internal(anyhow::anyhow!("marking a dispute applied: {e}"))
        })?;
    }
    Ok(played.len())
}

/// The email each admin gets when a dispute opens, in their language, with its page.
async fn tell_admins(
    tx: &mut sqlx::PgConnection,
    state: &AppState,
    dispute_id: Uuid,
    reported: &GatewayDispute,
) -> ApiResult<Vec<NewOutboxMessage>> {
    let link = state.config.links().admin_dispute(dispute_id);
    let mut told = Vec::new();
    for admin in orders::admin_recipients(&mut *tx).await? {
        let link = link.of(admin.language);
        let opened = DisputeOpened {
            amount: reported.amount,
            reason: &reported.reason,
            due: reported.evidence_due_by.map(Moment::utc),
            link,
        };
        let mail = words::of(admin.language).dispute_opened_admin(&admin.name, &opened);
        told.push(NewOutboxMessage::email(
            &admin.email,
            mail.subject,
            mail.body,
        ));
    }
    Ok(told)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stripe_statuses_fold_into_four_states() {
        assert_eq!(
            DisputeState::of_gateway("warning_needs_response"),
            Some(DisputeState::NeedsResponse)
        );
        assert_eq!(
            DisputeState::of_gateway("warning_closed"),
            Some(DisputeState::Won)
        );
        assert_eq!(DisputeState::of_gateway("lost"), Some(DisputeState::Lost));
        assert_eq!(DisputeState::of_gateway("prevented"), None);
    }

    #[test]
    fn each_state_names_the_payment_states_it_moves_from() {
        assert_eq!(
            DisputeState::NeedsResponse.payment_from(),
            &[PaymentState::Captured]
        );
        assert_eq!(DisputeState::Won.payment_to(), PaymentState::Captured);
        assert!(
            DisputeState::Lost
                .payment_from()
                .contains(&PaymentState::Disputed)
        );
        assert!(
            !DisputeState::Won
                .payment_from()
                .contains(&PaymentState::Refunded)
        );
    }

    #[test]
    fn long_reasons_are_cut_on_a_character() {
        assert_eq!(truncated("éèà", 2), "éè");
        assert_eq!(truncated("abc", 10), "abc");
    }
}
