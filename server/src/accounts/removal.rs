//! Erasing an account, the one way whoever asks: an admin (DeleteCustomer,
//! DeleteProfessional, recorded under their name) or the housekeeping pass when a closure's
//! grace has run out (`super::closure`, recorded as the server's). The audit row is written
//! in the same transaction, the sessions end at once.
//!
//! A customer's requests, orders, payments and reviews stay for the professionals and the
//! books: the person is removed from them (anonymised), their open requests are cancelled, as
//! they would cancel them, and the photos of all their requests are deleted, rows and files.
//! A professional goes with everything that hangs on it unless the books hold them (orders,
//! payouts): then their row stays, anonymised, and the payments name only its id. Their files
//! (photo, licences) are removed from the storage once the rows are gone. Either way the
//! messages the account wrote lose their words (the other party reads them as deleted), the
//! conversations stay for the other party, and their choices of what reaches them go.

use chrono::Utc;
use serde_json::json;
use uuid::Uuid;

use crate::{
    auth::Caller,
    conversations::photos as conversation_photos,
    domain::{PhotoKeys, RequestChange, Role},
    error::ApiResult,
    requests,
    state::AppState,
    store::{
        account_closures,
        accounts::{self, AccountKind},
        audit, consents, customers, notification_preferences, professionals, repair_requests,
        request_photos, session_versions,
    },
};

/// Who erases an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eraser {
    /// An admin's DeleteCustomer or DeleteProfessional.
    Admin(Uuid),
    /// The housekeeping pass, at the end of the grace of a closure the person asked for.
    ClosureGraceEnded,
}

/// An admin deletes the account; false when there is no such account.
pub async fn delete_account(
    state: &AppState,
    admin: &Caller,
    kind: AccountKind,
    id: Uuid,
) -> ApiResult<bool> {
    erase(state, Eraser::Admin(admin.account_id), kind, id).await
}

/// Erases account `id`; false when there is no such account (or it was erased already).
pub async fn erase(state: &AppState, by: Eraser, kind: AccountKind, id: Uuid) -> ApiResult<bool> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let erased = match kind {
        AccountKind::Customer => erase_customer(&mut tx, state, by, id).await?,
        AccountKind::Professional => erase_professional(&mut tx, by, id).await?,
    };
    let Some(files) = erased else {
        return Ok(false);
    };
    notification_preferences::forget(&mut *tx, kind, id).await?;
    consents::remove_all_of(&mut *tx, kind, id).await?;
    account_closures::mark_erased(&mut tx, kind, id).await?;
    tx.commit().await?;
    state.outbox.wake();
    state.sessions.refresh(kind.role(), id).await;
    for keys in &files.photos {
        crate::photos::discard(state.storage.as_ref(), keys).await;
    }
    for key in &files.others {
        discard_file(state, key).await;
    }
    Ok(true)
}

/// The stored files an erasure leaves without rows, discarded once it has committed.
#[derive(Default)]
struct Orphans {
    photos: Vec<PhotoKeys>,
    others: Vec<String>,
}

async fn erase_customer(
    tx: &mut sqlx::PgConnection,
    state: &AppState,
    by: Eraser,
    id: Uuid,
) -> ApiResult<Option<Orphans>> {
    let Some((email, phone)) = customers::lock_for_deletion(tx, id).await? else {
        return Ok(None);
    };
    let cancelled = cancel_open_requests(tx, state, id).await?;
    // Photos of the damage show the customer's home: they go with the account.
    let mut photos = request_photos::remove_all_of_customer(tx, id).await?;
    customers::anonymise(tx, id, &email, phone.as_deref()).await?;
    photos.extend(conversation_photos::forget_author(tx, id).await?);
    session_versions::bump(&mut *tx, Role::Customer, id).await?;
    // Who the customer was stays out of the log.
    record(
        tx,
        by,
        "customer.delete",
        ("customer", id),
        Some(&json!({ "deleted": false })),
        Some(&json!({ "deleted": true, "cancelled_requests": cancelled })),
    )
    .await?;
    Ok(Some(Orphans {
        photos,
        others: Vec::new(),
    }))
}

async fn erase_professional(
    tx: &mut sqlx::PgConnection,
    by: Eraser,
    id: Uuid,
) -> ApiResult<Option<Orphans>> {
    // Their customers are told before the quotes go with the account.
    crate::quotes::withdraw_all_of(tx, id).await?;
    let photos = conversation_photos::forget_author(tx, id).await?;
    let (others, before, after) = if professionals::kept_by_books(tx, id).await? {
        let Some(files) = professionals::anonymise(tx, id).await? else {
            return Ok(None);
        };
        session_versions::bump(&mut *tx, Role::Professional, id).await?;
        let after = json!({ "deleted": true, "kept_for_the_books": true });
        (files, json!({ "deleted": false }), Some(after))
    } else {
        let Some(deleted) = accounts::delete(tx, AccountKind::Professional, id).await? else {
            return Ok(None);
        };
        // Who the professional was stays out of the log: the id names them while they exist.
        let before = json!({ "created_at": deleted.created_at });
        (deleted.files, before, None)
    };
    record(
        tx,
        by,
        "professional.delete",
        ("professional", id),
        Some(&before),
        after.as_ref(),
    )
    .await?;
    Ok(Some(Orphans { photos, others }))
}

/// Cancels customer `id`'s open requests as they would cancel them (the professionals who
/// quoted are told); the ids cancelled.
pub(super) async fn cancel_open_requests(
    tx: &mut sqlx::PgConnection,
    state: &AppState,
    id: Uuid,
) -> ApiResult<Vec<String>> {
    let now = Utc::now();
    let mut cancelled = Vec::new();
    let link = state.config.links().professional_jobs();
    let told = requests::Told {
        also: &[],
        link: &link,
    };
    for request in repair_requests::lock_open_of(tx, id).await? {
        let change = RequestChange::CancelOpen;
        if requests::cancel_in(tx, (id, request), change, told, now)
            .await?
            .is_some()
        {
            cancelled.push(request.to_string());
        }
    }
    Ok(cancelled)
}

/// The erasure's audit row: under the admin's name, or the server's with the reason.
async fn record(
    tx: &mut sqlx::PgConnection,
    by: Eraser,
    action: &str,
    (kind, id): (&str, Uuid),
    before: Option<&serde_json::Value>,
    after: Option<&serde_json::Value>,
) -> sqlx::Result<()> {
    let target = (kind, &*id.to_string());
    match by {
        Eraser::Admin(admin) => {
            audit::record_change(&mut *tx, admin, action, target, before, after).await
        }
        Eraser::ClosureGraceEnded => {
            let reason = "the account's person closed it and its grace ended";
            audit::record_by_server(&mut *tx, action, target, reason, before, after).await
        }
    }
}

/// Removes a stored file that no row refers to (any more) (`providers::storage::discard`).
pub(crate) async fn discard_file(state: &AppState, key: &str) {
    crate::providers::storage::discard(state.storage.as_ref(), key).await;
}
