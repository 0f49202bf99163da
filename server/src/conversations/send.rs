//! Sending a message: once per client key (a retry, even a concurrent one, answers the
//! message the first call stored), within the sender's budget (counted before it is
//! checked), into a conversation still writable, from a professional the customer did not
//! block. In the transaction that writes it: its sequence (the conversation's row raised, so
//! none is skipped or taken twice), the reader's unread count and the email due if it stays
//! unread, the push alerts to the reader's devices, and its translation when the reader reads
//! the other language.

use std::time::Duration;

use uuid::Uuid;

use super::{
    blocks,
    place::Place,
    seen::{self, Reader},
};
use crate::{
    alerts::{self, Alerting},
    auth::Caller,
    budgets::{Budget, Spent},
    config::links::PageLink,
    domain::{
        RepairRequestState,
        conversation::{self, ConversationState, MAX_MESSAGE_PHOTOS, MessageText, Side},
    },
    error::{ApiError, ApiResult, ErrorReason, not_found},
    outbox,
    state::AppState,
    store::{
        accounts::{self as account_store, AccountKind},
        conversations::{self, ConversationRow, EmailDelays, MessageRow, NewMessage, Parties},
        message_photos::{self, Upload},
    },
    words::{self, NewMessage as Alerted},
};

/// What the sender sends.
#[derive(Debug, Clone)]
pub struct Outgoing {
    /// The client's key (SendMessage's `request_id`).
    pub client_key: Uuid,
    pub text: String,
    /// Photos the sender uploaded into the conversation (AddMessagePhoto), in order.
    pub photo_ids: Vec<Uuid>,
}

/// A stored message and its conversation after it.
#[derive(Debug, Clone)]
pub struct Sent {
    pub message: MessageRow,
    pub conversation: ConversationRow,
}

/// Sends `outgoing` from the caller (a party of `place`).
pub async fn send(
    state: &AppState,
    caller: &Caller,
    place: &Place,
    outgoing: &Outgoing,
) -> ApiResult<Sent> {
    let side = place.party()?;
    let photo_ids = &outgoing.photo_ids;
    let distinct: std::collections::HashSet<&Uuid> = photo_ids.iter().collect();
    if photo_ids.len() > MAX_MESSAGE_PHOTOS || distinct.len() != photo_ids.len() {
        return Err(ApiError::invalid(
            "photo_ids",
            format!("attach up to {MAX_MESSAGE_PHOTOS} photos, each once"),
        ));
    }
    let text = MessageText::parse(&outgoing.text, photo_ids.len())
        .map_err(|e| ApiError::invalid("text", e))?;
    if let Some(first) = earlier(state, caller, place, outgoing.client_key).await? {
        return Ok(first);
    }
    let spent = spend_budget(state, caller.account_id).await?;
    // Only a message this call stored keeps the budget spent: a refusal, a failure or a
    // concurrent retry that stored it first gives it back.
    let written = spent
        .settle_if(
            write(state, place, side, (caller, outgoing), &text).await,
            Option::is_some,
        )
        .await?;
    match written {
        Some(sent) => Ok(sent),
        None => earlier(state, caller, place, outgoing.client_key)
            .await?
            .ok_or_else(|| anyhow::anyhow!("message key conflict without a row").into()),
    }
}

/// The message the caller sent under `key` before, with its conversation now; the key used
/// in another conversation is REQUEST_ID_REUSED.
async fn earlier(
    state: &AppState,
    caller: &Caller,
    place: &Place,
    key: Uuid,
) -> ApiResult<Option<Sent>> {
    let Some((message, request_id, professional_id)) =
        conversations::find_by_key(&state.db, caller.account_id, key).await?
    else {
        return Ok(None);
    };
    if (request_id, professional_id) != (place.request.id, place.professional_id) {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::RequestIdReused,
            message: "this request id was used for another message; make a new one".to_owned(),
        });
    }
    let conversation = conversations::get(&state.db, request_id, professional_id)
        .await?
        .ok_or_else(|| not_found("conversation"))?;
    Ok(Some(Sent {
        message,
        conversation,
    }))
}

/// Counts the message against the sender's budgets (ten minutes and a day) before checking
/// them, so that concurrent sends cannot all slip under a limit.
async fn spend_budget(state: &AppState, account_id: Uuid) -> ApiResult<Spent> {
    let config = &state.config;
    let (short, daily) = (
        config.messages_per_account_per_10_minutes,
        config.messages_per_account_per_day,
    );
    let budgets = [
        Budget::renewing(
            format!("messages:10m:{account_id}"),
            short,
            Duration::from_secs(600),
            ErrorReason::MessageBudgetSpent,
            format!("you can send up to {short} messages in 10 minutes"),
        ),
        Budget::renewing(
            format!("messages:day:{account_id}"),
            daily,
            Duration::from_secs(24 * 3600),
            ErrorReason::MessageBudgetSpent,
            format!("you can send up to {daily} messages a day"),
        ),
    ];
    state.budgets.spend(&budgets, 1).await
}

/// CONVERSATION_CLOSED when the conversation of `professional_id` on a request in `state`
/// (hired: `hired`) can no longer be written to.
pub fn refuse_if_closed(
    state: RepairRequestState,
    hired: Option<Uuid>,
    professional_id: Uuid,
) -> ApiResult<()> {
    match conversation::conversation_state(state, hired, professional_id) {
        ConversationState::Open => Ok(()),
        ConversationState::ReadOnly => Err(ApiError::FailedPrecondition {
            reason: ErrorReason::ConversationClosed,
            message: "this conversation can be read but no longer written to".to_owned(),
        }),
    }
}

/// Gives the sender's uploaded photos `ids` to `message`, which is read again with them;
/// INVALID_ARGUMENT when one is not theirs in this conversation or was sent already.
async fn with_photos(
    tx: &mut sqlx::PgConnection,
    message: MessageRow,
    (place, uploader_id): (&Place, Uuid),
    ids: &[Uuid],
) -> ApiResult<MessageRow> {
    let upload = Upload {
        repair_request_id: place.request.id,
        professional_id: place.professional_id,
        uploader_id,
    };
    if message_photos::attach(&mut *tx, message.id, upload, ids).await? != ids.len() {
        return Err(ApiError::invalid(
            "photo_ids",
            "a photo is not one you uploaded to this conversation, or it was sent already",
        ));
    }
    Ok(conversations::message(&mut *tx, message.id)
        .await?
        .unwrap_or(message))
}

/// Writes the message and everything that goes with it, in one transaction; `None` when a
/// concurrent call with the same key stored it first.
async fn write(
    state: &AppState,
    place: &Place,
    side: Side,
    (caller, outgoing): (&Caller, &Outgoing),
    text: &MessageText,
) -> ApiResult<Option<Sent>> {
    let (request_id, professional_id) = (place.request.id, place.professional_id);
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let (request_state, hired) = conversations::lock_request(&mut tx, request_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    refuse_if_closed(request_state, hired, professional_id)?;
    blocks::refuse_between(&mut *tx, place.request.customer_id, professional_id).await?;
    let kind = |side| match side {
        Side::Customer => AccountKind::Customer,
        Side::Professional => AccountKind::Professional,
    };
    let author = account_store::contact(&mut *tx, kind(side), caller.account_id)
        .await?
        .ok_or_else(|| not_found("account"))?;
    let reader_id = place.account_of(side.other());
    // A professional whose account was deleted reads nothing more.
    let reader_language = account_store::contact(&mut *tx, kind(side.other()), reader_id)
        .await?
        .ok_or_else(|| not_found("professional"))?
        .language;
    let parties = Parties {
        repair_request_id: request_id,
        customer_id: place.request.customer_id,
        professional_id,
    };
    let (conversation_id, sequence) = conversations::next_sequence(&mut tx, parties).await?;
    let translate = state.translation.is_configured() && reader_language != author.language;
    let new = NewMessage {
        conversation_id,
        sequence,
        author: side,
        author_id: caller.account_id,
        client_key: outgoing.client_key,
        text: text.as_str(),
        text_language: author.language,
        translate,
    };
    let Some(mut message) = conversations::insert_message(&mut tx, &new).await? else {
        return Ok(None);
    };
    if !outgoing.photo_ids.is_empty() {
        message = with_photos(
            &mut tx,
            message,
            (place, caller.account_id),
            &outgoing.photo_ids,
        )
        .await?;
    }
    let delays = EmailDelays {
        after: state.config.message_email_after,
        every: state.config.message_email_every,
    };
    conversations::count_unread(&mut tx, conversation_id, side.other(), delays).await?;
    let link = link_for(state, side.other(), request_id);
    let tag = format!("conversation:{conversation_id}");
    let key = format!("message:{}", message.id);
    let readers = [reader_id];
    let to = Alerting::new(kind(side.other()), &readers, &link, &tag).keyed(&key);
    let (service, from) = (&place.request.service_name, author.name.as_str());
    let alerts = alerts::to_devices(&mut *tx, to, |_, language| {
        // Read as before the hire, whatever the hire: no contact detail on a lock screen.
        let reader = Reader {
            side: Some(side.other()),
            language,
        };
        let text = seen::preview(&seen::message(&message, reader, false), language);
        let alerted = Alerted {
            service: service.of(language),
            from,
            text: &text,
        };
        Some(words::of(language).new_message_alert(&alerted))
    })
    .await?;
    outbox::enqueue_many(&mut *tx, &alerts).await?;
    let conversation = conversations::get(&mut *tx, request_id, professional_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("conversation written and not read back"))?;
    tx.commit().await?;
    state.outbox.wake();
    if translate {
        state.translation.message_written();
    }
    Ok(Some(Sent {
        message,
        conversation,
    }))
}

/// The page where `reader` reads the conversations of request `request_id`.
pub fn link_for(state: &AppState, reader: Side, request_id: Uuid) -> PageLink {
    let links = state.config.links();
    match reader {
        Side::Customer => links.customer_request(request_id),
        Side::Professional => links.view_request(request_id),
    }
}
