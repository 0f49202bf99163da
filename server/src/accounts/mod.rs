//! Account rules: sign-up and sign-in, sessions that last (`renewal`), password reset, phone
//! verification, and the admins' review of professionals and of their pending changes
//! (`vetting`). Transport-free: the gRPC handlers in `api::accounts` call these.

pub mod availability;
pub mod closure;
pub mod consents;
pub mod directory;
pub mod email_verification;
pub mod export;
pub mod notifications;
pub mod password_reset;
pub mod phone_verification;
pub mod privacy_incidents;
pub mod profile;
pub mod push;
pub mod removal;
pub mod renewal;
pub mod review;
pub mod service_accounts;
pub mod sessions;
pub mod sms_budget;
pub mod sms_replies;
pub mod social;
pub mod vetting;

use crate::{
    auth::secret::keyed_digest,
    domain::{Email, Role},
    error::{ApiError, ApiResult},
    store::accounts::AccountKind,
};

/// The cache key of a per-email counter (`limit` names it: sign-in tries, reset requests).
/// A keyed hash of the address as the person would write it in any case: keys have a fixed
/// size, and someone who reads the cache can neither see nor confirm an address.
pub fn email_counter_key(key: &[u8; 32], limit: &str, role: Role, email: &Email) -> String {
    let address = email.as_str().to_lowercase();
    let digest = keyed_digest(key, &[address.as_bytes()]);
    format!(
        "{limit}:{role}:{}",
        crate::providers::secret::to_hex(&digest)
    )
}

/// The account kind behind a customer or professional role.
pub fn account_kind(role: Role) -> ApiResult<AccountKind> {
    match role {
        Role::Customer => Ok(AccountKind::Customer),
        Role::Professional => Ok(AccountKind::Professional),
        Role::Admin => Err(ApiError::invalid(
            "role",
            "choose a customer or professional account",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn email_counter_keys_hide_the_address_behind_the_server_key() {
        let email = Email::parse("Ana.Roy@Example.ca").unwrap();
        let lower = Email::parse("ana.roy@example.ca").unwrap();
        let key = [7; 32];
        let name = email_counter_key(&key, "login-tries", Role::Customer, &email);
        assert!(name.starts_with("login-tries:customer:"), "{name}");
        assert!(!name.to_lowercase().contains("ana"), "{name}");
        // One counter per address whatever its case, per role and per limit.
        assert_eq!(
            name,
            email_counter_key(&key, "login-tries", Role::Customer, &lower)
        );
        assert_ne!(
            name,
            email_counter_key(&key, "login-tries", Role::Professional, &email)
        );
        assert_ne!(
            name,
            email_counter_key(&key, "password-reset:email", Role::Customer, &email)
        );
        // Without the server's key nobody can work out (or confirm) the address's counter.
        assert_ne!(
            name,
            email_counter_key(&[8; 32], "login-tries", Role::Customer, &email)
        );
    }
}
