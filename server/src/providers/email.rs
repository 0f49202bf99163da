//! Email. Local stand-in: the outbox file; production: [`super::smtp::SmtpEmail`]. The
//! outbox worker (`crate::outbox`) is what calls them.

use async_trait::async_trait;
use serde::Serialize;

use super::outbox_file::JsonLinesFile;

#[derive(Debug, Clone, Serialize)]
pub struct EmailMessage {
    /// The outbox row's id: the same on every try, so a duplicate can be recognised.
    pub delivery_id: uuid::Uuid,
    pub to: String,
    pub subject: String,
    pub body: String,
    /// Where a one-click unsubscribe posts (`List-Unsubscribe`, RFC 8058); `None` for the
    /// mail that cannot be turned off (receipts, security messages).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_unsubscribe: Option<String>,
}

#[async_trait]
pub trait EmailSender: Send + Sync + 'static {
    async fn send(&self, message: &EmailMessage) -> anyhow::Result<()>;
}

/// Writes each message as a JSON line (`delivery_id`, `to`, `subject`, `body`,
/// `list_unsubscribe` when it has one, `sent_at`) to `email.jsonl`.
#[derive(Debug)]
pub struct OutboxEmail(JsonLinesFile);

impl OutboxEmail {
    pub fn new(outbox_dir: &std::path::Path) -> Self {
        Self(JsonLinesFile::new(outbox_dir.join("email.jsonl")))
    }
}

#[derive(Serialize)]
struct Line<'a> {
    #[serde(flatten)]
    message: &'a EmailMessage,
    sent_at: chrono::DateTime<chrono::Utc>,
}

#[async_trait]
impl EmailSender for OutboxEmail {
    async fn send(&self, message: &EmailMessage) -> anyhow::Result<()> {
        self.0
            .append(&Line {
                message,
                sent_at: chrono::Utc::now(),
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn each_message_is_one_json_line() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = OutboxEmail::new(dir.path());
        for n in 0..2 {
            let message = EmailMessage {
                delivery_id: uuid::Uuid::now_v7(),
                to: "ana@example.ca".into(),
                subject: format!("Hello {n}"),
                body: "line one\nline two".into(),
                list_unsubscribe: None,
            };
            outbox.send(&message).await.unwrap();
        }
        let text = std::fs::read_to_string(dir.path().join("email.jsonl")).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1]["subject"], "Hello 1");
        assert_eq!(lines[0]["to"], "ana@example.ca");
        assert_eq!(lines[0]["body"], "line one\nline two");
    }
}
