//! Removing a service from the catalogue: one that a repair request or a professional names
//! is archived (kept for those records, no longer offered); an unused one is deleted.
//! Audited either way.

use serde_json::json;
use uuid::Uuid;

use crate::{
    accounts::not_found,
    error::{ApiError, ApiResult},
    state::AppState,
    store::{audit, services, services::ServiceRow},
};

/// What became of a removed service.
pub enum Removed {
    Archived(ServiceRow),
    Deleted,
}

/// A stale etag (when one is given) is refused with ETAG_MISMATCH.
pub fn check_etag(row: &ServiceRow, etag: &str) -> ApiResult<()> {
    if etag.is_empty() || etag == row.etag() {
        return Ok(());
    }
    Err(ApiError::FailedPrecondition {
        reason: "ETAG_MISMATCH",
        message:
            "this service was changed by someone else since you opened it: reload it and try again"
                .to_owned(),
    })
}

pub async fn remove(state: &AppState, admin_id: Uuid, id: Uuid, etag: &str) -> ApiResult<Removed> {
    let mut tx = state.db.begin().await?;
    let before = services::get_for_update(&mut *tx, id)
        .await?
        .ok_or_else(|| not_found("service"))?;
    check_etag(&before, etag)?;
    let (action, removed) = if services::in_use(&mut *tx, id).await? {
        let row = services::archive(&mut *tx, id).await?;
        ("service.archive", Removed::Archived(row))
    } else {
        services::delete(&mut *tx, id).await?;
        ("service.delete", Removed::Deleted)
    };
    let after = match &removed {
        Removed::Archived(row) => Some(json!(row)),
        Removed::Deleted => None,
    };
    audit::record_change(
        &mut *tx,
        admin_id,
        action,
        ("service", &id.to_string()),
        Some(&json!(before)),
        after.as_ref(),
    )
    .await?;
    tx.commit().await?;
    Ok(removed)
}
