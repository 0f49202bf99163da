//! A problem a customer reports after the job: when it may be reported (within
//! [`REPORT_WINDOW`] of the completion), what it holds, its states and the changes between
//! them (each names the states it starts from, as `OrderChange::allowed_from` does), and how
//! an admin closes it.

use chrono::{DateTime, Duration, Utc};

use super::text::bounded_text;

/// How long after a job is marked done its customer may report a problem.
pub const REPORT_WINDOW: Duration = Duration::days(14);

/// The longest report, in characters.
pub const MAX_PROBLEM_CHARS: usize = repairs_proto::limits::report_job_problem::TEXT_MAX_LEN;
/// The most photos one report carries (and waiting to be attached, per request).
pub const MAX_PROBLEM_PHOTOS: usize =
    repairs_proto::limits::report_job_problem::PHOTO_IDS_MAX_ITEMS;
/// The longest resolution note, in characters.
pub const MAX_NOTE_CHARS: usize = repairs_proto::limits::resolve_job_problem::NOTE_MAX_LEN;

/// Until when a job completed at `completed_at` may have a problem reported.
pub fn report_deadline(completed_at: DateTime<Utc>) -> DateTime<Utc> {
    completed_at + REPORT_WINDOW
}

/// Whether a report made at `now` on a job completed at `completed_at` is in time.
pub fn in_time(completed_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now <= report_deadline(completed_at)
}

/// What the customer says is wrong: trimmed, 1 to [`MAX_PROBLEM_CHARS`] characters.
pub fn problem_text(raw: &str) -> Result<String, String> {
    bounded_text(raw, "what is wrong", MAX_PROBLEM_CHARS)
}

/// The admin's note to both parties: trimmed, 1 to [`MAX_NOTE_CHARS`] characters.
pub fn resolution_note(raw: &str) -> Result<String, String> {
    bounded_text(raw, "a note to both parties", MAX_NOTE_CHARS)
}

/// Where a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemState {
    /// Reported; the job's conversation is open again.
    Open,
    /// Closed by an admin with an [`Outcome`].
    Resolved,
}

impl ProblemState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Resolved => "resolved",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "open" => Some(Self::Open),
            "resolved" => Some(Self::Resolved),
            _ => None,
        }
    }
}

/// The changes of a problem after it is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemChange {
    /// An admin closes it.
    Resolve,
}

impl ProblemChange {
    /// The states the change starts from.
    pub fn allowed_from(self) -> &'static [ProblemState] {
        match self {
            Self::Resolve => &[ProblemState::Open],
        }
    }

    /// The state it leads to.
    pub fn leads_to(self) -> ProblemState {
        match self {
            Self::Resolve => ProblemState::Resolved,
        }
    }

    /// The states it starts from as their codes, for a store's `state = any($n)`.
    pub fn from_codes(self) -> Vec<&'static str> {
        self.allowed_from().iter().map(|s| s.as_str()).collect()
    }
}

/// How an admin closed a problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A note to both parties.
    Note,
    /// The job's payment was refunded first (BillingService.RefundPayment).
    Refund,
    /// Nothing to do.
    Nothing,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Note => "note",
            Self::Refund => "refund",
            Self::Nothing => "nothing",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "note" => Some(Self::Note),
            "refund" => Some(Self::Refund),
            "nothing" => Some(Self::Nothing),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_in_time_up_to_fourteen_days_after_completion() {
        let done = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        assert!(in_time(done, done + Duration::days(14)));
        assert!(!in_time(
            done,
            done + Duration::days(14) + Duration::seconds(1)
        ));
    }

    #[test]
    fn only_an_open_problem_is_resolved() {
        assert_eq!(ProblemChange::Resolve.allowed_from(), &[ProblemState::Open]);
        assert_eq!(ProblemChange::Resolve.leads_to(), ProblemState::Resolved);
        for state in [ProblemState::Open, ProblemState::Resolved] {
            assert_eq!(ProblemState::from_code(state.as_str()), Some(state));
        }
        for outcome in [Outcome::Note, Outcome::Refund, Outcome::Nothing] {
            assert_eq!(Outcome::from_code(outcome.as_str()), Some(outcome));
        }
    }
}
