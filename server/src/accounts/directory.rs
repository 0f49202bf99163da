//! Accounts as their owners and the admins read and keep them: one customer or professional,
//! the admins' lists of people, a customer's details, the SMS choice, the audit log, and a
//! professional's public profile. Who may ask is decided by the role table and
//! `auth::access` before these run; these only read and write.

use uuid::Uuid;

use crate::{
    auth::{Caller, access},
    domain::{Email, Language, PeopleSearch, PersonName, ProfessionalState, SmsUpdates},
    error::{ApiResult, not_found},
    state::AppState,
    store::{
        accounts::{self as account_store, AccountKind},
        audit::{self, AuditFilter, AuditRow},
        customers::{self, CustomerRow},
        page::PageRequest,
        pending_changes::{self, PendingChangeRow},
        professionals::{self, LicenceRow, ProfessionalRow, PublicProfessionalRow},
    },
};

/// An admin opening a person's account (name, email, phone) is written in the audit log;
/// the person reading their own is not.
pub async fn record_contacts_opened(
    state: &AppState,
    caller: &Caller,
    kind: AccountKind,
    id: Uuid,
) -> ApiResult<()> {
    if caller.role != crate::domain::Role::Admin {
        return Ok(());
    }
    let (action, target) = match kind {
        AccountKind::Customer => ("customer.contacts_view", "customer"),
        AccountKind::Professional => ("professional.contacts_view", "professional"),
    };
    let opened = serde_json::json!({ "opened": true });
    audit::record_change(
        &state.db,
        caller.account_id,
        action,
        (target, &id.to_string()),
        None,
        Some(&opened),
    )
    .await?;
    Ok(())
}

pub async fn customer(state: &AppState, id: Uuid) -> ApiResult<CustomerRow> {
    customers::get(&state.db, id)
        .await?
        .ok_or_else(|| not_found("customer"))
}

/// A professional with their licences and the change of what was vetted waiting beside
/// their approved profile, if any.
pub async fn professional(
    state: &AppState,
    id: Uuid,
) -> ApiResult<(ProfessionalRow, Vec<LicenceRow>, Option<PendingChangeRow>)> {
    let row = professionals::get(&state.db, id)
        .await?
        .ok_or_else(|| not_found("professional"))?;
    let licences = professionals::licences(&state.db, id).await?;
    let pending = pending_changes::get(&state.db, id).await?;
    Ok((row, licences, pending))
}

/// A customer's name, email and, when given, language and SMS choice.
pub async fn update_customer(
    state: &AppState,
    id: Uuid,
    name: &PersonName,
    email: &Email,
    language: Option<Language>,
    sms: Option<SmsUpdates>,
) -> ApiResult<CustomerRow> {
    customers::update(&state.db, id, name, email, language, sms)
        .await?
        .ok_or_else(|| not_found("customer"))
}

pub async fn set_sms_updates(
    state: &AppState,
    kind: AccountKind,
    id: Uuid,
    choice: SmsUpdates,
) -> ApiResult<()> {
    if account_store::set_sms_updates(&state.db, kind, id, choice).await? {
        Ok(())
    } else {
        Err(not_found("account"))
    }
}

/// A page of customers, newest first, and the next page's token.
pub async fn list_customers(
    state: &AppState,
    search: Option<&PeopleSearch>,
    page: &PageRequest,
) -> ApiResult<(Vec<CustomerRow>, String)> {
    let rows = customers::list(&state.db, search, page).await?;
    Ok(page.finish(rows, |r| (r.created_at, r.id)))
}

/// A page of professionals (of one state, or all), newest first, and the next page's token.
pub async fn list_professionals(
    state: &AppState,
    in_state: Option<ProfessionalState>,
    with_pending_change: bool,
    page: &PageRequest,
) -> ApiResult<(Vec<ProfessionalRow>, String)> {
    let rows = professionals::list(&state.db, in_state, with_pending_change, page).await?;
    Ok(page.finish(rows, |r| (r.created_at, r.id)))
}

/// A page of the audit log, newest first, and the next page's token.
pub async fn audit_events(
    state: &AppState,
    filter: &AuditFilter,
    page: &PageRequest,
) -> ApiResult<(Vec<AuditRow>, String)> {
    let rows = audit::list(&state.db, filter, page).await?;
    Ok(page.finish(rows, |r| (r.created_at, r.id)))
}

/// A professional's public profile as `caller` (signed in or not) may see it.
pub async fn public_professional(
    state: &AppState,
    caller: Option<&Caller>,
    id: Uuid,
) -> ApiResult<PublicProfessionalRow> {
    professionals::get_public(&state.public_profiles, id, access::public_viewer(caller))
        .await?
        .ok_or_else(|| not_found("professional"))
}
