//! The alerts each event writes to the devices of those it concerns (browsers' Web Push
//! subscriptions and native apps' devices, kept by `accounts::push`), through the outbox,
//! one per device, in the device's language. Emails and texts are written beside them: an
//! alert that fails takes nothing from them.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgExecutor;
use uuid::Uuid;

use crate::{
    config::links::PageLink,
    domain::{Language, Subscriber, Topic},
    outbox::{NewOutboxMessage, Urgency},
    store::{accounts::AccountKind, push_subscriptions, services::ServiceNames},
    words::Alert,
};

/// An alert as the service worker reads it (the push's plaintext).
#[derive(Debug, Serialize)]
struct Payload<'a> {
    title: &'a str,
    body: &'a str,
    /// The page a click opens.
    url: &'a str,
    /// One notification per thing: a newer one replaces it.
    tag: &'a str,
}

/// What one event alerts: to whom, how urgently, until when it is worth showing.
#[derive(Debug, Clone, Copy)]
pub struct Alerting<'a> {
    kind: AccountKind,
    accounts: &'a [Uuid],
    urgency: Urgency,
    /// Not worth delivering after this (also bounds how long the push service keeps it).
    until: Option<DateTime<Utc>>,
    url: &'a PageLink,
    tag: &'a str,
    /// Keys the pushes (`{dedupe}:{subscription}`) so that a retried event writes none twice.
    dedupe: &'a str,
    /// The kind of message, when its person may turn it off (payments' alerts may not).
    topic: Option<Topic>,
}

impl<'a> Alerting<'a> {
    /// Alerts to the devices of `accounts` (of `kind`) that open `url` in the device's
    /// language: one notification
    /// per `tag` on a device, a newer one replacing it; keyed by `tag` too, unless
    /// [`Self::keyed`] says otherwise. Normal urgency, kept a day at most.
    pub fn new(kind: AccountKind, accounts: &'a [Uuid], url: &'a PageLink, tag: &'a str) -> Self {
        Self {
            kind,
            accounts,
            urgency: Urgency::Normal,
            until: None,
            url,
            tag,
            dedupe: tag,
            topic: None,
        }
    }

    /// An alert of a kind its person may turn off: not written to a device of someone who
    /// turned `topic` off for pushes.
    pub fn about(mut self, topic: Topic) -> Self {
        self.topic = Some(topic);
        self
    }

    /// Wakes the device now (an emergency, a hire).
    pub fn urgent(mut self, urgent: bool) -> Self {
        self.urgency = if urgent {
            Urgency::High
        } else {
            Urgency::Normal
        };
        self
    }

    /// Drops the alerts still unsent at `time`.
    pub fn until(mut self, time: DateTime<Utc>) -> Self {
        self.until = Some(time);
        self
    }

    /// Keys the pushes by `dedupe` rather than the tag.
    pub fn keyed(mut self, dedupe: &'a str) -> Self {
        self.dedupe = dedupe;
        self
    }
}

/// One push per device of `to.accounts`, written by `alert` in the device's language (for
/// the account it belongs to; `None`: none for that account), to put in the outbox with the
/// event's other messages.
pub async fn to_devices(
    db: impl PgExecutor<'_>,
    to: Alerting<'_>,
    alert: impl Fn(Uuid, Language) -> Option<Alert>,
) -> sqlx::Result<Vec<NewOutboxMessage>> {
    if to.accounts.is_empty() {
        return Ok(Vec::new());
    }
    let devices = push_subscriptions::devices_of(db, to.kind, to.accounts).await?;
    Ok(devices
        .into_iter()
        .filter_map(|device| {
            let words = alert(device.account_id, device.language)?;
            let payload = Payload {
                title: &words.title,
                body: &words.body,
                url: to.url.of(device.language),
                tag: to.tag,
            };
            // Four strings always serialise.
            let json = serde_json::to_string(&payload).unwrap_or_default();
            let mut message = NewOutboxMessage::push(device.subscription_id, json, to.urgency);
            message.dedupe_key = Some(format!("{}:{}", to.dedupe, device.subscription_id));
            message.discard_after = to.until;
            if let Some(topic) = to.topic {
                message = message.for_subscriber(Subscriber {
                    topic,
                    role: to.kind.role(),
                    account_id: device.account_id,
                    language: device.language,
                });
            }
            Some(message)
        })
        .collect())
}

/// The alerts to professionals that a request (`request_id`, of `service`) they quoted on,
/// or were hired for, was closed: the customer cancelled it (`cancelled`) or hired another.
/// They replace the request's own alert on each device.
pub async fn request_closed(
    db: impl PgExecutor<'_>,
    request_id: Uuid,
    professionals: &[Uuid],
    service: &ServiceNames,
    cancelled: bool,
    link: &PageLink,
) -> sqlx::Result<Vec<NewOutboxMessage>> {
    let tag = format!("repair-request:{request_id}");
    let key = format!("closed:{request_id}");
    let to = Alerting::new(AccountKind::Professional, professionals, link, &tag)
        .keyed(&key)
        .about(Topic::RequestUpdates);
    to_devices(db, to, |_, language| {
        Some(crate::words::of(language).quote_closed_alert(service.of(language), cancelled))
    })
    .await
}
