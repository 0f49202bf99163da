//! How a professional reads in replies: the full record (own and admin views) and the
//! public profile customers see. File links are signed, expire, and are absolute: under
//! PUBLIC_URL, whose `/files/` the BFF serves, so that an app that calls gRPC alone can open
//! them (the gRPC listener serves no files).

use chrono::{Duration, Utc};
use repairs_proto::{accounts as pb, types};

use super::convert::{language_to_proto, sms_to_proto, timestamp};
use crate::{
    domain::{Experience, ProfessionalState, SmsUpdates},
    providers::storage::sign_file_url,
    state::AppState,
    store::{
        pending_changes::PendingChangeRow,
        professionals::{LicenceRow, ProfessionalRow, PublicProfessionalRow},
    },
};

/// Licence links work for an hour; photo links for a day (they are shown to anyone).
const LICENCE_LINK_LIFETIME: Duration = Duration::hours(1);
const PHOTO_LINK_LIFETIME: Duration = Duration::hours(24);

/// The signed link to stored file `key`, working for `lifetime`, under PUBLIC_URL.
pub fn file_link(state: &AppState, key: &str, lifetime: Duration) -> String {
    sign_file_url(state.file_link_key.as_slice(), key, Utc::now() + lifetime)
        .map(|path| state.config.links().absolute(&path))
        .unwrap_or_default()
}

pub fn photo_url(state: &AppState, photo_key: Option<&str>) -> String {
    photo_key
        .map(|key| file_link(state, key, PHOTO_LINK_LIFETIME))
        .unwrap_or_default()
}

pub fn experience_to_proto(code: Option<&str>) -> pb::Experience {
    match code.and_then(Experience::from_code) {
        Some(Experience::Under5) => pb::Experience::Under5,
        Some(Experience::Five) => pb::Experience::Experience5,
        Some(Experience::FiveTo10) => pb::Experience::Experience5To10,
        Some(Experience::TenTo15) => pb::Experience::Experience10To15,
        Some(Experience::FifteenTo20) => pb::Experience::Experience15To20,
        Some(Experience::Over20) => pb::Experience::Over20,
        None => pb::Experience::Unspecified,
    }
}

pub fn experience_from_proto(value: i32) -> Option<Experience> {
    match pb::Experience::try_from(value) {
        Ok(pb::Experience::Under5) => Some(Experience::Under5),
        Ok(pb::Experience::Experience5) => Some(Experience::Five),
        Ok(pb::Experience::Experience5To10) => Some(Experience::FiveTo10),
        Ok(pb::Experience::Experience10To15) => Some(Experience::TenTo15),
        Ok(pb::Experience::Experience15To20) => Some(Experience::FifteenTo20),
        Ok(pb::Experience::Over20) => Some(Experience::Over20),
        _ => None,
    }
}

pub fn licence_to_proto(state: &AppState, licence: LicenceRow) -> pb::Licence {
    pb::Licence {
        id: licence.id.to_string(),
        label: licence.label,
        file_url: file_link(state, &licence.file_key, LICENCE_LINK_LIFETIME),
        content_type: licence.content_type,
        upload_time: Some(timestamp(licence.uploaded_at)),
        awaiting_review: licence.awaiting_review,
    }
}

/// The change of what was vetted waiting beside the approved profile.
pub fn pending_change_to_proto(change: PendingChangeRow) -> pb::PendingChange {
    pb::PendingChange {
        proposed: change.proposed().map(|vetted| pb::VettedProfile {
            name: vetted.name,
            registered_address: vetted.registered_address,
            service_ids: vetted.service_ids.iter().map(ToString::to_string).collect(),
            qualification: vetted.qualification,
            experience: experience_to_proto(vetted.experience.as_deref()) as i32,
        }),
        licences_awaiting_review: i32::try_from(change.licences_awaiting_review)
            .unwrap_or(i32::MAX),
        revision: change.revision,
        create_time: Some(timestamp(change.created_at)),
        update_time: Some(timestamp(change.updated_at)),
    }
}

fn cad(cents: Option<i64>) -> Option<types::Money> {
    cents.map(|amount_cents| types::Money {
        amount_cents,
        currency: "CAD".to_owned(),
    })
}

pub fn to_proto(
    state: &AppState,
    row: ProfessionalRow,
    licences: Vec<LicenceRow>,
) -> pb::Professional {
    let profile = row.profile_saved_at.map(|_| pb::ProfessionalProfile {
        description: row.description.clone(),
        registered_address: row.registered_address.clone(),
        home_base: Some(types::Address {
            line1: row.home_line1.clone(),
            line2: row.home_line2.clone(),
            city: row.home_city.clone(),
            province: row.home_province.clone(),
            postal_code: row.home_postal_code.clone(),
            country: "CA".to_owned(),
        }),
        available_days: row.available_days.iter().map(|d| i32::from(*d)).collect(),
        available_from: row.available_from.format("%H:%M").to_string(),
        available_to: row.available_to.format("%H:%M").to_string(),
        time_zone: row.time_zone.clone(),
        radius_km: row.radius_km.unwrap_or_default(),
        service_ids: row.service_ids.iter().map(ToString::to_string).collect(),
        qualification: row.qualification.clone(),
        experience: experience_to_proto(row.experience.as_deref()) as i32,
        minimum_fee: cad(row.minimum_fee_cents),
        emergencies_any_hour: row.emergencies_any_hour,
        gst_hst_number: row.gst_hst_number.clone().unwrap_or_default(),
        qst_number: row.qst_number.clone().unwrap_or_default(),
    });
    let licences = licences
        .into_iter()
        .map(|l| licence_to_proto(state, l))
        .collect();
    let now = Utc::now();
    pb::Professional {
        id: row.id.to_string(),
        photo_url: photo_url(state, row.photo_key.as_deref()),
        name: row.name.clone(),
        email: row.email.clone(),
        phone: row.phone.clone().unwrap_or_default(),
        phone_verified: row.phone_verified,
        sms_updates: sms_to_proto(SmsUpdates::from_code(&row.sms_updates).unwrap_or_default())
            as i32,
        language: language_to_proto(row.language) as i32,
        state: state_to_proto(row.state()) as i32,
        denial_reason: row.denial_reason.clone(),
        profile,
        licences,
        membership_active: row.membership_expires_at.is_some_and(|end| end > now),
        membership_expire_time: row.membership_expires_at.map(timestamp),
        approve_time: row.approved_at.map(timestamp),
        create_time: Some(timestamp(row.created_at)),
        update_time: Some(timestamp(row.updated_at)),
        // An ended window the housekeeping pass has not cleared yet is over all the same.
        paused_until: row.paused_until.filter(|end| *end > now).map(timestamp),
        on_call_until: row.on_call_until.filter(|end| *end > now).map(timestamp),
        // Read apart, by the one professional's view (`account_view::professional`).
        pending_change: None,
        licence_needed_since: row.licence_needed_since.map(timestamp),
    }
}

/// What customers see, with the reviews in short.
pub fn to_public(state: &AppState, row: PublicProfessionalRow) -> pb::PublicProfessional {
    pb::PublicProfessional {
        id: row.id.to_string(),
        photo_url: photo_url(state, row.photo_key.as_deref()),
        name: row.name,
        description: row.description,
        radius_km: row.radius_km.unwrap_or_default(),
        experience: experience_to_proto(row.experience.as_deref()) as i32,
        minimum_fee: cad(row.minimum_fee_cents),
        average_rating_centi: (row.reviews.average_rating * 100.0).round() as i32,
        review_count: i32::try_from(row.reviews.review_count).unwrap_or(i32::MAX),
    }
}

pub fn state_to_proto(state: ProfessionalState) -> pb::ProfessionalState {
    match state {
        ProfessionalState::WaitingForApproval => pb::ProfessionalState::WaitingForApproval,
        ProfessionalState::Approved => pb::ProfessionalState::Approved,
        ProfessionalState::Denied => pb::ProfessionalState::Denied,
        ProfessionalState::ProfileUpdated => pb::ProfessionalState::ProfileUpdated,
    }
}

pub fn state_from_proto(value: i32) -> Option<ProfessionalState> {
    match pb::ProfessionalState::try_from(value) {
        Ok(pb::ProfessionalState::WaitingForApproval) => {
            Some(ProfessionalState::WaitingForApproval)
        }
        Ok(pb::ProfessionalState::Approved) => Some(ProfessionalState::Approved),
        Ok(pb::ProfessionalState::Denied) => Some(ProfessionalState::Denied),
        Ok(pb::ProfessionalState::ProfileUpdated) => Some(ProfessionalState::ProfileUpdated),
        _ => None,
    }
}
