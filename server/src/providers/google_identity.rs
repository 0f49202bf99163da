//! "Sign in with Google": the browser gets an ID token (a JWT signed RS256 by Google) and the
//! server checks it against Google's published keys (JWKS): signature, `aud` (our client ids),
//! `iss`, `exp`, and that the email is verified.

use std::{
    collections::HashMap,
    sync::Arc,
    time::{Duration, Instant},
};

use async_trait::async_trait;
use jsonwebtoken::{
    Algorithm, DecodingKey, Validation, decode, decode_header, errors::ErrorKind, jwk::Jwk,
};
use serde::Deserialize;
use tokio::sync::Mutex;

use super::{
    http_client::{self, DEFAULT_TIMEOUT},
    identity::IdentityError,
};

/// Where Google publishes its signing keys (the default JWKS URL).
pub const GOOGLE_JWKS_URL: &str = "https://www.googleapis.com/oauth2/v3/certs";

const PROVIDER: &str = "Google";
const ISSUERS: [&str; 2] = ["accounts.google.com", "https://accounts.google.com"];
/// Used when the JWKS answer has no max-age.
const FALLBACK_MAX_AGE: Duration = Duration::from_secs(300);
/// Keys are refetched at least daily whatever the answer said, so a rotation is never missed.
const LONGEST_MAX_AGE: Duration = Duration::from_secs(24 * 3600);
/// Real ID tokens are about 1 KB; refuse to parse anything much larger.
const MAX_TOKEN_BYTES: usize = 8 * 1024;

/// The account a valid ID token vouches for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoogleUser {
    /// Google's stable account id (`sub`): link accounts by this, not by email.
    pub subject: String,
    pub email: String,
    /// Always true: tokens whose email is not verified are refused.
    pub email_verified: bool,
    pub name: Option<String>,
}

#[async_trait]
pub trait GoogleIdentity: Send + Sync + 'static {
    async fn verify(&self, id_token: &str) -> Result<GoogleUser, IdentityError>;
    /// False when Google sign-in is off: the UI hides its button.
    fn is_configured(&self) -> bool;
}

/// The stand-in when no client id is configured: every sign-in is refused, clearly.
#[derive(Debug, Default, Clone, Copy)]
pub struct GoogleNotConfigured;

#[async_trait]
impl GoogleIdentity for GoogleNotConfigured {
    async fn verify(&self, _id_token: &str) -> Result<GoogleUser, IdentityError> {
        Err(IdentityError::NotConfigured { provider: PROVIDER })
    }

    fn is_configured(&self) -> bool {
        false
    }
}

#[derive(Debug, Clone)]
pub struct GoogleConfig {
    /// OAuth client ids whose tokens we accept (web, and later mobile apps).
    pub client_ids: Vec<String>,
    pub jwks_url: String,
    pub timeout: Duration,
    /// A token with an unknown `kid` makes us refetch the keys at most this often.
    pub min_refetch_interval: Duration,
}

impl GoogleConfig {
    pub fn new(client_ids: Vec<String>) -> Self {
        Self {
            client_ids,
            jwks_url: GOOGLE_JWKS_URL.to_owned(),
            timeout: DEFAULT_TIMEOUT,
            min_refetch_interval: Duration::from_secs(60),
        }
    }

    /// From a comma-separated setting; `None` when it names no client id.
    pub fn from_client_id_list(list: &str) -> Option<Self> {
        let ids: Vec<String> = list
            .split(',')
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(str::to_owned)
            .collect();
        (!ids.is_empty()).then(|| Self::new(ids))
    }
}

/// The verifier for a configuration, or the stand-in when there is none.
pub fn google_identity(
    config: Option<GoogleConfig>,
) -> Result<Arc<dyn GoogleIdentity>, reqwest::Error> {
    Ok(match config {
        Some(config) => Arc::new(GoogleJwksVerifier::new(config)?),
        None => Arc::new(GoogleNotConfigured),
    })
}

#[derive(Default)]
struct KeyCache {
    keys: HashMap<String, DecodingKey>,
    fresh_until: Option<Instant>,
    last_attempt: Option<Instant>,
}

pub struct GoogleJwksVerifier {
    config: GoogleConfig,
    http: reqwest::Client,
    validation: Validation,
    // Held across the fetch, so concurrent sign-ins share one request to Google.
    keys: Mutex<KeyCache>,
}

impl std::fmt::Debug for GoogleJwksVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoogleJwksVerifier")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl GoogleJwksVerifier {
    pub fn new(config: GoogleConfig) -> Result<Self, reqwest::Error> {
        let mut validation = Validation::new(Algorithm::RS256);
        validation.set_audience(&config.client_ids);
        validation.set_issuer(&ISSUERS);
        validation.set_required_spec_claims(&["exp", "aud", "iss", "sub"]);
        Ok(Self {
            http: http_client::client(config.timeout)?,
            config,
            validation,
            keys: Mutex::new(KeyCache::default()),
        })
    }

    async fn key_for(&self, kid: &str) -> Result<DecodingKey, IdentityError> {
        let mut cache = self.keys.lock().await;
        let now = Instant::now();
        let fresh = cache.fresh_until.is_some_and(|until| now < until);
        let never_fetched = cache.fresh_until.is_none();
        let may_fetch = never_fetched
            || cache
                .last_attempt
                .is_none_or(|at| now.duration_since(at) >= self.config.min_refetch_interval);
        if (!fresh || !cache.keys.contains_key(kid)) && may_fetch {
            cache.last_attempt = Some(now);
            match self.fetch_keys().await {
                Ok((keys, max_age)) => {
                    cache.keys = keys;
                    cache.fresh_until = Some(Instant::now() + max_age);
                }
                // Keys past their max-age still verify while Google is unreachable.
                Err(error) if cache.keys.is_empty() => return Err(error),
                Err(_) => {}
            }
        }
        match cache.keys.get(kid) {
            Some(key) => Ok(key.clone()),
            None if cache.fresh_until.is_none() => Err(IdentityError::unavailable(
                PROVIDER,
                "Google's signing keys have not been fetched yet",
            )),
            None => Err(IdentityError::UnknownKey { provider: PROVIDER }),
        }
    }

    async fn fetch_keys(&self) -> Result<(HashMap<String, DecodingKey>, Duration), IdentityError> {
        let unavailable = |detail: String| IdentityError::unavailable(PROVIDER, detail);
        let response = self
            .http
            .get(&self.config.jwks_url)
            .send()
            .await
            .map_err(|e| unavailable(format!("fetching the JWKS: {e}")))?;
        if !response.status().is_success() {
            return Err(unavailable(format!(
                "the JWKS answered HTTP {}",
                response.status()
            )));
        }
        let max_age = response
            .headers()
            .get(reqwest::header::CACHE_CONTROL)
            .and_then(|value| value.to_str().ok())
            .and_then(max_age)
            .unwrap_or(FALLBACK_MAX_AGE)
            .min(LONGEST_MAX_AGE);
        let set: JwksDocument = response
            .json()
            .await
            .map_err(|e| unavailable(format!("reading the JWKS: {e}")))?;
        Ok((set.usable_keys(), max_age))
    }
}

/// The JWKS, each key read on its own so that one of a kind we do not know spoils nothing.
#[derive(Deserialize)]
struct JwksDocument {
    keys: Vec<serde_json::Value>,
}

impl JwksDocument {
    fn usable_keys(self) -> HashMap<String, DecodingKey> {
        self.keys
            .into_iter()
            .filter_map(|value| serde_json::from_value::<Jwk>(value).ok())
            .filter_map(|jwk| {
                let kid = jwk.common.key_id.clone()?;
                let key = DecodingKey::from_jwk(&jwk).ok()?;
                Some((kid, key))
            })
            .collect()
    }
}

/// `max-age` of a Cache-Control value; `no-store`/`no-cache` mean zero.
fn max_age(cache_control: &str) -> Option<Duration> {
    let mut found = None;
    for directive in cache_control.split(',').map(str::trim) {
        if directive.eq_ignore_ascii_case("no-store") || directive.eq_ignore_ascii_case("no-cache")
        {
            return Some(Duration::ZERO);
        }
        if let Some((name, value)) = directive.split_once('=')
            && name.trim().eq_ignore_ascii_case("max-age")
        {
            found = value
                .trim()
                .trim_matches('"')
                .parse()
                .ok()
                .map(Duration::from_secs);
        }
    }
    found
}

#[derive(Deserialize)]
struct GoogleClaims {
    sub: String,
    email: Option<String>,
    email_verified: Option<Flag>,
    name: Option<String>,
}

/// Google sends `email_verified` as a boolean; some older tokens sent the string "true".
#[derive(Deserialize)]
#[serde(untagged)]
enum Flag {
    Bool(bool),
    Text(String),
}

impl Flag {
    fn is_true(&self) -> bool {
        match self {
            Self::Bool(value) => *value,
            Self::Text(text) => text == "true",
        }
    }
}

fn token_error(error: &jsonwebtoken::errors::Error) -> IdentityError {
    let provider = PROVIDER;
    match error.kind() {
        ErrorKind::ExpiredSignature => IdentityError::Expired { provider },
        ErrorKind::InvalidAudience => IdentityError::WrongAudience { provider },
        ErrorKind::InvalidIssuer => IdentityError::WrongIssuer { provider },
        ErrorKind::InvalidSignature => IdentityError::BadSignature { provider },
        _ => IdentityError::InvalidToken { provider },
    }
}

#[async_trait]
impl GoogleIdentity for GoogleJwksVerifier {
    async fn verify(&self, id_token: &str) -> Result<GoogleUser, IdentityError> {
        let invalid = IdentityError::InvalidToken { provider: PROVIDER };
        if id_token.len() > MAX_TOKEN_BYTES {
            return Err(invalid);
        }
        let header = decode_header(id_token).map_err(|e| token_error(&e))?;
        if header.alg != Algorithm::RS256 {
            return Err(invalid);
        }
        let kid = header.kid.ok_or(invalid)?;
        let key = self.key_for(&kid).await?;
        let claims = decode::<GoogleClaims>(id_token, &key, &self.validation)
            .map_err(|e| token_error(&e))?
            .claims;
        let email = claims
            .email
            .ok_or(IdentityError::MissingEmail { provider: PROVIDER })?;
        if !claims.email_verified.as_ref().is_some_and(Flag::is_true) {
            return Err(IdentityError::EmailNotVerified { provider: PROVIDER });
        }
        Ok(GoogleUser {
            subject: claims.sub,
            email,
            email_verified: true,
            name: claims.name,
        })
    }

    fn is_configured(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_age_is_read_from_cache_control() {
        assert_eq!(
            max_age("public, max-age=19845, must-revalidate, no-transform"),
            Some(Duration::from_secs(19845))
        );
        assert_eq!(max_age("no-store"), Some(Duration::ZERO));
        assert_eq!(max_age("public"), None);
        assert_eq!(max_age("max-age=soon"), None);
    }

    #[test]
    fn client_ids_come_from_a_comma_separated_list() {
        let config = GoogleConfig::from_client_id_list(" a.apps , ,b.apps").unwrap();
        assert_eq!(config.client_ids, ["a.apps", "b.apps"]);
        assert!(GoogleConfig::from_client_id_list(" , ").is_none());
    }

    #[test]
    fn email_verified_may_be_a_string() {
        let claims: GoogleClaims =
            serde_json::from_str(r#"{"sub": "1", "email_verified": "true"}"#).unwrap();
        assert!(claims.email_verified.unwrap().is_true());
        let claims: GoogleClaims =
            serde_json::from_str(r#"{"sub": "1", "email_verified": false}"#).unwrap();
        assert!(!claims.email_verified.unwrap().is_true());
    }

    #[tokio::test]
    async fn without_a_client_id_sign_in_is_refused_clearly() {
        let google = google_identity(GoogleConfig::from_client_id_list("")).unwrap();
        assert!(!google.is_configured());
        let error = google.verify("anything").await.unwrap_err();
        assert_eq!(error, IdentityError::NotConfigured { provider: "Google" });
    }

    #[tokio::test]
    async fn garbage_is_an_invalid_token_without_asking_google() {
        let verifier = GoogleJwksVerifier::new(GoogleConfig {
            jwks_url: "http://127.0.0.1:9/never".into(),
            ..GoogleConfig::new(vec!["client".into()])
        })
        .unwrap();
        assert_eq!(
            verifier.verify("not.a.jwt").await.unwrap_err(),
            IdentityError::InvalidToken { provider: "Google" }
        );
    }
}
