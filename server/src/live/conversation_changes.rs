//! Conversations' new messages and read markers, announced by Postgres on [`CHANNEL`] at
//! commit (see `migrations/20261201000200_conversations.sql`), and the hub that hands them to
//! this process's WatchConversation streams (`conversations::watch`). A conversation is named
//! by its request and professional, so a stream waiting for a conversation's first message
//! knows it when it comes.

use std::sync::Arc;

use uuid::Uuid;

use super::notify_hub::{NotifyHub, StreamLimits};
use crate::domain::conversation::Side;

/// The Postgres channel conversation changes are announced on.
pub const CHANNEL: &str = "conversation_changed";

/// What changed in a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A message with this sequence was written.
    Message(i64),
    /// This side read up to this sequence.
    Read(Side, i64),
}

/// One announced change of the conversation of a request and a professional.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Changed {
    pub repair_request_id: Uuid,
    pub professional_id: Uuid,
    pub change: Change,
}

fn parse(payload: &str) -> Option<Changed> {
    let mut parts = payload.splitn(4, ':');
    let repair_request_id = Uuid::parse_str(parts.next()?).ok()?;
    let professional_id = Uuid::parse_str(parts.next()?).ok()?;
    let kind = parts.next()?;
    let sequence: i64 = parts.next()?.parse().ok()?;
    let change = match kind {
        "m" => Change::Message(sequence),
        "rc" => Change::Read(Side::Customer, sequence),
        "rp" => Change::Read(Side::Professional, sequence),
        _ => return None,
    };
    Some(Changed {
        repair_request_id,
        professional_id,
        change,
    })
}

pub type ConversationChangesHub = NotifyHub<Changed>;

pub fn hub(limits: StreamLimits) -> Arc<ConversationChangesHub> {
    NotifyHub::new(CHANNEL, parse, limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_name_the_conversation_and_what_changed() {
        let (request, pro) = (Uuid::now_v7(), Uuid::now_v7());
        let changed = |change| {
            Some(Changed {
                repair_request_id: request,
                professional_id: pro,
                change,
            })
        };
        assert_eq!(
            parse(&format!("{request}:{pro}:m:12")),
            changed(Change::Message(12))
        );
        assert_eq!(
            parse(&format!("{request}:{pro}:rc:3")),
            changed(Change::Read(Side::Customer, 3))
        );
        assert_eq!(
            parse(&format!("{request}:{pro}:rp:4")),
            changed(Change::Read(Side::Professional, 4))
        );
        assert_eq!(parse(&format!("{request}:{pro}:x:4")), None);
        assert_eq!(parse("nonsense"), None);
    }
}
