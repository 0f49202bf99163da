//! What admins do with accounts: approve or deny professionals, delete accounts. Every
//! action is written to the audit log with who, what, when and why.

use uuid::Uuid;

use crate::{
    auth::Caller,
    domain::{Language, ProfessionalState, Role, text::bounded_text},
    error::{ApiError, ApiResult},
    providers::EmailMessage,
    state::AppState,
    store::{
        accounts::{self, AccountKind},
        audit,
        professionals::{self, Decided},
    },
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
    match professionals::decide(&state.db, id, allowed, next, reason).await? {
        Decided::NoSuchProfessional => return Err(super::not_found("professional")),
        Decided::NotAllowedFrom(current) => {
            return Err(ApiError::FailedPrecondition {
                reason: "PROFESSIONAL_STATE",
                message: format!(
                    "this professional is already {}",
                    current.as_str().replace('_', " ")
                ),
            });
        }
        Decided::Done => state.sessions.refresh(Role::Professional, id).await,
    }
    let action = match next {
        ProfessionalState::Approved => "professional.approve",
        _ => "professional.deny",
    };
    audit::record(
        &state.db,
        admin.account_id,
        action,
        "professional",
        &id.to_string(),
        reason,
    )
    .await?;
    notify_decision(state, id, next, reason).await;
    Ok(())
}

/// Tells the professional by email. A failed send is logged: the decision stands.
async fn notify_decision(state: &AppState, id: Uuid, decision: ProfessionalState, reason: &str) {
    let Ok(Some(contact)) = accounts::contact(&state.db, AccountKind::Professional, id).await
    else {
        return;
    };
    let approved = decision == ProfessionalState::Approved;
    let (subject, body) = match (contact.language(), approved) {
        (Language::French, true) => (
            "Votre profil est approuvé".to_owned(),
            format!(
                "Bonjour {},\n\nVotre profil de professionnel est approuvé. Activez votre abonnement pour recevoir des demandes.",
                contact.name
            ),
        ),
        (Language::French, false) => (
            "Votre inscription a été refusée".to_owned(),
            format!(
                "Bonjour {},\n\nVotre inscription a été refusée pour la raison suivante :\n{reason}\n\nVous pouvez mettre votre profil à jour et le soumettre de nouveau.",
                contact.name
            ),
        ),
        (Language::English, true) => (
            "Your profile is approved".to_owned(),
            format!(
                "Hello {},\n\nYour professional profile is approved. Activate your membership to start receiving requests.",
                contact.name
            ),
        ),
        (Language::English, false) => (
            "Your registration was denied".to_owned(),
            format!(
                "Hello {},\n\nYour registration was denied for this reason:\n{reason}\n\nYou can update your profile and submit it again.",
                contact.name
            ),
        ),
    };
    if let Err(error) = state
        .email
        .send(&EmailMessage {
            to: contact.email,
            subject,
            body,
        })
        .await
    {
        tracing::error!(error = ?error, "could not send a decision email");
    }
}

pub async fn delete(
    state: &AppState,
    admin: &Caller,
    kind: AccountKind,
    id: Uuid,
) -> ApiResult<()> {
    if !super::removal::delete_account(state, kind, id).await? {
        return Err(super::not_found("account"));
    }
    let target = match kind {
        AccountKind::Customer => "customer",
        AccountKind::Professional => "professional",
    };
    audit::record(
        &state.db,
        admin.account_id,
        &format!("{target}.delete"),
        target,
        &id.to_string(),
        "",
    )
    .await?;
    Ok(())
}
