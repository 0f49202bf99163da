//! Apple Push Notification service (HTTP/2 provider API) with token-based authentication:
//! each request carries `authorization: bearer <JWT>`, an ES256 token signed with the team's
//! key (`.p8`), naming the key (`kid`) and the team (`iss`) and when it was made (`iat`).
//! Apple takes a token for an hour and refuses one renewed more than once every 20 minutes,
//! so one is made every [`TOKEN_RENEW_AFTER`] and shared by every send meanwhile.

use std::time::Duration;

use anyhow::{Context, ensure};
use async_trait::async_trait;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::Semaphore;

use super::sender::{NativeMessage, NativeSender, Refused, TokenCache};
use crate::providers::web_push::{Delivery, Urgency};
use crate::{
    config::Config,
    providers::{SecretString, http_client},
};

/// How long one token is used: within Apple's hour, beyond its 20 minutes.
pub const TOKEN_RENEW_AFTER: Duration = Duration::from_secs(50 * 60);
/// `apns-collapse-id` is at most 64 bytes; a longer tag is not sent as one.
const MAX_COLLAPSE_ID_BYTES: usize = 64;

/// What the APNs settings hold.
#[derive(Debug, Clone)]
pub struct ApnsConfig {
    /// `APNS_URL`.
    pub url: String,
    /// The `.p8` file's PEM (PKCS#8).
    pub key_pem: SecretString,
    pub key_id: String,
    pub team_id: String,
    /// The app's bundle id.
    pub topic: String,
}

impl ApnsConfig {
    /// The settings when the key file, key id, team id and topic are all set; `None` when
    /// none is; an error when only some are, or the file cannot be read.
    pub async fn from_config(config: &Config) -> anyhow::Result<Option<Self>> {
        let given = |value: &Option<String>| {
            value
                .as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let (key_id, team_id, topic) = (
            given(&config.apns_key_id),
            given(&config.apns_team_id),
            given(&config.apns_topic),
        );
        let (Some(file), Some(key_id), Some(team_id), Some(topic)) = (
            &config.apns_key_file,
            key_id.clone(),
            team_id.clone(),
            topic.clone(),
        ) else {
            ensure!(
                config.apns_key_file.is_none()
                    && key_id.is_none()
                    && team_id.is_none()
                    && topic.is_none(),
                "APNS_KEY_FILE, APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC go together"
            );
            return Ok(None);
        };
        let key_pem = tokio::fs::read_to_string(file)
            .await
            .with_context(|| format!("APNS_KEY_FILE {} cannot be read", file.display()))?;
        Ok(Some(Self {
            url: config.apns_url.clone(),
            key_pem: SecretString::new(key_pem),
            key_id,
            team_id,
            topic,
        }))
    }
}

/// The claims of a provider token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The team id.
    pub iss: String,
    /// When it was made, seconds since the epoch.
    pub iat: i64,
}

pub struct ApnsClient {
    http: reqwest::Client,
    url: String,
    key: EncodingKey,
    key_id: String,
    team_id: String,
    topic: String,
    tokens: TokenCache,
    permits: Semaphore,
}

impl ApnsClient {
    pub fn new(config: ApnsConfig, concurrency: usize) -> anyhow::Result<Self> {
        let key = EncodingKey::from_ec_pem(config.key_pem.expose().as_bytes())
            .context("APNS_KEY_FILE is not an APNs signing key (a PKCS#8 P-256 key, .p8)")?;
        let client = Self {
            http: super::sender::http2_client()?,
            url: config.url,
            key,
            key_id: config.key_id,
            team_id: config.team_id,
            topic: config.topic,
            tokens: TokenCache::default(),
            permits: Semaphore::new(concurrency.max(1)),
        };
        // A key that cannot sign stops the start, not the first alert.
        client.token(chrono::Utc::now().timestamp())?;
        Ok(client)
    }

    /// A provider token made at `now` (seconds since the epoch).
    pub fn token(&self, now: i64) -> anyhow::Result<SecretString> {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.key_id.clone());
        let claims = Claims {
            iss: self.team_id.clone(),
            iat: now,
        };
        let token = jsonwebtoken::encode(&header, &claims, &self.key)
            .context("the APNs token could not be signed")?;
        Ok(SecretString::new(token))
    }

    async fn post(
        &self,
        message: &NativeMessage,
        token: &SecretString,
    ) -> anyhow::Result<reqwest::Response> {
        let url = http_client::endpoint(&self.url, &format!("3/device/{}", message.device_token));
        let mut request = self
            .http
            .post(url)
            .header("authorization", format!("bearer {}", token.expose()))
            .header("apns-push-type", "alert")
            .header("apns-topic", &self.topic)
            .header("apns-priority", priority(message.urgency))
            .header(
                "apns-expiration",
                expiration(message.ttl, chrono::Utc::now().timestamp()),
            )
            .header("apns-id", message.delivery_id.hyphenated().to_string())
            .json(&payload(message));
        if message.alert.tag.len() <= MAX_COLLAPSE_ID_BYTES {
            request = request.header("apns-collapse-id", &message.alert.tag);
        }
        request.send().await.context("APNs could not be reached")
    }
}

/// `apns-priority`: 10 sends at once and wakes the device (an emergency, a hire); 5 lets the
/// device's power use decide.
pub fn priority(urgency: Urgency) -> &'static str {
    match urgency {
        Urgency::High => "10",
        Urgency::Normal => "5",
    }
}

/// `apns-expiration`: until when Apple keeps trying a device that is away (seconds since
/// the epoch); 0 for once only.
pub fn expiration(ttl: Duration, now: i64) -> String {
    if ttl.is_zero() {
        "0".to_owned()
    } else {
        (now + i64::try_from(ttl.as_secs()).unwrap_or(i64::MAX / 2)).to_string()
    }
}

/// The notification: the alert's title and body under `aps`, the page and tag beside it for
/// the app.
fn payload(message: &NativeMessage) -> serde_json::Value {
    let alert = &message.alert;
    json!({
        "aps": {
            "alert": { "title": alert.title, "body": alert.body },
            "sound": "default",
            "thread-id": alert.tag,
        },
        "url": alert.url,
        "tag": alert.tag,
    })
}

/// APNs' answer to a refused request.
#[derive(Debug, Deserialize)]
struct Refusal {
    #[serde(default)]
    reason: String,
}

#[async_trait]
impl NativeSender for ApnsClient {
    async fn send(&self, message: &NativeMessage) -> anyhow::Result<Delivery> {
        let _permit = self.permits.acquire().await?;
        // A token Apple says is stale is made again once, at once.
        let mut renewed = false;
        loop {
            let token = self
                .tokens
                .get(|| async {
                    Ok((
                        self.token(chrono::Utc::now().timestamp())?,
                        TOKEN_RENEW_AFTER,
                    ))
                })
                .await?;
            let answer = self.post(message, &token).await?;
            if answer.status().is_success() {
                return Ok(Delivery::Accepted);
            }
            let refused = Refused::read(answer).await;
            let reason = serde_json::from_str::<Refusal>(&refused.body)
                .map(|r| r.reason)
                .unwrap_or_default();
            match (refused.status, reason.as_str()) {
                (410, _) | (400, "BadDeviceToken") => return Ok(Delivery::Gone),
                (403, "ExpiredProviderToken" | "InvalidProviderToken") if !renewed => {
                    self.tokens.forget(&token).await;
                    renewed = true;
                }
                _ => return Err(refused.into_error().into()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emergencies_go_at_priority_ten_and_expire_with_their_ttl() {
        assert_eq!(priority(Urgency::High), "10");
        assert_eq!(priority(Urgency::Normal), "5");
        assert_eq!(expiration(Duration::from_secs(3600), 1_000), "4600");
        assert_eq!(expiration(Duration::ZERO, 1_000), "0");
    }
}
