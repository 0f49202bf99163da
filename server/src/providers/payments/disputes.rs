//! Card disputes as a gateway reports them (Stripe's Dispute object, folded), and the
//! evidence the platform sends back.

use chrono::{DateTime, NaiveDate, Utc};

use crate::domain::Money;

/// A dispute as the gateway answers or reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayDispute {
    /// The gateway's id (`dp_...`).
    pub id: String,
    /// The disputed payment's id (its PaymentIntent, `pi_...`): the ledger's charge id.
    pub charge_id: String,
    pub amount: Money,
    /// The bank's reason as the gateway names it (`fraudulent`, `product_not_received`...).
    pub reason: String,
    /// The gateway's status (`needs_response`, `under_review`, `won`, `lost`, and Stripe's
    /// `warning_*` inquiries): the rules fold it.
    pub status: String,
    /// Until when evidence is taken.
    pub evidence_due_by: Option<DateTime<Utc>>,
}

/// The evidence fields sent with a dispute (Stripe's `evidence[...]`, text ones only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisputeSubmission {
    pub customer_name: String,
    pub customer_email_address: String,
    pub product_description: String,
    pub service_date: Option<NaiveDate>,
    /// Everything else, as text: the times, the conversation, the photos, the receipt and
    /// the admin's note.
    pub uncategorized_text: String,
}
