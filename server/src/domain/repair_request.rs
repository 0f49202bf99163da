//! A repair request's urgency and state, with their stored spellings and the expiry rule.

use chrono::{DateTime, Duration, Utc};

/// How soon the customer needs help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Urgency {
    /// An emergency (legacy "Yes").
    Immediate,
    /// Can wait a few days (legacy "No").
    CanWait,
}

impl Urgency {
    pub fn as_str(self) -> &'static str {
        match self {
            Urgency::Immediate => "immediate",
            Urgency::CanWait => "can_wait",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "immediate" => Some(Urgency::Immediate),
            "can_wait" => Some(Urgency::CanWait),
            _ => None,
        }
    }

    /// How long a request stays open without a hire: an emergency nobody took within three
    /// days has been solved some other way; a request that can wait gets a month.
    pub fn open_for(self) -> Duration {
        match self {
            Urgency::Immediate => Duration::hours(72),
            Urgency::CanWait => Duration::days(30),
        }
    }

    /// When a request placed at `placed_at` expires if nobody is hired.
    pub fn expires_at(self, placed_at: DateTime<Utc>) -> DateTime<Utc> {
        placed_at + self.open_for()
    }
}

/// Where a request is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepairRequestState {
    Open,
    Hired,
    Completed,
    Cancelled,
    Expired,
    /// A quote was chosen and its payment waits on the cardholder (3-D Secure).
    PendingPayment,
}

impl RepairRequestState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Hired => "hired",
            Self::Completed => "completed",
            Self::Cancelled => "cancelled",
            Self::Expired => "expired",
            Self::PendingPayment => "pending_payment",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "open" => Some(Self::Open),
            "hired" => Some(Self::Hired),
            "completed" => Some(Self::Completed),
            "cancelled" => Some(Self::Cancelled),
            "expired" => Some(Self::Expired),
            "pending_payment" => Some(Self::PendingPayment),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emergencies_expire_after_three_days_others_after_a_month() {
        let placed: DateTime<Utc> = "2026-11-23T08:00:00Z".parse().unwrap();
        assert_eq!(
            Urgency::Immediate.expires_at(placed).to_rfc3339(),
            "2026-11-26T08:00:00+00:00"
        );
        assert_eq!(
            Urgency::CanWait.expires_at(placed).to_rfc3339(),
            "2026-12-23T08:00:00+00:00"
        );
    }

    #[test]
    fn stored_spellings_round_trip() {
        for state in [
            RepairRequestState::Open,
            RepairRequestState::Hired,
            RepairRequestState::Completed,
            RepairRequestState::Cancelled,
            RepairRequestState::Expired,
        ] {
            assert_eq!(RepairRequestState::from_code(state.as_str()), Some(state));
        }
        for urgency in [Urgency::Immediate, Urgency::CanWait] {
            assert_eq!(Urgency::from_code(urgency.as_str()), Some(urgency));
        }
        assert_eq!(Urgency::from_code("soon"), None);
    }
}
