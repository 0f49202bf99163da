//! A conversation between a repair request's customer and one professional: its sides, what a
//! message may hold, when it can be written to, when contact details are masked, where read
//! markers go and why it may be reported. Rules of values only; who may take part is
//! `auth::access` and the requests' rule.

use uuid::Uuid;

use super::{RepairRequestState, text::bounded_text};

/// The two parties of a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The request's customer.
    Customer,
    /// The conversation's professional.
    Professional,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Customer => "customer",
            Side::Professional => "professional",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "customer" => Some(Side::Customer),
            "professional" => Some(Side::Professional),
            _ => None,
        }
    }

    /// The party that reads what this one writes.
    /// The role of the accounts on this side.
    pub fn role(self) -> super::Role {
        match self {
            Side::Customer => super::Role::Customer,
            Side::Professional => super::Role::Professional,
        }
    }

    pub fn other(self) -> Self {
        match self {
            Side::Customer => Side::Professional,
            Side::Professional => Side::Customer,
        }
    }
}

/// Who wrote a message: one of the two parties, or an admin (while a problem reported on the
/// job is open, `domain::job_problem`), who writes to both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Author {
    Party(Side),
    Admin,
}

impl Author {
    /// Its spelling in `conversation_messages.author`.
    pub fn as_str(self) -> &'static str {
        match self {
            Author::Party(side) => side.as_str(),
            Author::Admin => "admin",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "admin" => Some(Author::Admin),
            other => Side::from_code(other).map(Author::Party),
        }
    }
}

/// The longest message text, in characters.
pub const MAX_MESSAGE_CHARS: usize = repairs_proto::limits::send_message::TEXT_MAX_LEN;
/// The most photos one message carries.
pub const MAX_MESSAGE_PHOTOS: usize = repairs_proto::limits::send_message::PHOTO_IDS_MAX_ITEMS;

/// A message's text: trimmed, at most [`MAX_MESSAGE_CHARS`] characters, no control
/// characters but line breaks and tabs. Empty only beside photos.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageText(String);

impl MessageText {
    /// `photos`: how many photos go with it (a message of photos alone may have no text).
    pub fn parse(raw: &str, photos: usize) -> Result<Self, String> {
        if raw.trim().is_empty() {
            return if photos > 0 {
                Ok(Self(String::new()))
            } else {
                Err("write a message, or add a photo".to_owned())
            };
        }
        bounded_text(raw, "a message", MAX_MESSAGE_CHARS).map(Self)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether a conversation can still be written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConversationState {
    Open,
    ReadOnly,
}

/// A conversation's state from its request's: writable while the request is open or its
/// payment pending, and once hired for the hired professional's only; read-only once the
/// request is completed, cancelled or expired, but for the hired professional's while a
/// problem reported on the completed job is open (`problem_open`, `domain::job_problem`).
pub fn conversation_state(
    request: RepairRequestState,
    hired_professional_id: Option<Uuid>,
    professional_id: Uuid,
    problem_open: bool,
) -> ConversationState {
    use RepairRequestState as S;
    let hired_one = hired_professional_id == Some(professional_id);
    match request {
        S::Open | S::PendingPayment => ConversationState::Open,
        S::Hired if hired_one => ConversationState::Open,
        S::Completed if hired_one && problem_open => ConversationState::Open,
        S::Hired | S::Completed | S::Cancelled | S::Expired => ConversationState::ReadOnly,
    }
}

/// Whether the two parties see each other's contact details: once the professional is the
/// one hired on the request (they read them on the job anyway).
pub fn contacts_shared(hired_professional_id: Option<Uuid>, professional_id: Uuid) -> bool {
    hired_professional_id == Some(professional_id)
}

/// Whether a message by `author` has its contact details masked for `reader` (`None`: an
/// admin, who reads everything as written): for the other party, until they are shared.
pub fn masked_for(reader: Option<Side>, author: Side, shared: bool) -> bool {
    !shared && reader.is_some_and(|reader| reader != author)
}

/// Where a read marker goes when its party says they read up to `asked`: never back, never
/// past the newest message.
pub fn read_marker(current: i64, asked: i64, newest: i64) -> i64 {
    current.max(asked.min(newest))
}

/// Why a conversation is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportReason {
    Spam,
    Abuse,
    Fraud,
    Other,
}

impl ReportReason {
    pub fn as_str(self) -> &'static str {
        match self {
            ReportReason::Spam => "spam",
            ReportReason::Abuse => "abuse",
            ReportReason::Fraud => "fraud",
            ReportReason::Other => "other",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "spam" => Some(ReportReason::Spam),
            "abuse" => Some(ReportReason::Abuse),
            "fraud" => Some(ReportReason::Fraud),
            "other" => Some(ReportReason::Other),
            _ => None,
        }
    }
}

/// The longest report details and resolution notes, in characters.
pub const MAX_REPORT_CHARS: usize = repairs_proto::limits::report_conversation::DETAILS_MAX_LEN;

/// What a reporter says beside the reason: up to [`MAX_REPORT_CHARS`], required with
/// [`ReportReason::Other`].
pub fn report_details(reason: ReportReason, raw: &str) -> Result<String, String> {
    if reason == ReportReason::Other || !raw.trim().is_empty() {
        bounded_text(raw, "what happened", MAX_REPORT_CHARS)
    } else {
        Ok(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRO: Uuid = Uuid::from_u128(1);
    const OTHER_PRO: Uuid = Uuid::from_u128(2);

    #[test]
    fn texts_are_trimmed_bounded_and_empty_only_beside_photos() {
        assert_eq!(
            MessageText::parse("  hello \n", 0).unwrap().as_str(),
            "hello"
        );
        assert!(MessageText::parse("   ", 0).is_err());
        assert_eq!(MessageText::parse("", 2).unwrap().as_str(), "");
        assert!(MessageText::parse(&"é".repeat(MAX_MESSAGE_CHARS), 0).is_ok());
        assert!(MessageText::parse(&"a".repeat(MAX_MESSAGE_CHARS + 1), 0).is_err());
        assert!(MessageText::parse("bad\u{7}bell", 0).is_err());
        assert!(MessageText::parse("line one\nline two", 0).is_ok());
    }

    #[test]
    fn writable_while_open_or_under_way_for_the_hired_one_only() {
        use ConversationState::{Open, ReadOnly};
        use RepairRequestState as S;
        let table = [
            (S::Open, None, Open, Open),
            (S::PendingPayment, None, Open, Open),
            (S::Hired, Some(PRO), Open, ReadOnly),
            (S::Completed, Some(PRO), ReadOnly, ReadOnly),
            (S::Cancelled, None, ReadOnly, ReadOnly),
            (S::Expired, None, ReadOnly, ReadOnly),
        ];
        for (state, hired, for_pro, for_other) in table {
            assert_eq!(
                conversation_state(state, hired, PRO, false),
                for_pro,
                "{state:?}"
            );
            assert_eq!(
                conversation_state(state, hired, OTHER_PRO, false),
                for_other,
                "{state:?}"
            );
        }
    }

    #[test]
    fn an_open_problem_opens_the_hired_one_s_conversation_again_only() {
        use ConversationState::{Open, ReadOnly};
        use RepairRequestState as S;
        assert_eq!(conversation_state(S::Completed, Some(PRO), PRO, true), Open);
        let other = conversation_state(S::Completed, Some(PRO), OTHER_PRO, true);
        assert_eq!(other, ReadOnly);
        let cancelled = conversation_state(S::Cancelled, Some(PRO), PRO, true);
        assert_eq!(cancelled, ReadOnly);
    }

    #[test]
    fn contacts_are_masked_for_the_other_party_until_the_hire() {
        let shared = contacts_shared(Some(PRO), PRO);
        assert!(shared);
        assert!(!contacts_shared(Some(OTHER_PRO), PRO));
        assert!(!contacts_shared(None, PRO));
        use Side::{Customer, Professional};
        assert!(masked_for(Some(Customer), Professional, false));
        assert!(!masked_for(Some(Professional), Professional, false));
        assert!(!masked_for(Some(Customer), Professional, true));
        assert!(!masked_for(None, Professional, false), "admins read it all");
    }

    #[test]
    fn read_markers_never_move_back_nor_past_the_newest_message() {
        assert_eq!(read_marker(5, 7, 9), 7);
        assert_eq!(read_marker(5, 3, 9), 5);
        assert_eq!(read_marker(5, 40, 9), 9);
        assert_eq!(read_marker(0, 0, 0), 0);
    }

    #[test]
    fn codes_round_trip_and_other_needs_details() {
        for side in [Side::Customer, Side::Professional] {
            assert_eq!(Side::from_code(side.as_str()), Some(side));
            assert_eq!(side.other().other(), side);
        }
        for reason in [
            ReportReason::Spam,
            ReportReason::Abuse,
            ReportReason::Fraud,
            ReportReason::Other,
        ] {
            assert_eq!(ReportReason::from_code(reason.as_str()), Some(reason));
        }
        assert!(report_details(ReportReason::Other, " ").is_err());
        assert_eq!(report_details(ReportReason::Spam, " ").unwrap(), "");
        assert_eq!(
            report_details(ReportReason::Fraud, " asked for cash ").unwrap(),
            "asked for cash"
        );
        assert!(report_details(ReportReason::Abuse, &"x".repeat(1_001)).is_err());
    }
}
