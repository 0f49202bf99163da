//! An approved professional's pending change (`store::pending_changes`): what they proposed
//! of what an admin vetted (a licence, the services offered, their legal name, registered
//! address, qualification, experience) waits beside the approved profile, and an admin
//! approves or refuses the change itself. Meanwhile, and after a refusal, the professional
//! stays approved for what was approved: matching and hiring read the approved values and
//! their quotes stay live.
//!
//! Only a refusal that leaves them unfit ([`unfit_after_refusal`]: it revoked their last
//! approved licence) ends that: they are denied with the refusal's reason, their waiting
//! quotes are withdrawn (each customer told the professional cannot take jobs at the moment,
//! nothing of why) and their sessions end, as on any denial.
//!
//! Each decision, its audit row and the professional's email (in their language) go in one
//! transaction; the files of the licences it removed go once it is committed.

use serde_json::{Value, json};
use uuid::Uuid;

use super::removal::discard_file;
use crate::{
    auth::Caller,
    domain::{ProfessionalState, Role, professional::unfit_after_refusal, text::bounded_text},
    error::{ApiError, ApiResult, ErrorReason},
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::{
        accounts::{self, AccountKind},
        audit,
        pending_changes::{self, PendingChangeRow},
        professionals::{self, Decided},
        session_versions,
    },
    words::{self, Mail, Words},
};

/// Approves professional `id`'s pending change at `revision` (0: whichever waits): the
/// proposed values replace the approved ones and the licences awaiting review join the
/// profile.
pub async fn approve(state: &AppState, admin: &Caller, id: Uuid, revision: i32) -> ApiResult<()> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let change = waiting(&mut tx, id, revision).await?;
    let approved = pending_changes::approved(&mut tx, id).await?;
    pending_changes::apply(&mut tx, id).await?;
    audit::record(
        &mut *tx,
        admin.account_id,
        "professional.pending_change.approve",
        ("professional", &id.to_string()),
        "",
        Some(&json!({ "vetted": approved })),
        Some(&change_json(&change)),
    )
    .await?;
    tell(&mut tx, id, |words, name| {
        words.pending_change_approved(name)
    })
    .await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok(())
}

/// What an admin's refusal holds: why, and which licences of the approved profile it revokes.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub reason: String,
    pub revoke_licence_ids: Vec<Uuid>,
    /// The revision read; 0 for whichever waits.
    pub revision: i32,
}

/// Refuses professional `id`'s pending change: the approved profile stays, the licences
/// awaiting review go, and those named are revoked; the professional is denied only when
/// that leaves them unfit (see the module).
pub async fn refuse(state: &AppState, admin: &Caller, id: Uuid, refusal: Refusal) -> ApiResult<()> {
    let reason = bounded_text(&refusal.reason, "the reason for the refusal", 1000)
        .map_err(|e| ApiError::invalid("reason", e))?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let change = waiting(&mut tx, id, refusal.revision).await?;
    let mut files = pending_changes::discard(&mut tx, id).await?;
    // Dropping the transaction on a wrong id rolls back the discarded change too.
    let revoked = pending_changes::revoke(&mut tx, id, &refusal.revoke_licence_ids)
        .await?
        .ok_or_else(|| {
            ApiError::invalid(
                "revoke_licence_ids",
                "revoke only licences of this professional's approved profile",
            )
        })?;
    files.extend(revoked.iter().map(|licence| licence.file_key.clone()));
    let left = pending_changes::approved_licences(&mut tx, id).await?;
    let unfit = unfit_after_refusal(revoked.len(), left);
    let after = if unfit {
        deny_unfit(&mut tx, id, &reason).await?
    } else {
        ProfessionalState::Approved
    };
    let revoked_json: Vec<Value> = revoked
        .iter()
        .map(|licence| json!({ "id": licence.id, "label": licence.label }))
        .collect();
    audit::record(
        &mut *tx,
        admin.account_id,
        "professional.pending_change.refuse",
        ("professional", &id.to_string()),
        &reason,
        Some(&change_json(&change)),
        Some(&json!({ "state": after.as_str(), "revoked_licences": revoked_json })),
    )
    .await?;
    tell(&mut tx, id, |words, name| {
        if unfit {
            words.licence_revoked(name, &reason)
        } else {
            words.pending_change_refused(name, &reason)
        }
    })
    .await?;
    tx.commit().await?;
    state.outbox.wake();
    if unfit {
        // The token version moved on in the transaction; the cache learns it now.
        state.sessions.refresh(Role::Professional, id).await;
    }
    for key in files {
        discard_file(state, &key).await;
    }
    Ok(())
}

/// The pending change waiting at `revision` (0: any), locked with the professional's row. A
/// change waits only beside an approved profile (`keeps_changes_pending`).
async fn waiting(
    tx: &mut sqlx::PgConnection,
    id: Uuid,
    revision: i32,
) -> ApiResult<PendingChangeRow> {
    let current = professionals::lock_state(tx, id)
        .await?
        .ok_or_else(|| crate::error::not_found("professional"))?;
    let change = match pending_changes::lock(tx, id).await? {
        Some(change) if current.keeps_changes_pending() => change,
        _ => {
            return Err(ApiError::FailedPrecondition {
                reason: ErrorReason::NoPendingChange,
                message: "no change of this professional waits for review".to_owned(),
            });
        }
    };
    if revision != 0 && revision != change.revision {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::PendingChangeRevised,
            message: "the professional changed it since you read it: read it again".to_owned(),
        });
    }
    Ok(change)
}

/// The refusal left them unfit: denied with its reason (from approved, the state they are
/// in under the lock), their quotes withdrawn with word to each customer, their sessions
/// ended.
async fn deny_unfit(
    tx: &mut sqlx::PgConnection,
    id: Uuid,
    reason: &str,
) -> ApiResult<ProfessionalState> {
    let next = ProfessionalState::Denied;
    let approved = |current: ProfessionalState| current == ProfessionalState::Approved;
    match professionals::decide(tx, id, approved, next, reason).await? {
        Decided::Done(_) => {}
        Decided::NoSuchProfessional => return Err(crate::error::not_found("professional")),
        Decided::NotAllowedFrom(current) => return Err(super::review::state_refusal(current)),
    }
    crate::quotes::withdraw_all_of(tx, id).await?;
    session_versions::bump(&mut *tx, Role::Professional, id).await?;
    Ok(next)
}

/// Queues the email `write` makes for the professional, in their language.
async fn tell(
    tx: &mut sqlx::PgConnection,
    id: Uuid,
    write: impl FnOnce(&dyn Words, &str) -> Mail,
) -> ApiResult<()> {
    if let Some(contact) = accounts::contact(&mut *tx, AccountKind::Professional, id).await? {
        let mail = write(words::of(contact.language), &contact.name);
        let email = NewOutboxMessage::email(contact.email, mail.subject, mail.body);
        outbox::enqueue(&mut *tx, &email).await?;
    }
    Ok(())
}

/// The change as the audit log keeps it.
fn change_json(change: &PendingChangeRow) -> Value {
    json!({
        "revision": change.revision,
        "proposed": change.proposed(),
        "licences_awaiting_review": change.licences_awaiting_review,
    })
}
