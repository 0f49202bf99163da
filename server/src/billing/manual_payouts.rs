//! Payouts recorded by hand: in test mode no money moves through the server, so an admin
//! who paid a professional outside it (a bank transfer, a cheque) marks the entries paid.
//! Idempotent by the admin's request_id, audited with the balance before and after. With
//! Stripe the server transfers owed entries itself (`payout_transfers`), so this is refused.

use chrono::Utc;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{
    LedgerError,
    payouts::{self, Entry, EntryState, entry_state},
};
use crate::{
    domain::text::bounded_text,
    error::{ApiError, ApiResult, ErrorReason, not_found, parse_id},
    providers::payments::IdempotencyKey,
    state::AppState,
    store::{
        audit,
        manual_payouts::{self as store, ManualPayoutRow},
        payouts as ledger,
    },
    tax::Registrations,
};

/// Orders one call may cover.
pub const MAX_ORDERS: usize = repairs_proto::limits::record_manual_payout::ORDER_IDS_MAX_ITEMS;

/// What the admin sends.
pub struct ManualPayoutForm<'a> {
    pub professional_id: &'a str,
    pub order_ids: &'a [String],
    pub note: &'a str,
    pub request_id: &'a str,
}

/// Marks the named owed entries paid; answers them after. A retry with the same request_id
/// and payload answers the entries again without a second record or audit entry.
pub async fn record(
    state: &AppState,
    admin: Uuid,
    form: &ManualPayoutForm<'_>,
) -> ApiResult<Vec<Entry>> {
    if state.connect.is_some() {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::PayoutsAutomatic,
            message: "Stripe is configured: owed payouts are transferred automatically, so \
                      none is recorded by hand"
                .to_owned(),
        });
    }
    let request_id = IdempotencyKey::parse(form.request_id)?.uuid();
    let wanted = parse(form)?;
    if !ledger::professional_exists(&state.db, wanted.professional_id).await? {
        return Err(not_found("professional"));
    }
    let fee_percent = state.config.platform_fee_percent;
    let seller = &state.config.registrations();
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    if !store::insert(&mut tx, admin, request_id, &wanted).await? {
        // A retry: the first call's record, which must be the same payout.
        let first = store::find(&mut tx, admin, request_id).await?;
        let same = first.is_some_and(|first| {
            (&first.professional_id, &first.order_ids, &first.note)
                == (&wanted.professional_id, &wanted.order_ids, &wanted.note)
        });
        if !same {
            return Err(LedgerError::RequestIdReused.into());
        }
        let entries = entries_of(&mut tx, &wanted, seller, fee_percent).await?;
        tx.commit().await?;
        return Ok(entries);
    }
    let entries = entries_of(&mut tx, &wanted, seller, fee_percent).await?;
    if entries.len() != wanted.order_ids.len() {
        return Err(ApiError::NotFound {
            reason: ErrorReason::NotFound,
            message: "an order is not a captured hire of this professional".to_owned(),
        });
    }
    if !entries.iter().all(|entry| owed(&entry.row)) {
        return Err(not_owed());
    }
    let before = balance(&mut tx, &wanted, seller, fee_percent, &entries).await?;
    let rows: Vec<_> = entries.iter().map(|entry| entry.row.clone()).collect();
    let marked = store::mark_paid(&mut tx, &wanted, &rows, Utc::now()).await?;
    if marked != entries.len() as u64 {
        // Another admin paid one of them since it was read.
        return Err(not_owed());
    }
    // The fee's taxes are kept with the records written now, as the fees are.
    payouts::record_fee_taxes(&mut tx, &entries).await?;
    let entries = entries_of(&mut tx, &wanted, seller, fee_percent).await?;
    let mut after = balance(&mut tx, &wanted, seller, fee_percent, &entries).await?;
    after["note"] = json!(wanted.note);
    audit::record_change(
        &mut *tx,
        admin,
        "professional.record_payout",
        ("professional", &wanted.professional_id.to_string()),
        Some(&before),
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    Ok(entries)
}

/// The form as a record to keep: ids parsed, orders sorted and each once, the note bounded.
fn parse(form: &ManualPayoutForm<'_>) -> ApiResult<ManualPayoutRow> {
    let professional_id = parse_id("professional_id", form.professional_id)?;
    if form.order_ids.is_empty() || form.order_ids.len() > MAX_ORDERS {
        return Err(ApiError::invalid(
            "order_ids",
            format!("name from 1 to {MAX_ORDERS} orders"),
        ));
    }
    let mut order_ids = form
        .order_ids
        .iter()
        .map(|id| parse_id("order_ids", id))
        .collect::<ApiResult<Vec<Uuid>>>()?;
    order_ids.sort_unstable();
    order_ids.dedup();
    let note = bounded_text(form.note, "a note", 500).map_err(|e| ApiError::invalid("note", e))?;
    Ok(ManualPayoutRow {
        id: Uuid::now_v7(),
        professional_id,
        order_ids,
        note,
    })
}

/// The record's entries, locked.
async fn entries_of(
    tx: &mut sqlx::PgConnection,
    record: &ManualPayoutRow,
    seller: &Registrations,
    fee_percent: u8,
) -> ApiResult<Vec<Entry>> {
    let rows =
        ledger::lock_entries(tx, record.professional_id, fee_percent, &record.order_ids).await?;
    payouts::priced_all(seller, rows)
}

fn owed(entry: &ledger::PayoutRow) -> bool {
    matches!(
        entry_state(entry),
        EntryState::Owed | EntryState::TransferFailed
    )
}

fn not_owed() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::PayoutNotOwed,
        message: "one of these entries is not owed any more: it was paid or refunded".to_owned(),
    }
}

/// The professional's totals and the entries, for the audit log.
async fn balance(
    tx: &mut sqlx::PgConnection,
    record: &ManualPayoutRow,
    seller: &Registrations,
    fee_percent: u8,
    entries: &[Entry],
) -> ApiResult<Value> {
    let totals = payouts::totals(&mut *tx, seller, record.professional_id, fee_percent).await?;
    let entries: Vec<Value> = entries
        .iter()
        .map(|e| {
            json!({
                "order_id": e.row.order_id,
                "net_cents": e.net_cents(),
                "paid_at": e.row.paid_at,
            })
        })
        .collect();
    Ok(json!({
        "owed_cents": totals.owed_cents,
        "paid_cents": totals.paid_cents,
        "entries": entries,
    }))
}
