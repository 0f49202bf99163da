//! A quote's state and the changes it may take, with their stored spellings.

/// How a quote stands: waiting for the customer, or how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteState {
    Submitted,
    Hired,
    NotSelected,
    Withdrawn,
}

impl QuoteState {
    pub const ALL: [Self; 4] = [
        Self::Submitted,
        Self::Hired,
        Self::NotSelected,
        Self::Withdrawn,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Submitted => "submitted",
            Self::Hired => "hired",
            Self::NotSelected => "not_selected",
            Self::Withdrawn => "withdrawn",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|state| state.as_str() == code)
    }
}

/// The changes of a quote's state, each with the states it may start from; the store moves a
/// quote only from one of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteChange {
    /// The customer hired it (again, when a lapsed hold is authorised anew).
    Hire,
    /// Another quote was hired, or the request was cancelled.
    NotSelect,
    /// Its professional took it back, or can no longer take jobs.
    Withdraw,
}

impl QuoteChange {
    pub fn allowed_from(self) -> &'static [QuoteState] {
        match self {
            Self::Hire => &[QuoteState::Submitted, QuoteState::Hired],
            Self::NotSelect | Self::Withdraw => &[QuoteState::Submitted],
        }
    }

    pub fn leads_to(self) -> QuoteState {
        match self {
            Self::Hire => QuoteState::Hired,
            Self::NotSelect => QuoteState::NotSelected,
            Self::Withdraw => QuoteState::Withdrawn,
        }
    }

    /// The stored spellings of [`Self::allowed_from`], for the store's `state = any($n)`.
    pub fn from_codes(self) -> Vec<&'static str> {
        self.allowed_from()
            .iter()
            .map(|state| state.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_spellings_round_trip_and_only_a_waiting_quote_moves_but_a_hired_one_rehires() {
        for state in QuoteState::ALL {
            assert_eq!(QuoteState::from_code(state.as_str()), Some(state));
        }
        for change in [
            QuoteChange::Hire,
            QuoteChange::NotSelect,
            QuoteChange::Withdraw,
        ] {
            assert!(change.allowed_from().contains(&QuoteState::Submitted));
            assert!(!change.allowed_from().contains(&QuoteState::Withdrawn));
            assert!(!change.allowed_from().contains(&QuoteState::NotSelected));
        }
        assert_eq!(QuoteChange::Hire.from_codes(), ["submitted", "hired"]);
    }
}
