//! MarketplaceService: decode, authorise, call `crate::requests`, encode. Built so far: the
//! repair requests (create, read, change, cancel, complete, the customer's and the admin's
//! lists), the dashboards' counters, the address suggestions and quotes (send,
//! read, withdraw, the request's list, the professional's lists), reviews, the live
//! stream of one request (WatchRepairRequest, `requests::watch`), the photos of the
//! damage (`super::request_photos`), conversations (handed to `super::conversations`) and
//! the problems reported after a job (`super::job_problems`);
//! the other calls answer UNIMPLEMENTED until their rules land.

use repairs_proto::{
    marketplace::{self as pb, marketplace_service_server::MarketplaceService},
    types,
};
use tokio::sync::mpsc;
use tokio_stream::{StreamExt, wrappers::ReceiverStream};
use tonic::{Request, Response, Status, codegen::BoxStream};

use super::conversations;
use super::convert::Reply;
use super::request_view::*;
use super::{
    convert::{Who, caller, caller_session, who},
    quote_view::{quote_to_proto, review_summary_to_proto},
    reply_language::reply_language,
};
use crate::{
    auth::{Caller, stream},
    auth::{access, service::Scope},
    dashboards,
    domain::Language,
    error::{ApiError, ApiResult, parse_id},
    quotes::{self, QuoteForm},
    requests::{self, Location, Viewed},
    reviews::{self, ReviewForm},
    state::AppState,
    store::{page::PageRequest, repair_requests::RepairRequestRow},
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
                repair_request_to_proto(
                    &self.state,
                    &Viewed::new(caller, request, Location::Full),
                    language,
                )
            })
            .collect();
        Ok((requests, next_page_token))
    }

    async fn one(&self, caller: &Caller, viewed: &Viewed) -> ApiResult<pb::RepairRequest> {
        Ok(repair_request_to_proto(
            &self.state,
            viewed,
            self.language_of(caller).await?,
        ))
    }
}

/// Messages a WatchRepairRequest stream may hold before its client reads them.
const WATCH_BUFFER: usize = 8;

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
        let photos = requests::PhotosToFollow::new(message.photos_to_follow)?;
        let created = requests::create(&self.state, caller.account_id, key, &form, photos).await?;
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
        requests::reach::record_open(&self.state, &caller, id);
        let reach = requests::reach::of(&self.state, &caller, &viewed.request).await?;
        Ok(Response::new(pb::GetRepairRequestResponse {
            repair_request: Some(self.one(&caller, &viewed).await?),
            reach: reach.map(reach_to_proto),
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

    async fn release_hire(
        &self,
        request: Request<pb::ReleaseHireRequest>,
    ) -> Reply<pb::ReleaseHireResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let form = crate::hiring::ReleaseForm {
            repair_request_id: parse_id("repair_request_id", &message.repair_request_id)?,
            reason: &message.reason,
            request_id: &message.request_id,
        };
        crate::hiring::release_hire(&self.state, &caller, form).await?;
        // No longer hired, the professional reads it as any who quoted on it: approximately.
        let viewed = requests::get(&self.state, &caller, form.repair_request_id).await?;
        Ok(Response::new(pb::ReleaseHireResponse {
            repair_request: Some(self.one(&caller, &viewed).await?),
        }))
    }

    async fn list_customer_repair_requests(
        &self,
        request: Request<pb::ListCustomerRepairRequestsRequest>,
    ) -> Reply<pb::ListCustomerRepairRequestsResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let customer_id =
            access::own_or_named_by_admin(&caller, "customer_id", &message.customer_id)?;
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
        let who = who(&request)?;
        let message = request.into_inner();
        let state = state_from_proto(message.state)?;
        let service_id = match message.service_id.trim() {
            "" => None,
            raw => Some(parse_id("service_id", raw)?),
        };
        let page = PageRequest::parse(message.page_size, &message.page_token)?;
        if let Who::Service(service) = who {
            access::service_may(&service, Scope::RequestsRead)?;
        }
        let listed = requests::list_all(&self.state.db, state, service_id, &page).await?;
        let (repair_requests, next_page_token) = match who {
            Who::Person(caller) => self.full_list(&caller, listed).await?,
            // A report reads requests as an admin does, in English.
            Who::Service(_) => {
                let (rows, next_page_token) = listed;
                let requests = rows
                    .into_iter()
                    .map(|request| {
                        repair_request_to_proto(
                            &self.state,
                            &Viewed::reported(request),
                            Language::English,
                        )
                    })
                    .collect();
                (requests, next_page_token)
            }
        };
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
        let customer_id =
            access::own_or_given(&caller, "customer_id", &request.get_ref().customer_id)?;
        let counts = dashboards::customer(&self.state.db, customer_id).await?;
        let unread = dashboards::unread_messages(&self.state.db, &caller).await?;
        Ok(Response::new(pb::GetCustomerDashboardResponse {
            requests_posted: count(counts.posted),
            quotes_received: count(counts.quotes_received),
            professionals_hired: count(counts.hired),
            requests_completed: count(counts.completed),
            unread_messages: count(unread),
        }))
    }

    async fn get_professional_dashboard(
        &self,
        request: Request<pb::GetProfessionalDashboardRequest>,
    ) -> Reply<pb::GetProfessionalDashboardResponse> {
        let caller = caller(&request)?;
        let professional_id = access::own_or_given(
            &caller,
            "professional_id",
            &request.get_ref().professional_id,
        )?;
        let dashboard = dashboards::professional(&self.state.db, professional_id).await?;
        let unread = dashboards::unread_messages(&self.state.db, &caller).await?;
        let language = self.language_of(&caller).await?;
        Ok(Response::new(pb::GetProfessionalDashboardResponse {
            requests_received: count(dashboard.received),
            requests_quoted: count(dashboard.counts.quoted),
            requests_hired: count(dashboard.counts.hired),
            requests_completed: count(dashboard.counts.completed),
            latest_repair_requests: dashboard
                .latest
                .iter()
                .map(|viewed| repair_request_to_proto(&self.state, viewed, language))
                .collect(),
            unread_messages: count(unread),
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
        let legacy_form = request.metadata().contains_key(repairs_proto::LEGACY_CALL);
        let message = request.into_inner();
        let form = QuoteForm {
            repair_request_id: parse_id("repair_request_id", &message.repair_request_id)?,
            estimated_minutes: message.estimated_minutes,
            fee: message.fee.map(|fee| (fee.amount_cents, fee.currency)),
            surge: message.surge,
            add_taxes: message.add_taxes,
            arrival_minutes: message.arrival_minutes,
            legacy_form,
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
            repair_request: Some(repair_request_to_proto(&self.state, &viewed, language)),
        }))
    }

    async fn list_professional_repair_requests(
        &self,
        request: Request<pb::ListProfessionalRepairRequestsRequest>,
    ) -> Reply<pb::ListProfessionalRepairRequestsResponse> {
        let caller = caller(&request)?;
        let message = request.into_inner();
        let professional_id =
            access::own_or_named_by_admin(&caller, "professional_id", &message.professional_id)?;
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
                    repair_request: Some(repair_request_to_proto(&self.state, viewed, language)),
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
        let state = self.state.clone();
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
                .map(|update| update_to_proto(&state, &update, language))
                .map_err(Status::from)
        });
        Ok(Response::new(stream::bound(guard, Box::pin(updates))))
    }

    // Conversations: each handled in `super::conversations`.

    async fn send_message(
        &self,
        request: Request<pb::SendMessageRequest>,
    ) -> Reply<pb::SendMessageResponse> {
        conversations::send_message(&self.state, request).await
    }

    async fn add_message_photo(
        &self,
        request: Request<pb::AddMessagePhotoRequest>,
    ) -> Reply<pb::AddMessagePhotoResponse> {
        conversations::add_message_photo(&self.state, request).await
    }

    async fn list_conversations(
        &self,
        request: Request<pb::ListConversationsRequest>,
    ) -> Reply<pb::ListConversationsResponse> {
        conversations::list_conversations(&self.state, request).await
    }

    async fn list_messages(
        &self,
        request: Request<pb::ListMessagesRequest>,
    ) -> Reply<pb::ListMessagesResponse> {
        conversations::list_messages(&self.state, request).await
    }

    async fn mark_conversation_read(
        &self,
        request: Request<pb::MarkConversationReadRequest>,
    ) -> Reply<pb::MarkConversationReadResponse> {
        conversations::mark_conversation_read(&self.state, request).await
    }

    async fn watch_conversation(
        &self,
        request: Request<pb::WatchConversationRequest>,
    ) -> Reply<BoxStream<pb::WatchConversationResponse>> {
        conversations::watch_conversation(&self.state, request).await
    }

    async fn report_conversation(
        &self,
        request: Request<pb::ReportConversationRequest>,
    ) -> Reply<pb::ReportConversationResponse> {
        conversations::report_conversation(&self.state, request).await
    }

    async fn list_conversation_reports(
        &self,
        request: Request<pb::ListConversationReportsRequest>,
    ) -> Reply<pb::ListConversationReportsResponse> {
        conversations::list_conversation_reports(&self.state, request).await
    }

    async fn resolve_conversation_report(
        &self,
        request: Request<pb::ResolveConversationReportRequest>,
    ) -> Reply<pb::ResolveConversationReportResponse> {
        conversations::resolve_conversation_report(&self.state, request).await
    }

    async fn block_professional(
        &self,
        request: Request<pb::BlockProfessionalRequest>,
    ) -> Reply<pb::BlockProfessionalResponse> {
        conversations::block_professional(&self.state, request).await
    }

    async fn unblock_professional(
        &self,
        request: Request<pb::UnblockProfessionalRequest>,
    ) -> Reply<pb::UnblockProfessionalResponse> {
        conversations::unblock_professional(&self.state, request).await
    }

    async fn list_blocked_professionals(
        &self,
        request: Request<pb::ListBlockedProfessionalsRequest>,
    ) -> Reply<pb::ListBlockedProfessionalsResponse> {
        conversations::list_blocked_professionals(&self.state, request).await
    }

    async fn add_repair_request_photo(
        &self,
        request: Request<pb::AddRepairRequestPhotoRequest>,
    ) -> Reply<pb::AddRepairRequestPhotoResponse> {
        super::request_photos::add(&self.state, request).await
    }

    async fn remove_repair_request_photo(
        &self,
        request: Request<pb::RemoveRepairRequestPhotoRequest>,
    ) -> Reply<pb::RemoveRepairRequestPhotoResponse> {
        super::request_photos::remove(&self.state, request).await
    }

    // A problem after the job: each handled in `super::job_problems`.

    async fn report_job_problem(
        &self,
        request: Request<pb::ReportJobProblemRequest>,
    ) -> Reply<pb::ReportJobProblemResponse> {
        super::job_problems::report(&self.state, request).await
    }

    async fn add_job_problem_photo(
        &self,
        request: Request<pb::AddJobProblemPhotoRequest>,
    ) -> Reply<pb::AddJobProblemPhotoResponse> {
        super::job_problems::add_photo(&self.state, request).await
    }

    async fn list_job_problems(
        &self,
        request: Request<pb::ListJobProblemsRequest>,
    ) -> Reply<pb::ListJobProblemsResponse> {
        super::job_problems::list(&self.state, request).await
    }

    async fn get_job_problem(
        &self,
        request: Request<pb::GetJobProblemRequest>,
    ) -> Reply<pb::GetJobProblemResponse> {
        super::job_problems::get(&self.state, request).await
    }

    async fn resolve_job_problem(
        &self,
        request: Request<pb::ResolveJobProblemRequest>,
    ) -> Reply<pb::ResolveJobProblemResponse> {
        super::job_problems::resolve(&self.state, request).await
    }

    async fn suggest_addresses(
        &self,
        request: Request<pb::SuggestAddressesRequest>,
    ) -> Reply<pb::SuggestAddressesResponse> {
        super::addresses::suggest(&self.state, request).await
    }

    async fn geocode_address(
        &self,
        request: Request<pb::GeocodeAddressRequest>,
    ) -> Reply<pb::GeocodeAddressResponse> {
        super::addresses::geocode(&self.state, request).await
    }

    async fn reverse_geocode(
        &self,
        request: Request<pb::ReverseGeocodeRequest>,
    ) -> Reply<pb::ReverseGeocodeResponse> {
        super::addresses::reverse(&self.state, request).await
    }

    async fn start_trip(
        &self,
        request: Request<pb::StartTripRequest>,
    ) -> Reply<pb::StartTripResponse> {
        super::trips::start(&self.state, request).await
    }

    async fn share_trip_position(
        &self,
        request: Request<pb::ShareTripPositionRequest>,
    ) -> Reply<pb::ShareTripPositionResponse> {
        super::trips::share_position(&self.state, request).await
    }

    async fn arrive_at_job(
        &self,
        request: Request<pb::ArriveAtJobRequest>,
    ) -> Reply<pb::ArriveAtJobResponse> {
        super::trips::arrive(&self.state, request).await
    }
}
