//! Payouts: what each professional is owed for their captured hires, less the platform fee
//! (`PLATFORM_FEE_PERCENT`), and what was paid to them. The ledger is read from the captured
//! hire payments (`store::payouts`): an authorised hold owes nothing, and a refund shows as
//! a reversed entry, after a transfer too. On the offline test gateway no money moves: the
//! ledger is all there is.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::{
    accounts::not_found,
    auth::Caller,
    domain::Role,
    error::{ApiError, ApiResult},
    providers::payments::GatewayKind,
    state::AppState,
    store::{
        page::PageRequest,
        payouts::{self as store, PayoutRow, PayoutTotals},
    },
};

/// Where a professional's payout account is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountState {
    /// The offline test gateway: a ledger only.
    TestLedger,
    /// Stripe: no Connect account yet.
    NotStarted,
}

#[derive(Debug, Clone, Copy)]
pub struct PayoutAccount {
    pub professional_id: Uuid,
    pub state: AccountState,
    pub totals: PayoutTotals,
    pub fee_percent: u8,
    pub test_mode: bool,
}

/// Where one entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryState {
    Owed,
    Paid,
    Reversed,
}

pub fn entry_state(row: &PayoutRow) -> EntryState {
    if row.payment_state == "refunded" {
        EntryState::Reversed
    } else if row.paid_at.is_some() {
        EntryState::Paid
    } else {
        EntryState::Owed
    }
}

/// The professional `id` if the caller is them or an admin. Anyone else learns nothing,
/// not even whether the professional exists.
async fn readable(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<Uuid> {
    let allowed = caller.account_id == id || caller.role == Role::Admin;
    if !allowed || !store::professional_exists(&state.db, id).await? {
        return Err(not_found("professional"));
    }
    Ok(id)
}

fn test_mode(state: &AppState) -> bool {
    state.payments.kind() == GatewayKind::Test
}

pub async fn account(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<PayoutAccount> {
    let id = readable(state, caller, id).await?;
    let fee_percent = state.config.platform_fee_percent;
    let totals = store::totals(&state.db, id, fee_percent).await?;
    let test_mode = test_mode(state);
    Ok(PayoutAccount {
        professional_id: id,
        state: if test_mode {
            AccountState::TestLedger
        } else {
            AccountState::NotStarted
        },
        totals,
        fee_percent,
        test_mode,
    })
}

/// A page of the ledger, newest capture first.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
    page: &PageRequest,
) -> ApiResult<(Vec<PayoutRow>, String)> {
    let id = readable(state, caller, id).await?;
    Ok(store::list(&state.db, id, state.config.platform_fee_percent, page).await?)
}

/// Where to send a professional to set up their Connect account, and until when.
pub struct OnboardingLink {
    pub url: String,
    pub expires_at: DateTime<Utc>,
}

/// Connect onboarding needs Stripe; on the test gateway there is nothing to onboard to.
pub fn onboarding_link(state: &AppState) -> ApiResult<OnboardingLink> {
    if test_mode(state) {
        return Err(ApiError::FailedPrecondition {
            reason: "STRIPE_NOT_CONFIGURED",
            message: "payouts run in test mode: Stripe is not configured, so there is no \
                      account to set up; what you are owed is kept in the ledger"
                .to_owned(),
        });
    }
    Err(ApiError::FailedPrecondition {
        reason: "PAYOUTS_UNAVAILABLE",
        message: "Stripe payout onboarding is not available yet".to_owned(),
    })
}
