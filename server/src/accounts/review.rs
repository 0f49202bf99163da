//! What admins do with accounts: approve or deny professionals, delete accounts. Every
//! action is written to the audit log with who, what, when and why; a decision's audit row
//! and email (into the outbox) are written in the decision's own transaction.
//!
//! A denial ends the professional's sessions (their token version moves on in the
//! decision's transaction); an approval ends none: the professional goes on where they are,
//! as every rule reads the approval state at each call, and the email links to the sign-in
//! for those who are not signed in.

use serde_json::json;
use uuid::Uuid;

use crate::{
    auth::Caller,
    domain::{ProfessionalState, Role, text::bounded_text},
    error::{ApiError, ApiResult, ErrorReason},
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::{
        accounts::{self, AccountKind, Contact},
        audit, pending_changes,
        professionals::{self, Decided},
        session_versions,
    },
    words,
};

pub async fn approve(state: &AppState, admin: &Caller, id: Uuid) -> ApiResult<()> {
    decide(state, admin, id, ProfessionalState::Approved, "").await
}

pub async fn deny(state: &AppState, admin: &Caller, id: Uuid, reason: &str) -> ApiResult<()> {
    let reason = bounded_text(reason, "the reason for the denial", 1000)
        .map_err(|e| ApiError::invalid("reason", e))?;
    decide(state, admin, id, ProfessionalState::Denied, &reason).await
}

async fn decide(
    state: &AppState,
    admin: &Caller,
    id: Uuid,
    next: ProfessionalState,
    reason: &str,
) -> ApiResult<()> {
    let allowed = match next {
        ProfessionalState::Approved => ProfessionalState::can_approve,
        _ => ProfessionalState::can_deny,
    };
    // The decision, its audit row and its email: one transaction, all or nothing.
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let before = match professionals::decide(&mut tx, id, allowed, next, reason).await? {
        Decided::NoSuchProfessional => return Err(crate::error::not_found("professional")),
        Decided::NotAllowedFrom(current) => return Err(state_refusal(current)),
        Decided::Done(before) => before,
    };
    let action = match next {
        ProfessionalState::Approved => "professional.approve",
        _ => "professional.deny",
    };
    audit::record(
        &mut *tx,
        admin.account_id,
        action,
        ("professional", &id.to_string()),
        reason,
        Some(&json!({ "state": before.as_str() })),
        Some(&json!({ "state": next.as_str() })),
    )
    .await?;
    if let Some(contact) = accounts::contact(&mut *tx, AccountKind::Professional, id).await? {
        let sign_in = state.config.links().professional_sign_in();
        let email = decision_email(&contact, next, reason, sign_in.of(contact.language));
        outbox::enqueue(&mut *tx, &email).await?;
    }
    let denied = next != ProfessionalState::Approved;
    if denied {
        // Denied, their whole profile goes to review when they submit it again: a change
        // that waited beside the approved one becomes part of it.
        pending_changes::apply(&mut tx, id).await?;
        // A denied professional can no longer be hired: their quotes close with the denial,
        // and their sessions end.
        crate::quotes::withdraw_all_of(&mut tx, id).await?;
        session_versions::bump(&mut *tx, Role::Professional, id).await?;
    }
    tx.commit().await?;
    state.outbox.wake();
    if denied {
        // The token version moved on in the transaction; the cache learns it now.
        state.sessions.refresh(Role::Professional, id).await;
    }
    Ok(())
}

/// An admin's decision the professional's current state does not allow.
pub(super) fn state_refusal(current: ProfessionalState) -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::ProfessionalState,
        message: format!(
            "this professional is already {}",
            current.as_str().replace('_', " ")
        ),
    }
}

/// The email that tells a professional of an admin's decision, in their language.
fn decision_email(
    contact: &Contact,
    decision: ProfessionalState,
    reason: &str,
    sign_in_link: &str,
) -> NewOutboxMessage {
    let words = words::of(contact.language);
    let mail = if decision == ProfessionalState::Approved {
        words.profile_approved(&contact.name, sign_in_link)
    } else {
        words.registration_denied(&contact.name, reason)
    };
    NewOutboxMessage::email(contact.email.clone(), mail.subject, mail.body)
}

pub async fn delete(
    state: &AppState,
    admin: &Caller,
    kind: AccountKind,
    id: Uuid,
) -> ApiResult<()> {
    if !super::removal::delete_account(state, admin, kind, id).await? {
        return Err(crate::error::not_found("account"));
    }
    Ok(())
}
