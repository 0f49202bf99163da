//! One conversation watched live (WatchConversation): the messages after the client's last
//! sequence, then each new one, and the other party's read marker as it moves. Every message
//! and marker is announced by Postgres at commit (`live::conversation_changes`); the hub hands
//! it to every stream of every server process, and a stream that hears of its conversation
//! reads from the database what came after the last sequence it sent. The stream subscribes
//! before its first read and sends only sequences above the last it sent, so a message that
//! commits while it starts is sent once, and a burst, a lost notification or a stream that
//! fell behind is caught up from the database: no gap, no repeat.

use tokio::sync::mpsc;

use super::{
    place::{self, Place},
    seen::{self, Reader, SeenMessage},
};
use crate::{
    auth::Caller,
    domain::{Language, conversation::Side},
    error::ApiResult,
    live::{
        conversation_changes::{Change, Changed},
        notify_hub::{Heard, Subscription},
    },
    state::AppState,
    store::conversations,
};

/// Messages read from the database at a time while catching up.
const CATCH_UP_BATCH: i64 = 100;

/// One message of the stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Message(Box<SeenMessage>),
    /// The other party read up to this sequence.
    OtherPartyRead(i64),
}

/// A stream ready to run: where, for whom, and its subscription (taken before any read).
pub struct Opened {
    place: Place,
    side: Side,
    subscription: Subscription<Changed>,
}

/// Checks that the caller takes part in the conversation at `place` and takes a stream slot.
pub fn open(state: &AppState, caller: &Caller, place: Place) -> ApiResult<Opened> {
    let side = place.party()?;
    let subscription = state.conversation_changes.subscribe(caller.account_id)?;
    Ok(Opened {
        place,
        side,
        subscription,
    })
}

/// What the stream has sent so far.
struct Sent {
    last_sequence: i64,
    other_read: i64,
}

/// Feeds one stream from `after_sequence` until the client leaves (or the stream ends with
/// its session: `auth::stream`) or the server stops. An error (the caller may no longer
/// see the conversation) is sent and ends it.
pub async fn run(
    state: AppState,
    caller: Caller,
    opened: Opened,
    (after_sequence, language): (i64, Language),
    sender: mpsc::Sender<ApiResult<Event>>,
) {
    let Opened {
        place,
        side,
        mut subscription,
    } = opened;
    let mut sent = Sent {
        last_sequence: after_sequence.max(0),
        other_read: 0,
    };
    let mut catch_up = true;
    loop {
        if catch_up {
            let reader = (side, language);
            let caught_up = send_new(&state, &caller, &place, reader, &mut sent, &sender).await;
            match caught_up {
                Ok(true) => {}
                Ok(false) => return,
                Err(error) => {
                    let _ = sender.send(Err(error)).await;
                    return;
                }
            }
        }
        let heard = tokio::select! {
            () = sender.closed() => return,
            heard = subscription.recv() => heard,
        };
        let Some(heard) = heard else {
            return;
        };
        let mut heard = vec![heard];
        heard.extend(subscription.drain());
        catch_up = heard
            .iter()
            .any(|heard| concerns(heard, &place, side.other(), &sent));
    }
}

/// Whether what was heard may be news for this stream.
fn concerns(heard: &Heard<Changed>, place: &Place, other: Side, sent: &Sent) -> bool {
    match heard {
        Heard::Gap => true,
        Heard::Event(changed) => {
            changed.repair_request_id == place.request.id
                && changed.professional_id == place.professional_id
                && match changed.change {
                    Change::Message(sequence) => sequence > sent.last_sequence,
                    Change::Read(side, sequence) => side == other && sequence > sent.other_read,
                }
        }
    }
}

/// Sends what the database holds beyond what was sent; `false` when the client left. Until
/// the conversation is opened, whether the caller may still take part is checked again each
/// time (a professional may stop seeing the request); once opened it is its two parties'.
async fn send_new(
    state: &AppState,
    caller: &Caller,
    place: &Place,
    (side, language): (Side, Language),
    sent: &mut Sent,
    sender: &mpsc::Sender<ApiResult<Event>>,
) -> ApiResult<bool> {
    let Some(row) = conversations::get(&state.db, place.request.id, place.professional_id).await?
    else {
        let professional = place.professional_id.to_string();
        place::locate(state, caller, place.request.id, &professional).await?;
        return Ok(true);
    };
    let shared = seen::shared(&row);
    let reader = Reader {
        side: Some(side),
        language,
    };
    loop {
        let batch =
            conversations::messages_after(&state.db, row.id, sent.last_sequence, CATCH_UP_BATCH)
                .await?;
        let full = batch.len() == usize::try_from(CATCH_UP_BATCH).unwrap_or(usize::MAX);
        for message in &batch {
            let seen = seen::message(message, reader, shared);
            if sender
                .send(Ok(Event::Message(Box::new(seen))))
                .await
                .is_err()
            {
                return Ok(false);
            }
            sent.last_sequence = message.sequence;
        }
        if !full {
            break;
        }
    }
    let other_read = row.read_sequence(side.other());
    if other_read > sent.other_read {
        let marker = Ok(Event::OtherPartyRead(other_read));
        if sender.send(marker).await.is_err() {
            return Ok(false);
        }
        sent.other_read = other_read;
    }
    Ok(true)
}
