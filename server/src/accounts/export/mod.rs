//! A copy of one person's data (Law 25's portability, PIPEDA's access): asked for by the
//! person or by an admin on their behalf, prepared off the request path by one worker per
//! server process (claimed with a lease, so replicas share the queue and a killed one's
//! export is taken over), put in the object storage as one archive (`archive`), given as a
//! link that works for 10 minutes to the person or an admin who asks, and deleted 7 days
//! after it was ready (the housekeeping pass).

mod archive;

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::json;
use tokio::{sync::watch, task::JoinHandle};
use uuid::Uuid;

use crate::{
    auth::Caller,
    error::{ApiError, ApiResult, not_found},
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::{
        accounts::{self, AccountKind},
        audit,
        data_exports::{self, ExportRow},
        export_records,
    },
    words::{self, Moment},
};
use archive::StoredFile;

/// How long an archive stays downloadable.
pub const KEPT_FOR: chrono::Duration = chrono::Duration::days(7);
/// How long a download link works.
pub const LINK_LIFETIME: chrono::Duration = chrono::Duration::minutes(10);
/// How long a worker keeps an export it is preparing from the others.
const LEASE: Duration = Duration::from_secs(300);
/// Tries before an export is given up as failed.
const MAX_ATTEMPTS: i32 = 3;
/// An archive larger than this is refused rather than held in memory.
const MAX_ARCHIVE_BYTES: usize = 1 << 30;
/// How often an idle worker looks for work.
const POLL_EVERY: Duration = Duration::from_secs(2);

/// Whose data: the caller's own, or (an admin) the person they name.
#[derive(Debug, Clone, Copy)]
pub struct Whose {
    pub kind: AccountKind,
    pub id: Uuid,
    /// The admin asking on the person's behalf.
    pub admin: Option<Uuid>,
}

/// Asks for a copy of `whose` data; the export being prepared already when there is one.
pub async fn request(state: &AppState, whose: Whose) -> ApiResult<ExportRow> {
    if !accounts::exists(&state.db, whose.kind, whose.id).await? {
        return Err(not_found("account"));
    }
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let export = match data_exports::request(&mut *tx, whose.kind, whose.id, whose.admin).await? {
        Some(export) => export,
        None => data_exports::latest_of(&mut *tx, whose.kind, whose.id)
            .await?
            .ok_or_else(|| not_found("data export"))?,
    };
    if let Some(admin) = whose.admin {
        audit::record_change(
            &mut *tx,
            admin,
            "data_export.request",
            (whose.kind.as_str(), &whose.id.to_string()),
            None,
            Some(&json!({ "export_id": export.id })),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(export)
}

/// `whose` latest export (`None` when none was asked for), and a download link when it is
/// ready (recorded in the audit log when an admin is given one).
pub async fn latest(
    state: &AppState,
    whose: Whose,
) -> ApiResult<Option<(ExportRow, Option<String>)>> {
    let Some(export) = data_exports::latest_of(&state.db, whose.kind, whose.id).await? else {
        return Ok(None);
    };
    let Some(key) = export
        .file_key
        .as_deref()
        .filter(|_| export.state == "ready")
    else {
        return Ok(Some((export, None)));
    };
    let path = crate::providers::storage::sign_file_url(
        state.file_link_key.as_slice(),
        key,
        Utc::now() + LINK_LIFETIME,
    )
    .map_err(|error| ApiError::Internal(error.into()))?;
    let link = state.config.links().absolute(&path);
    if let Some(admin) = whose.admin {
        audit::record(
            &state.db,
            admin,
            "data_export.download_link",
            (whose.kind.as_str(), &whose.id.to_string()),
            "a link to a person's data was given to an admin",
            None,
            Some(&json!({ "export_id": export.id })),
        )
        .await?;
    }
    Ok(Some((export, Some(link))))
}

/// Prepares the oldest waiting export, if any; whether there was one.
pub async fn prepare_next(state: &AppState) -> anyhow::Result<bool> {
    let Some(export) = data_exports::claim(&state.db, LEASE.as_secs_f64()).await? else {
        return Ok(false);
    };
    match prepare(state, &export).await {
        Ok(()) => {}
        Err(error) if export.attempts >= MAX_ATTEMPTS => {
            tracing::error!(export = %export.id, ?error, "a data export failed for good");
            data_exports::fail(&state.db, export.id).await?;
        }
        Err(error) => {
            // The lease runs out and another try comes.
            tracing::warn!(export = %export.id, ?error, "a data export failed; it will be tried again");
        }
    }
    Ok(true)
}

async fn prepare(state: &AppState, export: &ExportRow) -> anyhow::Result<()> {
    let kind = export.kind();
    let contact = accounts::contact(&state.db, kind, export.account_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the account is gone"))?;
    // One snapshot: the files agree with each other.
    let mut tx = state.db.begin().await?;
    sqlx::query("set transaction isolation level repeatable read, read only")
        .execute(&mut *tx)
        .await?;
    let records = export_records::all_of(&mut tx, kind, export.account_id).await?;
    let wanted = export_records::files_of(&mut tx, kind, export.account_id).await?;
    tx.commit().await?;
    let mut files = Vec::with_capacity(wanted.len());
    let mut total = 0usize;
    for file in wanted {
        // A file gone from the storage (a race with its deletion) is left out.
        let Some((_, bytes)) = state.storage.get(&file.key).await? else {
            continue;
        };
        total += bytes.len();
        anyhow::ensure!(total <= MAX_ARCHIVE_BYTES, "the archive would pass 1 GiB");
        files.push(StoredFile {
            path: file.path,
            bytes: bytes.to_vec(),
        });
    }
    let language = contact.language;
    let zipped =
        tokio::task::spawn_blocking(move || archive::write(&records, &files, language)).await??;
    let key = format!("exports/{}/data.zip", export.id);
    let size = i64::try_from(zipped.len()).unwrap_or(i64::MAX);
    state
        .storage
        .put(&key, "application/zip", zipped.into())
        .await?;
    let expires_at = Utc::now() + KEPT_FOR;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    if !data_exports::ready(&mut *tx, export.id, &key, size, expires_at).await? {
        drop(tx);
        crate::providers::storage::discard(state.storage.as_ref(), &key).await;
        return Ok(());
    }
    let link = state.config.links().own_account(kind.role());
    let mail = words::of(language).data_export_ready(
        &contact.name,
        Moment::new(expires_at, ""),
        link.of(language),
    );
    outbox::enqueue(
        &mut *tx,
        &NewOutboxMessage::email(&contact.email, mail.subject, mail.body),
    )
    .await?;
    tx.commit().await?;
    state.outbox.wake();
    tracing::info!(export = %export.id, size, "a data export is ready");
    Ok(())
}

/// Deletes the archives past their 7 days (housekeeping); how many.
pub async fn expire_due(state: &AppState, now: DateTime<Utc>) -> sqlx::Result<usize> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let keys = data_exports::expire_due(&mut tx, now, 100).await?;
    tx.commit().await?;
    for key in &keys {
        crate::providers::storage::discard(state.storage.as_ref(), key).await;
    }
    Ok(keys.len())
}

/// Prepares exports until `shutdown` turns true: one at a time in this process (memory is
/// bounded by one person's archive), the next at once when there is one.
pub fn spawn(state: AppState, mut shutdown: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(crate::store::transaction::tracked(async move {
        while !*shutdown.borrow() {
            let busy = match prepare_next(&state).await {
                Ok(busy) => busy,
                Err(error) => {
                    tracing::error!(?error, "data exports could not be claimed");
                    false
                }
            };
            if busy {
                continue;
            }
            tokio::select! {
                () = tokio::time::sleep(POLL_EVERY) => {}
                changed = shutdown.changed() => if changed.is_err() { break },
            }
        }
    }))
}

/// The caller's own account, or the person an admin names.
pub fn whose(caller: &Caller, kind: Option<AccountKind>, id: Option<Uuid>) -> ApiResult<Whose> {
    match (caller.role, kind, id) {
        (crate::domain::Role::Admin, Some(kind), Some(id)) => Ok(Whose {
            kind,
            id,
            admin: Some(caller.account_id),
        }),
        (crate::domain::Role::Admin, _, _) => Err(ApiError::invalid(
            "account_id",
            "name the person and whether they are a customer or a professional",
        )),
        (role, _, None) => Ok(Whose {
            kind: super::account_kind(role)?,
            id: caller.account_id,
            admin: None,
        }),
        (_, _, Some(id)) if id == caller.account_id => Ok(Whose {
            kind: super::account_kind(caller.role)?,
            id,
            admin: None,
        }),
        _ => Err(not_found("account")),
    }
}
