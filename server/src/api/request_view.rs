//! Repair requests, reviews and address suggestions as the marketplace contract carries
//! them, and the contract's enums read back.

use repairs_proto::{
    marketplace::{self as pb},
    types,
};
use tonic::Status;

use super::{
    convert::{address_form, language_to_proto, timestamp},
    photo_view::photo_to_proto,
    quote_view::quote_to_proto,
    trip_view::trip_to_proto,
};
use crate::{
    domain::{
        Language, RepairRequestState, Urgency, customer_release_from, job_problem::report_deadline,
    },
    error::{ApiError, ApiResult},
    quotes::ProfessionalView,
    requests::{CustomerView, DraftForm, Location, Viewed, reach::ReachCounts, watch::Update},
    state::AppState,
    store::{repair_requests::RepairRequestRow, reviews::ReviewRow},
};

pub(super) fn update_to_proto(
    state: &AppState,
    update: &Update,
    language: Language,
) -> pb::WatchRepairRequestResponse {
    use pb::watch_repair_request_response::Event;
    let event = match update {
        Update::Snapshot {
            viewed,
            quotes,
            reach,
        } => Event::Snapshot(pb::RepairRequestSnapshot {
            repair_request: Some(repair_request_to_proto(state, viewed, language)),
            quotes: quotes.iter().map(|q| quote_to_proto(q, language)).collect(),
            reach: reach.map(reach_to_proto),
        }),
        Update::Change { viewed, quote } => Event::Change(pb::RepairRequestChange {
            repair_request: Some(repair_request_to_proto(state, viewed, language)),
            quote: quote.as_ref().map(|q| quote_to_proto(q, language)),
        }),
        Update::Reach { reach, .. } => Event::Reach(reach_to_proto(*reach)),
    };
    pb::WatchRepairRequestResponse {
        revision: update.revision(),
        event: Some(event),
    }
}

pub(super) fn reach_to_proto(reach: ReachCounts) -> pb::RepairRequestReach {
    pb::RepairRequestReach {
        professionals_alerted: count(reach.alerted),
        professionals_opened: count(reach.opened),
    }
}

/// A database count as the contracts carry it.
pub(super) fn count(n: i64) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

pub fn urgency_from_proto(value: i32) -> Option<Urgency> {
    match pb::Urgency::try_from(value) {
        Ok(pb::Urgency::Immediate) => Some(Urgency::Immediate),
        Ok(pb::Urgency::CanWait) => Some(Urgency::CanWait),
        _ => None,
    }
}

pub(super) fn urgency_to_proto(urgency: Urgency) -> pb::Urgency {
    match urgency {
        Urgency::Immediate => pb::Urgency::Immediate,
        Urgency::CanWait => pb::Urgency::CanWait,
    }
}

pub fn state_to_proto(state: RepairRequestState) -> pb::RepairRequestState {
    match state {
        RepairRequestState::Open => pb::RepairRequestState::Open,
        RepairRequestState::Hired => pb::RepairRequestState::Hired,
        RepairRequestState::Completed => pb::RepairRequestState::Completed,
        RepairRequestState::Cancelled => pb::RepairRequestState::Cancelled,
        RepairRequestState::Expired => pb::RepairRequestState::Expired,
        RepairRequestState::PendingPayment => pb::RepairRequestState::PendingPayment,
    }
}

/// `None` for REPAIR_REQUEST_STATE_UNSPECIFIED (every state).
pub(super) fn state_from_proto(value: i32) -> ApiResult<Option<RepairRequestState>> {
    Ok(match pb::RepairRequestState::try_from(value) {
        Ok(pb::RepairRequestState::Unspecified) => None,
        Ok(pb::RepairRequestState::Open) => Some(RepairRequestState::Open),
        Ok(pb::RepairRequestState::Hired) => Some(RepairRequestState::Hired),
        Ok(pb::RepairRequestState::Completed) => Some(RepairRequestState::Completed),
        Ok(pb::RepairRequestState::Cancelled) => Some(RepairRequestState::Cancelled),
        Ok(pb::RepairRequestState::Expired) => Some(RepairRequestState::Expired),
        Ok(pb::RepairRequestState::PendingPayment) => Some(RepairRequestState::PendingPayment),
        Err(_) => return Err(ApiError::invalid("state", "choose a request state")),
    })
}

pub(super) fn draft_form(draft: Option<pb::RepairRequestDraft>) -> DraftForm {
    let draft = draft.unwrap_or_default();
    DraftForm {
        service_id: draft.service_id,
        description: draft.description,
        urgency: urgency_from_proto(draft.urgency),
        address: address_form(draft.address.unwrap_or_default()),
    }
}

/// A request as its viewer may see it: the street only in the full view, and its photos
/// (whoever may see a request sees them). Also used by MatchingService for the open
/// requests of a professional.
pub fn repair_request_to_proto(
    state: &AppState,
    viewed: &Viewed,
    language: Language,
) -> pb::RepairRequest {
    let r = &viewed.request;
    // Before the hire a professional learns neither the street nor who the customer is.
    let customer_id = match viewed.location {
        Location::Full => r.customer_id.to_string(),
        Location::Approximate(_) => String::new(),
    };
    let location = match viewed.location {
        Location::Full => pb::repair_request::Location::Address(address_of(r)),
        Location::Approximate(distance) => {
            pb::repair_request::Location::ApproximateLocation(pb::ApproximateLocation {
                city: r.city.clone(),
                province: r.province.clone(),
                postal_area: r.postal_code.chars().take(3).collect(),
                distance_km: distance.whole_km(),
            })
        }
    };
    let closed = matches!(
        r.state(),
        RepairRequestState::Cancelled | RepairRequestState::Expired
    );
    pb::RepairRequest {
        id: r.id.to_string(),
        customer_id,
        service_id: r.service_id.to_string(),
        service_name: r.service_name.of(language).to_owned(),
        description: r.description.clone(),
        urgency: urgency_to_proto(r.urgency()) as i32,
        location: Some(location),
        state: state_to_proto(r.state()) as i32,
        quote_count: i32::try_from(r.quote_count).unwrap_or(i32::MAX),
        hired_quote_id: r
            .hired_application_id
            .map(|id| id.to_string())
            .unwrap_or_default(),
        hired_professional_id: r
            .hired_professional_id
            .map(|id| id.to_string())
            .unwrap_or_default(),
        hired_professional_name: r.hired_professional_name.clone().unwrap_or_default(),
        hire_time: r.hired_at.map(timestamp),
        complete_time: r.completed_at.map(timestamp),
        reviewed: r.reviewed,
        pending_payment_id: match viewed.location {
            Location::Full => r.pending_payment_id.map(|id| id.to_string()),
            Location::Approximate(_) => None,
        }
        .unwrap_or_default(),
        contacts: job_contacts(viewed),
        create_time: Some(timestamp(r.created_at)),
        update_time: Some(timestamp(r.updated_at)),
        expire_time: Some(timestamp(r.expires_at)),
        close_time: r.closed_at.filter(|_| closed).map(timestamp),
        description_language: language_to_proto(r.description_language) as i32,
        description_translation: translation_for(r, language),
        photos: r
            .photos
            .iter()
            .map(|photo| photo_to_proto(state, photo))
            .collect(),
        customer_release_time: match (r.state(), viewed.location) {
            (RepairRequestState::Hired, Location::Full) => r
                .hired_at
                .map(|hired| timestamp(customer_release_from(hired))),
            _ => None,
        },
        open_problem: open_problem_of(viewed),
        trip: match viewed.location {
            Location::Full => r.trip.as_ref().map(|trip| trip_to_proto(trip, viewed)),
            Location::Approximate(_) => None,
        },
        problem_report_deadline: match viewed.location {
            Location::Full if r.state() == RepairRequestState::Completed => {
                r.completed_at.map(|done| timestamp(report_deadline(done)))
            }
            _ => None,
        },
    }
}

/// The open problem of a job, for its customer, its hired professional and admins (those
/// who see the full request): its id, text, state and time; GetJobProblem has the rest.
fn open_problem_of(viewed: &Viewed) -> Option<pb::JobProblem> {
    let r = &viewed.request;
    let (Location::Full, Some(id), Some(at)) =
        (&viewed.location, r.open_problem_id, r.open_problem_at)
    else {
        return None;
    };
    Some(pb::JobProblem {
        id: id.to_string(),
        repair_request_id: r.id.to_string(),
        customer_id: r.customer_id.to_string(),
        professional_id: r
            .hired_professional_id
            .map(|id| id.to_string())
            .unwrap_or_default(),
        professional_name: r.hired_professional_name.clone().unwrap_or_default(),
        customer_name: r.customer_name.clone(),
        text: r.open_problem_text.clone().unwrap_or_default(),
        state: pb::JobProblemState::Open as i32,
        create_time: Some(timestamp(at)),
        ..Default::default()
    })
}

/// The description's translation when it is in `reader`'s language and the description is
/// not; empty otherwise.
pub(super) fn translation_for(r: &RepairRequestRow, reader: Language) -> String {
    match (&r.description_translation, &r.translation_language) {
        (Some(text), Some(into)) if *into == reader && r.description_language != reader => {
            text.clone()
        }
        _ => String::new(),
    }
}

pub(super) fn review_to_proto(review: &ReviewRow) -> pb::Review {
    pb::Review {
        id: review.id.to_string(),
        repair_request_id: review.repair_request_id.to_string(),
        customer_id: review.customer_id.to_string(),
        customer_name: review.customer_name.clone(),
        customer_deleted: review.customer_deleted,
        professional_id: review.professional_id.to_string(),
        rating: i32::from(review.rating),
        text: review.body.clone(),
        create_time: Some(timestamp(review.created_at)),
    }
}

/// Both parties and the address, for the customer, admins and the hired professional (the
/// full view) once a professional is hired.
pub(super) fn job_contacts(viewed: &Viewed) -> Option<pb::JobContacts> {
    let r = &viewed.request;
    let professional_id = r.hired_professional_id?;
    if !matches!(viewed.location, Location::Full) {
        return None;
    }
    Some(pb::JobContacts {
        customer: Some(pb::PartyContact {
            id: r.customer_id.to_string(),
            name: r.customer_name.clone(),
            email: r.customer_email.clone(),
            phone: r.customer_phone.clone().unwrap_or_default(),
        }),
        professional: Some(pb::PartyContact {
            id: professional_id.to_string(),
            name: r.hired_professional_name.clone().unwrap_or_default(),
            email: r.hired_professional_email.clone().unwrap_or_default(),
            phone: r.hired_professional_phone.clone().unwrap_or_default(),
        }),
        address: Some(address_of(r)),
    })
}

pub(super) fn address_of(r: &RepairRequestRow) -> types::Address {
    types::Address {
        line1: r.line1.clone(),
        line2: r.line2.clone(),
        city: r.city.clone(),
        province: r.province.clone(),
        postal_code: r.postal_code.clone(),
        country: "CA".to_owned(),
    }
}

pub(super) fn customer_view(value: i32) -> Result<CustomerView, Status> {
    match pb::CustomerRepairRequestView::try_from(value) {
        Ok(pb::CustomerRepairRequestView::Pending) => Ok(CustomerView::Pending),
        Ok(pb::CustomerRepairRequestView::Active) => Ok(CustomerView::Active),
        Ok(pb::CustomerRepairRequestView::Completed) => Ok(CustomerView::Completed),
        Ok(pb::CustomerRepairRequestView::All) => Ok(CustomerView::All),
        Ok(pb::CustomerRepairRequestView::WithQuotes) => Ok(CustomerView::WithQuotes),
        _ => Err(ApiError::invalid("view", "choose which requests to list").into()),
    }
}

pub(super) fn professional_view(value: i32) -> ApiResult<ProfessionalView> {
    use pb::ProfessionalRepairRequestView as V;
    match V::try_from(value) {
        Ok(V::Applied) => Ok(ProfessionalView::Applied),
        Ok(V::Active) => Ok(ProfessionalView::Active),
        Ok(V::Completed) => Ok(ProfessionalView::Completed),
        Ok(V::Lost) => Ok(ProfessionalView::Lost),
        Ok(V::All) => Ok(ProfessionalView::All),
        _ => Err(ApiError::invalid("view", "choose which requests to list")),
    }
}
