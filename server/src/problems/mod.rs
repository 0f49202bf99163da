//! A problem after the job: within 14 days of marking a job done its customer reports a
//! problem with it ([`report`], with photos uploaded first by [`add_photo`]), one open at a
//! time; while it is open the job's conversation is writable again by both parties and by
//! admins (`conversations::send`, from `store::conversations::lock_request`). The hired
//! professional and the admins are told by email. Admins list the problems as a queue
//! ([`list`]), read each with the job's history ([`get`]) and close it with an outcome
//! ([`resolve`], audited), which closes the conversation again and tells both parties.

use chrono::{DateTime, Utc};
use serde_json::json;
use uuid::Uuid;

use crate::{
    auth::Caller,
    domain::{
        RepairRequestState, Role, StoredPhoto,
        job_problem::{self, MAX_PROBLEM_PHOTOS, Outcome, ProblemChange, ProblemState, in_time},
    },
    error::{ApiError, ApiResult, ErrorReason, not_found},
    outbox::{self, NewOutboxMessage},
    photos,
    state::AppState,
    store::{
        accounts::{self as account_store, AccountKind},
        audit,
        job_problems::{self, EventRow, LockedJob, NewProblem, ProblemRow, QueueKey, Whose},
        orders,
        page::{PageRequest, text_of, token_of},
        transaction,
    },
    words::{self, ProblemReported, ProblemResolved},
};

/// What a customer reports.
#[derive(Debug, Clone)]
pub struct Report {
    /// ReportJobProblem's `request_id`.
    pub client_key: Uuid,
    pub text: String,
    /// Photos uploaded with AddJobProblemPhoto, in order.
    pub photo_ids: Vec<Uuid>,
}

/// Why a job cannot take a report now, if it cannot: not completed, or too late.
fn refuse_unless_reportable(job: &LockedJob, now: DateTime<Utc>) -> ApiResult<()> {
    let completed =
        RepairRequestState::from_code(&job.state) == Some(RepairRequestState::Completed);
    let Some(completed_at) = job.completed_at.filter(|_| completed) else {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::RepairRequestNotCompleted,
            message: "a problem can be reported once the job is marked completed".to_owned(),
        });
    };
    if !in_time(completed_at, now) {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::ProblemReportClosed,
            message: "problems can be reported up to 14 days after the job was completed; \
                      that time has passed, so please write to us through the contact page"
                .to_owned(),
        });
    }
    Ok(())
}

/// The customer's job `repair_request_id`, locked for update in `tx`, if it may take a
/// report now; NOT_FOUND when it is not theirs.
async fn reportable_job(
    tx: &mut sqlx::PgConnection,
    customer_id: Uuid,
    repair_request_id: Uuid,
) -> ApiResult<LockedJob> {
    let job = job_problems::lock_job(tx, repair_request_id)
        .await?
        .filter(|job| job.customer_id == customer_id)
        .ok_or_else(|| not_found("request"))?;
    refuse_unless_reportable(&job, Utc::now())?;
    Ok(job)
}

/// The problem reported under `key` before, if any: the same request's, or
/// REQUEST_ID_REUSED.
fn earlier(found: Option<ProblemRow>, repair_request_id: Uuid) -> ApiResult<Option<ProblemRow>> {
    match found {
        Some(row) if row.repair_request_id != repair_request_id => {
            Err(ApiError::FailedPrecondition {
                reason: ErrorReason::RequestIdReused,
                message: "this request id was used for another report; make a new one".to_owned(),
            })
        }
        found => Ok(found),
    }
}

/// Reports a problem on the customer's completed job `repair_request_id`.
pub async fn report(
    state: &AppState,
    customer_id: Uuid,
    repair_request_id: Uuid,
    form: &Report,
) -> ApiResult<ProblemRow> {
    let text = job_problem::problem_text(&form.text).map_err(|e| ApiError::invalid("text", e))?;
    let distinct: std::collections::HashSet<&Uuid> = form.photo_ids.iter().collect();
    if form.photo_ids.len() > MAX_PROBLEM_PHOTOS || distinct.len() != form.photo_ids.len() {
        return Err(ApiError::invalid(
            "photo_ids",
            format!("attach up to {MAX_PROBLEM_PHOTOS} photos, each once"),
        ));
    }
    let found = job_problems::find_by_key(&state.db, customer_id, form.client_key).await?;
    if let Some(first) = earlier(found, repair_request_id)? {
        return Ok(first);
    }
    let mut tx = transaction::begin(&state.db).await?;
    let job = reportable_job(&mut tx, customer_id, repair_request_id).await?;
    // A retry that waited on the lock finds what the first call wrote.
    let found = job_problems::find_by_key(&mut *tx, customer_id, form.client_key).await?;
    if let Some(first) = earlier(found, repair_request_id)? {
        return Ok(first);
    }
    if job_problems::open_on(&mut *tx, repair_request_id)
        .await?
        .is_some()
    {
        return Err(ApiError::AlreadyExists {
            reason: ErrorReason::ProblemAlreadyOpen,
            message: "a problem reported on this job is still open; add to its conversation"
                .to_owned(),
        });
    }
    let professional_id = job
        .hired_professional_id
        .ok_or_else(|| anyhow::anyhow!("a completed request without its professional"))?;
    let new = NewProblem {
        repair_request_id,
        customer_id,
        professional_id,
        client_key: form.client_key,
        text: &text,
    };
    let id = job_problems::insert(&mut tx, &new).await?;
    if !form.photo_ids.is_empty() {
        let owner = (repair_request_id, customer_id);
        let attached = job_problems::attach_photos(&mut tx, id, owner, &form.photo_ids).await?;
        if attached != form.photo_ids.len() {
            return Err(ApiError::invalid(
                "photo_ids",
                "a photo is not one you uploaded for this job, or it was attached already",
            ));
        }
    }
    let problem = job_problems::get(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("a problem written and not read back"))?;
    let notices = reported_notices(state, &mut tx, &problem).await?;
    outbox::enqueue_many(&mut *tx, &notices).await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok(problem)
}

/// The emails telling the hired professional and the admins of a new problem.
async fn reported_notices(
    state: &AppState,
    tx: &mut sqlx::PgConnection,
    problem: &ProblemRow,
) -> ApiResult<Vec<NewOutboxMessage>> {
    let links = state.config.links();
    let mut notices = Vec::new();
    if let Some(pro) =
        account_store::contact(&mut *tx, AccountKind::Professional, problem.professional_id).await?
    {
        let link = links.view_request(problem.repair_request_id);
        let told = ProblemReported {
            service: problem.service_name.of(pro.language),
            customer: &problem.customer_name,
            professional: &problem.professional_name,
            text: &problem.text,
            link: link.of(pro.language),
        };
        let mail = words::of(pro.language).problem_reported(&pro.name, &told);
        notices.push(NewOutboxMessage::email(&pro.email, mail.subject, mail.body));
    }
    let link = links.admin_problem(problem.id);
    for admin in orders::admin_recipients(&mut *tx).await? {
        let told = ProblemReported {
            service: problem.service_name.of(admin.language),
            customer: &problem.customer_name,
            professional: &problem.professional_name,
            text: &problem.text,
            link: link.of(admin.language),
        };
        let mail = words::of(admin.language).problem_reported_admin(&admin.name, &told);
        notices.push(NewOutboxMessage::email(
            &admin.email,
            mail.subject,
            mail.body,
        ));
    }
    Ok(notices)
}

fn too_many_photos() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::TooManyPhotos,
        message: format!(
            "you have {MAX_PROBLEM_PHOTOS} photos waiting for your report; send the report first"
        ),
    }
}

/// Keeps an uploaded photo (the file's bytes) for the customer's next report on
/// `repair_request_id`.
pub async fn add_photo(
    state: &AppState,
    customer_id: Uuid,
    repair_request_id: Uuid,
    content: Vec<u8>,
) -> ApiResult<StoredPhoto> {
    // The cheap refusals first, then the decode.
    photos::sniff(&content)?;
    {
        let mut tx = transaction::begin(&state.db).await?;
        reportable_job(&mut tx, customer_id, repair_request_id).await?;
    }
    let processed = photos::process(&state.photos, content).await?;
    let id = Uuid::now_v7();
    let prefix = format!("repair-requests/{repair_request_id}/problem-photos/{id}");
    let keys = photos::store(state.storage.as_ref(), &prefix, &processed).await?;
    let photo = StoredPhoto::stored(id, keys.clone(), processed.width, processed.height);
    let kept = keep_photo(state, (repair_request_id, customer_id), &photo).await;
    if !matches!(kept, Ok(())) {
        // The files were stored first; nothing refers to them now.
        photos::discard(state.storage.as_ref(), &keys).await;
    }
    kept.map(|()| photo)
}

async fn keep_photo(
    state: &AppState,
    (repair_request_id, customer_id): (Uuid, Uuid),
    photo: &StoredPhoto,
) -> ApiResult<()> {
    let mut tx = transaction::begin(&state.db).await?;
    reportable_job(&mut tx, customer_id, repair_request_id).await?;
    let max = i64::try_from(MAX_PROBLEM_PHOTOS).unwrap_or(i64::MAX);
    let owner = (repair_request_id, customer_id);
    if !job_problems::add_photo(&mut tx, owner, photo, max).await? {
        return Err(too_many_photos());
    }
    tx.commit().await?;
    Ok(())
}

/// How long a photo no report took is kept.
pub const UNATTACHED_KEPT: chrono::Duration = chrono::Duration::days(1);

/// Deletes the photos no report took within [`UNATTACHED_KEPT`] of their upload, before
/// `now`, row and files; how many.
pub async fn purge_unattached(state: &AppState, now: DateTime<Utc>) -> sqlx::Result<usize> {
    let removed = job_problems::remove_unattached_before(&state.db, now - UNATTACHED_KEPT).await?;
    for keys in &removed {
        photos::discard(state.storage.as_ref(), keys).await;
    }
    Ok(removed.len())
}

/// Whose problems `caller` lists: every one for an admin, their own jobs' otherwise.
fn whose(caller: &Caller) -> Whose {
    match caller.role {
        Role::Admin => Whose::All,
        Role::Customer => Whose::Customer(caller.account_id),
        Role::Professional => Whose::Professional(caller.account_id),
    }
}

/// A page of the problems `caller` may see, in queue order (open oldest first, then resolved
/// newest first), of `filter`'s state when given; and the next page's token.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    filter: Option<ProblemState>,
    (page_size, page_token): (i32, &str),
) -> ApiResult<(Vec<ProblemRow>, String)> {
    let size = PageRequest::parse(page_size, "")?.size;
    let after = decode_token(page_token)?;
    let mut rows = job_problems::page(&state.db, whose(caller), filter, after, size + 1).await?;
    let next_page_token = match usize::try_from(size) {
        Ok(size) if rows.len() > size => {
            rows.truncate(size);
            rows.last()
                .map(|(_, key)| encode_token(key))
                .unwrap_or_default()
        }
        _ => String::new(),
    };
    Ok((
        rows.into_iter().map(|(row, _)| row).collect(),
        next_page_token,
    ))
}

fn encode_token((rank, time, id): &QueueKey) -> String {
    token_of(&format!("{rank}|{time}|{id}"))
}

fn decode_token(token: &str) -> ApiResult<Option<QueueKey>> {
    if token.is_empty() {
        return Ok(None);
    }
    let parsed = text_of(token).and_then(|raw| {
        let mut parts = raw.splitn(3, '|');
        let rank = parts.next()?.parse().ok()?;
        let time = parts.next()?.parse().ok()?;
        let id = Uuid::parse_str(parts.next()?).ok()?;
        Some((rank, time, id))
    });
    parsed.map(Some).ok_or_else(|| {
        ApiError::invalid(
            "page_token",
            "this page token is not valid; start from the first page",
        )
    })
}

/// Whether `caller` may read `problem`: an admin, or one of the job's two parties.
fn may_read(caller: &Caller, problem: &ProblemRow) -> bool {
    match caller.role {
        Role::Admin => true,
        Role::Customer => problem.customer_id == caller.account_id,
        Role::Professional => problem.professional_id == caller.account_id,
    }
}

/// The problem `id` with its job's history, oldest first; NOT_FOUND for whoever may not read
/// it.
pub async fn get(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
) -> ApiResult<(ProblemRow, Vec<EventRow>)> {
    let problem = job_problems::get(&state.db, id)
        .await?
        .filter(|problem| may_read(caller, problem))
        .ok_or_else(|| not_found("problem"))?;
    let history = job_problems::history(&state.db, problem.repair_request_id).await?;
    Ok((problem, history))
}

/// An admin's decision on a problem.
#[derive(Debug, Clone)]
pub struct Decision {
    pub outcome: Option<Outcome>,
    pub note: String,
}

/// An admin resolves the open problem `id` (audited); the conversation closes again and both
/// parties are told.
pub async fn resolve(
    state: &AppState,
    admin: &Caller,
    id: Uuid,
    decision: &Decision,
) -> ApiResult<ProblemRow> {
    let outcome = decision
        .outcome
        .ok_or_else(|| ApiError::invalid("outcome", "choose what was decided"))?;
    let note =
        job_problem::resolution_note(&decision.note).map_err(|e| ApiError::invalid("note", e))?;
    let problem = job_problems::get(&state.db, id)
        .await?
        .ok_or_else(|| not_found("problem"))?;
    let mut tx = transaction::begin(&state.db).await?;
    // The request first, as a report and a message lock it: the conversation's state changes
    // with the problem's.
    job_problems::lock_job(&mut tx, problem.repair_request_id).await?;
    let (_, current, reported_at) = job_problems::lock(&mut tx, id)
        .await?
        .ok_or_else(|| not_found("problem"))?;
    let change = ProblemChange::Resolve;
    if !change.allowed_from().contains(&current) {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::ProblemResolved,
            message: "this problem was resolved already".to_owned(),
        });
    }
    if outcome == Outcome::Refund
        && !job_problems::refunded_since(&mut *tx, problem.repair_request_id, reported_at).await?
    {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::ProblemNotRefunded,
            message: "the job's payment was not refunded since the problem was reported; \
                      refund it first, then resolve with a refund"
                .to_owned(),
        });
    }
    if !job_problems::resolve(&mut tx, id, admin.account_id, (outcome, &note)).await? {
        return Err(anyhow::anyhow!("a locked open problem not resolved").into());
    }
    let before = json!({ "state": current.as_str() });
    let after = json!({
        "state": change.leads_to().as_str(),
        "outcome": outcome.as_str(),
        "note": note,
    });
    audit::record_change(
        &mut *tx,
        admin.account_id,
        "job_problem.resolve",
        ("job_problem", &id.to_string()),
        Some(&before),
        Some(&after),
    )
    .await?;
    let resolved = job_problems::get(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("a problem resolved and not read back"))?;
    let notices = resolved_notices(state, &mut tx, &resolved, outcome).await?;
    outbox::enqueue_many(&mut *tx, &notices).await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok(resolved)
}

/// The emails telling both parties how the problem was closed.
async fn resolved_notices(
    state: &AppState,
    tx: &mut sqlx::PgConnection,
    problem: &ProblemRow,
    outcome: Outcome,
) -> ApiResult<Vec<NewOutboxMessage>> {
    let links = state.config.links();
    let request_id = problem.repair_request_id;
    let parties = [
        (
            AccountKind::Customer,
            problem.customer_id,
            links.customer_request(request_id),
        ),
        (
            AccountKind::Professional,
            problem.professional_id,
            links.view_request(request_id),
        ),
    ];
    let note = problem.resolution_note.as_deref().unwrap_or_default();
    let mut notices = Vec::new();
    for (kind, account_id, link) in parties {
        let Some(party) = account_store::contact(&mut *tx, kind, account_id).await? else {
            continue;
        };
        let told = ProblemResolved {
            service: problem.service_name.of(party.language),
            note,
            refunded: outcome == Outcome::Refund,
            link: link.of(party.language),
        };
        let mail = words::of(party.language).problem_resolved(&party.name, &told);
        notices.push(NewOutboxMessage::email(
            &party.email,
            mail.subject,
            mail.body,
        ));
    }
    Ok(notices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_tokens_read_back() {
        let key = (1, -1_800_000_000_000_000, Uuid::now_v7());
        assert_eq!(decode_token(&encode_token(&key)).unwrap(), Some(key));
        assert!(decode_token("bm9wZQ").is_err());
        assert_eq!(decode_token("").unwrap(), None);
    }
}
