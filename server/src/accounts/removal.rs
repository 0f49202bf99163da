//! Deleting an account: the admin's audit row in the same transaction, its sessions ended at
//! once. A professional goes with everything that hangs on it, its files (photo, licences)
//! removed from the storage once the rows are gone. A customer's requests, orders, payments
//! and reviews stay for the professionals and the books: the person is removed from them
//! (anonymised), their open requests are cancelled, as they would cancel them, and the
//! photos of all their requests are deleted, rows and files. Either way the messages the
//! account wrote lose their words (the other party reads them as deleted); the
//! conversations stay for the other party.

use chrono::Utc;
use serde_json::json;
use uuid::Uuid;

use crate::{
    auth::Caller,
    conversations::photos as conversation_photos,
    domain::{RequestChange, Role},
    error::ApiResult,
    requests,
    state::AppState,
    store::{
        accounts::{self, AccountKind},
        audit, customers, repair_requests, request_photos, session_versions,
    },
};

/// An admin deletes the account; false when there is no such account.
pub async fn delete_account(
    state: &AppState,
    admin: &Caller,
    kind: AccountKind,
    id: Uuid,
) -> ApiResult<bool> {
    match kind {
        AccountKind::Customer => delete_customer(state, admin, id).await,
        AccountKind::Professional => delete_professional(state, admin, id).await,
    }
}

async fn delete_customer(state: &AppState, admin: &Caller, id: Uuid) -> ApiResult<bool> {
    let now = Utc::now();
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let Some((email, phone)) = customers::lock_for_deletion(&mut tx, id).await? else {
        return Ok(false);
    };
    let mut cancelled = Vec::new();
    let link = state.config.links().professional_jobs();
    let told = requests::Told {
        also: &[],
        link: &link,
    };
    for request in repair_requests::lock_open_of(&mut tx, id).await? {
        let change = RequestChange::CancelOpen;
        if requests::cancel_in(&mut tx, (id, request), change, told, now)
            .await?
            .is_some()
        {
            cancelled.push(request.to_string());
        }
    }
    // Photos of the damage show the customer's home: they go with the account.
    let mut photos = request_photos::remove_all_of_customer(&mut tx, id).await?;
    customers::anonymise(&mut tx, id, &email, phone.as_deref()).await?;
    photos.extend(conversation_photos::forget_author(&mut tx, id).await?);
    session_versions::bump(&mut *tx, Role::Customer, id).await?;
    // Who the customer was stays out of the log.
    audit::record_change(
        &mut *tx,
        admin.account_id,
        "customer.delete",
        ("customer", &id.to_string()),
        Some(&json!({ "deleted": false })),
        Some(&json!({ "deleted": true, "cancelled_requests": cancelled })),
    )
    .await?;
    tx.commit().await?;
    state.outbox.wake();
    state.sessions.refresh(Role::Customer, id).await;
    for keys in &photos {
        crate::photos::discard(state.storage.as_ref(), keys).await;
    }
    Ok(true)
}

async fn delete_professional(state: &AppState, admin: &Caller, id: Uuid) -> ApiResult<bool> {
    let kind = AccountKind::Professional;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    // Their customers are told before the quotes go with the account.
    crate::quotes::withdraw_all_of(&mut tx, id).await?;
    let photos = conversation_photos::forget_author(&mut tx, id).await?;
    let Some(deleted) = accounts::delete(&mut tx, kind, id).await? else {
        return Ok(false);
    };
    // Who the professional was stays out of the log: the id names them while they exist.
    let before = json!({ "created_at": deleted.created_at });
    audit::record_change(
        &mut *tx,
        admin.account_id,
        "professional.delete",
        ("professional", &id.to_string()),
        Some(&before),
        None,
    )
    .await?;
    tx.commit().await?;
    state.outbox.wake();
    state.sessions.refresh(kind.role(), id).await;
    for key in deleted.files {
        discard_file(state, &key).await;
    }
    for keys in &photos {
        crate::photos::discard(state.storage.as_ref(), keys).await;
    }
    Ok(true)
}

/// Removes a stored file that no row refers to (any more) (`providers::storage::discard`).
pub(crate) async fn discard_file(state: &AppState, key: &str) {
    crate::providers::storage::discard(state.storage.as_ref(), key).await;
}
