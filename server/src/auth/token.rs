//! Session (access) tokens: HS256 JWTs carrying `sub` (account id), `role`, `iat`, `exp` and
//! `ver` (the account's token version when issued: see `auth::revocation`). `id` repeats `sub`
//! because the old web client reads the account id from the payload's `id`. Nothing that can
//! change while a token lives (a professional's approval, a membership) is a claim: the rules
//! read it at each call.

use crate::error::{ApiError, ErrorReason};

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::domain::Role;

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: Uuid,
    /// The same as `sub`, for the old web client; never read back.
    #[serde(default, skip_deserializing)]
    id: Option<Uuid>,
    role: Role,
    iat: u64,
    exp: u64,
    /// Tokens from before versions existed read as version 0, every account's first.
    #[serde(default)]
    ver: i32,
}

/// The signed-in account, put in each request's extensions by the auth layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caller {
    pub account_id: Uuid,
    pub role: Role,
}

/// A token whose signature and expiry are good: who it names, the account's token version
/// when it was issued (checked against the current one by the auth layer), and when it
/// expires (a live stream opened with it ends then: `auth::stream`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifiedToken {
    pub caller: Caller,
    pub version: i32,
    pub expires_at: SystemTime,
}

/// An issued token and when it stops being accepted.
#[derive(Debug, Clone)]
pub struct IssuedToken {
    pub token: String,
    pub expires_at: SystemTime,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TokenError {
    #[error("the session has expired; sign in again")]
    Expired,
    #[error("the session token is not valid; sign in again")]
    Invalid,
}

/// Signing and checking keys, plus the lifetime of each role's sessions.
#[derive(Clone)]
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    session_ttl: Duration,
    admin_session_ttl: Duration,
}

impl std::fmt::Debug for TokenKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenKeys")
            .field("secret", &"<redacted>")
            .finish()
    }
}

impl TokenKeys {
    pub fn new(secret: &[u8], session_ttl: Duration, admin_session_ttl: Duration) -> Self {
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            session_ttl,
            admin_session_ttl,
        }
    }

    /// Issues a token for an account at its current token `version`, living as long as its
    /// role's sessions do.
    pub fn issue(
        &self,
        caller: Caller,
        version: i32,
    ) -> Result<IssuedToken, jsonwebtoken::errors::Error> {
        self.issue_at(caller, version, SystemTime::now())
    }

    /// Issues a token as [`Self::issue`] does, but expiring at `not_after` if that comes
    /// sooner: an access token never outlives the sign-in it renews.
    pub fn issue_until(
        &self,
        caller: Caller,
        version: i32,
        not_after: SystemTime,
    ) -> Result<IssuedToken, jsonwebtoken::errors::Error> {
        self.issue_capped(caller, version, SystemTime::now(), Some(not_after))
    }

    pub fn issue_at(
        &self,
        caller: Caller,
        version: i32,
        now: SystemTime,
    ) -> Result<IssuedToken, jsonwebtoken::errors::Error> {
        self.issue_capped(caller, version, now, None)
    }

    fn issue_capped(
        &self,
        caller: Caller,
        version: i32,
        now: SystemTime,
        not_after: Option<SystemTime>,
    ) -> Result<IssuedToken, jsonwebtoken::errors::Error> {
        let ttl = match caller.role {
            Role::Admin => self.admin_session_ttl,
            Role::Customer | Role::Professional => self.session_ttl,
        };
        let seconds = |time: SystemTime| time.duration_since(UNIX_EPOCH).unwrap_or_default();
        let iat = seconds(now).as_secs();
        let cap = not_after.map_or(u64::MAX, |end| seconds(end).as_secs());
        let claims = Claims {
            sub: caller.account_id,
            id: Some(caller.account_id),
            role: caller.role,
            iat,
            exp: (iat + ttl.as_secs()).min(cap),
            ver: version,
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)?;
        Ok(IssuedToken {
            token,
            expires_at: UNIX_EPOCH + Duration::from_secs(claims.exp),
        })
    }

    /// Checks the signature and expiry (no leeway: 3600 s means 3600 s).
    pub fn verify(&self, token: &str) -> Result<VerifiedToken, TokenError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub", "iat"]);
        match jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation) {
            Ok(data) => Ok(VerifiedToken {
                caller: Caller {
                    account_id: data.claims.sub,
                    role: data.claims.role,
                },
                version: data.claims.ver,
                expires_at: UNIX_EPOCH + Duration::from_secs(data.claims.exp),
            }),
            Err(error) => match error.kind() {
                jsonwebtoken::errors::ErrorKind::ExpiredSignature => Err(TokenError::Expired),
                _ => Err(TokenError::Invalid),
            },
        }
    }
}

/// A token that cannot open a session (any more): sign in again.
impl From<TokenError> for ApiError {
    fn from(error: TokenError) -> Self {
        Self::Unauthenticated {
            reason: match error {
                TokenError::Expired => ErrorReason::SessionExpired,
                TokenError::Invalid => ErrorReason::SessionInvalid,
            },
            message: error.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(secret: &[u8]) -> TokenKeys {
        TokenKeys::new(
            secret,
            Duration::from_secs(3600),
            Duration::from_secs(8 * 3600),
        )
    }

    fn caller(role: Role) -> Caller {
        Caller {
            account_id: Uuid::now_v7(),
            role,
        }
    }

    #[test]
    fn a_fresh_token_verifies_to_its_caller() {
        let keys = keys(b"0123456789abcdef0123456789abcdef");
        let who = caller(Role::Professional);
        let issued = keys.issue(who, 3).unwrap();
        assert_eq!(
            keys.verify(&issued.token),
            Ok(VerifiedToken {
                caller: who,
                version: 3,
                expires_at: issued.expires_at,
            })
        );
    }

    #[test]
    fn the_payload_carries_the_id_beside_sub() {
        use base64::Engine;
        let keys = keys(b"0123456789abcdef0123456789abcdef");
        let who = caller(Role::Customer);
        let issued = keys.issue(who, 0).unwrap();
        let payload = issued.token.split('.').nth(1).unwrap();
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap();
        let claims: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(claims["id"], who.account_id.to_string());
        assert_eq!(claims["sub"], who.account_id.to_string());
        assert_eq!(claims["ver"], 0);
    }

    #[test]
    fn the_claims_name_the_account_and_nothing_that_changes_while_it_lives() {
        use base64::Engine;
        let keys = keys(b"0123456789abcdef0123456789abcdef");
        let issued = keys.issue(caller(Role::Professional), 2).unwrap();
        let payload = issued.token.split('.').nth(1).unwrap();
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap();
        let claims: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(&bytes).unwrap();
        let mut names: Vec<&str> = claims.keys().map(String::as_str).collect();
        names.sort_unstable();
        // No approval state, membership or phone: those are read at each call.
        assert_eq!(names, ["exp", "iat", "id", "role", "sub", "ver"]);
    }

    #[test]
    fn a_token_never_outlives_the_end_it_is_given() {
        let keys = keys(b"0123456789abcdef0123456789abcdef");
        let soon = SystemTime::now() + Duration::from_secs(600);
        let capped = keys.issue_until(caller(Role::Customer), 0, soon).unwrap();
        let soon_secs = soon.duration_since(UNIX_EPOCH).unwrap().as_secs();
        assert_eq!(
            capped.expires_at,
            UNIX_EPOCH + Duration::from_secs(soon_secs)
        );
        let later = SystemTime::now() + Duration::from_secs(30 * 24 * 3600);
        let full = keys.issue_until(caller(Role::Customer), 0, later).unwrap();
        let hour = full.expires_at.duration_since(SystemTime::now()).unwrap();
        assert!(hour <= Duration::from_secs(3600) && hour > Duration::from_secs(3590));
    }

    #[test]
    fn customer_tokens_expire_after_an_hour() {
        let keys = keys(b"0123456789abcdef0123456789abcdef");
        let issued = keys
            .issue_at(
                caller(Role::Customer),
                0,
                SystemTime::now() - Duration::from_secs(3601),
            )
            .unwrap();
        assert_eq!(keys.verify(&issued.token), Err(TokenError::Expired));
        let recent = keys
            .issue_at(
                caller(Role::Customer),
                0,
                SystemTime::now() - Duration::from_secs(3500),
            )
            .unwrap();
        assert!(keys.verify(&recent.token).is_ok());
    }

    #[test]
    fn admin_tokens_expire_too() {
        let keys = keys(b"0123456789abcdef0123456789abcdef");
        let old = SystemTime::now() - Duration::from_secs(8 * 3600 + 1);
        let issued = keys.issue_at(caller(Role::Admin), 0, old).unwrap();
        assert_eq!(keys.verify(&issued.token), Err(TokenError::Expired));
    }

    #[test]
    fn a_token_signed_with_another_secret_is_refused() {
        let issued = keys(b"one-secret-one-secret-one-secret")
            .issue(caller(Role::Admin), 0)
            .unwrap();
        let other = keys(b"another-secret-another-secret-xx");
        assert_eq!(other.verify(&issued.token), Err(TokenError::Invalid));
        assert_eq!(other.verify("not.a.jwt"), Err(TokenError::Invalid));
    }
}
