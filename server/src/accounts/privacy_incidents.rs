//! The privacy incident register (PIPEDA's breach records, Quebec's Law 25 register): admins
//! record each incident and amend it as notifications are made; each write goes into the
//! audit log, before and after, in its own transaction.

use chrono::Utc;
use serde_json::json;
use uuid::Uuid;

use crate::{
    auth::Caller,
    error::{ApiError, ApiResult, FieldViolation, not_found},
    state::AppState,
    store::{
        audit,
        page::PageRequest,
        privacy_incidents::{self as store, IncidentFacts, IncidentRow},
    },
};

/// Checks what an admin wrote: the times in order and none in the future, the texts
/// trimmed and not blank.
pub fn checked(mut facts: IncidentFacts) -> ApiResult<IncidentFacts> {
    let now = Utc::now();
    let mut problems = Vec::new();
    let mut problem = |field: &str, description: &str| {
        problems.push(FieldViolation::new(
            format!("incident.{field}"),
            description,
        ));
    };
    if facts.discovered_at > now {
        problem("discovered_at", "the discovery cannot be in the future");
    }
    if facts.occurred_at > facts.discovered_at {
        problem(
            "occurred_at",
            "an incident cannot have happened after it was discovered",
        );
    }
    for (field, when) in [
        ("commissioner_notified_at", facts.commissioner_notified_at),
        ("people_notified_at", facts.people_notified_at),
    ] {
        match when {
            Some(when) if when > now => problem(field, "a notification cannot be in the future"),
            Some(when) if when < facts.discovered_at => {
                problem(field, "a notification cannot come before the discovery")
            }
            _ => {}
        }
    }
    for (field, text) in [
        ("description", &mut facts.description),
        ("information_involved", &mut facts.information_involved),
        ("risk_assessment", &mut facts.risk_assessment),
        ("measures_taken", &mut facts.measures_taken),
    ] {
        *text = text.trim().to_owned();
        if text.is_empty() && field != "measures_taken" {
            problem(field, "say it in a few words");
        }
    }
    if problems.is_empty() {
        Ok(facts)
    } else {
        Err(ApiError::invalid_fields(problems))
    }
}

/// Records a new incident (`id` `None`) or amends incident `id`, as `admin`.
pub async fn record(
    state: &AppState,
    admin: &Caller,
    id: Option<Uuid>,
    facts: IncidentFacts,
) -> ApiResult<IncidentRow> {
    let facts = checked(facts)?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let (before, recorded) = match id {
        None => (
            None,
            store::insert(&mut *tx, admin.account_id, &facts).await?,
        ),
        Some(id) => {
            let before = store::lock(&mut tx, id)
                .await?
                .ok_or_else(|| not_found("privacy incident"))?;
            (Some(before), store::amend(&mut tx, id, &facts).await?)
        }
    };
    let action = if before.is_some() {
        "privacy_incident.amend"
    } else {
        "privacy_incident.record"
    };
    audit::record_change(
        &mut *tx,
        admin.account_id,
        action,
        ("privacy_incident", &recorded.id.to_string()),
        before.as_ref().map(|row| json!(row)).as_ref(),
        Some(&json!(recorded)),
    )
    .await?;
    tx.commit().await?;
    Ok(recorded)
}

/// One page of the register, newest discovery first.
pub async fn list(state: &AppState, page: &PageRequest) -> ApiResult<(Vec<IncidentRow>, String)> {
    let rows = store::list(&state.db, page).await?;
    Ok(page.finish(rows, |row| (row.facts.discovered_at, row.id)))
}
