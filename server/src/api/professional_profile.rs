//! AccountsService's calls of a professional's own profile (the profile, the photo, the
//! licences, the review and the availability): decode, authorise the record, call
//! `crate::accounts::profile` and `crate::accounts::availability`, encode.

use repairs_proto::accounts as pb;
use tonic::Request;

use super::{
    account_view::professional,
    convert::{Reply, address_form, caller, language_from_proto, ok, sms_from_proto},
    professional_view::{experience_from_proto, licence_to_proto, photo_url},
};
use crate::{
    accounts::{self as rules, profile::ProfileForm},
    auth::access,
    domain::SmsUpdates,
    error::parse_id,
    state::AppState,
};

pub(super) async fn update_profile(
    state: &AppState,
    request: Request<pb::UpdateProfessionalProfileRequest>,
) -> Reply<pb::UpdateProfessionalProfileResponse> {
    let who = caller(&request)?;
    let req = request.into_inner();
    let id = access::own_or_given(&who, "id", &req.id)?;
    let profile = req.profile.unwrap_or_default();
    let fee = profile.minimum_fee;
    let form = ProfileForm {
        name: req.name,
        email: req.email,
        sms_updates: sms_from_proto(req.sms_updates).filter(|c| *c != SmsUpdates::NotAsked),
        language: language_from_proto(req.language),
        emergencies_any_hour: req.emergencies_any_hour,
        description: profile.description,
        registered_address: profile.registered_address,
        home_base: address_form(profile.home_base.unwrap_or_default()),
        available_days: profile.available_days,
        available_from: profile.available_from,
        available_to: profile.available_to,
        radius_km: profile.radius_km,
        service_ids: profile.service_ids,
        qualification: profile.qualification,
        experience: experience_from_proto(profile.experience),
        minimum_fee_cents: fee.as_ref().map(|m| m.amount_cents),
        minimum_fee_currency: fee.map(|m| m.currency).unwrap_or_default(),
        gst_hst_number: profile.gst_hst_number,
        qst_number: profile.qst_number,
    };
    rules::profile::save(state, id, form).await?;
    ok(pb::UpdateProfessionalProfileResponse {
        professional: Some(professional(state, id).await?),
    })
}

pub(super) async fn set_photo(
    state: &AppState,
    request: Request<pb::SetProfessionalPhotoRequest>,
) -> Reply<pb::SetProfessionalPhotoResponse> {
    let who = caller(&request)?;
    let req = request.into_inner();
    let id = access::own_or_given(&who, "id", &req.id)?;
    let key = rules::profile::set_photo(state, id, &req.content_type, req.content).await?;
    ok(pb::SetProfessionalPhotoResponse {
        photo_url: photo_url(state, Some(&key)),
    })
}

pub(super) async fn add_licence(
    state: &AppState,
    request: Request<pb::AddLicenceRequest>,
) -> Reply<pb::AddLicenceResponse> {
    let who = caller(&request)?;
    let req = request.into_inner();
    let id = access::own_or_given(&who, "professional_id", &req.professional_id)?;
    let row = rules::profile::add_licence(
        state,
        id,
        &req.label,
        &req.file_name,
        &req.content_type,
        req.content,
    )
    .await?;
    ok(pb::AddLicenceResponse {
        licence: Some(licence_to_proto(state, row)),
    })
}

pub(super) async fn delete_licence(
    state: &AppState,
    request: Request<pb::DeleteLicenceRequest>,
) -> Reply<pb::DeleteLicenceResponse> {
    let who = caller(&request)?;
    let req = request.into_inner();
    let id = access::own_or_given(&who, "professional_id", &req.professional_id)?;
    let licence_id = parse_id("licence_id", &req.licence_id)?;
    rules::profile::delete_licence(state, id, licence_id, req.end_live_quotes).await?;
    ok(pb::DeleteLicenceResponse {})
}

pub(super) async fn preview_delete_licence(
    state: &AppState,
    request: Request<pb::PreviewDeleteLicenceRequest>,
) -> Reply<pb::PreviewDeleteLicenceResponse> {
    let who = caller(&request)?;
    let req = request.into_inner();
    let id = access::own_or_given(&who, "professional_id", &req.professional_id)?;
    let licence_id = parse_id("licence_id", &req.licence_id)?;
    let deletion = rules::profile::preview_delete_licence(state, id, licence_id).await?;
    ok(pb::PreviewDeleteLicenceResponse {
        last_approved_licence: deletion.last_approved,
        live_quotes_ended: i32::try_from(deletion.live_quotes).unwrap_or(i32::MAX),
    })
}

pub(super) async fn submit_for_review(
    state: &AppState,
    request: Request<pb::SubmitProfileForReviewRequest>,
) -> Reply<pb::SubmitProfileForReviewResponse> {
    let who = caller(&request)?;
    let id = access::own_or_given(&who, "id", &request.get_ref().id)?;
    rules::profile::submit_for_review(state, id).await?;
    ok(pb::SubmitProfileForReviewResponse {
        professional: Some(professional(state, id).await?),
    })
}

pub(super) async fn set_availability(
    state: &AppState,
    request: Request<pb::SetProfessionalAvailabilityRequest>,
) -> Reply<pb::SetProfessionalAvailabilityResponse> {
    let who = caller(&request)?;
    let req = request.into_inner();
    let id = access::own_or_named_by_admin(&who, "id", &req.id)?;
    let end = |field: &str, time: Option<&prost_types::Timestamp>| {
        time.map(|t| super::convert::time_from_proto(field, t))
            .transpose()
    };
    let wanted = rules::availability::Wanted {
        paused_until: end("paused_until", req.paused_until.as_ref())?,
        on_call_until: end("on_call_until", req.on_call_until.as_ref())?,
    };
    rules::availability::set(state, &who, id, wanted).await?;
    ok(pb::SetProfessionalAvailabilityResponse {
        professional: Some(professional(state, id).await?),
    })
}
