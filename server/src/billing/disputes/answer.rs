//! What admins do with disputes: read them, read the evidence, and send it. Sending is
//! claimed first, under the dispute's lock and the admin's request_id (audited with the
//! evidence as sent), then the gateway is asked under that key: a retry of a call cut short
//! sends the same evidence again, which the gateway answers once; a refusal takes the claim
//! back so it can be sent again.

use uuid::Uuid;

use super::{DisputeState, apply, evidence::Evidence};
use crate::{
    billing::{LedgerError, ledger::refusal},
    error::{ApiError, ApiResult, ErrorReason, not_found, parse_id},
    providers::payments::{IdempotencyKey, PaymentError},
    state::AppState,
    store::{
        audit,
        disputes::{self as store, DisputeRow},
        page::PageRequest,
    },
};

/// A page of disputes, newest first, in `state` when given.
pub async fn list(
    state: &AppState,
    only: Option<DisputeState>,
    page: &PageRequest,
) -> ApiResult<(Vec<DisputeRow>, String)> {
    let rows = store::list(&state.db, only.map(DisputeState::as_str), page).await?;
    Ok(page.finish(rows, |row| (row.created_at, row.id)))
}

/// The dispute `id` with its evidence (as sent, or as the platform holds it now).
pub async fn get(state: &AppState, id: &str) -> ApiResult<(DisputeRow, Evidence)> {
    let id = parse_id("dispute_id", id)?;
    let mut db = state.db.acquire().await?;
    let row = store::find(&mut *db, id)
        .await?
        .ok_or_else(|| not_found("dispute"))?;
    let evidence = super::evidence::of(&mut db, &row).await?;
    Ok((row, evidence))
}

/// Sends the evidence of dispute `id` with the admin's `note`, under their `request_id`.
pub async fn submit(
    state: &AppState,
    admin_id: Uuid,
    id: &str,
    request_id: &str,
    note: &str,
) -> ApiResult<(DisputeRow, Evidence)> {
    let id = parse_id("dispute_id", id)?;
    let key = IdempotencyKey::parse(request_id)?;
    // Its length is the contract's (`buf.validate`, checked before the handler).
    let note = note.trim();
    let (row, evidence) = claim(state, admin_id, id, key, note).await?;
    let sent = state
        .payments
        .submit_dispute_evidence(
            &row.gateway_dispute_id,
            &evidence.submission(note),
            &key.scoped_to(admin_id),
        )
        .await;
    match sent {
        Ok(dispute) => {
            apply(state, &dispute).await?;
        }
        // It may have reached the gateway: the claim stays, and a retry under the same
        // request_id sends it again.
        Err(PaymentError::Unavailable(cause)) => {
            return Err(LedgerError::GatewayUnavailable(cause).into());
        }
        Err(refused) => {
            store::clear_submission(&state.db, id).await?;
            return Err(match refused {
                PaymentError::State { .. } | PaymentError::NotFound => closed(),
                other => refusal(other, "contested").into(),
            });
        }
    }
    get(state, &id.to_string()).await
}

/// Writes the evidence as sent and who sends it, unless it was sent already (by this
/// request: its evidence again) or the dispute no longer waits for evidence.
async fn claim(
    state: &AppState,
    admin_id: Uuid,
    id: Uuid,
    key: IdempotencyKey,
    note: &str,
) -> ApiResult<(DisputeRow, Evidence)> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let row = store::lock(&mut tx, id)
        .await?
        .ok_or_else(|| not_found("dispute"))?;
    let retry = row.submit_request_id == Some(key.uuid()) && row.submitted_by == Some(admin_id);
    if retry {
        let evidence = super::evidence::of(&mut tx, &row).await?;
        return Ok((row, evidence));
    }
    if row.state != DisputeState::NeedsResponse.as_str() || row.evidence.is_some() {
        return Err(closed());
    }
    let mut evidence = super::evidence::assemble(&mut tx, &row).await?;
    evidence.note = note.to_owned();
    evidence.submitted_text = evidence.text(note);
    let stored = serde_json::to_value(&evidence).map_err(anyhow::Error::from)?;
    store::record_submission(&mut tx, id, &stored, admin_id, key.uuid()).await?;
    audit::record(
        &mut *tx,
        admin_id,
        "dispute.submit_evidence",
        ("dispute", &id.to_string()),
        note,
        Some(&serde_json::json!({ "state": row.state, "evidence": null })),
        Some(&serde_json::json!({ "state": row.state, "evidence": stored })),
    )
    .await?;
    tx.commit().await?;
    Ok((row, evidence))
}

fn closed() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::DisputeClosed,
        message: "this dispute no longer takes evidence: it was answered already or decided"
            .to_owned(),
    }
}
