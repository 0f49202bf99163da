//! VAPID (RFC 8292): the server's P-256 key pair, and the short-lived ES256 token that
//! proves to a push service that a message comes from the holder of the key the browser
//! subscribed with (`Authorization: vapid t=<token>, k=<public key>`).

use anyhow::{Context, anyhow, ensure};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use p256::{
    SecretKey,
    ecdsa::{Signature, SigningKey, VerifyingKey, signature::Signer},
    elliptic_curve::sec1::ToEncodedPoint,
};
use serde::{Deserialize, Serialize};

/// Where the embedded default keeps its generated key.
const FILE_NAME: &str = "vapid-private-key";

/// The key of `VAPID_PRIVATE_KEY` when set; in the embedded default, the one generated into
/// `data_dir` on the first start; otherwise none, and Web Push is off (replicas on a shared
/// database must share one key, so none makes its own).
pub async fn load(
    configured: Option<&str>,
    uses_embedded_database: bool,
    data_dir: &std::path::Path,
) -> anyhow::Result<Option<VapidKey>> {
    if let Some(encoded) = configured {
        return VapidKey::from_base64url(encoded).map(Some);
    }
    if !uses_embedded_database {
        tracing::warn!("VAPID_PRIVATE_KEY is not set: Web Push alerts are off");
        return Ok(None);
    }
    let path = data_dir.join(FILE_NAME);
    let stored = crate::auth::secret::kept_in(&path, "VAPID key", || {
        VapidKey::generate().private_base64url()
    })
    .await?;
    VapidKey::from_base64url(&stored)
        .with_context(|| format!("{} is damaged; delete it to make a new one", path.display()))
        .map(Some)
}

/// How long a token is valid: RFC 8292 allows at most 24 hours.
const TOKEN_LIFETIME_SECS: i64 = 12 * 3600;

/// The server's VAPID key pair. Its `Debug` shows the public key only.
#[derive(Clone)]
pub struct VapidKey {
    signing: SigningKey,
    /// The uncompressed public point, base64url: what browsers subscribe with.
    public: String,
}

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VapidKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

/// The claims of a VAPID token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The push service's origin (`https://fcm.googleapis.com`).
    pub aud: String,
    /// Expiry, seconds since the epoch.
    pub exp: i64,
    /// Whom the push service may contact: a `mailto:` or `https:` address.
    pub sub: String,
}

impl VapidKey {
    /// A new random key pair.
    pub fn generate() -> Self {
        Self::from_secret(&SecretKey::random(&mut rand::thread_rng()))
    }

    /// The key whose private scalar is `encoded` (32 bytes, base64url, as `VAPID_PRIVATE_KEY`
    /// holds it).
    pub fn from_base64url(encoded: &str) -> anyhow::Result<Self> {
        let bytes = URL_SAFE_NO_PAD
            .decode(encoded.trim().trim_end_matches('='))
            .context("the VAPID private key is not base64url")?;
        let secret = SecretKey::from_slice(&bytes)
            .map_err(|_| anyhow!("the VAPID private key is not a P-256 private key"))?;
        Ok(Self::from_secret(&secret))
    }

    fn from_secret(secret: &SecretKey) -> Self {
        let public = URL_SAFE_NO_PAD.encode(secret.public_key().to_encoded_point(false));
        Self {
            signing: SigningKey::from(secret),
            public,
        }
    }

    /// The private scalar, base64url: what is written to the data directory.
    pub fn private_base64url(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.signing.to_bytes())
    }

    /// The uncompressed public point, base64url (87 characters).
    pub fn public_base64url(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header for a message to `audience` (the endpoint's origin),
    /// valid 12 hours from `now` (seconds since the epoch).
    pub fn authorization(&self, audience: &str, contact: &str, now: i64) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = Claims {
            aud: audience.to_owned(),
            exp: now + TOKEN_LIFETIME_SECS,
            sub: contact.to_owned(),
        };
        // Serialising three strings and a number cannot fail.
        let claims = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims).unwrap_or_default());
        let signed = format!("{header}.{claims}");
        let signature: Signature = self.signing.sign(signed.as_bytes());
        format!(
            "vapid t={signed}.{}, k={}",
            URL_SAFE_NO_PAD.encode(signature.to_bytes()),
            self.public
        )
    }
}

/// Checks an `Authorization: vapid t=..., k=...` header as a push service does: the key is
/// `public_key` (the one the browser subscribed with), the ES256 signature verifies, the
/// audience is `audience`, and the token is unexpired and at most 24 hours long. Its claims.
pub fn verify(
    authorization: &str,
    public_key: &str,
    audience: &str,
    now: i64,
) -> anyhow::Result<Claims> {
    let params = authorization
        .strip_prefix("vapid ")
        .context("not a vapid authorization")?;
    let param = |name: &str| {
        params
            .split(',')
            .filter_map(|part| part.trim().split_once('='))
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.trim())
            .with_context(|| format!("no {name}= parameter"))
    };
    let (token, key) = (param("t")?, param("k")?);
    ensure!(key == public_key, "the token names another key");
    let point = URL_SAFE_NO_PAD.decode(key).context("k is not base64url")?;
    let verifying = VerifyingKey::from_sec1_bytes(&point).context("k is not a P-256 point")?;
    let (signed, signature) = token.rsplit_once('.').context("not a JWT")?;
    let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature)?)?;
    p256::ecdsa::signature::Verifier::verify(&verifying, signed.as_bytes(), &signature)
        .context("the signature does not verify")?;
    let (header, claims) = signed.split_once('.').context("not a JWT")?;
    let header: serde_json::Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(header)?)?;
    ensure!(header["alg"] == "ES256", "the token is not ES256");
    let claims: Claims = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims)?)?;
    ensure!(claims.aud == audience, "the audience is {}", claims.aud);
    ensure!(
        claims.exp > now && claims.exp <= now + 24 * 3600,
        "the token is expired or lasts over 24 hours"
    );
    ensure!(
        claims.sub.starts_with("mailto:") || claims.sub.starts_with("https:"),
        "the contact is not a mailto: or https: address"
    );
    Ok(claims)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AUDIENCE: &str = "https://updates.push.services.mozilla.com";

    #[test]
    fn a_token_verifies_with_its_key_only() {
        let key = VapidKey::generate();
        let header = key.authorization(AUDIENCE, "mailto:team@example.ca", 1_000);
        let claims = verify(&header, key.public_base64url(), AUDIENCE, 1_000).unwrap();
        assert_eq!(claims.exp, 1_000 + 12 * 3600);
        assert_eq!(claims.sub, "mailto:team@example.ca");
        let other = VapidKey::generate();
        assert!(verify(&header, other.public_base64url(), AUDIENCE, 1_000).is_err());
        assert!(verify(&header, key.public_base64url(), "https://other", 1_000).is_err());
        assert!(verify(&header, key.public_base64url(), AUDIENCE, 1_000 + 13 * 3600).is_err());
        let forged = header.replacen("vapid t=", "vapid t=x", 1);
        assert!(verify(&forged, key.public_base64url(), AUDIENCE, 1_000).is_err());
    }

    #[tokio::test]
    async fn the_generated_key_is_kept_between_starts_and_configured_wins() {
        let dir = tempfile::tempdir().unwrap();
        let first = load(None, true, dir.path()).await.unwrap().unwrap();
        let second = load(None, true, dir.path()).await.unwrap().unwrap();
        assert_eq!(first.public_base64url(), second.public_base64url());
        assert!(load(None, false, dir.path()).await.unwrap().is_none());
        let configured = VapidKey::generate();
        let loaded = load(Some(&configured.private_base64url()), false, dir.path())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(loaded.public_base64url(), configured.public_base64url());
        assert!(load(Some("broken"), false, dir.path()).await.is_err());
    }

    #[test]
    fn the_key_survives_its_encoding_and_never_shows_in_debug() {
        let key = VapidKey::generate();
        let again = VapidKey::from_base64url(&key.private_base64url()).unwrap();
        assert_eq!(again.public_base64url(), key.public_base64url());
        assert_eq!(
            URL_SAFE_NO_PAD
                .decode(key.public_base64url())
                .unwrap()
                .len(),
            65
        );
        assert!(!format!("{key:?}").contains(&key.private_base64url()));
        assert!(VapidKey::from_base64url("not a key").is_err());
        assert!(VapidKey::from_base64url(&URL_SAFE_NO_PAD.encode([0u8; 32])).is_err());
    }
}
