//! Web Push (RFC 8030): a message for one browser subscription, encrypted for it
//! ([`ece`], RFC 8291) and posted to its push service with a VAPID token ([`vapid`], RFC
//! 8292). The outbox worker (`crate::outbox`) is what calls [`PushSender::send`]; endpoints
//! were checked against `PUSH_ENDPOINT_HOSTS` when they were subscribed.

pub mod ece;
pub mod vapid;

use std::time::Duration;

use anyhow::Context;
use async_trait::async_trait;
use tokio::sync::Semaphore;

pub use vapid::VapidKey;

/// How soon the push service should wake the device (RFC 8030 section 5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Urgency {
    Normal,
    /// An emergency: wake the phone now.
    High,
}

impl Urgency {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::High => "high",
        }
    }

    pub fn parse(value: &str) -> Self {
        if value == "high" {
            Self::High
        } else {
            Self::Normal
        }
    }
}

/// One message to one subscription.
#[derive(Debug, Clone)]
pub struct PushMessage {
    /// The outbox row's id.
    pub delivery_id: uuid::Uuid,
    pub endpoint: String,
    pub p256dh: [u8; ece::PUBLIC_KEY_BYTES],
    pub auth: [u8; ece::AUTH_SECRET_BYTES],
    /// What the service worker reads (JSON), before encryption.
    pub payload: String,
    /// How long the push service keeps it for a device that is away.
    pub ttl: Duration,
    pub urgency: Urgency,
}

/// How a push service took a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Accepted (201): it will reach the device.
    Accepted,
    /// 404 or 410: the subscription is gone (the browser unsubscribed or expired it).
    Gone,
}

/// A push service's refusal: its status and the start of its answer.
#[derive(Debug, thiserror::Error)]
#[error("the push service answered {status}: {body}")]
pub struct PushError {
    pub status: u16,
    pub body: String,
}

impl PushError {
    /// Too many messages (429) and the service's own failures (5xx) pass; a refused token,
    /// body or size (4xx) fails the same way on every try.
    pub fn is_retryable(&self) -> bool {
        self.status == 429 || self.status >= 500
    }
}

#[async_trait]
pub trait PushSender: Send + Sync + 'static {
    async fn send(&self, message: &PushMessage) -> anyhow::Result<Delivery>;
}

/// Posts messages to the push services, `concurrency` at a time, signed with `key`.
pub struct WebPushClient {
    http: reqwest::Client,
    key: VapidKey,
    /// The `sub` of every token: `mailto:` our contact address.
    contact: String,
    permits: Semaphore,
}

impl WebPushClient {
    pub fn new(key: VapidKey, contact: String, concurrency: usize) -> anyhow::Result<Self> {
        // No redirects: a push service answers itself, and a redirect could lead anywhere.
        let http = reqwest::Client::builder()
            .timeout(super::http_client::DEFAULT_TIMEOUT)
            .connect_timeout(super::http_client::DEFAULT_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("repairs-server/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Self {
            http,
            key,
            contact,
            permits: Semaphore::new(concurrency.max(1)),
        })
    }
}

/// `scheme://host[:port]` of an endpoint: the token's audience.
pub fn origin(endpoint: &str) -> anyhow::Result<String> {
    let url = reqwest::Url::parse(endpoint).context("the endpoint is not a URL")?;
    Ok(url.origin().ascii_serialization())
}

#[async_trait]
impl PushSender for WebPushClient {
    async fn send(&self, message: &PushMessage) -> anyhow::Result<Delivery> {
        let receiver = ece::Receiver {
            p256dh: &message.p256dh,
            auth: &message.auth,
        };
        let body = ece::encrypt(message.payload.as_bytes(), receiver)?;
        let audience = origin(&message.endpoint)?;
        let authorization =
            self.key
                .authorization(&audience, &self.contact, chrono::Utc::now().timestamp());
        let _permit = self.permits.acquire().await?;
        let answer = self
            .http
            .post(&message.endpoint)
            .header("authorization", authorization)
            .header("ttl", message.ttl.as_secs().to_string())
            .header("urgency", message.urgency.as_str())
            .header("content-encoding", "aes128gcm")
            .header("content-type", "application/octet-stream")
            .body(body)
            .send()
            .await
            .context("the push service could not be reached")?;
        let status = answer.status().as_u16();
        match status {
            200..=299 => Ok(Delivery::Accepted),
            404 | 410 => Ok(Delivery::Gone),
            _ => {
                let text = answer.text().await.unwrap_or_default();
                Err(PushError {
                    status,
                    body: text.chars().take(300).collect(),
                }
                .into())
            }
        }
    }
}
