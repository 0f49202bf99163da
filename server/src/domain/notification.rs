//! Kinds of messages and their channels, as the person chooses what reaches them (CASL).

use super::{Language, Role};

/// A kind of message the person may turn off. Receipts and security messages are not
/// topics: they always go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Topic {
    /// A new request near a professional, and its escalation.
    NewRequests,
    /// Quotes, messages, hires, trips, cancellations and reviews on one's requests or jobs.
    RequestUpdates,
    /// A membership about to renew.
    Reminders,
}

impl Topic {
    pub const ALL: [Topic; 3] = [Topic::NewRequests, Topic::RequestUpdates, Topic::Reminders];

    pub fn as_str(self) -> &'static str {
        match self {
            Topic::NewRequests => "new_requests",
            Topic::RequestUpdates => "request_updates",
            Topic::Reminders => "reminders",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|topic| topic.as_str() == code)
    }

    /// Whether accounts of `role` receive this kind at all (only professionals are alerted
    /// of new requests and reminded of a membership; admins choose nothing here).
    pub fn reaches(self, role: Role) -> bool {
        match self {
            Topic::RequestUpdates => matches!(role, Role::Customer | Role::Professional),
            Topic::NewRequests | Topic::Reminders => role == Role::Professional,
        }
    }
}

/// How a message reaches the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NotifyChannel {
    Email,
    Sms,
    /// Web Push and the native apps' notifications.
    Push,
}

impl NotifyChannel {
    pub const ALL: [NotifyChannel; 3] = [
        NotifyChannel::Email,
        NotifyChannel::Sms,
        NotifyChannel::Push,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            NotifyChannel::Email => "email",
            NotifyChannel::Sms => "sms",
            NotifyChannel::Push => "push",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|channel| channel.as_str() == code)
    }
}

/// Whom a message that may be turned off is for, and of what kind: the outbox writes it only
/// while that person has the kind on for its channel, and an email's unsubscribe link and
/// footer are made from it, in the person's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subscriber {
    pub topic: Topic,
    /// A customer or a professional.
    pub role: Role,
    pub account_id: uuid::Uuid,
    pub language: Language,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_spellings_read_back() {
        for topic in Topic::ALL {
            assert_eq!(Topic::from_code(topic.as_str()), Some(topic));
        }
        for channel in NotifyChannel::ALL {
            assert_eq!(NotifyChannel::from_code(channel.as_str()), Some(channel));
        }
        assert_eq!(Topic::from_code("receipts"), None);
    }

    #[test]
    fn customers_get_only_updates_on_their_requests() {
        let customer: Vec<Topic> = Topic::ALL
            .into_iter()
            .filter(|t| t.reaches(Role::Customer))
            .collect();
        assert_eq!(customer, [Topic::RequestUpdates]);
        assert!(Topic::ALL.iter().all(|t| t.reaches(Role::Professional)));
        assert!(!Topic::ALL.iter().any(|t| t.reaches(Role::Admin)));
    }
}
