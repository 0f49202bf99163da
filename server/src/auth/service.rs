//! Service accounts' keys: what an internal caller (a reporting job, a support tool) sends as
//! `authorization: Bearer rsk_<key id>_<secret>` instead of a person's session token.
//!
//! A key is 32 random bytes behind its id; only the SHA-256 of the secret is stored. A fast
//! hash is right here, unlike for passwords: a password is short and guessable, so its hash
//! must be slow to try guesses against, but a 256-bit random secret cannot be guessed
//! whatever the hash, and a slow one would only cost each call tens of milliseconds of CPU.
//! The hash is not keyed with the server secret either, so changing `JWT_SECRET` leaves
//! every service's key working.
//!
//! Checking a key costs one cache read (Redis, shared by every replica) and a SHA-256: the
//! cache holds, under the key's id, what the check needs (its hash, the account's scopes, the
//! key's end of grace, whether the account is revoked), filled from Postgres on a miss only if
//! nobody wrote it meanwhile. A rotation or a revocation overwrites it right after its
//! transaction commits ([`ServiceKeys::refresh`]), so every replica refuses a revoked key
//! from its next call; the entry lives [`CACHED_FOR`] at most, which bounds what a cache write
//! that failed could leave behind.

use std::{sync::Arc, time::Duration};

use base64::Engine;
use chrono::Utc;
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use subtle::ConstantTimeEq;
use uuid::Uuid;

use crate::{
    budgets::{Budget, Budgets},
    cache::Cache,
    error::{ApiError, ApiResult, ErrorReason},
    store::service_accounts::{self, KeyCheck},
};

/// What every service key starts with, so the auth layer tells it from a session token (a
/// JWT starts with `ey`) without trying both.
pub const KEY_PREFIX: &str = "rsk_";
/// Characters of the key id shown to admins after [`KEY_PREFIX`].
const SHOWN_ID_CHARS: usize = 8;
/// How long a cached check is trusted without asking Postgres again.
pub const CACHED_FOR: Duration = Duration::from_secs(60);
/// How often a key's `last_used_at` is written at most.
const USE_NOTED_EVERY: Duration = Duration::from_secs(60);
/// Cached for a key id nobody has.
const UNKNOWN: &str = "unknown";

/// What a service account may do; the closed set admins choose from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Every order (BillingService.ListOrders), for reporting.
    OrdersRead,
    /// Every repair request (MarketplaceService.ListRepairRequests), for reporting.
    RequestsRead,
    /// The content service's edits: services, home, professional and legal pages.
    ContentWrite,
    /// The audit log (AccountsService.ListAuditEvents).
    AuditRead,
    /// With `orders.read`: the parties' names and contact details and the job's street in
    /// the orders listed; each call that reads them is written in the audit log. Granted on
    /// purpose: `orders.read` alone reads no one's contacts.
    ContactsRead,
}

impl Scope {
    pub const ALL: [Scope; 5] = [
        Scope::OrdersRead,
        Scope::RequestsRead,
        Scope::ContentWrite,
        Scope::AuditRead,
        Scope::ContactsRead,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::OrdersRead => "orders.read",
            Scope::RequestsRead => "requests.read",
            Scope::ContentWrite => "content.write",
            Scope::AuditRead => "audit.read",
            Scope::ContactsRead => "contacts.read",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|scope| scope.as_str() == text)
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of scopes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scopes(u8);

impl Scopes {
    pub fn contains(self, scope: Scope) -> bool {
        self.0 & scope.bit() != 0
    }

    pub fn any_of(self, scopes: &[Scope]) -> bool {
        scopes.iter().any(|scope| self.contains(*scope))
    }

    /// The known scopes among `names` (stored ones are all known: the table checks them).
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Self {
        Self(
            names
                .iter()
                .filter_map(|name| Scope::parse(name.as_ref()))
                .fold(0, |bits, scope| bits | scope.bit()),
        )
    }
}

impl FromIterator<Scope> for Scopes {
    fn from_iter<I: IntoIterator<Item = Scope>>(scopes: I) -> Self {
        Self(scopes.into_iter().fold(0, |bits, scope| bits | scope.bit()))
    }
}

/// A service account whose key the auth layer accepted, put in the request's extensions in
/// place of a person's [`super::Caller`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServiceCaller {
    pub account_id: Uuid,
    pub key_id: Uuid,
    pub scopes: Scopes,
}

/// A key just made: the text shown once and what is stored of it.
pub struct NewKey {
    pub id: Uuid,
    pub text: String,
    pub secret_sha256: [u8; 32],
}

impl std::fmt::Debug for NewKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewKey")
            .field("id", &self.id)
            .field("text", &"<redacted>")
            .finish()
    }
}

fn sha256(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// A new random key.
pub fn new_key() -> NewKey {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    let secret = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let id = Uuid::now_v7();
    NewKey {
        id,
        text: format!("{KEY_PREFIX}{}_{secret}", id.simple()),
        secret_sha256: sha256(&secret),
    }
}

/// What admins see of a key to tell it apart: `rsk_` and the start of its id.
pub fn shown_prefix(key_id: Uuid) -> String {
    let id = key_id.simple().to_string();
    format!("{KEY_PREFIX}{}", &id[..SHOWN_ID_CHARS.min(id.len())])
}

/// Whether a bearer token is a service key rather than a session token.
pub fn is_service_key(token: &str) -> bool {
    token.starts_with(KEY_PREFIX)
}

/// The key's id and secret; `None` when it is not shaped as a key at all.
fn parse(key: &str) -> Option<(Uuid, &str)> {
    let rest = key.strip_prefix(KEY_PREFIX)?;
    let (id, secret) = rest.split_once('_')?;
    if id.len() != 32 || secret.len() != 43 {
        return None;
    }
    Some((Uuid::try_parse(id).ok()?, secret))
}

fn key_invalid() -> ApiError {
    ApiError::Unauthenticated {
        reason: ErrorReason::ServiceKeyInvalid,
        message: "this service key is not known; check the key the service is configured with"
            .to_owned(),
    }
}

/// Whether the stored check lets `secret` in, now.
fn judge(check: &KeyCheck, secret: &str, key_id: Uuid) -> ApiResult<ServiceCaller> {
    let matches: bool = check.secret_sha256.ct_eq(&sha256(secret)).into();
    if !matches {
        return Err(key_invalid());
    }
    if check.revoked {
        return Err(ApiError::Unauthenticated {
            reason: ErrorReason::ServiceAccountRevoked,
            message: "this service account was revoked; its keys no longer work".to_owned(),
        });
    }
    if check.expires_at.is_some_and(|end| end <= Utc::now()) {
        return Err(ApiError::Unauthenticated {
            reason: ErrorReason::ServiceKeyExpired,
            message: "this key was replaced and its grace period is over; use the new key"
                .to_owned(),
        });
    }
    Ok(ServiceCaller {
        account_id: check.service_account_id,
        key_id,
        scopes: Scopes::from_names(&check.scopes),
    })
}

fn cache_key(key_id: Uuid) -> String {
    format!("service-key:{key_id}")
}

fn cached_value(check: Option<&KeyCheck>) -> String {
    check
        .and_then(|check| serde_json::to_string(check).ok())
        .unwrap_or_else(|| UNKNOWN.to_owned())
}

/// Checks presented keys, limits each account's calls and notes their use.
#[derive(Clone)]
pub struct ServiceKeys {
    db: PgPool,
    cache: Arc<dyn Cache>,
    budgets: Budgets,
    calls_per_minute: u32,
}

impl ServiceKeys {
    pub fn new(db: PgPool, cache: Arc<dyn Cache>, calls_per_minute: u32) -> Self {
        Self {
            budgets: Budgets::new(db.clone()),
            db,
            cache,
            calls_per_minute,
        }
    }

    /// The service account a presented key opens: `SERVICE_KEY_INVALID` for a key nobody
    /// has (or a wrong secret), `SERVICE_KEY_EXPIRED` past a rotation's grace,
    /// `SERVICE_ACCOUNT_REVOKED` once the account is revoked.
    pub async fn check(&self, key: &str) -> ApiResult<ServiceCaller> {
        let (key_id, secret) = parse(key).ok_or_else(key_invalid)?;
        let check = self.key_check(key_id).await?.ok_or_else(key_invalid)?;
        let caller = judge(&check, secret, key_id)?;
        self.note_use(key_id).await;
        Ok(caller)
    }

    async fn key_check(&self, key_id: Uuid) -> ApiResult<Option<KeyCheck>> {
        let key = cache_key(key_id);
        match self.cache.get(&key).await {
            Ok(Some(cached)) if cached == UNKNOWN => return Ok(None),
            Ok(Some(cached)) => {
                if let Ok(check) = serde_json::from_str(&cached) {
                    return Ok(Some(check));
                }
            }
            Ok(None) => {}
            // Postgres holds the truth; the cache only saves the query.
            Err(error) => tracing::warn!(%error, "service key cache unreachable"),
        }
        let check = service_accounts::key_check(&self.db, key_id).await?;
        if let Err(error) = self
            .cache
            .set_if_absent(&key, &cached_value(check.as_ref()), CACHED_FOR)
            .await
        {
            tracing::warn!(%error, "could not cache a service key");
        }
        Ok(check)
    }

    /// Writes the key's `last_used_at`, at most once a minute (a cache marker says when it
    /// was last written, on any replica). Never fails the call.
    async fn note_use(&self, key_id: Uuid) {
        let marker = format!("service-key-used:{key_id}");
        match self
            .cache
            .set_if_absent(&marker, "1", USE_NOTED_EVERY)
            .await
        {
            Ok(false) => {}
            Ok(true) | Err(_) => {
                if let Err(error) = service_accounts::touch(&self.db, key_id).await {
                    tracing::warn!(%error, "could not note a service key's use");
                }
            }
        }
    }

    /// Counts one call of the account against its limit per minute, before the limit is
    /// checked (so concurrent calls cannot slip under it together, on any replica).
    pub async fn count_call(&self, caller: &ServiceCaller) -> ApiResult<()> {
        let budget = Budget::renewing(
            format!("service-calls:{}", caller.account_id),
            self.calls_per_minute,
            Duration::from_secs(60),
            ErrorReason::ServiceAccountRateLimited,
            format!(
                "this service account made the {} calls it may make in a minute",
                self.calls_per_minute
            ),
        );
        self.budgets.spend(&[budget], 1).await?.keep();
        Ok(())
    }

    /// After a change of these keys or their account committed (a rotation, a revocation):
    /// the cache takes the new state at once, so every replica sees it from its next call.
    /// Never fails: when Postgres cannot be read, the cached values are dropped.
    pub async fn refresh(&self, key_ids: &[Uuid]) {
        for key_id in key_ids {
            let key = cache_key(*key_id);
            let written = match service_accounts::key_check(&self.db, *key_id).await {
                Ok(check) => self
                    .cache
                    .set(&key, &cached_value(check.as_ref()), CACHED_FOR)
                    .await
                    .map_err(|error| error.to_string()),
                Err(error) => Err(error.to_string()),
            };
            if let Err(error) = written {
                // Without the new value, at least drop the old one; if that fails too, the
                // old value lives until CACHED_FOR runs out.
                tracing::error!(%error, "could not cache a service key's new state");
                if let Err(error) = self.cache.delete(&key).await {
                    tracing::error!(%error, "could not drop a service key's old state");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration as Span;

    use super::*;

    fn stored(key: &NewKey) -> KeyCheck {
        KeyCheck {
            service_account_id: Uuid::now_v7(),
            secret_sha256: key.secret_sha256.to_vec(),
            scopes: vec!["orders.read".to_owned()],
            expires_at: None,
            revoked: false,
        }
    }

    #[test]
    fn a_new_key_parses_back_to_its_id_and_checks_against_its_hash() {
        let key = new_key();
        assert!(is_service_key(&key.text));
        let (id, secret) = parse(&key.text).unwrap();
        assert_eq!(id, key.id);
        let caller = judge(&stored(&key), secret, id).unwrap();
        assert!(caller.scopes.contains(Scope::OrdersRead));
        assert!(!caller.scopes.contains(Scope::ContentWrite));
        assert!(shown_prefix(id).starts_with("rsk_"));
        assert_eq!(shown_prefix(id).len(), 12);
    }

    #[test]
    fn wrong_secrets_revoked_accounts_and_ended_graces_are_refused() {
        let key = new_key();
        let (id, _) = parse(&key.text).unwrap();
        let other = new_key();
        let (_, wrong) = parse(&other.text).unwrap();
        let reason = |r: ApiResult<ServiceCaller>| r.unwrap_err().reason();
        assert_eq!(
            reason(judge(&stored(&key), wrong, id)),
            ErrorReason::ServiceKeyInvalid
        );
        let secret = parse(&key.text).unwrap().1;
        let revoked = KeyCheck {
            revoked: true,
            ..stored(&key)
        };
        assert_eq!(
            reason(judge(&revoked, secret, id)),
            ErrorReason::ServiceAccountRevoked
        );
        let ended = KeyCheck {
            expires_at: Some(Utc::now() - Span::seconds(1)),
            ..stored(&key)
        };
        assert_eq!(
            reason(judge(&ended, secret, id)),
            ErrorReason::ServiceKeyExpired
        );
        let in_grace = KeyCheck {
            expires_at: Some(Utc::now() + Span::seconds(60)),
            ..stored(&key)
        };
        assert!(judge(&in_grace, secret, id).is_ok());
    }

    #[test]
    fn malformed_keys_and_session_tokens_are_not_keys() {
        assert!(!is_service_key("eyJhbGciOiJIUzI1NiJ9.e30.x"));
        for text in [
            "rsk_",
            "rsk_abc_def",
            "rsk_0190c3_",
            &format!("rsk_{}", "0".repeat(76)),
        ] {
            assert_eq!(parse(text), None, "{text}");
        }
    }

    #[test]
    fn scopes_are_a_closed_set_named_as_the_contract_says() {
        let names: Vec<&str> = Scope::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(
            names,
            [
                "orders.read",
                "requests.read",
                "content.write",
                "audit.read",
                "contacts.read"
            ]
        );
        assert_eq!(Scope::parse("orders.write"), None);
        let set = Scopes::from_names(&["audit.read", "nonsense"]);
        assert!(set.contains(Scope::AuditRead));
        assert!(!set.any_of(&[Scope::OrdersRead, Scope::ContentWrite]));
    }
}
