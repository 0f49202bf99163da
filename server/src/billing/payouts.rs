//! Payouts: what each professional is owed for their captured hires, less the platform fee
//! (`PLATFORM_FEE_PERCENT`), and what was paid to them. The ledger is read from the captured
//! hire payments (`store::payouts`): an authorised hold owes nothing, and a refund shows as
//! a reversed entry, or as refunded after payout once paid. With Stripe owed entries are
//! transferred by the housekeeping (`payout_transfers`); on the offline test gateway no money
//! moves, and an admin records what they paid by hand (`manual_payouts`).
//!
//! The fee is `PLATFORM_FEE_PERCENT` of the hire's amount before the job's taxes, and the
//! platform sells it to the professional: when registered, it charges its taxes on it
//! ([`sale::fee_taxes`]: the province of the professional's home base, the capture's day),
//! so the professional gets the gross less the fee and the fee's taxes. An entry's fee and
//! fee taxes are reckoned at each read until its payout record is written, then kept.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::{
    PaymentState,
    sale::{self, ChargedTax},
};
use crate::{
    auth::{
        Caller,
        access::{self},
    },
    domain::{Cents, Currency, Language, Money},
    error::{ApiError, ApiResult, ErrorReason, not_found},
    providers::payments::{PaymentError, stripe::connect::OnboardingUrls},
    state::AppState,
    store::{
        accounts::AccountKind,
        page::PageRequest,
        payouts::{self as store, PayoutRow, PayoutTotals},
    },
    tax::Registrations,
};

/// Where a professional's payout account is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountState {
    /// The offline test gateway: a ledger only.
    TestLedger,
    /// Stripe: no Connect account yet.
    NotStarted,
    /// Stripe: an account whose onboarding is not finished (no transfers yet).
    Pending,
    /// Stripe: transfers are enabled.
    Enabled,
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
    /// Owed, and the last transfer failed: it is tried again later.
    TransferFailed,
    Paid,
    /// Refunded before any payout: nothing is owed.
    Reversed,
    /// Paid, then refunded to the customer: not taken back automatically.
    RefundedAfterPayout,
    /// Not paid yet, and its payment is disputed: nothing is transferred until it is won.
    Held,
    /// Its payment's dispute was lost: nothing is owed (paid before, recovered by hand).
    DisputeLost,
}

/// An entry with its fee's taxes.
#[derive(Debug, Clone)]
pub struct Entry {
    pub row: PayoutRow,
    /// In receipt order; empty when none applies.
    pub fee_taxes: Vec<ChargedTax>,
}

impl Entry {
    /// The fee's taxes summed.
    pub fn fee_tax_cents(&self) -> i64 {
        self.fee_taxes
            .iter()
            .map(|tax| tax.line.amount.cents().get())
            .sum()
    }

    /// What the professional gets: the gross less the fee and its taxes, less their share
    /// given back by refunds (made before the payout; one after it is recovered by hand).
    pub fn net_cents(&self) -> i64 {
        if self.row.payment_state == PaymentState::ChargedBack.as_str()
            && self.row.paid_at.is_none()
        {
            return 0;
        }
        let net = self.row.gross_cents - self.row.fee_cents - self.fee_tax_cents();
        (net - self.row.refunded_before_payout_cents).max(0)
    }
}

/// Payouts are in Canadian dollars, as the hires they come from.
pub fn cad(cents: i64) -> ApiResult<Money> {
    Cents::new(cents)
        .map(|cents| Money::new(cents, Currency::Cad))
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("payout amount: {e}")))
}

/// `row` with its fee's taxes: the recorded ones once it has a payout record, else those
/// the platform (`seller`, its registrations now) charges on the fee.
pub fn priced(seller: &Registrations, row: PayoutRow) -> ApiResult<Entry> {
    let fee_taxes = if row.recorded {
        sale::from_store(row.recorded_fee_taxes.0.clone(), Currency::Cad)
            .map_err(ApiError::Internal)?
    } else {
        let day = row.captured_at.date_naive();
        sale::fee_taxes(seller, &row.home_province, day, cad(row.fee_cents)?)?
    };
    Ok(Entry { row, fee_taxes })
}

/// Each row with its fee's taxes.
pub fn priced_all(seller: &Registrations, rows: Vec<PayoutRow>) -> ApiResult<Vec<Entry>> {
    rows.into_iter().map(|row| priced(seller, row)).collect()
}

/// What professional `id` is owed and was paid, read through `db`.
pub async fn totals(
    db: &mut sqlx::PgConnection,
    seller: &Registrations,
    id: Uuid,
    fee_percent: u8,
) -> ApiResult<PayoutTotals> {
    let owed = store::owed(&mut *db, id, fee_percent).await?;
    let owed_cents = priced_all(seller, owed)?.iter().map(Entry::net_cents).sum();
    Ok(PayoutTotals {
        owed_cents,
        paid_cents: store::paid_cents(&mut *db, id).await?,
    })
}

/// Records, through `tx`, the fee's taxes of entries whose payout record this transaction
/// has just written for the first time.
pub async fn record_fee_taxes(tx: &mut sqlx::PgConnection, entries: &[Entry]) -> ApiResult<()> {
    for entry in entries.iter().filter(|entry| !entry.row.recorded) {
        let taxes = sale::to_store(&entry.fee_taxes);
        store::record_fee_taxes(tx, entry.row.order_id, &entry.row.home_province, &taxes).await?;
    }
    Ok(())
}

pub fn entry_state(row: &PayoutRow) -> EntryState {
    let paid = row.paid_at.is_some();
    if row.payment_state == PaymentState::ChargedBack.as_str() {
        return EntryState::DisputeLost;
    }
    if row.payment_state == PaymentState::Disputed.as_str() && !paid {
        return EntryState::Held;
    }
    let refunded =
        row.payment_state == "refunded" || row.refunded_cents > row.refunded_before_payout_cents;
    match (refunded, row.paid_at.is_some()) {
        (true, true) => EntryState::RefundedAfterPayout,
        (true, false) => EntryState::Reversed,
        (false, true) => EntryState::Paid,
        (false, false) if row.attempts > 0 => EntryState::TransferFailed,
        (false, false) => EntryState::Owed,
    }
}

/// The professional `id` if the caller is them or an admin. Anyone else learns nothing,
/// not even whether the professional exists.
pub(super) async fn readable(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<Uuid> {
    if !access::may_see_work_of(caller, id) || !store::professional_exists(&state.db, id).await? {
        return Err(not_found("professional"));
    }
    Ok(id)
}

pub async fn account(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<PayoutAccount> {
    let id = readable(state, caller, id).await?;
    let fee_percent = state.config.platform_fee_percent;
    let mut db = state.db.acquire().await?;
    let totals = totals(&mut db, &state.config.registrations(), id, fee_percent).await?;
    drop(db);
    Ok(PayoutAccount {
        professional_id: id,
        state: account_state(state, id).await?,
        totals,
        fee_percent,
        test_mode: state.connect.is_none(),
    })
}

/// Where the professional's Connect account is, asked of Stripe once there is one.
async fn account_state(state: &AppState, id: Uuid) -> ApiResult<AccountState> {
    let Some(stripe) = &state.connect else {
        return Ok(AccountState::TestLedger);
    };
    let Some(account) = store::stripe_account(&state.db, id).await? else {
        return Ok(AccountState::NotStarted);
    };
    let enabled = stripe
        .transfers_enabled(&account)
        .await
        .map_err(connect_error)?;
    Ok(if enabled {
        AccountState::Enabled
    } else {
        AccountState::Pending
    })
}

/// A page of the ledger, newest capture first.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
    page: &PageRequest,
) -> ApiResult<(Vec<Entry>, String)> {
    let id = readable(state, caller, id).await?;
    let (rows, next) = store::list(&state.db, id, state.config.platform_fee_percent, page).await?;
    Ok((priced_all(&state.config.registrations(), rows)?, next))
}

/// Where to send a professional to set up their Connect account, and until when.
pub struct OnboardingLink {
    pub url: String,
    pub expires_at: DateTime<Utc>,
}

/// The calling professional's onboarding link, their Connect account created on first use.
/// Stripe sends them back to `/stripe-connect` under PUBLIC_URL (`config::links`).
pub async fn onboarding_link(state: &AppState, caller: &Caller) -> ApiResult<OnboardingLink> {
    let Some(stripe) = &state.connect else {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::StripeNotConfigured,
            message: "payouts run in test mode: Stripe is not configured, so there is no \
                      account to set up; what you are owed is kept in the ledger"
                .to_owned(),
        });
    };
    let id = caller.account_id;
    let account = match store::stripe_account(&state.db, id).await? {
        Some(account) => account,
        None => {
            let email = store::professional_email(&state.db, id).await?;
            let created = stripe
                .create_connect_account(id, &email)
                .await
                .map_err(connect_error)?;
            store::keep_stripe_account(&state.db, id, &created).await?
        }
    };
    // Stripe sends them back to the page in their language.
    let language = crate::store::accounts::contact(&state.db, AccountKind::Professional, id)
        .await?
        .map_or(Language::English, |contact| contact.language);
    let (return_url, refresh_url) = state.config.links().stripe_connect();
    let urls = OnboardingUrls {
        refresh_url: refresh_url.of(language).to_owned(),
        return_url: return_url.of(language).to_owned(),
    };
    let link = stripe
        .onboarding_link(&account, &urls)
        .await
        .map_err(connect_error)?;
    Ok(OnboardingLink {
        url: link.url,
        expires_at: link.expires_at,
    })
}

/// Stripe refused or could not be reached: logged, and the caller is asked to retry.
fn connect_error(error: PaymentError) -> ApiError {
    tracing::error!(%error, "Stripe Connect call failed");
    ApiError::Unavailable {
        reason: ErrorReason::PayoutsUnavailable,
        message: "Stripe could not be reached for payouts; please try again shortly".to_owned(),
    }
}
