//! Disputes and their evidence as BillingService answers them.

use repairs_proto::{billing as pb, types};

use super::convert::timestamp;
use crate::{
    billing::disputes::{DisputeState, evidence::Evidence},
    error::{ApiError, ApiResult},
    store::disputes::DisputeRow,
};

fn money(amount_cents: i64, currency: &str) -> Option<types::Money> {
    Some(types::Money {
        amount_cents,
        currency: currency.to_owned(),
    })
}

fn state_to_proto(state: Option<DisputeState>) -> pb::DisputeState {
    match state {
        Some(DisputeState::NeedsResponse) => pb::DisputeState::NeedsResponse,
        Some(DisputeState::UnderReview) => pb::DisputeState::UnderReview,
        Some(DisputeState::Won) => pb::DisputeState::Won,
        Some(DisputeState::Lost) => pb::DisputeState::Lost,
        None => pb::DisputeState::Unspecified,
    }
}

/// ListDisputes' filter: `None` for every state.
pub fn state_filter(raw: i32) -> ApiResult<Option<DisputeState>> {
    match pb::DisputeState::try_from(raw) {
        Ok(pb::DisputeState::Unspecified) => Ok(None),
        Ok(pb::DisputeState::NeedsResponse) => Ok(Some(DisputeState::NeedsResponse)),
        Ok(pb::DisputeState::UnderReview) => Ok(Some(DisputeState::UnderReview)),
        Ok(pb::DisputeState::Won) => Ok(Some(DisputeState::Won)),
        Ok(pb::DisputeState::Lost) => Ok(Some(DisputeState::Lost)),
        Err(_) => Err(ApiError::invalid(
            "state",
            "this dispute state is not known",
        )),
    }
}

pub fn dispute_to_proto(row: DisputeRow) -> pb::Dispute {
    let state = DisputeState::parse(&row.state);
    let open = state == Some(DisputeState::NeedsResponse) && row.evidence.is_none();
    pb::Dispute {
        id: row.id.to_string(),
        gateway_dispute_id: row.gateway_dispute_id,
        payment_id: row.payment_id.to_string(),
        repair_request_id: row
            .repair_request_id
            .map(|id| id.to_string())
            .unwrap_or_default(),
        professional_id: row
            .professional_id
            .map(|id| id.to_string())
            .unwrap_or_default(),
        amount: money(row.amount_cents, &row.currency),
        reason: row.reason,
        state: state_to_proto(state) as i32,
        evidence_due_time: row.evidence_due_at.filter(|_| open).map(timestamp),
        evidence_submit_time: row.evidence_submitted_at.map(timestamp),
        create_time: Some(timestamp(row.created_at)),
        update_time: Some(timestamp(row.updated_at)),
        test_mode: row.test_mode,
    }
}

pub fn evidence_to_proto(evidence: Evidence) -> pb::DisputeEvidence {
    pb::DisputeEvidence {
        customer_name: evidence.customer_name,
        customer_email: evidence.customer_email,
        request_title: evidence.request_title,
        request_description: evidence.request_description,
        quote_amount: money(evidence.quote_cents, &evidence.currency),
        quote_estimated_minutes: evidence.quote_estimated_minutes,
        hire_time: evidence.hired_at.map(timestamp),
        arrival_time: evidence.arrived_at.map(timestamp),
        completion_time: evidence.completed_at.map(timestamp),
        messages: evidence
            .messages
            .into_iter()
            .map(|m| pb::DisputeEvidenceMessage {
                author: m.author,
                send_time: Some(timestamp(m.sent_at)),
                text: m.text,
            })
            .collect(),
        photo_count: i32::try_from(evidence.photo_count).unwrap_or(i32::MAX),
        receipt_id: evidence.receipt_id.to_string(),
        charged: money(evidence.charged_cents, &evidence.currency),
        note: evidence.note,
        submitted_text: evidence.submitted_text,
    }
}
