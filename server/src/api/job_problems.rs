//! MarketplaceService's problems after the job (ReportJobProblem, AddJobProblemPhoto,
//! ListJobProblems, GetJobProblem, ResolveJobProblem): decode, call `crate::problems`,
//! encode. The role table lets customers report and upload, anyone signed in list and read
//! (the rules keep customers and professionals to their own jobs), admins resolve.

use repairs_proto::{marketplace as pb, types};
use tonic::{Request, Response};

use super::{
    convert::{Reply, caller, client_key, ids, timestamp},
    photo_view::photo_to_proto,
    reply_language::reply_language,
};
use crate::{
    domain::{
        Language,
        job_problem::{Outcome, ProblemState},
    },
    error::{ApiError, ApiResult, parse_id},
    problems::{self, Decision, Report},
    state::AppState,
    store::job_problems::{EventRow, ProblemRow},
};

pub(super) async fn report(
    state: &AppState,
    request: Request<pb::ReportJobProblemRequest>,
) -> Reply<pb::ReportJobProblemResponse> {
    let caller = caller(&request)?;
    let message = request.into_inner();
    let id = parse_id("repair_request_id", &message.repair_request_id)?;
    let form = Report {
        client_key: client_key(&message.request_id, "report")?,
        text: message.text,
        photo_ids: ids("photo_ids", &message.photo_ids)?,
    };
    let problem = problems::report(state, caller.account_id, id, &form).await?;
    let language = language_of(state, &caller).await?;
    Ok(Response::new(pb::ReportJobProblemResponse {
        problem: Some(problem_to_proto(state, &problem, language)),
    }))
}

pub(super) async fn add_photo(
    state: &AppState,
    request: Request<pb::AddJobProblemPhotoRequest>,
) -> Reply<pb::AddJobProblemPhotoResponse> {
    let caller = caller(&request)?;
    let message = request.into_inner();
    let id = parse_id("repair_request_id", &message.repair_request_id)?;
    let photo = problems::add_photo(state, caller.account_id, id, message.content).await?;
    Ok(Response::new(pb::AddJobProblemPhotoResponse {
        photo: Some(photo_to_proto(state, &photo)),
    }))
}

pub(super) async fn list(
    state: &AppState,
    request: Request<pb::ListJobProblemsRequest>,
) -> Reply<pb::ListJobProblemsResponse> {
    let caller = caller(&request)?;
    let message = request.into_inner();
    let filter = match pb::JobProblemState::try_from(message.state) {
        Ok(pb::JobProblemState::Unspecified) => None,
        Ok(pb::JobProblemState::Open) => Some(ProblemState::Open),
        Ok(pb::JobProblemState::Resolved) => Some(ProblemState::Resolved),
        Err(_) => return Err(ApiError::invalid("state", "choose open or resolved").into()),
    };
    let page = (message.page_size, message.page_token.as_str());
    let (rows, next_page_token) = problems::list(state, &caller, filter, page).await?;
    let language = language_of(state, &caller).await?;
    Ok(Response::new(pb::ListJobProblemsResponse {
        problems: rows
            .iter()
            .map(|row| problem_to_proto(state, row, language))
            .collect(),
        next_page_token,
    }))
}

pub(super) async fn get(
    state: &AppState,
    request: Request<pb::GetJobProblemRequest>,
) -> Reply<pb::GetJobProblemResponse> {
    let caller = caller(&request)?;
    let id = parse_id("id", &request.get_ref().id)?;
    let (problem, history) = problems::get(state, &caller, id).await?;
    let language = language_of(state, &caller).await?;
    Ok(Response::new(pb::GetJobProblemResponse {
        problem: Some(problem_to_proto(state, &problem, language)),
        history: history.iter().map(event_to_proto).collect(),
    }))
}

pub(super) async fn resolve(
    state: &AppState,
    request: Request<pb::ResolveJobProblemRequest>,
) -> Reply<pb::ResolveJobProblemResponse> {
    let caller = caller(&request)?;
    let message = request.into_inner();
    let id = parse_id("id", &message.id)?;
    let outcome = match pb::JobProblemOutcome::try_from(message.outcome) {
        Ok(pb::JobProblemOutcome::Note) => Some(Outcome::Note),
        Ok(pb::JobProblemOutcome::Refund) => Some(Outcome::Refund),
        Ok(pb::JobProblemOutcome::Nothing) => Some(Outcome::Nothing),
        Ok(pb::JobProblemOutcome::Unspecified) | Err(_) => None,
    };
    let decision = Decision {
        outcome,
        note: message.note,
    };
    let problem = problems::resolve(state, &caller, id, &decision).await?;
    let language = language_of(state, &caller).await?;
    Ok(Response::new(pb::ResolveJobProblemResponse {
        problem: Some(problem_to_proto(state, &problem, language)),
    }))
}

async fn language_of(state: &AppState, caller: &crate::auth::Caller) -> ApiResult<Language> {
    reply_language(&state.db, caller, types::Language::Unspecified as i32).await
}

fn problem_to_proto(state: &AppState, row: &ProblemRow, language: Language) -> pb::JobProblem {
    let problem_state = match row.state() {
        ProblemState::Open => pb::JobProblemState::Open,
        ProblemState::Resolved => pb::JobProblemState::Resolved,
    };
    let outcome = match row.outcome() {
        None => pb::JobProblemOutcome::Unspecified,
        Some(Outcome::Note) => pb::JobProblemOutcome::Note,
        Some(Outcome::Refund) => pb::JobProblemOutcome::Refund,
        Some(Outcome::Nothing) => pb::JobProblemOutcome::Nothing,
    };
    pb::JobProblem {
        id: row.id.to_string(),
        repair_request_id: row.repair_request_id.to_string(),
        customer_id: row.customer_id.to_string(),
        professional_id: row.professional_id.to_string(),
        professional_name: row.professional_name.clone(),
        customer_name: row.customer_name.clone(),
        service_name: row.service_name.of(language).to_owned(),
        text: row.text.clone(),
        photos: row
            .photos
            .iter()
            .map(|photo| photo_to_proto(state, photo))
            .collect(),
        state: problem_state as i32,
        create_time: Some(timestamp(row.created_at)),
        resolve_time: row.resolved_at.map(timestamp),
        outcome: outcome as i32,
        resolution_note: row.resolution_note.clone().unwrap_or_default(),
    }
}

fn event_to_proto(event: &EventRow) -> pb::JobEvent {
    use pb::JobEventKind as K;
    let kind = match event.kind.as_str() {
        "posted" => K::Posted,
        "quoted" => K::Quoted,
        "hired" => K::Hired,
        "completed" => K::Completed,
        "captured" => K::PaymentCaptured,
        "refunded" => K::Refunded,
        "messages" => K::Messages,
        "problem_reported" => K::ProblemReported,
        "problem_resolved" => K::ProblemResolved,
        _ => K::Unspecified,
    };
    pb::JobEvent {
        kind: kind as i32,
        time: Some(timestamp(event.at)),
        detail: event.detail.clone(),
        amount_cents: event.amount_cents,
        count: i32::try_from(event.count).unwrap_or(i32::MAX),
    }
}
