//! What an admin vets of a professional's profile, as one value: the store reads and writes
//! it, the admins' review records it, the replies show it (`repairs.accounts.v1.VettedProfile`),
//! and [`VettedEdit`] decides where an edit of it goes.

use serde::Serialize;
use uuid::Uuid;

use super::{ProfessionalState, ProfileEdit};

/// The vetted part of a profile: the legal name, the registered address, the qualification,
/// the experience and the services offered (ids in id order, each once). Everything else of
/// a profile is the professional's own business and changes at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct VettedProfile {
    pub name: String,
    pub registered_address: String,
    pub qualification: String,
    pub experience: Option<String>,
    pub service_ids: Vec<Uuid>,
}

impl VettedProfile {
    /// The vetted values of a profile form, its services put in id order once each.
    pub fn new(
        name: String,
        registered_address: String,
        qualification: String,
        experience: Option<String>,
        mut service_ids: Vec<Uuid>,
    ) -> Self {
        service_ids.sort_unstable();
        service_ids.dedup();
        Self {
            name,
            registered_address,
            qualification,
            experience,
            service_ids,
        }
    }
}

/// Where a profile edit's vetted part goes, decided from the professional's state, the
/// approved values and the edited ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VettedEdit {
    /// What the profile keeps: the edited values, or the approved ones while an edit waits.
    pub profile: VettedProfile,
    /// For an approved professional, the pending change to record: `Some(values)` proposed,
    /// `None` when the approved values were saved again (a waiting change is taken back).
    /// Never recorded for anyone else (`ProfileEdit::Saved`).
    pub proposed: Option<VettedProfile>,
    /// Where it went, and the state after it.
    pub outcome: ProfileEdit,
}

impl VettedEdit {
    /// The edit of `approved` into `edited` by a professional in `state`
    /// (`ProfessionalState::after_profile_edit`).
    pub fn of(state: ProfessionalState, approved: VettedProfile, edited: VettedProfile) -> Self {
        let changed = approved != edited;
        let outcome = state.after_profile_edit(changed);
        match outcome {
            ProfileEdit::Saved(_) => Self {
                profile: edited,
                proposed: None,
                outcome,
            },
            ProfileEdit::Pending => Self {
                profile: approved,
                proposed: changed.then_some(edited),
                outcome,
            },
        }
    }

    /// The state the professional is in after the edit (`state` before it).
    pub fn next_state(&self, state: ProfessionalState) -> ProfessionalState {
        match self.outcome {
            ProfileEdit::Saved(next) => next,
            ProfileEdit::Pending => state,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(name: &str, services: &[u128]) -> VettedProfile {
        VettedProfile::new(
            name.to_owned(),
            "1 Main St".to_owned(),
            "Master plumber".to_owned(),
            Some("5".to_owned()),
            services.iter().map(|n| Uuid::from_u128(*n)).collect(),
        )
    }

    #[test]
    fn services_are_kept_in_id_order_once_each() {
        assert_eq!(
            profile("A", &[3, 1, 3, 2]).service_ids,
            profile("A", &[1, 2, 3]).service_ids
        );
        assert_eq!(profile("A", &[2, 1]), profile("A", &[1, 2, 2]));
    }

    #[test]
    fn an_approved_professional_s_edit_waits_and_the_profile_keeps_the_approved_values() {
        let (approved, edited) = (profile("A", &[1]), profile("B", &[1]));
        let edit = VettedEdit::of(
            ProfessionalState::Approved,
            approved.clone(),
            edited.clone(),
        );
        assert_eq!(edit.outcome, ProfileEdit::Pending);
        assert_eq!(edit.profile, approved);
        assert_eq!(edit.proposed, Some(edited));
        assert_eq!(
            edit.next_state(ProfessionalState::Approved),
            ProfessionalState::Approved
        );
        let same = VettedEdit::of(ProfessionalState::Approved, approved.clone(), approved);
        assert_eq!(
            same.proposed, None,
            "the approved values again take a change back"
        );
    }

    #[test]
    fn anyone_else_s_edit_is_saved_and_moves_the_state_when_it_changed() {
        for state in [
            ProfessionalState::WaitingForApproval,
            ProfessionalState::Denied,
            ProfessionalState::ProfileUpdated,
        ] {
            let (approved, edited) = (profile("A", &[1]), profile("A", &[2]));
            let edit = VettedEdit::of(state, approved.clone(), edited.clone());
            assert_eq!(edit.profile, edited);
            assert_eq!(edit.proposed, None);
            assert_eq!(
                edit.outcome,
                ProfileEdit::Saved(state.after_profile_change())
            );
            let same = VettedEdit::of(state, approved.clone(), approved);
            assert_eq!(same.outcome, ProfileEdit::Saved(state));
        }
    }
}
