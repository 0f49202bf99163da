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
    state.sessions.forget(kind.role(), id).await;
    for key in files {
        // The row is gone, so nothing links to the file any more: a failure leaves an
        // unreachable file, named in the log for whoever cleans up.
        if let Err(error) = state.storage.delete(&key).await {
            tracing::error!(%error, key, "could not remove a deleted account's file");
        }
    }
    Ok(true)
}
