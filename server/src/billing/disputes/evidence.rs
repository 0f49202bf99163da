//! The evidence of a disputed job, assembled from what the platform holds: the request as
//! posted, the quote accepted, the conversation, how many photos, the times of hire and
//! completion, and the receipt. Kept as sent once submitted (so the page shows what the
//! bank read), and written out as text for the gateway.

use std::fmt::Write as _;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    domain::{Money, text::truncated},
    error::{ApiError, ApiResult},
    providers::payments::DisputeSubmission,
    store::disputes::{self as store, DisputeRow},
};

/// The conversation's messages sent at most.
pub const MAX_MESSAGES: i64 = 200;

/// Stripe takes up to 20,000 characters in one text field.
pub const MAX_TEXT_CHARS: usize = 20_000;

/// One message, as evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub author: String,
    pub sent_at: DateTime<Utc>,
    pub text: String,
}

/// What the platform holds about a disputed payment.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    pub customer_name: String,
    pub customer_email: String,
    pub request_title: String,
    pub request_description: String,
    pub quote_cents: i64,
    pub currency: String,
    pub quote_estimated_minutes: i32,
    pub hired_at: Option<DateTime<Utc>>,
    /// Not recorded yet: the platform does not keep when the professional arrived.
    pub arrived_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub messages: Vec<Message>,
    pub photo_count: i64,
    pub receipt_id: Uuid,
    pub charged_cents: i64,
    /// The admin's words, once sent.
    pub note: String,
    /// The text sent, once sent.
    pub submitted_text: String,
}

/// The evidence of `dispute`: as sent once it was, else assembled now.
pub async fn of(db: &mut sqlx::PgConnection, dispute: &DisputeRow) -> ApiResult<Evidence> {
    if let Some(sent) = &dispute.evidence {
        return serde_json::from_value(sent.0.clone())
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("stored dispute evidence: {e}")));
    }
    assemble(db, dispute).await
}

/// The evidence the platform holds now for `dispute`'s payment.
pub async fn assemble(db: &mut sqlx::PgConnection, dispute: &DisputeRow) -> ApiResult<Evidence> {
    let mut evidence = Evidence {
        receipt_id: dispute.payment_id,
        charged_cents: dispute.amount_cents,
        currency: dispute.currency.clone(),
        ..Evidence::default()
    };
    if let Some(job) = store::job_of(&mut *db, dispute.payment_id).await? {
        evidence.customer_name = job.customer_name;
        evidence.customer_email = job.customer_email;
        evidence.request_title = job.service_name;
        evidence.request_description = job.description;
        evidence.quote_cents = job.quote_cents;
        evidence.currency = job.quote_currency;
        evidence.quote_estimated_minutes = job.estimated_minutes;
        evidence.hired_at = job.hired_at;
        evidence.completed_at = job.completed_at;
        evidence.photo_count = job.photo_count;
    }
    evidence.messages = store::messages_of(&mut *db, dispute.payment_id, MAX_MESSAGES)
        .await?
        .into_iter()
        .map(|m| Message {
            author: m.author,
            sent_at: m.created_at,
            text: m.text,
        })
        .collect();
    Ok(evidence)
}

impl Evidence {
    /// What the gateway is sent: the named fields, and the rest as text with the admin's
    /// `note` first.
    pub fn submission(&self, note: &str) -> DisputeSubmission {
        DisputeSubmission {
            customer_name: self.customer_name.clone(),
            customer_email_address: self.customer_email.clone(),
            product_description: format!(
                "{}: {}",
                self.request_title,
                truncated(&self.request_description, 2_000)
            ),
            service_date: self
                .completed_at
                .or(self.hired_at)
                .map(|at| at.date_naive()),
            uncategorized_text: self.text(note),
        }
    }

    /// The times, the quote, the receipt, the photos and the conversation, after `note`,
    /// within [`MAX_TEXT_CHARS`] (the conversation's latest messages are the ones left out).
    pub fn text(&self, note: &str) -> String {
        let money = |cents: i64| {
            Money::parse(cents, &self.currency)
                .map_or_else(|_| format!("{cents} cents"), |money| money.to_string())
        };
        let time = |at: Option<DateTime<Utc>>| {
            at.map_or_else(|| "not recorded".to_owned(), |at| at.to_rfc3339())
        };
        let mut text = String::new();
        if !note.trim().is_empty() {
            let _ = writeln!(text, "{}\n", note.trim());
        }
        let _ = writeln!(text, "Request: {}", self.request_title);
        let _ = writeln!(
            text,
            "Quote accepted: {}, estimated {} minutes of work",
            money(self.quote_cents),
            self.quote_estimated_minutes
        );
        let _ = writeln!(text, "Hired: {}", time(self.hired_at));
        let _ = writeln!(text, "Arrived: {}", time(self.arrived_at));
        let _ = writeln!(
            text,
            "Marked done by the customer: {}",
            time(self.completed_at)
        );
        let _ = writeln!(
            text,
            "Charged: {} (receipt {})",
            money(self.charged_cents),
            self.receipt_id
        );
        let _ = writeln!(text, "Photos of the job: {}", self.photo_count);
        let _ = writeln!(text, "\nConversation between customer and professional:");
        for message in &self.messages {
            let line = format!(
                "[{} {}] {}\n",
                message.sent_at.to_rfc3339(),
                message.author,
                message.text
            );
            if text.chars().count() + line.chars().count() > MAX_TEXT_CHARS {
                text.push_str("[later messages left out]\n");
                break;
            }
            text.push_str(&line);
        }
        truncated(&text, MAX_TEXT_CHARS).to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(messages: usize, length: usize) -> Evidence {
        Evidence {
            request_title: "Plumbing".to_owned(),
            currency: "CAD".to_owned(),
            quote_cents: 12_345,
            messages: (0..messages)
                .map(|i| Message {
                    author: if i % 2 == 0 {
                        "customer"
                    } else {
                        "professional"
                    }
                    .to_owned(),
                    sent_at: DateTime::<Utc>::from_timestamp(1_800_000_000 + i as i64, 0).unwrap(),
                    text: "é".repeat(length),
                })
                .collect(),
            ..Evidence::default()
        }
    }

    #[test]
    fn the_text_carries_the_note_the_quote_and_the_conversation() {
        let text = evidence(2, 5).text("The leak was fixed; photos show it.");
        assert!(text.starts_with("The leak was fixed; photos show it."));
        assert!(text.contains("Quote accepted: 123.45 CAD"));
        assert!(text.contains("customer] ééééé"));
        assert!(text.contains("professional] ééééé"));
    }

    #[test]
    fn a_long_conversation_stays_within_the_gateway_s_bound() {
        let text = evidence(200, 4_000).text("note");
        assert!(text.chars().count() <= MAX_TEXT_CHARS);
        assert!(text.contains("[later messages left out]"));
    }
}
