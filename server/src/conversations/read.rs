//! Reading conversations: the caller's list (newest message first, each with its unread
//! count, and the unread total), one conversation's messages (newest first, paged
//! backwards), and read markers. An admin reads a request's conversations to settle a
//! dispute; reading one that was reported leaves an entry in the audit log.

use uuid::Uuid;

use super::{
    place::Place,
    seen::{self, Reader, SeenConversation, SeenMessage},
};
use crate::{
    auth::Caller,
    domain::{Language, Role, conversation::Side},
    error::{ApiError, ApiResult, not_found},
    state::AppState,
    store::{
        audit, conversation_reports,
        conversations::{self, ConversationRow, MessageRow, Whose},
        page::{PageRequest, text_of, token_of},
    },
};

/// A page of the caller's conversations.
#[derive(Debug, Clone)]
pub struct Listed {
    pub conversations: Vec<SeenConversation>,
    pub next_page_token: String,
    /// Unread messages over all of the caller's conversations (0 for an admin).
    pub unread_total: i64,
}

/// The side an account of `role` reads from; `None` for an admin.
fn side_of(role: Role) -> Option<Side> {
    match role {
        Role::Customer => Some(Side::Customer),
        Role::Professional => Some(Side::Professional),
        Role::Admin => None,
    }
}

/// The caller's conversations (of one request when given; an admin must name one), read in
/// `language`.
pub async fn list_conversations(
    state: &AppState,
    caller: &Caller,
    repair_request_id: Option<Uuid>,
    page: &PageRequest,
    language: Language,
) -> ApiResult<Listed> {
    let side = side_of(caller.role);
    let whose = match (side, repair_request_id) {
        (Some(Side::Customer), _) => Whose::Customer(caller.account_id),
        (Some(Side::Professional), _) => Whose::Professional(caller.account_id),
        (None, Some(_)) => Whose::Anyone,
        (None, None) => {
            return Err(ApiError::invalid(
                "repair_request_id",
                "name the request whose conversations to read",
            ));
        }
    };
    let rows = conversations::list(&state.db, whose, repair_request_id, page).await?;
    let (rows, next_page_token) = page.finish(rows, |row| (row.last_message_at, row.id));
    let reader = Reader { side, language };
    let conversations = with_last_messages(state, rows, reader).await?;
    let unread_total = match side {
        Some(side) => conversations::unread_total(&state.db, caller.account_id, side).await?,
        None => 0,
    };
    Ok(Listed {
        conversations,
        next_page_token,
        unread_total,
    })
}

/// `rows` as `reader` sees them, each with its newest message.
pub async fn with_last_messages(
    state: &AppState,
    rows: Vec<ConversationRow>,
    reader: Reader,
) -> ApiResult<Vec<SeenConversation>> {
    let ids: Vec<Uuid> = rows.iter().map(|row| row.id).collect();
    let mut last: std::collections::HashMap<Uuid, MessageRow> =
        conversations::last_messages(&state.db, &ids)
            .await?
            .into_iter()
            .map(|message| (message.conversation_id, message))
            .collect();
    Ok(rows
        .into_iter()
        .map(|row| {
            let newest = last.remove(&row.id);
            seen::conversation(row, newest.as_ref(), reader)
        })
        .collect())
}

/// A page of a conversation's messages, newest first.
#[derive(Debug, Clone)]
pub struct MessagesPage {
    /// `None` while it was not opened.
    pub conversation: Option<SeenConversation>,
    pub messages: Vec<SeenMessage>,
    pub next_page_token: String,
}

/// The messages of the conversation at `place`, newest first, older ones through the page
/// token; empty for a conversation not opened yet.
pub async fn list_messages(
    state: &AppState,
    caller: &Caller,
    place: &Place,
    (page_size, page_token): (i32, &str),
    language: Language,
) -> ApiResult<MessagesPage> {
    let size = PageRequest::parse(page_size, "")?.size;
    let before = decode_token(page_token)?;
    let Some(row) = conversations::get(&state.db, place.request.id, place.professional_id).await?
    else {
        return Ok(MessagesPage {
            conversation: None,
            messages: Vec::new(),
            next_page_token: String::new(),
        });
    };
    if place.side.is_none() {
        // An admin reading a conversation is on record (whether it was reported, and how
        // far); what it says is not copied there.
        let id = row.id.to_string();
        let reported = conversation_reports::was_reported(&state.db, row.id).await?;
        let read = serde_json::json!({
            "read": true, "up_to_sequence": row.last_sequence, "reported": reported,
        });
        audit::record_change(
            &state.db,
            caller.account_id,
            "conversation.read",
            ("conversation", &id),
            None,
            Some(&read),
        )
        .await?;
    }
    let mut messages = conversations::messages_before(&state.db, row.id, before, size + 1).await?;
    let next_page_token = match usize::try_from(size) {
        Ok(size) if messages.len() > size => {
            messages.truncate(size);
            messages
                .last()
                .map(|m| encode_token(m.sequence))
                .unwrap_or_default()
        }
        _ => String::new(),
    };
    let reader = Reader {
        side: place.side,
        language,
    };
    let shared = seen::shared(&row);
    let messages = messages
        .iter()
        .map(|message| seen::message(message, reader, shared))
        .collect();
    let newest = conversations::last_messages(&state.db, &[row.id]).await?;
    Ok(MessagesPage {
        conversation: Some(seen::conversation(row, newest.first(), reader)),
        messages,
        next_page_token,
    })
}

fn encode_token(before: i64) -> String {
    token_of(&format!("before:{before}"))
}

fn decode_token(token: &str) -> ApiResult<Option<i64>> {
    if token.is_empty() {
        return Ok(None);
    }
    text_of(token)
        .and_then(|raw| raw.strip_prefix("before:")?.parse::<i64>().ok())
        .filter(|before| *before > 0)
        .map(Some)
        .ok_or_else(|| {
            ApiError::invalid(
                "page_token",
                "this page token is not valid; start from the newest page",
            )
        })
}

/// Unread messages left after a read marker moved: in the conversation, and in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unread {
    pub conversation: i32,
    pub total: i64,
}

/// Marks the conversation at `place` read by the caller up to `sequence` (never back).
pub async fn mark_read(
    state: &AppState,
    caller: &Caller,
    place: &Place,
    sequence: i64,
) -> ApiResult<Unread> {
    let side = place.party()?;
    if sequence < 0 {
        return Err(ApiError::invalid(
            "sequence",
            "give the sequence of the newest message read",
        ));
    }
    let row = conversations::get(&state.db, place.request.id, place.professional_id)
        .await?
        .ok_or_else(|| not_found("conversation"))?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let (_, unread) = conversations::mark_read(&mut tx, row.id, side, sequence).await?;
    tx.commit().await?;
    let total = conversations::unread_total(&state.db, caller.account_id, side).await?;
    Ok(Unread {
        conversation: unread,
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_tokens_round_trip_and_junk_is_refused() {
        assert_eq!(decode_token(&encode_token(42)).unwrap(), Some(42));
        assert_eq!(decode_token("").unwrap(), None);
        assert!(decode_token("bm9wZQ").is_err());
        assert!(decode_token(&encode_token(0)).is_err());
        assert!(decode_token("%%%").is_err());
    }
}
