//! Deleting an account with everything that hangs on it: its sessions end at once and its
//! files (photo, licences) leave the storage.

use uuid::Uuid;

use crate::{
    error::ApiResult,
    state::AppState,
    store::accounts::{self, AccountKind},
};

/// Deletes the account; false when there is no such account.
pub async fn delete_account(state: &AppState, kind: AccountKind, id: Uuid) -> ApiResult<bool> {
    let Some(files) = accounts::delete(&state.db, kind, id).await? else {
        return Ok(false);
    };
    state.sessions.refresh(kind.role(), id).await;
    for key in files {
        discard_file(state, &key).await;
    }
    Ok(true)
}

/// Removes a stored file that no row refers to (any more). A failure leaves an unreachable
/// file behind, named in the log for whoever cleans up; it is not the caller's failure.
pub(super) async fn discard_file(state: &AppState, key: &str) {
    if let Err(error) = state.storage.delete(key).await {
        tracing::warn!(%error, key, "could not remove an unreferenced file");
    }
}
