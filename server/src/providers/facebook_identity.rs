//! "Log in with Facebook": the browser gets a user access token; the server asks the Graph API
//! whether that token is valid and was made for our app (`debug_token`), then who it belongs
//! to (`me`).

use std::{sync::Arc, time::Duration};

use async_trait::async_trait;
use serde::{Deserialize, de::DeserializeOwned};

use super::{
    SecretString,
    http_client::{self, DEFAULT_TIMEOUT},
    identity::IdentityError,
    secret::{hmac_sha256, to_hex},
};

/// The Graph API, pinned to a version so its answers do not change under us.
pub const FACEBOOK_GRAPH_URL: &str = "https://graph.facebook.com/v23.0";

const PROVIDER: &str = "Facebook";
/// Graph's code for an access token that is not valid, and its sub-code for an expired one.
const INVALID_TOKEN_CODE: i64 = 190;
const EXPIRED_SUBCODE: i64 = 463;
const MAX_TOKEN_BYTES: usize = 4 * 1024;

/// The account a valid access token belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FacebookUser {
    /// App-scoped user id: link accounts by this, not by email.
    pub id: String,
    /// Facebook shares only a confirmed email.
    pub email: String,
    pub name: Option<String>,
}

#[async_trait]
pub trait FacebookIdentity: Send + Sync + 'static {
    async fn verify(&self, access_token: &str) -> Result<FacebookUser, IdentityError>;
    /// False when Facebook login is off: the UI hides its button.
    fn is_configured(&self) -> bool;
}

/// The stand-in when no app id is configured: every login is refused, clearly.
#[derive(Debug, Default, Clone, Copy)]
pub struct FacebookNotConfigured;

#[async_trait]
impl FacebookIdentity for FacebookNotConfigured {
    async fn verify(&self, _access_token: &str) -> Result<FacebookUser, IdentityError> {
        Err(IdentityError::NotConfigured { provider: PROVIDER })
    }

    fn is_configured(&self) -> bool {
        false
    }
}

#[derive(Debug, Clone)]
pub struct FacebookConfig {
    pub app_id: String,
    pub app_secret: SecretString,
    /// With its version: `https://graph.facebook.com/v23.0`, or a local test server.
    pub graph_url: String,
    pub timeout: Duration,
}

impl FacebookConfig {
    pub fn new(app_id: impl Into<String>, app_secret: impl Into<SecretString>) -> Self {
        Self {
            app_id: app_id.into(),
            app_secret: app_secret.into(),
            graph_url: FACEBOOK_GRAPH_URL.to_owned(),
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

/// The verifier for a configuration, or the stand-in when there is none.
pub fn facebook_identity(
    config: Option<FacebookConfig>,
) -> Result<Arc<dyn FacebookIdentity>, reqwest::Error> {
    Ok(match config {
        Some(config) => Arc::new(FacebookGraph::new(config)?),
        None => Arc::new(FacebookNotConfigured),
    })
}

#[derive(Debug)]
pub struct FacebookGraph {
    config: FacebookConfig,
    http: reqwest::Client,
}

#[derive(Deserialize)]
struct DebugTokenAnswer {
    data: TokenInfo,
}

#[derive(Deserialize)]
struct TokenInfo {
    #[serde(default)]
    is_valid: bool,
    app_id: Option<String>,
    user_id: Option<String>,
    error: Option<GraphError>,
}

#[derive(Deserialize)]
struct Me {
    id: String,
    name: Option<String>,
    email: Option<String>,
}

#[derive(Deserialize)]
struct GraphErrorAnswer {
    error: GraphError,
}

#[derive(Deserialize)]
struct GraphError {
    code: Option<i64>,
    error_subcode: Option<i64>,
    subcode: Option<i64>,
    message: Option<String>,
}

impl GraphError {
    fn is_expired(&self) -> bool {
        self.error_subcode.or(self.subcode) == Some(EXPIRED_SUBCODE)
    }
}

impl FacebookGraph {
    pub fn new(config: FacebookConfig) -> Result<Self, reqwest::Error> {
        Ok(Self {
            http: http_client::client(config.timeout)?,
            config,
        })
    }

    /// One Graph call. A 4xx "invalid token" (190) means the person's token is bad; any other
    /// failure is ours or Facebook's and is logged.
    async fn graph_get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<T, IdentityError> {
        // Both tokens travel in the query string: keep the URL out of every message.
        let unavailable = |detail: String| IdentityError::unavailable(PROVIDER, detail);
        let response = self
            .http
            .get(http_client::endpoint(&self.config.graph_url, path))
            .query(query)
            .send()
            .await
            .map_err(|e| unavailable(format!("calling {path}: {}", e.without_url())))?;
        let status = response.status();
        let body = response
            .bytes()
            .await
            .map_err(|e| unavailable(format!("reading {path}: {}", e.without_url())))?;
        if status.is_success() {
            return serde_json::from_slice(&body)
                .map_err(|e| unavailable(format!("reading {path}: {e}")));
        }
        let error = serde_json::from_slice::<GraphErrorAnswer>(&body)
            .ok()
            .map(|answer| answer.error);
        match error {
            Some(error) if status.is_client_error() && error.code == Some(INVALID_TOKEN_CODE) => {
                Err(token_refused(&error))
            }
            error => Err(unavailable(format!(
                "{path} answered HTTP {status}: {}",
                error.and_then(|e| e.message).unwrap_or_default()
            ))),
        }
    }
}

fn token_refused(error: &GraphError) -> IdentityError {
    if error.is_expired() {
        IdentityError::Expired { provider: PROVIDER }
    } else {
        IdentityError::InvalidToken { provider: PROVIDER }
    }
}

#[async_trait]
impl FacebookIdentity for FacebookGraph {
    async fn verify(&self, access_token: &str) -> Result<FacebookUser, IdentityError> {
        let invalid = IdentityError::InvalidToken { provider: PROVIDER };
        if access_token.is_empty() || access_token.len() > MAX_TOKEN_BYTES {
            return Err(invalid);
        }
        let app_token = format!("{}|{}", self.config.app_id, self.config.app_secret.expose());
        let info = self
            .graph_get::<DebugTokenAnswer>(
                "debug_token",
                &[("input_token", access_token), ("access_token", &app_token)],
            )
            .await?
            .data;
        if !info.is_valid {
            return Err(info.error.as_ref().map_or(invalid, token_refused));
        }
        if info.app_id.as_deref() != Some(self.config.app_id.as_str()) {
            return Err(IdentityError::WrongAudience { provider: PROVIDER });
        }
        // Proves the call comes from our server, as the app's "require app secret" setting asks.
        let proof = to_hex(&hmac_sha256(
            self.config.app_secret.expose().as_bytes(),
            access_token.as_bytes(),
        ));
        let me = self
            .graph_get::<Me>(
                "me",
                &[
                    ("fields", "id,name,email"),
                    ("access_token", access_token),
                    ("appsecret_proof", &proof),
                ],
            )
            .await?;
        if info.user_id.as_deref().is_some_and(|user| user != me.id) {
            return Err(invalid);
        }
        let email = me
            .email
            .filter(|email| !email.trim().is_empty())
            .ok_or(IdentityError::MissingEmail { provider: PROVIDER })?;
        Ok(FacebookUser {
            id: me.id,
            email,
            name: me.name,
        })
    }

    fn is_configured(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn without_an_app_id_login_is_refused_clearly() {
        let facebook = facebook_identity(None).unwrap();
        assert!(!facebook.is_configured());
        assert_eq!(
            facebook.verify("token").await.unwrap_err(),
            IdentityError::NotConfigured {
                provider: "Facebook"
            }
        );
    }

    #[test]
    fn the_expired_subcode_is_told_apart() {
        let error: GraphErrorAnswer = serde_json::from_str(
            r#"{"error": {"message": "Session has expired", "type": "OAuthException",
                "code": 190, "error_subcode": 463}}"#,
        )
        .unwrap();
        assert_eq!(
            token_refused(&error.error),
            IdentityError::Expired {
                provider: "Facebook"
            }
        );
    }

    #[test]
    fn debug_hides_the_app_secret() {
        let config = FacebookConfig::new("123", "app-secret-value");
        assert!(!format!("{config:?}").contains("app-secret-value"));
    }
}
