//! MarketplaceService: decode, authorise, call `crate::requests`, encode. Built so far: the
//! repair requests (create, read, change, cancel, complete, the customer's and the admin's
//! lists), the dashboards' counters, the address suggestions and quotes (send,
//! read, withdraw, the request's list, the professional's lists), reviews and the live
//! stream of one request (WatchRepairRequest, `requests::watch`); the other
//! calls answer UNIMPLEMENTED until their rules land.

use repairs_proto::{
    marketplace::{self as pb, marketplace_service_server::MarketplaceService},
    types,
};
use tokio::sync::mpsc;
use tokio_stream::{StreamExt, wrappers::ReceiverStream};
use tonic::{Request, Response, Status, codegen::BoxStream};

use super::{
    convert::{caller, caller_session, language_to_proto, timestamp},
    quote_view::{quote_to_proto, review_summary_to_proto},
    reply_language::reply_language,
};
use crate::{
    accounts::{parse_id, require_self},
    auth::{Caller, stream},
    dashboards,
    domain::{Language, RepairRequestState, Urgency},
    error::{ApiError, ApiResult},
    quotes::{self, ProfessionalView, QuoteForm},
    requests::{self, CustomerView, DraftForm, Location, Viewed, watch::Update},
    reviews::{self, ReviewForm},
    state::AppState,
    store::{page::PageRequest, repair_requests::RepairRequestRow, reviews::ReviewRow},
};

pub struct MarketplaceApi {
    state: AppState,
}

impl MarketplaceApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    /// The caller's account language, for the service names in replies (admins read English).
    async fn language_of(&self, caller: &Caller) -> ApiResult<Language> {
        reply_language(&self.state.db, caller, types::Language::Unspecified as i32).await
    }

    /// Requests the caller sees in full (their own, or any for an admin), in their language.
    async fn full_list(
        &self,
        caller: &Caller,
        (rows, next_page_token): (Vec<RepairRequestRow>, String),
    ) -> ApiResult<(Vec<pb::RepairRequest>, String)> {
        let language = self.language_of(caller).await?;
        let requests = rows
            .into_iter()
            .map(|request| {
                repair_request_to_proto(&Viewed::new(caller, request, Location::Full), language)
            })
            .collect();
        Ok((requests, next_page_token))
    }

    async fn one(&self, caller: &Caller, viewed: &Viewed) -> ApiResult<pb::RepairRequest> {
        Ok(repair_request_to_proto(
            viewed,
            self.language_of(caller).await?,
        ))
    }
}

type Reply<T> = Result<Response<T>, Status>;

/// Messages a WatchRepairRequest stream may hold before its client reads them.
const WATCH_BUFFER: usize = 8;

fn update_to_proto(update: &Update, language: Language) -> pb::WatchRepairRequestResponse {
    let (viewed, event) = match update {
        Update::Snapshot { viewed, quotes } => (
            viewed,
            pb::watch_repair_request_response::Event::Snapshot(pb::RepairRequestSnapshot {
                repair_request: Some(repair_request_to_proto(viewed, language)),
                quotes: quotes.iter().map(|q| quote_to_proto(q, language)).collect(),
            }),
        ),
        Update::Change { viewed, quote } => (
            viewed,
            pb::watch_repair_request_response::Event::Change(pb::RepairRequestChange {
                repair_request: Some(repair_request_to_proto(viewed, language)),
                quote: quote.as_ref().map(|q| quote_to_proto(q, language)),
            }),
        ),
    };
    pb::WatchRepairRequestResponse {
        revision: viewed.request.revision,
        event: Some(event),
    }
}

/// A database count as the contracts carry it.
fn count(n: i64) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

pub fn urgency_from_proto(value: i32) -> Option<Urgency> {
    match pb::Urgency::try_from(value) {
        Ok(pb::Urgency::Immediate) => Some(Urgency::Immediate),
        Ok(pb::Urgency::CanWait) => Some(Urgency::CanWait),
        _ => None,
    }
}

fn urgency_to_proto(urgency: Urgency) -> pb::Urgency {
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
fn state_from_proto(value: i32) -> ApiResult<Option<RepairRequestState>> {
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

fn draft_form(draft: Option<pb::RepairRequestDraft>) -> DraftForm {
    let draft = draft.unwrap_or_default();
    let address = draft.address.unwrap_or_default();
    DraftForm {
        service_id: draft.service_id,
        description: draft.description,
        urgency: urgency_from_proto(draft.urgency),
        line1: address.line1,
        line2: address.line2,
        city: address.city,
        province: address.province,
        postal_code: address.postal_code,
    }
}

/// A request as its viewer may see it: the street only in the full view. Also used by
/// MatchingService for the open requests of a professional.
pub fn repair_request_to_proto(viewed: &Viewed, language: Language) -> pb::RepairRequest {
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
    }
}

/// The description's translation when it is in `reader`'s language and the description is
/// not; empty otherwise.
fn translation_for(r: &RepairRequestRow, reader: Language) -> String {
    match (&r.description_translation, &r.translation_language) {
        (Some(text), Some(into)) if *into == reader && r.description_language != reader => {
            text.clone()
        }
        _ => String::new(),
    }
}

fn review_to_proto(review: &ReviewRow) -> pb::Review {
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
fn job_contacts(viewed: &Viewed) -> Option<pb::JobContacts> {
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

fn address_of(r: &RepairRequestRow) -> types::Address {
    types::Address {
        line1: r.line1.clone(),
        line2: r.line2.clone(),
        city: r.city.clone(),
        province: r.province.clone(),
        postal_code: r.postal_code.clone(),
        country: "CA".to_owned(),
    }
}

fn customer_view(value: i32) -> Result<CustomerView, Status> {
    match pb::CustomerRepairRequestView::try_from(value) {
        Ok(pb::CustomerRepairRequestView::Pending) => Ok(CustomerView::Pending),
        Ok(pb::CustomerRepairRequestView::Active) => Ok(CustomerView::Active),
        Ok(pb::CustomerRepairRequestView::Completed) => Ok(CustomerView::Completed),
        Ok(pb::CustomerRepairRequestView::All) => Ok(CustomerView::All),
        Ok(pb::CustomerRepairRequestView::WithQuotes) => Ok(CustomerView::WithQuotes),
        _ => Err(ApiError::invalid("view", "choose which requests to list").into()),
    }
}

fn professional_view(value: i32) -> ApiResult<ProfessionalView> {
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

/// The address field's autocomplete bounds: queries up to 100 characters, up to 20 answers.
const MAX_QUERY_CHARS: usize = 100;
const MAX_SUGGESTIONS: i32 = 20;
const DEFAULT_SUGGESTIONS: i32 = 10;

fn suggestion_to_proto(s: crate::providers::Suggestion) -> pb::AddressSuggestion {
    use crate::providers::SuggestionKind as K;
    let kind = match s.kind {
        K::PostalCode => pb::AddressSuggestionKind::PostalCode,
        K::PostalArea => pb::AddressSuggestionKind::PostalArea,
        K::Place => pb::AddressSuggestionKind::Place,
    };
    pb::AddressSuggestion {
        kind: kind as i32,
        display_name: s.display_name,
        postal_code: s.postal_code,
        city: s.city,
        province: s.province,
    }
}

#[tonic::async_trait]
impl MarketplaceService for MarketplaceApi {
    async fn create_repair_request(
        &self,
        request: Request<pb::CreateRepairRequestRequest>,
    ) -> Reply<pb::CreateRepairRequestResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let key = uuid::Uuid::parse_str(message.request_id.trim()).map_err(|_| {
            ApiError::invalid(
                "request_id",
                "send a request id (a UUID made once per request placed)",
            )
        })?;
        let form = draft_form(message.draft);
        let created = requests::create(&self.state, caller.account_id, key, &form).await?;
        let repair_request = self
            .one(&caller, &Viewed::new(&caller, created, Location::Full))
            .await?;
        Ok(Response::new(pb::CreateRepairRequestResponse {
            repair_request: Some(repair_request),
        }))
    }

    async fn get_repair_request(
        &self,
        request: Request<pb::GetRepairRequestRequest>,
    ) -> Reply<pb::GetRepairRequestResponse> {
        let caller = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        let viewed = requests::get(&self.state, &caller, id).await?;
        Ok(Response::new(pb::GetRepairRequestResponse {
            repair_request: Some(self.one(&caller, &viewed).await?),
        }))
    }

    async fn update_repair_request(
        &self,
        request: Request<pb::UpdateRepairRequestRequest>,
    ) -> Reply<pb::UpdateRepairRequestResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let id = parse_id("id", &message.id)?;
        let form = draft_form(message.draft);
        let updated = requests::update(&self.state, caller.account_id, id, &form).await?;
        let viewed = Viewed::new(&caller, updated, Location::Full);
        Ok(Response::new(pb::UpdateRepairRequestResponse {
            repair_request: Some(self.one(&caller, &viewed).await?),
        }))
    }

    async fn cancel_repair_request(
        &self,
        request: Request<pb::CancelRepairRequestRequest>,
    ) -> Reply<pb::CancelRepairRequestResponse> {
        let caller = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        let cancelled = crate::hiring::cancel(&self.state, caller.account_id, id).await?;
        let viewed = Viewed::new(&caller, cancelled, Location::Full);
        Ok(Response::new(pb::CancelRepairRequestResponse {
            repair_request: Some(self.one(&caller, &viewed).await?),
        }))
    }

    async fn complete_repair_request(
        &self,
        request: Request<pb::CompleteRepairRequestRequest>,
    ) -> Reply<pb::CompleteRepairRequestResponse> {
        let caller = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        let completed = crate::hiring::complete(&self.state, caller.account_id, id).await?;
        let viewed = Viewed::new(&caller, completed, Location::Full);
        Ok(Response::new(pb::CompleteRepairRequestResponse {
            repair_request: Some(self.one(&caller, &viewed).await?),
        }))
    }

    async fn list_customer_repair_requests(
        &self,
        request: Request<pb::ListCustomerRepairRequestsRequest>,
    ) -> Reply<pb::ListCustomerRepairRequestsResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let customer_id = parse_id("customer_id", &message.customer_id)?;
        require_self(&caller, customer_id, true)?;
        let view = customer_view(message.view)?;
        let page = PageRequest::parse(message.page_size, &message.page_token)?;
        let listed = requests::list_for_customer(&self.state.db, customer_id, view, &page).await?;
        let (repair_requests, next_page_token) = self.full_list(&caller, listed).await?;
        Ok(Response::new(pb::ListCustomerRepairRequestsResponse {
            repair_requests,
            next_page_token,
        }))
    }

    async fn list_repair_requests(
        &self,
        request: Request<pb::ListRepairRequestsRequest>,
    ) -> Reply<pb::ListRepairRequestsResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let state = state_from_proto(message.state)?;
        let service_id = match message.service_id.trim() {
            "" => None,
            raw => Some(parse_id("service_id", raw)?),
        };
        let page = PageRequest::parse(message.page_size, &message.page_token)?;
        let listed = requests::list_all(&self.state.db, state, service_id, &page).await?;
        let (repair_requests, next_page_token) = self.full_list(&caller, listed).await?;
        Ok(Response::new(pb::ListRepairRequestsResponse {
            repair_requests,
            next_page_token,
        }))
    }

    async fn get_customer_dashboard(
        &self,
        request: Request<pb::GetCustomerDashboardRequest>,
    ) -> Reply<pb::GetCustomerDashboardResponse> {
        let caller = caller(&request)?;
        let customer_id = parse_id("customer_id", &request.get_ref().customer_id)?;
        require_self(&caller, customer_id, false)?;
        let counts = dashboards::customer(&self.state.db, customer_id).await?;
        Ok(Response::new(pb::GetCustomerDashboardResponse {
            requests_posted: count(counts.posted),
            quotes_received: count(counts.quotes_received),
            professionals_hired: count(counts.hired),
            requests_completed: count(counts.completed),
        }))
    }

    async fn get_professional_dashboard(
        &self,
        request: Request<pb::GetProfessionalDashboardRequest>,
    ) -> Reply<pb::GetProfessionalDashboardResponse> {
        let caller = caller(&request)?;
        let professional_id = parse_id("professional_id", &request.get_ref().professional_id)?;
        require_self(&caller, professional_id, false)?;
        let dashboard = dashboards::professional(&self.state.db, professional_id).await?;
        let language = self.language_of(&caller).await?;
        Ok(Response::new(pb::GetProfessionalDashboardResponse {
            requests_received: count(dashboard.received),
            requests_quoted: count(dashboard.counts.quoted),
            requests_hired: count(dashboard.counts.hired),
            requests_completed: count(dashboard.counts.completed),
            latest_repair_requests: dashboard
                .latest
                .iter()
                .map(|viewed| repair_request_to_proto(viewed, language))
                .collect(),
        }))
    }

    async fn create_review(
        &self,
        request: Request<pb::CreateReviewRequest>,
    ) -> Reply<pb::CreateReviewResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let form = ReviewForm {
            repair_request_id: parse_id("repair_request_id", &message.repair_request_id)?,
            rating: message.rating,
            text: message.text,
        };
        let review = reviews::create(&self.state, caller.account_id, &form).await?;
        Ok(Response::new(pb::CreateReviewResponse {
            review: Some(review_to_proto(&review)),
        }))
    }

    async fn get_repair_request_review(
        &self,
        request: Request<pb::GetRepairRequestReviewRequest>,
    ) -> Reply<pb::GetRepairRequestReviewResponse> {
        let caller = caller(&request)?;
        let id = parse_id("repair_request_id", &request.get_ref().repair_request_id)?;
        let review = reviews::for_request(&self.state, &caller, id).await?;
        Ok(Response::new(pb::GetRepairRequestReviewResponse {
            review: review.as_ref().map(review_to_proto),
        }))
    }

    async fn list_professional_reviews(
        &self,
        request: Request<pb::ListProfessionalReviewsRequest>,
    ) -> Reply<pb::ListProfessionalReviewsResponse> {
        let message = request.into_inner();
        let professional_id = parse_id("professional_id", &message.professional_id)?;
        let page = PageRequest::parse(message.page_size, &message.page_token)?;
        let (rows, next_page_token, summary) =
            reviews::list_for_professional(&self.state, professional_id, &page).await?;
        Ok(Response::new(pb::ListProfessionalReviewsResponse {
            reviews: rows.iter().map(review_to_proto).collect(),
            next_page_token,
            summary: Some(review_summary_to_proto(&summary)),
        }))
    }

    async fn create_quote(
        &self,
        request: Request<pb::CreateQuoteRequest>,
    ) -> Reply<pb::CreateQuoteResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let form = QuoteForm {
            repair_request_id: parse_id("repair_request_id", &message.repair_request_id)?,
            estimated_minutes: message.estimated_minutes,
            fee: message.fee.map(|fee| (fee.amount_cents, fee.currency)),
            surge: message.surge,
        };
        let quote = quotes::create(&self.state, caller.account_id, form).await?;
        let language = self.language_of(&caller).await?;
        Ok(Response::new(pb::CreateQuoteResponse {
            quote: Some(quote_to_proto(&quote, language)),
        }))
    }

    async fn get_quote(
        &self,
        request: Request<pb::GetQuoteRequest>,
    ) -> Reply<pb::GetQuoteResponse> {
        let caller = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        let (quote, viewed) = quotes::get(&self.state, &caller, id).await?;
        let language = self.language_of(&caller).await?;
        Ok(Response::new(pb::GetQuoteResponse {
            quote: Some(quote_to_proto(&quote, language)),
            repair_request: Some(repair_request_to_proto(&viewed, language)),
        }))
    }

    async fn list_professional_repair_requests(
        &self,
        request: Request<pb::ListProfessionalRepairRequestsRequest>,
    ) -> Reply<pb::ListProfessionalRepairRequestsResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let professional_id = parse_id("professional_id", &message.professional_id)?;
        require_self(&caller, professional_id, true)?;
        let view = professional_view(message.view)?;
        let page = PageRequest::parse(message.page_size, &message.page_token)?;
        let (listed, next_page_token) =
            quotes::list_for_professional(&self.state, &caller, professional_id, view, &page)
                .await?;
        let language = self.language_of(&caller).await?;
        Ok(Response::new(pb::ListProfessionalRepairRequestsResponse {
            repair_requests: listed
                .iter()
                .map(|(quote, viewed)| pb::QuotedRepairRequest {
                    repair_request: Some(repair_request_to_proto(viewed, language)),
                    quote: Some(quote_to_proto(quote, language)),
                })
                .collect(),
            next_page_token,
        }))
    }

    async fn withdraw_quote(
        &self,
        request: Request<pb::WithdrawQuoteRequest>,
    ) -> Reply<pb::WithdrawQuoteResponse> {
        let caller = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        let quote = quotes::withdraw(&self.state, caller.account_id, id).await?;
        let language = self.language_of(&caller).await?;
        Ok(Response::new(pb::WithdrawQuoteResponse {
            quote: Some(quote_to_proto(&quote, language)),
        }))
    }

    async fn list_repair_request_quotes(
        &self,
        request: Request<pb::ListRepairRequestQuotesRequest>,
    ) -> Reply<pb::ListRepairRequestQuotesResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let id = parse_id("repair_request_id", &message.repair_request_id)?;
        let page = PageRequest::parse(message.page_size, &message.page_token)?;
        let (rows, next_page_token) =
            quotes::list_for_request(&self.state, &caller, id, &page).await?;
        let language = self.language_of(&caller).await?;
        Ok(Response::new(pb::ListRepairRequestQuotesResponse {
            quotes: rows
                .iter()
                .map(|quote| quote_to_proto(quote, language))
                .collect(),
            next_page_token,
        }))
    }

    async fn watch_repair_request(
        &self,
        request: Request<pb::WatchRepairRequestRequest>,
    ) -> Reply<BoxStream<pb::WatchRepairRequestResponse>> {
        let caller = caller(&request)?;
        let guard = stream::Guard::new(self.state.sessions.clone(), caller_session(&request)?);
        let message = request.into_inner();
        let id = parse_id("id", &message.id)?;
        let (first, subscription) = requests::watch::open(&self.state, &caller, id).await?;
        let language = self.language_of(&caller).await?;
        let (sender, receiver) = mpsc::channel(WATCH_BUFFER);
        tokio::spawn(requests::watch::run(
            self.state.clone(),
            caller,
            message.revision,
            first,
            subscription,
            sender,
        ));
        let updates = ReceiverStream::new(receiver).map(move |update| {
            update
                .map(|update| update_to_proto(&update, language))
                .map_err(Status::from)
        });
        Ok(Response::new(stream::bound(guard, Box::pin(updates))))
    }

    async fn suggest_addresses(
        &self,
        request: Request<pb::SuggestAddressesRequest>,
    ) -> Reply<pb::SuggestAddressesResponse> {
        let message = request.into_inner();
        if message.query.chars().count() > MAX_QUERY_CHARS {
            return Err(ApiError::invalid(
                "query",
                "type at most 100 characters to look an address up",
            )
            .into());
        }
        let province = match message.province.trim() {
            "" => None,
            given => Some(
                crate::domain::professional::parse_province(given)
                    .map_err(|e| ApiError::invalid("province", e))?,
            ),
        };
        let limit = match message.page_size {
            0 => DEFAULT_SUGGESTIONS,
            n if (1..=MAX_SUGGESTIONS).contains(&n) => n,
            _ => {
                return Err(ApiError::invalid("page_size", "ask for 1 to 20 suggestions").into());
            }
        };
        let found = self
            .state
            .geocoder
            .suggest(
                message.query.trim(),
                province.as_deref(),
                usize::try_from(limit).unwrap_or(10),
            )
            .await
            .map_err(ApiError::from)?;
        Ok(Response::new(pb::SuggestAddressesResponse {
            suggestions: found.into_iter().map(suggestion_to_proto).collect(),
        }))
    }
}
