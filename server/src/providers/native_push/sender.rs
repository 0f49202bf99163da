//! What both native adapters share: the message and the trait the outbox worker sends
//! through, the HTTP/2 client, the bearer token kept between sends, and a refusal's answer.

use std::{
    future::Future,
    time::{Duration, Instant},
};

use async_trait::async_trait;
use serde::Deserialize;
use tokio::sync::Mutex;

use crate::providers::{
    SecretString, http_client,
    web_push::{Delivery, PushError, Urgency},
};

/// The alert a device shows, as the outbox holds it for every push.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Alert {
    pub title: String,
    pub body: String,
    /// The page of the product the alert is about (the app opens its own screen for it).
    pub url: String,
    /// One notification per thing on a device: a newer one with the same tag replaces it.
    pub tag: String,
}

/// One alert to one native device.
#[derive(Debug, Clone)]
pub struct NativeMessage {
    /// The outbox row's id.
    pub delivery_id: uuid::Uuid,
    /// The token its platform knows the device by (`crate::domain::DeviceToken`).
    pub device_token: String,
    pub alert: Alert,
    /// How long the service keeps it for a device that is away.
    pub ttl: Duration,
    pub urgency: Urgency,
}

#[async_trait]
pub trait NativeSender: Send + Sync + 'static {
    async fn send(&self, message: &NativeMessage) -> anyhow::Result<Delivery>;
}

/// The HTTP/2 client both adapters post with: APNs speaks nothing else, and FCM multiplexes
/// every send over one connection. No redirects: the services answer themselves.
pub(super) fn http2_client() -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .http2_prior_knowledge()
        .timeout(http_client::DEFAULT_TIMEOUT)
        .connect_timeout(http_client::DEFAULT_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("repairs-server/", env!("CARGO_PKG_VERSION")))
        .build()?)
}

/// A bearer token kept while it is good and renewed before it is not: one renewal at a
/// time (sends that need it meanwhile wait for the same new token), none per send. Kept in
/// the process on purpose: it is derived from the key every replica holds, so each replica
/// holds its own.
#[derive(Default)]
pub(crate) struct TokenCache {
    slot: Mutex<Option<(SecretString, Instant)>>,
}

impl TokenCache {
    /// The kept token, or a new one from `renew` (the token and how long to keep it).
    pub(crate) async fn get<F, Fut>(&self, renew: F) -> anyhow::Result<SecretString>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = anyhow::Result<(SecretString, Duration)>>,
    {
        let mut slot = self.slot.lock().await;
        if let Some((token, renew_at)) = slot.as_ref()
            && Instant::now() < *renew_at
        {
            return Ok(token.clone());
        }
        let (token, keep) = renew().await?;
        *slot = Some((token.clone(), Instant::now() + keep));
        Ok(token)
    }

    /// Forgets `stale` (the service refused it), unless it was renewed meanwhile.
    pub(crate) async fn forget(&self, stale: &SecretString) {
        let mut slot = self.slot.lock().await;
        if slot.as_ref().is_some_and(|(token, _)| token == stale) {
            *slot = None;
        }
    }
}

/// The most of a refusal's answer read: the services' error bodies are a few hundred bytes.
const MAX_REFUSAL_BYTES: usize = 16 * 1024;

/// A refused request: its status and its answer (at most [`MAX_REFUSAL_BYTES`] of it), to
/// read the service's reason from.
pub(super) struct Refused {
    pub(super) status: u16,
    pub(super) body: String,
}

impl Refused {
    pub(super) async fn read(mut answer: reqwest::Response) -> Self {
        let status = answer.status().as_u16();
        let mut body = Vec::new();
        while let Ok(Some(chunk)) = answer.chunk().await {
            body.extend_from_slice(&chunk);
            if body.len() >= MAX_REFUSAL_BYTES {
                body.truncate(MAX_REFUSAL_BYTES);
                break;
            }
        }
        Self {
            status,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    }

    /// The error the outbox records: the status and the start of the answer.
    pub(super) fn into_error(self) -> PushError {
        PushError {
            status: self.status,
            body: self.body.chars().take(300).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_token_is_kept_until_its_renewal_and_forgotten_when_refused() {
        let cache = TokenCache::default();
        let minted = std::sync::atomic::AtomicUsize::new(0);
        let renew = || async {
            let n = minted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok((
                SecretString::new(format!("token-{n}")),
                Duration::from_millis(50),
            ))
        };
        let first = cache.get(renew).await.unwrap();
        assert_eq!(cache.get(renew).await.unwrap(), first);
        tokio::time::sleep(Duration::from_millis(60)).await;
        let second = cache.get(renew).await.unwrap();
        assert_eq!(second.expose(), "token-1");
        cache.forget(&first).await;
        assert_eq!(cache.get(renew).await.unwrap(), second);
        cache.forget(&second).await;
        assert_eq!(cache.get(renew).await.unwrap().expose(), "token-2");
    }
}
