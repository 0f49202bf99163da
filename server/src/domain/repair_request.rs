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

/// The changes of a request's state, each with the states it may start from (the ledger's
/// `Step::allowed_from` is the model). Store updates name the change and move the row only
/// from one of those states, so a change that lost a race changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestChange {
    /// A quote was chosen and its payment waits on the cardholder.
    AwaitPayment,
    /// That payment failed or was released before the hire.
    Reopen,
    /// The card is held: the quote's professional is hired (again, after a lapsed hold).
    Hire,
    /// The job is done and paid.
    Complete,
    /// The customer cancels their open request.
    CancelOpen,
    /// The customer cancels a hired job whose hold was released.
    CancelHired,
    /// Nobody was hired in time.
    Expire,
    /// The hire was released (the professional could not come, or did not): open again.
    Release,
}

impl RequestChange {
    pub fn allowed_from(self) -> &'static [RepairRequestState] {
        use RepairRequestState as S;
        match self {
            Self::AwaitPayment | Self::CancelOpen | Self::Expire => &[S::Open],
            Self::Reopen => &[S::PendingPayment],
            Self::Hire => &[S::Open, S::PendingPayment, S::Hired],
            Self::Complete | Self::CancelHired | Self::Release => &[S::Hired],
        }
    }

    pub fn leads_to(self) -> RepairRequestState {
        use RepairRequestState as S;
        match self {
            Self::AwaitPayment => S::PendingPayment,
            Self::Reopen | Self::Release => S::Open,
            Self::Hire => S::Hired,
            Self::Complete => S::Completed,
            Self::CancelOpen | Self::CancelHired => S::Cancelled,
            Self::Expire => S::Expired,
        }
    }

    /// Whether a request in `state` may take this change.
    pub fn may_start_from(self, state: RepairRequestState) -> bool {
        self.allowed_from().contains(&state)
    }

    /// The stored spellings of [`Self::allowed_from`], for the store's `state = any($n)`.
    pub fn from_codes(self) -> Vec<&'static str> {
        self.allowed_from()
            .iter()
            .map(|state| state.as_str())
            .collect()
    }
}

/// How long after the hire the customer may say the professional did not come, when the
/// quote gave no arrival time.
pub const CUSTOMER_RELEASE_AFTER: chrono::Duration = chrono::Duration::hours(2);

/// From when the customer of a job hired at `hired_at` may release the hire ("they didn't
/// come").
pub fn customer_release_from(hired_at: DateTime<Utc>) -> DateTime<Utc> {
    hired_at + CUSTOMER_RELEASE_AFTER
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
            RepairRequestState::PendingPayment,
        ] {
            assert_eq!(RepairRequestState::from_code(state.as_str()), Some(state));
        }
        for urgency in [Urgency::Immediate, Urgency::CanWait] {
            assert_eq!(Urgency::from_code(urgency.as_str()), Some(urgency));
        }
        assert_eq!(Urgency::from_code("soon"), None);
    }

    #[test]
    fn a_finished_request_takes_no_change_and_a_paid_one_only_completes_or_a_released_cancel() {
        use RepairRequestState as S;
        let all = [
            RequestChange::AwaitPayment,
            RequestChange::Reopen,
            RequestChange::Hire,
            RequestChange::Complete,
            RequestChange::CancelOpen,
            RequestChange::CancelHired,
            RequestChange::Expire,
        ];
        for finished in [S::Completed, S::Cancelled, S::Expired] {
            assert!(all.iter().all(|change| !change.may_start_from(finished)));
        }
        let from_hired: Vec<_> = all
            .into_iter()
            .filter(|c| c.may_start_from(S::Hired))
            .collect();
        assert_eq!(
            from_hired,
            [
                RequestChange::Hire,
                RequestChange::Complete,
                RequestChange::CancelHired
            ]
        );
        assert!(!RequestChange::CancelOpen.may_start_from(S::Hired));
    }
}
