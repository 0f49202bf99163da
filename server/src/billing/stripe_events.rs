//! Stripe's webhook events: verified by signature, applied once per event id, each mapped to
//! one ledger transition. The events handled and the state each one changes:
//!
//! | event | payment state change |
//! | --- | --- |
//! | `payment_intent.amount_capturable_updated` | REQUIRES_ACTION -> AUTHORIZED |
//! | `payment_intent.succeeded` | REQUIRES_ACTION or AUTHORIZED -> CAPTURED |
//! | `payment_intent.payment_failed` | REQUIRES_ACTION -> FAILED |
//! | `payment_intent.canceled` | REQUIRES_ACTION or AUTHORIZED -> CANCELED (EXPIRED when Stripe let the hold lapse) |
//! | `charge.refunded` (in full or in part) | each refund not recorded yet is recorded (keyed on its Stripe refund id); CAPTURED -> REFUNDED once they add up to the charge |
//! | `charge.dispute.created`, `.updated`, `.closed` | the dispute recorded; CAPTURED -> DISPUTED while open, back to CAPTURED when won, CHARGED_BACK when lost (`billing::disputes`) |
//!
//! Any other event is recorded and acknowledged. A payment in another state is left alone
//! (the event is late: the transition happened already through the API).

use crate::error::{ApiError, ErrorReason, FieldViolation};

use serde::Deserialize;

use super::{Ledger, LedgerError, PaymentState, ledger::Reported};
use crate::{
    providers::payments::{Decline, GatewayDispute, stripe::dispute::DisputeObject, webhook},
    store::stripe_events,
};

/// The largest body accepted; Stripe's events are a few KiB.
pub const MAX_PAYLOAD_BYTES: usize = repairs_proto::limits::handle_stripe_event::PAYLOAD_MAX_LEN;

#[derive(Debug, thiserror::Error)]
pub enum EventError {
    #[error("the event is larger than {MAX_PAYLOAD_BYTES} bytes")]
    TooLarge,
    #[error("Stripe webhooks are not configured on this server")]
    NotConfigured,
    #[error("the Stripe signature does not verify: {0}")]
    Signature(#[from] webhook::SignatureError),
    #[error("the event is not a Stripe event: {0}")]
    Malformed(String),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// A refund or a dispute it reports could not be recorded.
    #[error("{0:?}")]
    NotRecorded(ApiError),
}

impl EventError {
    /// Why, as `/metrics` counts webhook failures.
    pub fn reason(&self) -> &'static str {
        match self {
            Self::TooLarge => "too_large",
            Self::NotConfigured => "not_configured",
            Self::Signature(_) => "signature",
            Self::Malformed(_) => "malformed",
            Self::Ledger(_) | Self::NotRecorded(_) => "not_applied",
        }
    }
}

impl From<sqlx::Error> for EventError {
    fn from(error: sqlx::Error) -> Self {
        Self::Ledger(error.into())
    }
}

/// An event as delivered: its object kept as JSON, read once per view its kind needs
/// ([`EventObject`] always, [`DisputeObject`] for `charge.dispute.*`).
#[derive(Debug, Deserialize)]
struct Delivered {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    data: DeliveredData,
}

#[derive(Debug, Deserialize)]
struct DeliveredData {
    object: serde_json::Value,
}

#[derive(Debug)]
struct Event {
    id: String,
    kind: String,
    object: EventObject,
}

/// The fields we read of the event's object: a PaymentIntent, a Charge or a Dispute.
#[derive(Debug, Deserialize)]
struct EventObject {
    id: Option<String>,
    /// On a Charge or a Dispute: its PaymentIntent.
    payment_intent: Option<String>,
    cancellation_reason: Option<String>,
    /// On a Charge: refunded in full.
    refunded: Option<bool>,
    /// On a Charge: what its refunds add up to, and the refunds (Stripe lists the latest).
    amount_refunded: Option<i64>,
    refunds: Option<RefundList>,
    last_payment_error: Option<PaymentErrorObject>,
}

#[derive(Debug, Deserialize)]
struct RefundList {
    #[serde(default)]
    data: Vec<RefundObject>,
}

#[derive(Debug, Deserialize)]
struct RefundObject {
    id: String,
    amount: i64,
    /// `succeeded`, `pending`, `failed`, `canceled`...: only money that left counts.
    status: Option<String>,
}

#[derive(Debug, Deserialize)]
struct PaymentErrorObject {
    code: Option<String>,
    decline_code: Option<String>,
}

use PaymentState::{Authorized, Canceled, Captured, Expired, Failed, RequiresAction};

/// The transition `event` reports, if it reports one.
fn reported(event: &Event) -> Option<Reported> {
    let object = &event.object;
    let intent = || object.id.clone().filter(|id| id.starts_with("pi_"));
    let (charge_id, from, to): (_, &'static [PaymentState], _) = match event.kind.as_str() {
        "payment_intent.amount_capturable_updated" => (intent()?, &[RequiresAction], Authorized),
        "payment_intent.succeeded" => (intent()?, &[RequiresAction, Authorized], Captured),
        "payment_intent.payment_failed" => (intent()?, &[RequiresAction], Failed),
        "payment_intent.canceled" => {
            let lapsed = object.cancellation_reason.as_deref() == Some("automatic");
            let to = if lapsed { Expired } else { Canceled };
            (intent()?, &[RequiresAction, Authorized], to)
        }
        _ => return None,
    };
    let decline = (to == Failed).then(|| {
        let error = object.last_payment_error.as_ref();
        let code = error.and_then(|e| e.decline_code.as_deref().or(e.code.as_deref()));
        Decline::from_code(code.unwrap_or_default())
    });
    Some(Reported {
        charge_id,
        from,
        to,
        decline,
    })
}

/// What handling an event came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handled {
    pub event_id: String,
    /// False when the event id was seen before: nothing was done again.
    pub processed: bool,
    /// The payment the event moved, if any (so the rules built on payments can follow it).
    pub charge_id: Option<String>,
}

/// What a `charge.refunded` event reports: the charge's PaymentIntent, the refunds it lists
/// (id and cents, oldest first) and what the charge's refunds add up to.
#[derive(Debug, PartialEq, Eq)]
struct ReportedRefunds {
    intent: String,
    listed: Vec<(String, i64)>,
    total: i64,
}

/// The refunds a `charge.refunded` event reports; `None` for any other event.
fn reported_refunds(event: &Event) -> Option<ReportedRefunds> {
    if event.kind != "charge.refunded" {
        return None;
    }
    let object = &event.object;
    let intent = object.payment_intent.clone()?;
    let mut listed: Vec<(String, i64)> = object
        .refunds
        .as_ref()
        .map(|list| {
            list.data
                .iter()
                .filter(|r| matches!(r.status.as_deref(), None | Some("succeeded" | "pending")))
                .map(|r| (r.id.clone(), r.amount))
                .collect()
        })
        .unwrap_or_default();
    listed.reverse();
    let total = object
        .amount_refunded
        .unwrap_or_else(|| listed.iter().map(|r| r.1).sum());
    // An event without its refunds (older API versions): what it adds up to, as one refund
    // keyed on the charge and that total; refunded in full with no amount, all that is left.
    let charge = object.id.clone().unwrap_or_else(|| intent.clone());
    if listed.is_empty() && total > 0 {
        listed.push((format!("{charge}:{total}"), total));
    }
    if object.refunded == Some(true) && total == 0 {
        listed.push((format!("{charge}:full"), super::refunds::ALL_LEFT));
        let total = super::refunds::ALL_LEFT;
        return Some(ReportedRefunds {
            intent,
            listed,
            total,
        });
    }
    Some(ReportedRefunds {
        intent,
        listed,
        total,
    })
}

/// The dispute a `charge.dispute.*` event's `object` is; `None` for any other event.
fn reported_dispute(
    kind: &str,
    object: &serde_json::Value,
) -> Result<Option<GatewayDispute>, EventError> {
    if !kind.starts_with("charge.dispute.") {
        return Ok(None);
    }
    let dispute = DisputeObject::deserialize(object)
        .map_err(|e| EventError::Malformed(format!("the dispute cannot be read: {e}")))?;
    Ok(dispute.into_dispute())
}

/// Reads a delivery: the event, and its object as JSON for the views its kind needs.
fn read(payload: &[u8]) -> Result<(Event, serde_json::Value), EventError> {
    let delivered: Delivered =
        serde_json::from_slice(payload).map_err(|e| EventError::Malformed(e.to_string()))?;
    let object = EventObject::deserialize(&delivered.data.object)
        .map_err(|e| EventError::Malformed(e.to_string()))?;
    let event = Event {
        id: delivered.id,
        kind: delivered.kind,
        object,
    };
    Ok((event, delivered.data.object))
}

/// Verifies, deduplicates and applies one webhook delivery; a membership month it pays for
/// gets its receipt from `issuer`, a refund made at Stripe is recorded (`billing::refunds`).
pub async fn handle(
    state: &crate::state::AppState,
    ledger: &Ledger,
    issuer: &super::receipt::Issuer<'_>,
    secret: Option<&str>,
    payload: &[u8],
    signature: &str,
    now_unix: i64,
) -> Result<Handled, EventError> {
    if payload.len() > MAX_PAYLOAD_BYTES {
        return Err(EventError::TooLarge);
    }
    let secret = secret.ok_or(EventError::NotConfigured)?;
    webhook::verify(payload, signature, secret, now_unix)?;
    let (event, object) = read(payload)?;
    if event.id.is_empty() || event.id.len() > 255 {
        return Err(EventError::Malformed(
            "the event id is missing or too long".to_owned(),
        ));
    }
    let db = ledger.db();
    if stripe_events::seen(db, &event.id).await? {
        return Ok(Handled {
            event_id: event.id,
            processed: false,
            charge_id: None,
        });
    }
    // Applied before it is recorded: a crash in between redelivers the event, and
    // transitions only move a payment out of the states they start from, so applying twice
    // changes nothing.
    let transition = reported(&event);
    if let Some(transition) = &transition {
        ledger.apply_reported(transition).await?;
        // Whether this delivery moved it or an earlier one did (and the process stopped
        // before the grant): a captured membership payment gets its month, once.
        match ledger.find_by_charge_id(&transition.charge_id).await {
            Ok(payment) => {
                super::membership::grant_if_captured(ledger.db(), issuer, &payment).await?
            }
            Err(LedgerError::NotFound) => {}
            Err(other) => return Err(other.into()),
        }
    }
    let mut refunded = None;
    if let Some(ReportedRefunds {
        intent,
        listed,
        total,
    }) = reported_refunds(&event)
    {
        match ledger.find_by_charge_id(&intent).await {
            Ok(payment) => {
                super::refunds::record_reported(state, &payment, &listed, total)
                    .await
                    .map_err(EventError::NotRecorded)?;
                refunded = Some(intent);
            }
            Err(LedgerError::NotFound) => {}
            Err(other) => return Err(other.into()),
        }
    }
    let mut disputed = None;
    if let Some(dispute) = reported_dispute(&event.kind, &object)? {
        let applied = super::disputes::apply(state, &dispute)
            .await
            .map_err(EventError::NotRecorded)?;
        disputed = applied.dispute_id.map(|_| dispute.charge_id);
    }
    let moved = transition.map(|t| t.charge_id).or(refunded).or(disputed);
    let charge_id = moved.clone().or(event.object.payment_intent.clone());
    let processed = stripe_events::record(db, &event.id, &event.kind, charge_id.as_deref()).await?;
    Ok(Handled {
        event_id: event.id,
        processed,
        charge_id: moved,
    })
}

impl From<EventError> for ApiError {
    fn from(error: EventError) -> Self {
        use EventError as E;
        match error {
            E::Signature(_) => Self::InvalidArgument {
                reason: ErrorReason::WebhookSignature,
                violations: vec![FieldViolation::new("signature", error.to_string())],
            },
            E::TooLarge | E::Malformed(_) => Self::invalid("payload", error.to_string()),
            E::NotConfigured => Self::FailedPrecondition {
                reason: ErrorReason::WebhooksNotConfigured,
                message: error.to_string(),
            },
            E::Ledger(ledger) => ledger.into(),
            E::NotRecorded(error) => error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: &str, object: serde_json::Value) -> Event {
        let payload = serde_json::json!({
            "id": "evt_1", "type": kind, "data": { "object": object }
        });
        read(payload.to_string().as_bytes()).unwrap().0
    }

    #[test]
    fn intent_events_map_to_their_transitions() {
        let succeeded = reported(&event(
            "payment_intent.succeeded",
            serde_json::json!({"id": "pi_1"}),
        ))
        .unwrap();
        assert_eq!(succeeded.charge_id, "pi_1");
        assert_eq!(succeeded.to, Captured);
        let lapsed = reported(&event(
            "payment_intent.canceled",
            serde_json::json!({"id": "pi_1", "cancellation_reason": "automatic"}),
        ))
        .unwrap();
        assert_eq!(lapsed.to, Expired);
        let failed = reported(&event(
            "payment_intent.payment_failed",
            serde_json::json!({"id": "pi_1", "last_payment_error": {"code": "card_declined", "decline_code": "insufficient_funds"}}),
        ))
        .unwrap();
        assert_eq!(failed.decline, Some(Decline::InsufficientFunds));
    }

    #[test]
    fn refunds_are_read_oldest_first_with_their_total() {
        let partial = event(
            "charge.refunded",
            serde_json::json!({"id": "ch_1", "payment_intent": "pi_1", "refunded": false,
                "amount_refunded": 700, "refunds": {"data": [
                    {"id": "re_2", "amount": 200, "status": "succeeded"},
                    {"id": "re_0", "amount": 50, "status": "failed"},
                    {"id": "re_1", "amount": 500, "status": "succeeded"}]}}),
        );
        assert_eq!(reported(&partial), None, "no transition of its own");
        let read = reported_refunds(&partial).unwrap();
        assert_eq!(read.intent, "pi_1");
        assert_eq!(
            read.listed,
            vec![("re_1".to_owned(), 500), ("re_2".to_owned(), 200)]
        );
        assert_eq!(read.total, 700);
        let bare = event(
            "charge.refunded",
            serde_json::json!({"id": "ch_1", "payment_intent": "pi_1", "amount_refunded": 300}),
        );
        let read = reported_refunds(&bare).unwrap();
        assert_eq!(read.listed, vec![("ch_1:300".to_owned(), 300)]);
    }

    #[test]
    fn dispute_events_carry_their_dispute() {
        let payload = serde_json::json!({
            "id": "evt_1", "type": "charge.dispute.created", "data": { "object": {
                "id": "dp_1", "object": "dispute", "charge": "ch_1", "payment_intent": "pi_1",
                "amount": 5000, "currency": "cad", "reason": "fraudulent",
                "status": "needs_response", "evidence_details": { "due_by": 1_800_000_000 }
            }}
        })
        .to_string();
        let (_, object) = read(payload.as_bytes()).unwrap();
        let dispute = reported_dispute("charge.dispute.created", &object)
            .unwrap()
            .unwrap();
        assert_eq!(dispute.id, "dp_1");
        assert_eq!(dispute.charge_id, "pi_1");
        assert_eq!(dispute.amount.to_string(), "50.00 CAD");
        assert_eq!(dispute.status, "needs_response");
        assert!(dispute.evidence_due_by.is_some());
        assert!(
            reported_dispute("customer.created", &object)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn other_events_change_nothing() {
        for kind in ["charge.dispute.created", "customer.created"] {
            let other = event(
                kind,
                serde_json::json!({"id": "x", "payment_intent": "pi_1"}),
            );
            assert_eq!(reported(&other), None, "{kind}");
        }
    }
}
