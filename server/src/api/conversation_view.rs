//! Conversations, their messages, reports and blocks as the marketplace contract carries
//! them, and the contract's report reasons read back.

use repairs_proto::marketplace as pb;

use super::{
    convert::{language_to_proto, timestamp},
    photo_view::photo_to_proto,
};
use crate::{
    conversations::{
        reports::SeenReport,
        seen::{SeenConversation, SeenMessage},
        watch::Event,
    },
    domain::{
        Language,
        conversation::{Author, ConversationState, ReportReason, Side},
    },
    state::AppState,
    store::professional_blocks::BlockRow,
};

fn author_to_proto(author: Author) -> pb::MessageAuthor {
    match author {
        Author::Party(Side::Customer) => pb::MessageAuthor::Customer,
        Author::Party(Side::Professional) => pb::MessageAuthor::Professional,
        Author::Admin => pb::MessageAuthor::Admin,
    }
}

pub(super) fn message_to_proto(state: &AppState, message: &SeenMessage) -> pb::ConversationMessage {
    pb::ConversationMessage {
        id: message.id.to_string(),
        sequence: message.sequence,
        author: author_to_proto(message.author) as i32,
        text: message.text.clone(),
        contacts_masked: message.contacts_masked,
        masked_for_other_party: message.masked_for_other_party,
        deleted: message.deleted,
        photos: message
            .photos
            .iter()
            .map(|photo| photo_to_proto(state, photo))
            .collect(),
        text_language: language_to_proto(message.text_language) as i32,
        text_translation: message.translation.clone().unwrap_or_default(),
        create_time: Some(timestamp(message.created_at)),
    }
}

/// `seen` with its service named in `language`.
pub(super) fn conversation_to_proto(
    state: &AppState,
    seen: &SeenConversation,
    language: Language,
) -> pb::Conversation {
    let row = &seen.row;
    let writable = match seen.state {
        ConversationState::Open => pb::ConversationState::Open,
        ConversationState::ReadOnly => pb::ConversationState::ReadOnly,
    };
    pb::Conversation {
        id: row.id.to_string(),
        repair_request_id: row.repair_request_id.to_string(),
        professional_id: row.professional_id.to_string(),
        professional_name: row.professional_name.clone(),
        service_name: row.service_name.of(language).to_owned(),
        service_id: row.service_id.to_string(),
        state: writable as i32,
        unread_count: seen.unread,
        last_message: seen
            .last_message
            .as_ref()
            .map(|message| message_to_proto(state, message)),
        other_party_read_sequence: seen.other_read,
        update_time: Some(timestamp(row.last_message_at)),
    }
}

pub(super) fn event_to_proto(state: &AppState, event: &Event) -> pb::WatchConversationResponse {
    use pb::watch_conversation_response::Event as Sent;
    let event = match event {
        Event::Message(message) => Sent::Message(message_to_proto(state, message)),
        Event::OtherPartyRead(sequence) => Sent::OtherPartyReadSequence(*sequence),
    };
    pb::WatchConversationResponse { event: Some(event) }
}

/// `None` for REASON_UNSPECIFIED or a value the contract does not know.
pub(super) fn report_reason_from_proto(value: i32) -> Option<ReportReason> {
    match pb::ConversationReportReason::try_from(value) {
        Ok(pb::ConversationReportReason::Spam) => Some(ReportReason::Spam),
        Ok(pb::ConversationReportReason::Abuse) => Some(ReportReason::Abuse),
        Ok(pb::ConversationReportReason::Fraud) => Some(ReportReason::Fraud),
        Ok(pb::ConversationReportReason::Other) => Some(ReportReason::Other),
        _ => None,
    }
}

fn report_reason_to_proto(reason: ReportReason) -> pb::ConversationReportReason {
    match reason {
        ReportReason::Spam => pb::ConversationReportReason::Spam,
        ReportReason::Abuse => pb::ConversationReportReason::Abuse,
        ReportReason::Fraud => pb::ConversationReportReason::Fraud,
        ReportReason::Other => pb::ConversationReportReason::Other,
    }
}

pub(super) fn report_to_proto(
    state: &AppState,
    seen: &SeenReport,
    language: Language,
) -> pb::ConversationReport {
    let report = &seen.report;
    pb::ConversationReport {
        id: report.id.to_string(),
        conversation: seen
            .conversation
            .as_ref()
            .map(|conversation| conversation_to_proto(state, conversation, language)),
        reported_by: author_to_proto(Author::Party(report.reported_by())) as i32,
        reason: report_reason_to_proto(report.reason()) as i32,
        details: report.details.clone(),
        create_time: Some(timestamp(report.created_at)),
        resolve_time: report.resolved_at.map(timestamp),
        resolution_note: report.resolution_note.clone().unwrap_or_default(),
    }
}

pub(super) fn blocked_to_proto(block: &BlockRow) -> pb::BlockedProfessional {
    pb::BlockedProfessional {
        professional_id: block.professional_id.to_string(),
        professional_name: block.professional_name.clone(),
        create_time: Some(timestamp(block.created_at)),
    }
}
