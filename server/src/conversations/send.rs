//! Sending a message: once per client key (a retry, even a concurrent one, answers the
//! message the first call stored), within the sender's budget (counted before it is
//! checked), into a conversation still writable, from a professional the customer did not
//! block. In the transaction that writes it: its sequence (the conversation's row raised, so
//! none is skipped or taken twice), the reader's unread count and the email due if it stays
//! unread, the push alerts to the reader's devices, and its translation when the reader reads
//! the other language. An admin writes too, to both parties, in the hired professional's
//! conversation while a problem reported on the finished job is open (`crate::problems`).

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
        RepairRequestState, Topic,
        conversation::{self, Author, ConversationState, MAX_MESSAGE_PHOTOS, MessageText, Side},
    },
    error::{ApiError, ApiResult, ErrorReason, not_found},
    outbox,
    state::AppState,
    store::{
        accounts::{self as account_store, AccountKind},
        audit,
        conversations::{
            self, ConversationRow, EmailDelays, LockedRequest, MessageRow, NewMessage, Parties,
        },
        job_problems,
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

/// Sends `outgoing` from the caller (a party of `place`, or an admin during an open problem).
pub async fn send(
    state: &AppState,
    caller: &Caller,
    place: &Place,
    outgoing: &Outgoing,
) -> ApiResult<Sent> {
    let author = place.author();
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
            write(state, place, author, (caller, outgoing), &text).await,
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
/// (hired: `hired`; a problem open on its job: `problem_open`) can no longer be written to
/// by `author`. An admin writes only in the hired professional's conversation of a
/// completed job with an open problem; anywhere else they read (PERMISSION_DENIED).
pub fn refuse_if_closed(
    author: Author,
    state: RepairRequestState,
    (hired, problem_open): (Option<Uuid>, bool),
    professional_id: Uuid,
) -> ApiResult<()> {
    let open = conversation::conversation_state(state, hired, professional_id, problem_open);
    if author == Author::Admin && !(problem_open && hired == Some(professional_id)) {
        return Err(ApiError::PermissionDenied {
            reason: ErrorReason::RoleNotAllowed,
            message: "admins write in a job's conversation only while a problem reported on \
                      it is open"
                .to_owned(),
        });
    }
    match open {
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
    author: Author,
    (caller, outgoing): (&Caller, &Outgoing),
    text: &MessageText,
) -> ApiResult<Option<Sent>> {
    let (request_id, professional_id) = (place.request.id, place.professional_id);
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let LockedRequest {
        state: request_state,
        hired,
        problem_open,
    } = conversations::lock_request(&mut tx, request_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    refuse_if_closed(
        author,
        request_state,
        (hired, problem_open),
        professional_id,
    )?;
    let readers = match author {
        Author::Party(side) => {
            blocks::refuse_between(&mut *tx, place.request.customer_id, professional_id).await?;
            vec![side.other()]
        }
        Author::Admin => vec![Side::Customer, Side::Professional],
    };
    let (author_name, author_language) = match author {
        Author::Party(side) => {
            let contact = account_store::contact(&mut *tx, kind(side), caller.account_id)
                .await?
                .ok_or_else(|| not_found("account"))?;
            (contact.name, contact.language)
        }
        Author::Admin => {
            let language = job_problems::admin_language(&mut *tx, caller.account_id)
                .await?
                .ok_or_else(|| not_found("account"))?;
            (String::new(), language)
        }
    };
    // A professional whose account was deleted reads nothing more.
    let mut translate = false;
    for reader in &readers {
        let reader_language =
            account_store::contact(&mut *tx, kind(*reader), place.account_of(*reader))
                .await?
                .ok_or_else(|| not_found("professional"))?
                .language;
        translate |= state.translation.is_configured() && reader_language != author_language;
    }
    let parties = Parties {
        repair_request_id: request_id,
        customer_id: place.request.customer_id,
        professional_id,
    };
    let (conversation_id, sequence) = conversations::next_sequence(&mut tx, parties).await?;
    let new = NewMessage {
        conversation_id,
        sequence,
        author,
        author_id: caller.account_id,
        client_key: outgoing.client_key,
        text: text.as_str(),
        text_language: author_language,
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
    let tag = format!("conversation:{conversation_id}");
    let key = format!("message:{}", message.id);
    let service = &place.request.service_name;
    let mut alerts = Vec::new();
    for reader in readers {
        conversations::count_unread(&mut tx, conversation_id, reader, delays).await?;
        let link = link_for(state, reader, request_id);
        let accounts = [place.account_of(reader)];
        let to = Alerting::new(kind(reader), &accounts, &link, &tag)
            .keyed(&key)
            .about(Topic::RequestUpdates);
        alerts.extend(
            alerts::to_devices(&mut *tx, to, |_, language| {
                // Read as before the hire, whatever the hire: no contact detail on a lock
                // screen.
                let seen_by = Reader {
                    side: Some(reader),
                    language,
                };
                let text = seen::preview(&seen::message(&message, seen_by, false), language);
                let words = words::of(language);
                let from = match author {
                    Author::Party(_) => author_name.as_str(),
                    Author::Admin => words.support(),
                };
                let alerted = Alerted {
                    service: service.of(language),
                    from,
                    text: &text,
                };
                Some(words.new_message_alert(&alerted))
            })
            .await?,
        );
    }
    outbox::enqueue_many(&mut *tx, &alerts).await?;
    if author == Author::Admin {
        // An admin writing in the parties' conversation is kept in the audit log.
        let after = serde_json::json!({
            "conversation_id": conversation_id,
            "sequence": sequence,
            "text": text.as_str(),
        });
        audit::record_change(
            &mut *tx,
            caller.account_id,
            "conversation_message.send",
            ("conversation_message", &message.id.to_string()),
            None,
            Some(&after),
        )
        .await?;
    }
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

/// The accounts a side's readers are.
fn kind(side: Side) -> AccountKind {
    match side {
        Side::Customer => AccountKind::Customer,
        Side::Professional => AccountKind::Professional,
    }
}

/// The page where `reader` reads the conversations of request `request_id`.
pub fn link_for(state: &AppState, reader: Side, request_id: Uuid) -> PageLink {
    let links = state.config.links();
    match reader {
        Side::Customer => links.customer_request(request_id),
        Side::Professional => links.view_request(request_id),
    }
}
