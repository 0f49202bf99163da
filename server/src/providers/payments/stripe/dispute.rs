//! Stripe's Dispute object, as its dispute update call answers and its `charge.dispute.*`
//! events carry it: only the fields the platform reads.

use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::{domain::Money, providers::payments::disputes::GatewayDispute};

#[derive(Debug, Deserialize)]
pub struct DisputeObject {
    pub id: String,
    pub payment_intent: Option<String>,
    pub amount: i64,
    pub currency: String,
    #[serde(default)]
    pub reason: String,
    pub status: String,
    pub evidence_details: Option<EvidenceDetails>,
}

#[derive(Debug, Deserialize)]
pub struct EvidenceDetails {
    pub due_by: Option<i64>,
}

impl DisputeObject {
    /// The dispute, when it names its PaymentIntent and a currency the platform takes.
    pub fn into_dispute(self) -> Option<GatewayDispute> {
        let amount = Money::parse(self.amount, &self.currency.to_ascii_uppercase()).ok()?;
        let evidence_due_by = self
            .evidence_details
            .and_then(|details| details.due_by)
            .and_then(|at| DateTime::<Utc>::from_timestamp(at, 0));
        Some(GatewayDispute {
            id: self.id,
            charge_id: self.payment_intent?,
            amount,
            reason: self.reason,
            status: self.status,
            evidence_due_by,
        })
    }
}
