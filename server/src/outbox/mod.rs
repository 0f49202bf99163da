//! The durable outbox: every email, text message and Web Push the product sends.
//!
//! A change that must tell someone writes the message into the `outbox_messages` table in
//! its own transaction ([`enqueue`]), so the message exists exactly when the change does.
//! The [`Worker`] (one per server process; several processes may run) claims due messages
//! with `for update skip locked` and a lease, hands them to the SMS and email providers,
//! retries a failed send with exponential backoff and parks it after the last try. A row's
//! id travels with the message as its delivery id (the email's Message-ID, a field of the
//! local stand-ins' JSON lines), so a send repeated after a crash can be recognised.

pub mod photo_count;
mod worker;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;
use tokio::sync::Notify;
use uuid::Uuid;

pub use crate::domain::Subscriber;
pub use crate::providers::web_push::Urgency;
pub use crate::store::outbox::{Channel, Hold, NewOutboxMessage};
pub use worker::{SENDING, Worker, WorkerSettings};

/// Wakes this process's worker when a message was written, so it need not wait for its
/// next poll. Other processes' messages are found by polling.
#[derive(Clone, Default)]
pub struct OutboxSignal(Arc<Notify>);

impl OutboxSignal {
    /// Call after the transaction holding new messages has committed.
    pub fn wake(&self) {
        self.0.notify_one();
    }

    async fn woken(&self) {
        self.0.notified().await;
    }
}

/// What an email its person may turn off gains as it is sent: the address a one-click
/// `List-Unsubscribe` posts to (RFC 8058) and the footer saying who sends it and how to stop
/// it, in the person's language. `accounts::notifications` makes them; the worker asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsubscribe {
    pub link: String,
    pub footer: String,
}

pub trait Unsubscribing: Send + Sync + 'static {
    fn unsubscribe(&self, subscriber: &Subscriber) -> Unsubscribe;
}

/// Writes a message into the outbox, in the caller's transaction. `None`: its dedupe key
/// was used already, and nothing was written.
pub async fn enqueue(
    db: impl PgExecutor<'_>,
    message: &NewOutboxMessage,
) -> sqlx::Result<Option<Uuid>> {
    crate::store::outbox::insert(db, message).await
}

/// Writes several messages into the outbox in one statement, in the caller's transaction;
/// for each, its id, or `None` when its dedupe key was used already.
pub async fn enqueue_many(
    db: impl PgExecutor<'_>,
    messages: &[NewOutboxMessage],
) -> sqlx::Result<Vec<Option<Uuid>>> {
    if messages.is_empty() {
        return Ok(Vec::new());
    }
    crate::store::outbox::insert_many(db, messages).await
}

impl NewOutboxMessage {
    pub fn email(
        to: impl Into<String>,
        subject: impl Into<String>,
        body: impl Into<String>,
    ) -> Self {
        Self {
            channel: Channel::Email,
            recipient: to.into(),
            subject: subject.into(),
            body: body.into(),
            dedupe_key: None,
            discard_after: None,
            held: None,
            subscriber: None,
        }
    }

    pub fn sms(to: impl Into<String>, body: impl Into<String>) -> Self {
        Self {
            channel: Channel::Sms,
            recipient: to.into(),
            subject: String::new(),
            body: body.into(),
            dedupe_key: None,
            discard_after: None,
            held: None,
            subscriber: None,
        }
    }

    /// A Web Push to subscription `subscription` (`push_subscriptions.id`): `payload` is
    /// what its service worker reads (JSON), encrypted for the browser when it is sent.
    pub fn push(subscription: Uuid, payload: String, urgency: Urgency) -> Self {
        Self {
            channel: Channel::Push,
            recipient: subscription.to_string(),
            subject: urgency.as_str().to_owned(),
            body: payload,
            dedupe_key: None,
            discard_after: None,
            held: None,
            subscriber: None,
        }
    }

    /// Keeps the message back as `hold` says (a new request's alerts waiting for its photos).
    pub fn held(mut self, hold: Option<Hold>) -> Self {
        self.held = hold;
        self
    }

    /// Makes the message one its person may turn off: a `subscriber.topic` they have turned
    /// off for this channel is not written at all, and an email carries the link that turns
    /// it off (`crate::accounts::notification_preferences`).
    pub fn for_subscriber(mut self, subscriber: Subscriber) -> Self {
        self.subscriber = Some(subscriber);
        self
    }

    /// Drops the message, unsent, if it is still waiting at `time` (a code that expired).
    pub fn discard_after(mut self, time: DateTime<Utc>) -> Self {
        self.discard_after = Some(time);
        self
    }
}
