//! Firebase Cloud Messaging, HTTP v1 API: `POST {FCM_URL}/v1/projects/{project}/messages:send`
//! with an OAuth 2 access token. The token comes from the project's service account key (the
//! JSON file Google gives): a JWT naming the account (`iss`), the token address (`aud`) and
//! the messaging scope, signed RS256 with the account's private key, is exchanged at the
//! key's `token_uri` (RFC 7523), kept, and renewed [`RENEW_BEFORE`] its expiry.

use std::{path::Path, time::Duration};

use anyhow::Context;
use async_trait::async_trait;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::Semaphore;

use super::sender::{NativeMessage, NativeSender, Refused, TokenCache};
use crate::providers::web_push::{Delivery, Urgency};
use crate::providers::{SecretString, http_client};

/// The scope the access token is asked for.
pub const SCOPE: &str = "https://www.googleapis.com/auth/firebase.messaging";
/// How long the signed grant is valid (Google takes an hour at most).
const GRANT_LIFETIME_SECS: i64 = 3600;
/// How long before its expiry an access token is renewed.
pub const RENEW_BEFORE: Duration = Duration::from_secs(5 * 60);
/// The least time a token is kept, however short its life (never a token per send).
const MIN_KEEP: Duration = Duration::from_secs(30);

/// The fields of a service account key file the adapter uses.
#[derive(Clone, Deserialize)]
pub struct ServiceAccount {
    pub project_id: String,
    pub client_email: String,
    pub token_uri: String,
    #[serde(default)]
    pub private_key_id: Option<String>,
    private_key: String,
}

impl std::fmt::Debug for ServiceAccount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceAccount")
            .field("project_id", &self.project_id)
            .field("client_email", &self.client_email)
            .field("token_uri", &self.token_uri)
            .finish_non_exhaustive()
    }
}

impl ServiceAccount {
    /// Reads `FCM_SERVICE_ACCOUNT_FILE`.
    pub async fn read(path: &Path) -> anyhow::Result<Self> {
        let text = tokio::fs::read_to_string(path).await.with_context(|| {
            format!("FCM_SERVICE_ACCOUNT_FILE {} cannot be read", path.display())
        })?;
        serde_json::from_str(&text).with_context(|| {
            format!(
                "FCM_SERVICE_ACCOUNT_FILE {} is not a service account key \
                 (project_id, client_email, private_key, token_uri)",
                path.display()
            )
        })
    }
}

/// The claims of the signed grant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrantClaims {
    /// The service account's email.
    pub iss: String,
    pub scope: String,
    /// The token address.
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
}

/// The token address's answer.
#[derive(Debug, Deserialize)]
struct AccessToken {
    access_token: String,
    #[serde(default)]
    expires_in: u64,
}

pub struct FcmClient {
    http: reqwest::Client,
    /// `…/v1/projects/{project}/messages:send`.
    send_url: String,
    token_uri: String,
    client_email: String,
    key_id: Option<String>,
    key: EncodingKey,
    tokens: TokenCache,
    permits: Semaphore,
}

impl FcmClient {
    pub fn new(url: &str, account: ServiceAccount, concurrency: usize) -> anyhow::Result<Self> {
        let key = EncodingKey::from_rsa_pem(account.private_key.as_bytes())
            .context("the service account's private_key is not an RSA key in PEM")?;
        let client = Self {
            http: super::sender::http2_client()?,
            send_url: http_client::endpoint(
                url,
                &format!("v1/projects/{}/messages:send", account.project_id),
            ),
            token_uri: account.token_uri,
            client_email: account.client_email,
            key_id: account.private_key_id,
            key,
            tokens: TokenCache::default(),
            permits: Semaphore::new(concurrency.max(1)),
        };
        // A key that cannot sign stops the start, not the first alert.
        client.grant(chrono::Utc::now().timestamp())?;
        Ok(client)
    }

    /// The signed grant (RFC 7523) made at `now`.
    pub fn grant(&self, now: i64) -> anyhow::Result<String> {
        let mut header = Header::new(Algorithm::RS256);
        header.kid.clone_from(&self.key_id);
        let claims = GrantClaims {
            iss: self.client_email.clone(),
            scope: SCOPE.to_owned(),
            aud: self.token_uri.clone(),
            iat: now,
            exp: now + GRANT_LIFETIME_SECS,
        };
        jsonwebtoken::encode(&header, &claims, &self.key)
            .context("the FCM token grant could not be signed")
    }

    /// A new access token from the token address, and how long to keep it.
    async fn access_token(&self) -> anyhow::Result<(SecretString, Duration)> {
        let grant = self.grant(chrono::Utc::now().timestamp())?;
        let answer = self
            .http
            .post(&self.token_uri)
            .form(&[
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                ("assertion", grant.as_str()),
            ])
            .send()
            .await
            .context("FCM's token address could not be reached")?;
        if !answer.status().is_success() {
            return Err(Refused::read(answer).await.into_error().into());
        }
        let token: AccessToken = answer
            .json()
            .await
            .context("FCM's token address answered no access token")?;
        let keep = Duration::from_secs(token.expires_in)
            .saturating_sub(RENEW_BEFORE)
            .max(MIN_KEEP);
        Ok((SecretString::new(token.access_token), keep))
    }
}

/// The message: the alert as a notification, the page and tag as data for the app, and
/// Android's delivery options.
pub fn message_body(message: &NativeMessage) -> serde_json::Value {
    let alert = &message.alert;
    json!({
        "message": {
            "token": message.device_token,
            "notification": { "title": alert.title, "body": alert.body },
            "data": { "url": alert.url, "tag": alert.tag },
            "android": {
                "priority": priority(message.urgency),
                "ttl": format!("{}s", message.ttl.as_secs()),
                "collapse_key": alert.tag,
                "notification": { "tag": alert.tag },
            },
        }
    })
}

/// Android's delivery priority: `HIGH` wakes the device at once (an emergency, a hire).
pub fn priority(urgency: Urgency) -> &'static str {
    match urgency {
        Urgency::High => "HIGH",
        Urgency::Normal => "NORMAL",
    }
}

/// FCM's error answer (google.rpc.Status with FCM's details).
#[derive(Debug, Default, Deserialize)]
struct ErrorAnswer {
    #[serde(default)]
    error: ErrorStatus,
}

#[derive(Debug, Default, Deserialize)]
struct ErrorStatus {
    #[serde(default)]
    status: String,
    #[serde(default)]
    details: Vec<ErrorDetail>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ErrorDetail {
    #[serde(default)]
    error_code: String,
    #[serde(default)]
    field_violations: Vec<FieldViolation>,
}

#[derive(Debug, Default, Deserialize)]
struct FieldViolation {
    #[serde(default)]
    field: String,
}

/// Whether FCM's answer says the device is gone: `UNREGISTERED` (the app was removed or the
/// token expired), or `INVALID_ARGUMENT` on the token itself (never a valid token).
fn says_gone(body: &str) -> bool {
    let answer: ErrorAnswer = serde_json::from_str(body).unwrap_or_default();
    let error = &answer.error;
    let code = |wanted: &str| {
        error.status == wanted || error.details.iter().any(|d| d.error_code == wanted)
    };
    code("UNREGISTERED")
        || (code("INVALID_ARGUMENT")
            && error
                .details
                .iter()
                .flat_map(|d| &d.field_violations)
                .any(|v| v.field == "message.token"))
}

#[async_trait]
impl NativeSender for FcmClient {
    async fn send(&self, message: &NativeMessage) -> anyhow::Result<Delivery> {
        let _permit = self.permits.acquire().await?;
        let body = message_body(message);
        // An access token FCM refuses (revoked, expired early) is renewed once, at once.
        let mut renewed = false;
        loop {
            let token = self.tokens.get(|| self.access_token()).await?;
            let answer = self
                .http
                .post(&self.send_url)
                .bearer_auth(token.expose())
                .json(&body)
                .send()
                .await
                .context("FCM could not be reached")?;
            if answer.status().is_success() {
                return Ok(Delivery::Accepted);
            }
            let refused = Refused::read(answer).await;
            if says_gone(&refused.body) {
                return Ok(Delivery::Gone);
            }
            if refused.status == 401 && !renewed {
                self.tokens.forget(&token).await;
                renewed = true;
                continue;
            }
            return Err(refused.into_error().into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unregistered_and_a_bad_token_are_gone_other_refusals_are_not() {
        let unregistered = r#"{"error":{"code":404,"status":"NOT_FOUND","details":[
            {"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}"#;
        assert!(says_gone(unregistered));
        let bad_token = r#"{"error":{"code":400,"status":"INVALID_ARGUMENT","details":[
            {"@type":"type.googleapis.com/google.rpc.BadRequest",
             "fieldViolations":[{"field":"message.token","description":"Invalid registration token"}]}]}}"#;
        assert!(says_gone(bad_token));
        let bad_body = r#"{"error":{"code":400,"status":"INVALID_ARGUMENT","details":[
            {"@type":"type.googleapis.com/google.rpc.BadRequest",
             "fieldViolations":[{"field":"message.android.ttl"}]}]}}"#;
        assert!(!says_gone(bad_body));
        assert!(!says_gone(
            r#"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}"#
        ));
        assert!(!says_gone("<html>bad gateway</html>"));
    }

    #[test]
    fn emergencies_go_at_high_priority() {
        assert_eq!(priority(Urgency::High), "HIGH");
        assert_eq!(priority(Urgency::Normal), "NORMAL");
    }
}
