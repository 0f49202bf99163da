//! The professional's profile values and approval state.

use std::fmt;

use chrono::NaiveTime;

/// Where a professional stands with the admins, and the moves between states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfessionalState {
    WaitingForApproval,
    Approved,
    Denied,
    ProfileUpdated,
}

impl ProfessionalState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::WaitingForApproval => "waiting_for_approval",
            Self::Approved => "approved",
            Self::Denied => "denied",
            Self::ProfileUpdated => "profile_updated",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "waiting_for_approval" => Some(Self::WaitingForApproval),
            "approved" => Some(Self::Approved),
            "denied" => Some(Self::Denied),
            "profile_updated" => Some(Self::ProfileUpdated),
            _ => None,
        }
    }

    /// After the professional changes their profile: a decided profile is reviewed again;
    /// one still waiting keeps waiting.
    pub fn after_profile_change(self) -> Self {
        match self {
            Self::Approved | Self::Denied | Self::ProfileUpdated => Self::ProfileUpdated,
            Self::WaitingForApproval => Self::WaitingForApproval,
        }
    }

    /// Whether a change of what an admin vetted waits beside the profile as the
    /// professional's pending change (`store::pending_changes`) rather than going to review
    /// with the whole profile: so for an approved professional, who stays approved for what
    /// was approved, their quotes live.
    pub fn keeps_changes_pending(self) -> bool {
        self == Self::Approved
    }

    /// After the professional saves their profile. An edit of their own business alone
    /// (description, home base, days and hours, radius, minimum fee, language, email, alerts)
    /// takes effect at once and leaves the state as it is. What an admin vetted (the legal
    /// name, the registered address, the services offered, the qualification and experience)
    /// waits as a pending change for an approved professional ([`Self::keeps_changes_pending`]);
    /// anyone else's is saved and is a profile change ([`Self::after_profile_change`]).
    pub fn after_profile_edit(self, vetted_changed: bool) -> ProfileEdit {
        if self.keeps_changes_pending() {
            ProfileEdit::Pending
        } else if vetted_changed {
            ProfileEdit::Saved(self.after_profile_change())
        } else {
            ProfileEdit::Saved(self)
        }
    }

    pub fn can_approve(self) -> bool {
        self != Self::Approved
    }

    pub fn can_deny(self) -> bool {
        self != Self::Denied
    }
}

/// Where a saved profile's vetted part goes ([`ProfessionalState::after_profile_edit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileEdit {
    /// Saved with the profile; the professional is in this state after it.
    Saved(ProfessionalState),
    /// Kept as the pending change; the profile keeps the approved values and the state.
    Pending,
}

/// Whether an admin's refusal of a pending change leaves the professional unfit to take jobs,
/// so that they are no longer approved and their quotes end: it revoked `revoked` licences of
/// the approved profile and left it with `left` approved ones. Unfit means exactly "their last
/// approved licence revoked": a refusal that revokes nothing (the new licence or services
/// simply not accepted) never is, nor one that leaves a licence they were approved with.
pub fn unfit_after_refusal(revoked: usize, left: i64) -> bool {
    revoked > 0 && left == 0
}

/// Years of experience, the six choices of the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Experience {
    Under5,
    Five,
    FiveTo10,
    TenTo15,
    FifteenTo20,
    Over20,
}

impl Experience {
    pub const ALL: [Experience; 6] = [
        Self::Under5,
        Self::Five,
        Self::FiveTo10,
        Self::TenTo15,
        Self::FifteenTo20,
        Self::Over20,
    ];

    /// Stored and legacy spelling: "<5", "5", "5-10", "10-15", "15-20", ">20".
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Under5 => "<5",
            Self::Five => "5",
            Self::FiveTo10 => "5-10",
            Self::TenTo15 => "10-15",
            Self::FifteenTo20 => "15-20",
            Self::Over20 => ">20",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.as_str() == code.trim())
    }
}

/// A day of the week, Monday = 1 as in ISO 8601.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Weekday(u8);

impl Weekday {
    pub fn from_iso(n: i32) -> Option<Self> {
        u8::try_from(n)
            .ok()
            .filter(|n| (1..=7).contains(n))
            .map(Self)
    }

    pub fn iso(self) -> i16 {
        i16::from(self.0)
    }

    pub fn from_chrono(day: chrono::Weekday) -> Self {
        // number_from_monday is 1..=7 by definition.
        Self(u8::try_from(day.number_from_monday()).unwrap_or(1))
    }
}

/// A travel radius in whole km, 1 to 500.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RadiusKm(i32);

impl RadiusKm {
    pub fn parse(km: i32) -> Result<Self, String> {
        if (1..=500).contains(&km) {
            Ok(Self(km))
        } else {
            Err("enter a radius from 1 to 500 km".into())
        }
    }

    pub fn km(self) -> i32 {
        self.0
    }
}

/// A time of day as the form's "HH:MM".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct TimeOfDay(NaiveTime);

impl TimeOfDay {
    pub fn parse(raw: &str) -> Result<Self, String> {
        NaiveTime::parse_from_str(raw.trim(), "%H:%M")
            .map(Self)
            .map_err(|_| "enter a time as HH:MM, such as 08:30".to_owned())
    }

    pub fn from_time(time: NaiveTime) -> Self {
        Self(time)
    }

    pub fn time(self) -> NaiveTime {
        self.0
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.format("%H:%M"))
    }
}

/// A Canadian postal code, "A1A 1A1", with the letters Canada Post uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostalCode(String);

impl PostalCode {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let compact: String = raw
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .collect::<String>()
            .to_ascii_uppercase();
        let b = compact.as_bytes();
        let first_letters = b"ABCEGHJKLMNPRSTVXY";
        let letters = b"ABCEGHJKLMNPRSTVWXYZ";
        let ok = b.len() == 6
            && first_letters.contains(&b[0])
            && b[1].is_ascii_digit()
            && letters.contains(&b[2])
            && b[3].is_ascii_digit()
            && letters.contains(&b[4])
            && b[5].is_ascii_digit();
        if !ok {
            return Err("enter a Canadian postal code, such as T2P 1J9".into());
        }
        Ok(Self(format!("{} {}", &compact[..3], &compact[3..])))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Provinces and territories: two-letter code, English name, French name (the contract's
/// table, `repairs_proto::province`).
pub use repairs_proto::province::PROVINCES;

/// A province's two-letter code, from its code or its English or French name (in any case,
/// with or without accents and hyphens).
pub fn parse_province(raw: &str) -> Result<String, String> {
    super::Province::parse(raw).map(|province| province.code().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decided_profile_goes_back_to_review_when_changed() {
        use ProfessionalState::*;
        assert_eq!(Approved.after_profile_change(), ProfileUpdated);
        // Only an edit of what was vetted does; their own business alone keeps the state. An
        // approved professional's edit of what was vetted waits apart: they stay approved.
        assert_eq!(
            Denied.after_profile_edit(true),
            ProfileEdit::Saved(ProfileUpdated)
        );
        for state in [WaitingForApproval, Denied, ProfileUpdated] {
            assert_eq!(state.after_profile_edit(false), ProfileEdit::Saved(state));
        }
        for vetted_changed in [true, false] {
            assert_eq!(
                Approved.after_profile_edit(vetted_changed),
                ProfileEdit::Pending
            );
        }
        assert!(Approved.keeps_changes_pending() && !ProfileUpdated.keeps_changes_pending());
        assert_eq!(Denied.after_profile_change(), ProfileUpdated);
        assert_eq!(
            WaitingForApproval.after_profile_change(),
            WaitingForApproval
        );
        assert!(!Approved.can_approve());
        assert!(!Denied.can_deny());
        assert!(ProfileUpdated.can_approve() && ProfileUpdated.can_deny());
    }

    #[test]
    fn only_a_refusal_that_revokes_the_last_approved_licence_leaves_them_unfit() {
        assert!(unfit_after_refusal(1, 0));
        assert!(unfit_after_refusal(2, 0));
        assert!(
            !unfit_after_refusal(1, 1),
            "a licence they were approved with is left"
        );
        assert!(
            !unfit_after_refusal(0, 0),
            "nothing revoked: approved as they were"
        );
        assert!(!unfit_after_refusal(0, 3));
    }

    #[test]
    fn postal_codes_are_normalised() {
        assert_eq!(PostalCode::parse("t2p1j9").unwrap().as_str(), "T2P 1J9");
        assert_eq!(PostalCode::parse(" H2X 1Y4 ").unwrap().as_str(), "H2X 1Y4");
        for bad in ["D2P 1J9", "T2P 1J", "12345", "W2P 1J9", "T2P 1O9"] {
            assert!(PostalCode::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn values_of_the_form() {
        assert_eq!(Experience::from_code("5-10"), Some(Experience::FiveTo10));
        assert_eq!(Experience::from_code("7"), None);
        assert!(RadiusKm::parse(0).is_err() && RadiusKm::parse(501).is_err());
        assert_eq!(TimeOfDay::parse("08:30").unwrap().to_string(), "08:30");
        assert!(TimeOfDay::parse("25:00").is_err());
        assert_eq!(Weekday::from_iso(7).unwrap().iso(), 7);
        assert!(Weekday::from_iso(0).is_none());
        assert_eq!(parse_province("ab").unwrap(), "AB");
        assert_eq!(parse_province("Québec").unwrap(), "QC");
        assert_eq!(parse_province("british columbia").unwrap(), "BC");
        assert!(parse_province("XX").is_err());
    }
}
