//! MarketplaceService's conversations: decode, find the conversation and where the caller
//! stands in it (`conversations::place`), call the rules, encode. The service's impl
//! (`super::marketplace`) hands each of these RPCs here.

use repairs_proto::{marketplace as pb, types};
use tokio::sync::mpsc;
use tokio_stream::{StreamExt, wrappers::ReceiverStream};
use tonic::{Request, Response, Status, codegen::BoxStream};

use super::{
    conversation_view::{
        blocked_to_proto, conversation_to_proto, event_to_proto, message_to_proto,
        report_reason_from_proto, report_to_proto,
    },
    convert::{Reply, caller, caller_session, client_key, ids},
    photo_view::photo_to_proto,
    reply_language::reply_language,
    request_view::count,
};
use crate::{
    auth::{Caller, stream},
    conversations::{
        blocks, photos, place,
        read::{self, with_last_messages},
        reports,
        seen::{self, Reader},
        send::{self, Outgoing},
        watch,
    },
    domain::Language,
    error::{ApiError, ApiResult, parse_id},
    state::AppState,
    store::page::PageRequest,
};

/// Messages a WatchConversation stream may hold before its client reads them.
const WATCH_BUFFER: usize = 16;

async fn language_of(state: &AppState, caller: &Caller) -> ApiResult<Language> {
    reply_language(&state.db, caller, types::Language::Unspecified as i32).await
}

/// A request that names a conversation by its request and professional fields.
trait NamesConversation {
    fn names(&self) -> (&str, &str);
}

macro_rules! names_conversation {
    ($($request:ty),* $(,)?) => {
        $(impl NamesConversation for $request {
            fn names(&self) -> (&str, &str) {
                (&self.repair_request_id, &self.professional_id)
            }
        })*
    };
}

names_conversation!(
    pb::SendMessageRequest,
    pb::AddMessagePhotoRequest,
    pb::ListMessagesRequest,
    pb::MarkConversationReadRequest,
    pb::WatchConversationRequest,
    pb::ReportConversationRequest,
);

/// The caller, the conversation `request` names (and where the caller stands in it), and
/// the request's message.
async fn named<T: NamesConversation>(
    state: &AppState,
    request: Request<T>,
) -> ApiResult<(Caller, place::Place, T)> {
    let caller = caller(&request)?;
    let message = request.into_inner();
    let (repair_request_id, professional_id) = message.names();
    let repair_request_id = parse_id("repair_request_id", repair_request_id)?;
    let at = place::locate(state, &caller, repair_request_id, professional_id).await?;
    Ok((caller, at, message))
}

/// The customer calling and the professional `raw` names.
fn customer_and_professional<T>(
    request: &Request<T>,
    raw: &str,
) -> ApiResult<(Caller, uuid::Uuid)> {
    Ok((caller(request)?, parse_id("professional_id", raw)?))
}

pub async fn send_message(
    state: &AppState,
    request: Request<pb::SendMessageRequest>,
) -> Reply<pb::SendMessageResponse> {
    let (caller, at, message) = named(state, request).await?;
    let client_key = client_key(&message.request_id, "message")?;
    let photo_ids = ids("photo_ids", &message.photo_ids)?;
    let outgoing = Outgoing {
        client_key,
        text: message.text,
        photo_ids,
    };
    let sent = send::send(state, &caller, &at, &outgoing).await?;
    let language = language_of(state, &caller).await?;
    let reader = Reader {
        side: at.side,
        language,
    };
    let seen_message = seen::message(&sent.message, reader, seen::shared(&sent.conversation));
    let conversation = with_last_messages(state, vec![sent.conversation], reader)
        .await?
        .pop();
    Ok(Response::new(pb::SendMessageResponse {
        message: Some(message_to_proto(state, &seen_message)),
        conversation: conversation.map(|c| conversation_to_proto(state, &c, language)),
    }))
}

pub async fn add_message_photo(
    state: &AppState,
    request: Request<pb::AddMessagePhotoRequest>,
) -> Reply<pb::AddMessagePhotoResponse> {
    let (_, at, message) = named(state, request).await?;
    let photo = photos::upload(state, &at, message.content).await?;
    Ok(Response::new(pb::AddMessagePhotoResponse {
        photo: Some(photo_to_proto(state, &photo)),
    }))
}

pub async fn list_conversations(
    state: &AppState,
    request: Request<pb::ListConversationsRequest>,
) -> Reply<pb::ListConversationsResponse> {
    let caller = caller(&request)?;
    let message = request.into_inner();
    let repair_request_id = match message.repair_request_id.trim() {
        "" => None,
        raw => Some(parse_id("repair_request_id", raw)?),
    };
    let page = PageRequest::parse(message.page_size, &message.page_token)?;
    let language = language_of(state, &caller).await?;
    let listed =
        read::list_conversations(state, &caller, repair_request_id, &page, language).await?;
    Ok(Response::new(pb::ListConversationsResponse {
        conversations: listed
            .conversations
            .iter()
            .map(|c| conversation_to_proto(state, c, language))
            .collect(),
        next_page_token: listed.next_page_token,
        unread_total: count(listed.unread_total),
    }))
}

pub async fn list_messages(
    state: &AppState,
    request: Request<pb::ListMessagesRequest>,
) -> Reply<pb::ListMessagesResponse> {
    let (caller, at, message) = named(state, request).await?;
    let language = language_of(state, &caller).await?;
    let page = (message.page_size, message.page_token.as_str());
    let listed = read::list_messages(state, &caller, &at, page, language).await?;
    Ok(Response::new(pb::ListMessagesResponse {
        conversation: listed
            .conversation
            .as_ref()
            .map(|c| conversation_to_proto(state, c, language)),
        messages: listed
            .messages
            .iter()
            .map(|m| message_to_proto(state, m))
            .collect(),
        next_page_token: listed.next_page_token,
    }))
}

pub async fn mark_conversation_read(
    state: &AppState,
    request: Request<pb::MarkConversationReadRequest>,
) -> Reply<pb::MarkConversationReadResponse> {
    let (caller, at, message) = named(state, request).await?;
    let unread = read::mark_read(state, &caller, &at, message.sequence).await?;
    Ok(Response::new(pb::MarkConversationReadResponse {
        unread_count: unread.conversation,
        unread_total: count(unread.total),
    }))
}

pub async fn watch_conversation(
    state: &AppState,
    request: Request<pb::WatchConversationRequest>,
) -> Reply<BoxStream<pb::WatchConversationResponse>> {
    let guard = stream::Guard::new(state.sessions.clone(), caller_session(&request)?);
    if request.get_ref().after_sequence < 0 {
        return Err(ApiError::invalid(
            "after_sequence",
            "give the last sequence seen, or 0 for a first watch",
        )
        .into());
    }
    let (caller, at, message) = named(state, request).await?;
    let language = language_of(state, &caller).await?;
    let opened = watch::open(state, &caller, at)?;
    let (sender, receiver) = mpsc::channel(WATCH_BUFFER);
    tokio::spawn(crate::store::transaction::tracked(watch::run(
        state.clone(),
        caller,
        opened,
        (message.after_sequence, language),
        sender,
    )));
    let state = state.clone();
    let events = ReceiverStream::new(receiver).map(move |event| {
        event
            .map(|e| event_to_proto(&state, &e))
            .map_err(Status::from)
    });
    Ok(Response::new(stream::bound(guard, Box::pin(events))))
}

pub async fn report_conversation(
    state: &AppState,
    request: Request<pb::ReportConversationRequest>,
) -> Reply<pb::ReportConversationResponse> {
    let (caller, at, message) = named(state, request).await?;
    let language = language_of(state, &caller).await?;
    let reason = report_reason_from_proto(message.reason);
    let report = reports::report(state, &at, reason, &message.details, language).await?;
    Ok(Response::new(pb::ReportConversationResponse {
        report: Some(report_to_proto(state, &report, language)),
    }))
}

pub async fn list_conversation_reports(
    state: &AppState,
    request: Request<pb::ListConversationReportsRequest>,
) -> Reply<pb::ListConversationReportsResponse> {
    let message = request.into_inner();
    let page = (message.page_size, message.page_token.as_str());
    let (listed, next_page_token) = reports::queue(state, message.include_resolved, page).await?;
    Ok(Response::new(pb::ListConversationReportsResponse {
        reports: listed
            .iter()
            .map(|r| report_to_proto(state, r, Language::English))
            .collect(),
        next_page_token,
    }))
}

pub async fn resolve_conversation_report(
    state: &AppState,
    request: Request<pb::ResolveConversationReportRequest>,
) -> Reply<pb::ResolveConversationReportResponse> {
    let caller = caller(&request)?;
    let message = request.into_inner();
    let id = parse_id("report_id", &message.report_id)?;
    let report = reports::resolve(state, &caller, id, &message.resolution_note).await?;
    Ok(Response::new(pb::ResolveConversationReportResponse {
        report: Some(report_to_proto(state, &report, Language::English)),
    }))
}

pub async fn block_professional(
    state: &AppState,
    request: Request<pb::BlockProfessionalRequest>,
) -> Reply<pb::BlockProfessionalResponse> {
    let (caller, id) = customer_and_professional(&request, &request.get_ref().professional_id)?;
    blocks::block(state, caller.account_id, id).await?;
    Ok(Response::new(pb::BlockProfessionalResponse {}))
}

pub async fn unblock_professional(
    state: &AppState,
    request: Request<pb::UnblockProfessionalRequest>,
) -> Reply<pb::UnblockProfessionalResponse> {
    let (caller, id) = customer_and_professional(&request, &request.get_ref().professional_id)?;
    blocks::unblock(state, caller.account_id, id).await?;
    Ok(Response::new(pb::UnblockProfessionalResponse {}))
}

pub async fn list_blocked_professionals(
    state: &AppState,
    request: Request<pb::ListBlockedProfessionalsRequest>,
) -> Reply<pb::ListBlockedProfessionalsResponse> {
    let caller = caller(&request)?;
    let blocked = blocks::list(state, caller.account_id).await?;
    Ok(Response::new(pb::ListBlockedProfessionalsResponse {
        blocked_professionals: blocked.iter().map(blocked_to_proto).collect(),
    }))
}
