//! What admins do with service accounts (`auth::service` checks their keys): create one with
//! a name and scopes, list them, rotate a key, revoke one. Each change is written to the
//! audit log in its own transaction, and the cached state of the keys it changed is
//! overwritten right after the commit, so every replica applies it from its next call.

use serde_json::json;
use uuid::Uuid;

use crate::{
    auth::{
        Caller,
        service::{self, NewKey, Scope},
    },
    error::{ApiError, ApiResult, ErrorReason, FieldViolation, not_found},
    state::AppState,
    store::{
        audit,
        page::PageRequest,
        service_accounts::{self, KeyRow, ServiceAccountRow},
        transaction,
    },
};

/// A service account with its keys, newest first.
#[derive(Debug, Clone)]
pub struct Listed {
    pub account: ServiceAccountRow,
    pub keys: Vec<KeyRow>,
}

/// An account just made or given a new key, with that key's text (shown once).
#[derive(Debug)]
pub struct WithKey {
    pub listed: Listed,
    pub key: NewKey,
}

const NAME_MAX: usize = 100;

/// The name and the scopes as typed, each checked.
fn parse_form<'a>(name: &'a str, scopes: &[String]) -> ApiResult<(&'a str, Vec<Scope>)> {
    let mut violations = Vec::new();
    let name = name.trim();
    if name.is_empty() || name.chars().count() > NAME_MAX {
        violations.push(FieldViolation::new(
            "name",
            format!("name the service in 1 to {NAME_MAX} characters"),
        ));
    }
    let mut parsed = Vec::new();
    for raw in scopes {
        match Scope::parse(raw.trim()) {
            Some(scope) if !parsed.contains(&scope) => parsed.push(scope),
            Some(_) => {}
            None => violations.push(FieldViolation::new(
                "scopes",
                format!("{raw:?} is not a scope; choose among {}", scope_names()),
            )),
        }
    }
    if scopes.is_empty() {
        violations.push(FieldViolation::new(
            "scopes",
            format!("choose at least one scope among {}", scope_names()),
        ));
    }
    if violations.is_empty() {
        parsed.sort_unstable();
        Ok((name, parsed))
    } else {
        Err(ApiError::invalid_fields(violations))
    }
}

fn scope_names() -> String {
    Scope::ALL.map(Scope::as_str).join(", ")
}

/// What the audit log keeps of an account (never a key or its hash).
fn audited(listed: &Listed) -> serde_json::Value {
    json!({
        "name": listed.account.name,
        "scopes": listed.account.scopes,
        "revoked_at": listed.account.revoked_at,
        "keys": listed.keys.iter().map(|key| json!({
            "key_prefix": service::shown_prefix(key.id),
            "expires_at": key.expires_at,
        })).collect::<Vec<_>>(),
    })
}

async fn with_keys(db: &mut sqlx::PgConnection, account: ServiceAccountRow) -> ApiResult<Listed> {
    let keys = service_accounts::keys_of(&mut *db, &[account.id]).await?;
    Ok(Listed { account, keys })
}

/// The account `id` with its keys, its row locked for the rest of the transaction (a
/// rotation and a revocation never cross).
async fn locked(db: &mut sqlx::PgConnection, id: Uuid) -> ApiResult<Listed> {
    let account = service_accounts::lock(&mut *db, id)
        .await?
        .ok_or_else(|| not_found("service account"))?;
    with_keys(db, account).await
}

/// The audit entry of `action` on an account, in the action's transaction.
async fn record(
    db: &mut sqlx::PgConnection,
    admin: &Caller,
    action: &str,
    before: Option<&Listed>,
    after: &Listed,
) -> ApiResult<()> {
    let target = ("service_account", after.account.id.to_string());
    let before = before.map(audited);
    audit::record_change(
        db,
        admin.account_id,
        action,
        (target.0, &target.1),
        before.as_ref(),
        Some(&audited(after)),
    )
    .await?;
    Ok(())
}

/// Makes a service account and its first key.
pub async fn create(
    state: &AppState,
    admin: &Caller,
    name: &str,
    scopes: &[String],
) -> ApiResult<WithKey> {
    let (name, scopes) = parse_form(name, scopes)?;
    let names: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
    let id = Uuid::now_v7();
    let key = service::new_key();
    let mut tx = transaction::begin(&state.db).await?;
    service_accounts::insert(&mut tx, id, name, &names, admin.account_id).await?;
    service_accounts::insert_key(&mut tx, key.id, id, &key.secret_sha256).await?;
    let account = service_accounts::find(&mut *tx, id)
        .await?
        .ok_or_else(|| not_found("service account"))?;
    let listed = with_keys(&mut tx, account).await?;
    record(&mut tx, admin, "service_account.create", None, &listed).await?;
    tx.commit().await?;
    Ok(WithKey { listed, key })
}

/// A page of service accounts, newest first, with their keys.
pub async fn list(state: &AppState, page: &PageRequest) -> ApiResult<(Vec<Listed>, String)> {
    let rows = service_accounts::list(&state.db, page).await?;
    let (rows, next_page_token) = page.finish(rows, |row| (row.created_at, row.id));
    let ids: Vec<Uuid> = rows.iter().map(|row| row.id).collect();
    let mut keys = service_accounts::keys_of(&state.db, &ids).await?;
    let listed = rows
        .into_iter()
        .map(|account| {
            let (own, rest): (Vec<KeyRow>, Vec<KeyRow>) = keys
                .drain(..)
                .partition(|key| key.service_account_id == account.id);
            keys = rest;
            Listed { account, keys: own }
        })
        .collect();
    Ok((listed, next_page_token))
}

fn already_revoked() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::ServiceAccountRevoked,
        message: "this service account is revoked".to_owned(),
    }
}

/// Gives an active account a new key; its keys until now keep working for the grace period
/// (`SERVICE_KEY_GRACE`).
pub async fn rotate(state: &AppState, admin: &Caller, id: Uuid) -> ApiResult<WithKey> {
    let key = service::new_key();
    let mut tx = transaction::begin(&state.db).await?;
    // From an active account only: the row stays locked until the commit, so a revocation
    // waits for this rotation or comes first.
    let before = locked(&mut tx, id).await?;
    if before.account.revoked_at.is_some() {
        return Err(already_revoked());
    }
    let mut changed =
        service_accounts::expire_keys(&mut tx, id, state.config.service_key_grace).await?;
    service_accounts::insert_key(&mut tx, key.id, id, &key.secret_sha256).await?;
    let listed = with_keys(&mut tx, before.account.clone()).await?;
    record(
        &mut tx,
        admin,
        "service_account.rotate_key",
        Some(&before),
        &listed,
    )
    .await?;
    tx.commit().await?;
    changed.push(key.id);
    state.service_keys.refresh(&changed).await;
    Ok(WithKey { listed, key })
}

/// Revokes an active account: every key of it is refused from the next call, on every replica.
pub async fn revoke(state: &AppState, admin: &Caller, id: Uuid) -> ApiResult<Listed> {
    let mut tx = transaction::begin(&state.db).await?;
    let before = locked(&mut tx, id).await?;
    // From an active account only.
    if !service_accounts::revoke(&mut tx, id, admin.account_id).await? {
        return Err(already_revoked());
    }
    let listed = locked(&mut tx, id).await?;
    record(
        &mut tx,
        admin,
        "service_account.revoke",
        Some(&before),
        &listed,
    )
    .await?;
    let key_ids = service_accounts::key_ids(&mut *tx, id).await?;
    tx.commit().await?;
    state.service_keys.refresh(&key_ids).await;
    Ok(listed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_scopes_are_checked_and_scopes_kept_once_in_order() {
        let (name, scopes) = parse_form(
            "  Monthly report ",
            &[
                "orders.read".into(),
                "audit.read".into(),
                "orders.read".into(),
            ],
        )
        .unwrap();
        assert_eq!(name, "Monthly report");
        assert_eq!(scopes, [Scope::OrdersRead, Scope::AuditRead]);
        let error = parse_form("", &["orders.write".into()]).unwrap_err();
        let fields: Vec<String> = match error {
            ApiError::InvalidArgument { violations, .. } => {
                violations.into_iter().map(|v| v.field).collect()
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(fields, ["name", "scopes"]);
        assert!(parse_form("Report", &[]).is_err());
        assert!(parse_form(&"x".repeat(101), &["audit.read".into()]).is_err());
    }
}
