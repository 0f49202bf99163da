//! Text messages. Local stand-in: the outbox file; production: [`super::twilio::TwilioSms`].
//! The outbox worker (`crate::outbox`) is what calls them.

use async_trait::async_trait;
use serde::Serialize;

use super::outbox_file::JsonLinesFile;

#[derive(Debug, Clone, Serialize)]
pub struct SmsMessage {
    /// The outbox row's id: the same on every try, so a duplicate can be recognised.
    pub delivery_id: uuid::Uuid,
    /// E.164 phone number.
    pub to: String,
    pub body: String,
}

#[async_trait]
pub trait SmsSender: Send + Sync + 'static {
    async fn send(&self, message: &SmsMessage) -> anyhow::Result<()>;
}

/// Writes each message as a JSON line (`delivery_id`, `to`, `body`, `sent_at`) to `sms.jsonl`.
#[derive(Debug)]
pub struct OutboxSms(JsonLinesFile);

impl OutboxSms {
    pub fn new(outbox_dir: &std::path::Path) -> Self {
        Self(JsonLinesFile::new(outbox_dir.join("sms.jsonl")))
    }
}

#[derive(Serialize)]
struct Line<'a> {
    #[serde(flatten)]
    message: &'a SmsMessage,
    sent_at: chrono::DateTime<chrono::Utc>,
}

#[async_trait]
impl SmsSender for OutboxSms {
    async fn send(&self, message: &SmsMessage) -> anyhow::Result<()> {
        self.0
            .append(&Line {
                message,
                sent_at: chrono::Utc::now(),
            })
            .await
    }
}
