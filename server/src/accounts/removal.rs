//! Deleting an account with everything that hangs on it: the admin's audit row in the same
//! transaction, its sessions ended at once and its files (photo, licences) removed from the
//! storage once the rows are gone.

use serde_json::json;
use uuid::Uuid;

use crate::{
    auth::Caller,
    error::ApiResult,
    state::AppState,
    store::{
        accounts::{self, AccountKind},
        audit,
    },
};

/// An admin deletes the account; false when there is no such account.
pub async fn delete_account(
    state: &AppState,
    admin: &Caller,
    kind: AccountKind,
    id: Uuid,
) -> ApiResult<bool> {
    let mut tx = state.db.begin().await?;
    let Some(deleted) = accounts::delete(&mut tx, kind, id).await? else {
        return Ok(false);
    };
    let target = match kind {
        AccountKind::Customer => "customer",
        AccountKind::Professional => "professional",
    };
    let action = format!("{target}.delete");
    // Who the account was stays out of the log: the id names it while it exists.
    let before = json!({ "created_at": deleted.created_at });
    audit::record_change(
        &mut *tx,
        admin.account_id,
        &action,
        (target, &id.to_string()),
        Some(&before),
        None,
    )
    .await?;
    tx.commit().await?;
    state.sessions.refresh(kind.role(), id).await;
    for key in deleted.files {
        discard_file(state, &key).await;
    }
    Ok(true)
}

/// Removes a stored file that no row refers to (any more). A failure leaves an unreachable
/// file behind, named in the log for whoever cleans up; it is not the caller's failure.
pub(crate) async fn discard_file(state: &AppState, key: &str) {
    if let Err(error) = state.storage.delete(key).await {
        tracing::warn!(%error, key, "could not remove an unreferenced file");
    }
}
