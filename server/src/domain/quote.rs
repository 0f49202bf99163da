//! A quote's state and the changes it may take, with their stored spellings.

/// How a quote stands: waiting for the customer, or how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteState {
    Submitted,
    Hired,
    NotSelected,
    Withdrawn,
    /// Its hire was released (the professional could not come, or did not).
    Released,
}

impl QuoteState {
    pub const ALL: [Self; 5] = [
        Self::Submitted,
        Self::Hired,
        Self::NotSelected,
        Self::Withdrawn,
        Self::Released,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Submitted => "submitted",
            Self::Hired => "hired",
            Self::NotSelected => "not_selected",
            Self::Withdrawn => "withdrawn",
            Self::Released => "released",
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
    /// Its hire was released.
    Release,
    /// Set aside by a hire that was then released: live again.
    Revive,
}

impl QuoteChange {
    pub fn allowed_from(self) -> &'static [QuoteState] {
        match self {
            Self::Hire => &[QuoteState::Submitted, QuoteState::Hired],
            Self::NotSelect | Self::Withdraw => &[QuoteState::Submitted],
            Self::Release => &[QuoteState::Hired],
            Self::Revive => &[QuoteState::NotSelected],
        }
    }

    pub fn leads_to(self) -> QuoteState {
        match self {
            Self::Hire => QuoteState::Hired,
            Self::NotSelect => QuoteState::NotSelected,
            Self::Withdraw => QuoteState::Withdrawn,
            Self::Release => QuoteState::Released,
            Self::Revive => QuoteState::Submitted,
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

/// Whether a quote's fee has sales taxes added, decided when it is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteTaxTreatment {
    /// The professional is registered and added the taxes of the property's province.
    Added,
    /// The professional is registered and chose not to add taxes.
    NotAdded,
    /// The professional has no GST/HST number: no tax may be charged.
    NotRegistered,
}

impl QuoteTaxTreatment {
    pub const ALL: [Self; 3] = [Self::Added, Self::NotAdded, Self::NotRegistered];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Added => "added",
            Self::NotAdded => "not_added",
            Self::NotRegistered => "not_registered",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == code)
    }

    /// What a professional's quote carries: `add_taxes` as they asked (`None`: added when
    /// they are registered), `registered` whether they hold a GST/HST number. `None` when
    /// they ask to add taxes without a number, which they may not.
    pub fn decide(add_taxes: Option<bool>, registered: bool) -> Option<Self> {
        match (add_taxes, registered) {
            (Some(true), false) => None,
            (_, false) => Some(Self::NotRegistered),
            (Some(false), true) => Some(Self::NotAdded),
            (None | Some(true), true) => Some(Self::Added),
        }
    }
}

impl TryFrom<String> for QuoteTaxTreatment {
    type Error = String;

    fn try_from(code: String) -> Result<Self, String> {
        Self::from_code(&code).ok_or_else(|| format!("unknown quote tax treatment {code:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taxes_are_added_by_default_only_when_registered() {
        use QuoteTaxTreatment as T;
        assert_eq!(T::decide(None, true), Some(T::Added));
        assert_eq!(T::decide(Some(true), true), Some(T::Added));
        assert_eq!(T::decide(Some(false), true), Some(T::NotAdded));
        assert_eq!(T::decide(None, false), Some(T::NotRegistered));
        assert_eq!(T::decide(Some(false), false), Some(T::NotRegistered));
        assert_eq!(T::decide(Some(true), false), None);
        for treatment in T::ALL {
            assert_eq!(T::try_from(treatment.as_str().to_owned()), Ok(treatment));
        }
        assert!(T::try_from("added ".to_owned()).is_err());
    }

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
