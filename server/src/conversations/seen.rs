//! Messages and conversations as one reader may see them: contact details masked for the
//! other party until the hire, a deleted author's words gone, the translation into the
//! reader's language when there is one, and the reader's own unread count.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::{
    domain::{
        Language, StoredPhoto,
        contacts::{Masked, Placeholders, mask_contacts},
        conversation::{self, Author, ConversationState, Side},
    },
    store::conversations::{ConversationRow, MessageRow},
    words,
};

/// Who reads: their side (`None`: an admin, who reads everything as written) and language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reader {
    pub side: Option<Side>,
    pub language: Language,
}

/// One message as its reader sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct SeenMessage {
    pub id: Uuid,
    pub sequence: i64,
    pub author: Author,
    /// Empty once deleted.
    pub text: String,
    pub contacts_masked: bool,
    /// For the author: whether the other party sees contact details of the text masked.
    pub masked_for_other_party: bool,
    pub deleted: bool,
    pub text_language: Language,
    /// Into the reader's language, when it was written in the other one and translated.
    pub translation: Option<String>,
    pub created_at: DateTime<Utc>,
    /// None once deleted.
    pub photos: Vec<StoredPhoto>,
}

/// What a notification quotes of a seen message: its text, or what photos it carries.
pub fn preview(message: &SeenMessage, language: Language) -> String {
    if message.text.is_empty() && !message.photos.is_empty() {
        words::of(language).photos_attached(message.photos.len())
    } else {
        message.text.clone()
    }
}

/// What stands for hidden contact details in `language`.
pub fn placeholders(language: Language) -> Placeholders<'static> {
    let words = words::of(language);
    Placeholders {
        phone: words.hidden_phone(),
        email: words.hidden_email(),
    }
}

/// `message` as `reader` sees it; `shared`: whether the parties see each other's contact
/// details (the professional is hired).
pub fn message(message: &MessageRow, reader: Reader, shared: bool) -> SeenMessage {
    let author = message.author();
    let deleted = message.deleted_at.is_some();
    // An admin writes only once the job is done: nothing of theirs is masked.
    let by_admin = message.by_admin();
    let masks = !deleted && !by_admin && conversation::masked_for(reader.side, author, shared);
    let shown = |text: &str| {
        if masks {
            mask_contacts(text, &placeholders(reader.language))
        } else {
            Masked {
                text: text.to_owned(),
                masked: false,
            }
        }
    };
    let text = if deleted {
        None
    } else {
        Some(shown(&message.text))
    };
    // The author reads their words whole; the other party reads what `masked_for` leaves.
    let masked_for_other_party = !deleted
        && !by_admin
        && reader.side == Some(author)
        && conversation::masked_for(Some(author.other()), author, shared)
        && mask_contacts(&message.text, &placeholders(reader.language)).masked;
    let translation = message
        .translation
        .as_deref()
        .filter(|_| !deleted && message.text_language != reader.language)
        .map(|translated| shown(translated).text);
    SeenMessage {
        id: message.id,
        sequence: message.sequence,
        author: if by_admin {
            Author::Admin
        } else {
            Author::Party(author)
        },
        contacts_masked: text.as_ref().is_some_and(|text| text.masked),
        masked_for_other_party,
        text: text.map(|text| text.text).unwrap_or_default(),
        deleted,
        text_language: message.text_language,
        translation,
        created_at: message.created_at,
        photos: if deleted {
            Vec::new()
        } else {
            message.photos.clone()
        },
    }
}

/// A conversation as one reader sees it.
#[derive(Debug, Clone)]
pub struct SeenConversation {
    pub row: ConversationRow,
    pub state: ConversationState,
    /// The other party's messages the reader has not read (0 for an admin).
    pub unread: i32,
    /// How far the other party has read (for an admin, the professional: how far the
    /// customer's words were read).
    pub other_read: i64,
    pub last_message: Option<SeenMessage>,
}

/// Whether the parties of `row` see each other's contact details.
pub fn shared(row: &ConversationRow) -> bool {
    conversation::contacts_shared(row.hired_professional_id, row.professional_id)
}

/// `row` (with its newest message, `last`) as `reader` sees it.
pub fn conversation(
    row: ConversationRow,
    last: Option<&MessageRow>,
    reader: Reader,
) -> SeenConversation {
    let request_state = crate::domain::RepairRequestState::from_code(&row.request_state)
        .unwrap_or(crate::domain::RepairRequestState::Open);
    let state = conversation::conversation_state(
        request_state,
        row.hired_professional_id,
        row.professional_id,
        row.problem_open,
    );
    let (unread, other_read) = match reader.side {
        Some(side) => (row.unread(side), row.read_sequence(side.other())),
        // An admin reads the professional's marker: how far the customer's words were read.
        None => (0, row.read_sequence(Side::Professional)),
    };
    let shared = shared(&row);
    SeenConversation {
        last_message: last.map(|last| message(last, reader, shared)),
        state,
        unread,
        other_read,
        row,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(author: Side, text: &str) -> MessageRow {
        MessageRow {
            id: Uuid::now_v7(),
            conversation_id: Uuid::now_v7(),
            sequence: 1,
            author: author.as_str().to_owned(),
            author_id: Uuid::now_v7(),
            text: text.to_owned(),
            text_language: Language::English,
            deleted_at: None,
            translation: Some("appelez le 403 555 0100".to_owned()),
            created_at: Utc::now(),
            photos: Vec::new(),
        }
    }

    const CUSTOMER_IN_FRENCH: Reader = Reader {
        side: Some(Side::Customer),
        language: Language::French,
    };

    #[test]
    fn the_reader_sees_contacts_masked_before_the_hire_the_author_never() {
        let written = stored(Side::Professional, "call 403 555 0100");
        let seen = message(&written, CUSTOMER_IN_FRENCH, false);
        assert!(seen.contacts_masked);
        assert_eq!(seen.text, "call [numéro communiqué après l’embauche]");
        assert_eq!(
            seen.translation.as_deref(),
            Some("appelez le [numéro communiqué après l’embauche]")
        );
        let author = Reader {
            side: Some(Side::Professional),
            language: Language::English,
        };
        let own = message(&written, author, false);
        assert_eq!(
            (own.text.as_str(), own.contacts_masked),
            ("call 403 555 0100", false)
        );
        assert_eq!(own.translation, None, "written in the reader's language");
        // The author is told the other party reads it masked; the other party is not.
        assert!(own.masked_for_other_party && !seen.masked_for_other_party);
        let hired = message(&written, CUSTOMER_IN_FRENCH, true);
        assert_eq!(hired.text, "call 403 555 0100");
        assert!(
            !message(&written, author, true).masked_for_other_party,
            "shared once hired"
        );
        let plain = stored(Side::Professional, "I can come at 5");
        assert!(!message(&plain, author, false).masked_for_other_party);
    }

    #[test]
    fn a_deleted_author_s_words_are_gone() {
        let mut written = stored(Side::Customer, "");
        written.deleted_at = Some(Utc::now());
        let seen = message(&written, CUSTOMER_IN_FRENCH, false);
        assert!(seen.deleted && seen.text.is_empty() && seen.translation.is_none());
    }
}
