//! Professional accounts, profiles and approval; distances and notifications (`/api/professionals`).

use axum::Json;
use axum::extract::{Path, RawQuery, Request};
use axum::routing;
use http::StatusCode;
use repairs_proto::accounts as pb;
use repairs_proto::types::Address;
use serde::Deserialize;
use serde_json::json;

use super::accounts_shared::{self, IdBody, account_id};
use super::auth::LegacyToken;
use super::body::{LegacyForm, LegacyJson, UploadedFile, text};
use super::catalogue::Catalogue;
use super::error::{ApiError, Reply};
use super::matching;
use super::paging::PAGE_SIZE;
use super::reviews;
use super::rpc::Rpc;
use super::shapes::{
    LegacyProfessional, LegacyRequest, cad, days_from_text, experience_from_text, fee_cents,
    home_address_line, language_from_text, list_values, membership_status, otp_verified,
    province_code, radius_km, sms_from_text, state_from_status, status_number, upload_content_type,
};
use super::table::{Call, Translation, get, post};

const SIGN_UP: Call = post("/api/professionals", "AccountsService.SignUp");
const LOG_IN: Call = post("/api/professionals/login", "AccountsService.LogIn");
const BY_TOKEN: Call = get(
    "/api/professionals/get-professional/{token}",
    "AccountsService.GetProfessional",
);
const CONTACT: Call = get(
    "/api/professionals/get-professionall/{id}",
    "AccountsService.GetProfessional",
);
const VIEW_PROFILE: Call = get(
    "/api/professionals/view-profile/{id}",
    "AccountsService.GetProfessional",
);
const LIST: Call = get("/api/professionals", "AccountsService.ListProfessionals");
const SMS_PREFERENCE: Call = post(
    "/api/professionals/get-sms-updates/",
    "AccountsService.UpdateSmsPreference",
);
const FORGOT_PASSWORD: Call = post(
    "/api/professionals/forgot-password",
    "AccountsService.RequestPasswordReset",
);
const RESET_PASSWORD: Call = post(
    "/api/professionals/reset-password",
    "AccountsService.ResetPassword",
);
const CHECK_RESET_LINK: Call = get(
    "/api/professionals/get-professional1/{id}/{token}",
    "AccountsService.CheckPasswordResetToken",
);
const PROFILE: Call = post(
    "/api/professionals/profile",
    "AccountsService.UpdateProfessionalProfile",
);
const LICENCE_UPDATE: Call = post(
    "/api/professionals/licenceUpdate",
    "AccountsService.AddLicence",
);
const WITHOUT_LICENCE: Call = post(
    "/api/professionals/withoutlicenceUpdate",
    "AccountsService.SubmitProfileForReview",
);
const DELETE: Call = get(
    "/api/professionals/delete-professional/{id}",
    "AccountsService.DeleteProfessional",
);
const APPROVE: Call = get(
    "/api/professionals/approve-professional/{id}",
    "AccountsService.ApproveProfessional",
);
const DENY: Call = post(
    "/api/professionals/disapprove-professional",
    "AccountsService.DenyProfessional",
);

const GET_DISTANCE: Call = post(
    "/api/professionals/get-distance",
    "MatchingService.GetDistance",
);
const EMAIL_PHONE: Call = post(
    "/api/professionals/email-phone",
    "MatchingService.NotifyProfessional",
);

/// Every legacy call of this area, as in proto/README.md.
const DASHBOARD: Call = post(
    "/api/professionals/professional-dashboard-data/",
    "MarketplaceService.GetProfessionalDashboard",
);

const GET_REVIEW: Call = get(
    "/api/professionals/get-review/{requestId}/{professionalId}",
    "MarketplaceService.GetRepairRequestReview",
);

pub const CALLS: &[Call] = &[
    GET_REVIEW,
    GET_DISTANCE,
    EMAIL_PHONE,
    SIGN_UP,
    LOG_IN,
    BY_TOKEN,
    CONTACT,
    VIEW_PROFILE,
    LIST,
    SMS_PREFERENCE,
    DASHBOARD,
    FORGOT_PASSWORD,
    RESET_PASSWORD,
    CHECK_RESET_LINK,
    PROFILE,
    LICENCE_UPDATE,
    WITHOUT_LICENCE,
    DELETE,
    APPROVE,
    DENY,
];

/// The account calls, distances and notifications (`matching.rs`), the dashboard and a
/// request's review (`reviews.rs`).
pub fn translations() -> Vec<Translation> {
    let role = pb::Role::Professional;
    vec![
        (SIGN_UP, routing::post(sign_up)),
        (LOG_IN, routing::post(log_in)),
        (BY_TOKEN, routing::get(by_token)),
        (CONTACT, routing::get(contact)),
        (VIEW_PROFILE, routing::get(view_profile)),
        (LIST, routing::get(list)),
        (SMS_PREFERENCE, accounts_shared::sms_preference()),
        (FORGOT_PASSWORD, accounts_shared::forgot_password(role)),
        (RESET_PASSWORD, accounts_shared::reset_password(role)),
        (CHECK_RESET_LINK, accounts_shared::check_reset_link(role)),
        (PROFILE, routing::post(profile)),
        (LICENCE_UPDATE, routing::post(licence_update)),
        (WITHOUT_LICENCE, routing::post(without_licence)),
        (DELETE, routing::get(delete)),
        (APPROVE, routing::get(approve)),
        (DENY, routing::post(deny)),
        (GET_DISTANCE, routing::post(matching::get_distance)),
        (EMAIL_PHONE, routing::post(matching::email_phone)),
        (DASHBOARD, routing::post(dashboard)),
        (GET_REVIEW, routing::get(reviews::get_one)),
    ]
}

/// `POST /api/professionals/professional-dashboard-data/` (`id`, or the token's; the other
/// fields the old client sent are read past: the server matches) -> GetProfessionalDashboard
/// -> `job_received` (requests they were told of), `job_applied`, `job_accepted`,
/// `job_completed` and the `latest_requests`, without the street. 409 with the reason
/// behind the membership gate.
async fn dashboard(rpc: Rpc, LegacyJson(body): LegacyJson<IdBody>) -> Reply {
    let counts = rpc
        .marketplace()
        .get_professional_dashboard(rpc.request(
            repairs_proto::marketplace::GetProfessionalDashboardRequest {
                professional_id: account_id(&body.id, &rpc),
            },
        ))
        .await?
        .into_inner();
    let catalogue = Catalogue::load(&rpc).await?;
    let latest: Vec<LegacyRequest> = counts
        .latest_repair_requests
        .iter()
        .map(|request| LegacyRequest::new(request, &catalogue))
        .collect();
    Ok(Json(json!({
        "job_received": counts.requests_received,
        "job_applied": counts.requests_quoted,
        "job_accepted": counts.requests_hired,
        "job_completed": counts.requests_completed,
        "latest_requests": latest,
    })))
}

/// The old profile form still carries card fields; they are read past and dropped at once,
/// never stored, forwarded or logged (membership payments go through the payment widget).
const CARD_FIELDS: [&str; 5] = [
    "professional_card",
    "card_number",
    "expireMM",
    "expireYY",
    "cvv",
];

async fn get_professional(rpc: &Rpc, id: String) -> Result<pb::Professional, ApiError> {
    Ok(rpc
        .accounts()
        .get_professional(rpc.request(pb::GetProfessionalRequest { id }))
        .await?
        .into_inner()
        .professional
        .unwrap_or_default())
}

/// What the old sign-up and login replies carried, which the app kept in the browser.
fn session_reply(session: &pb::Session, professional: &pb::Professional) -> serde_json::Value {
    json!({
        "token": session.access_token,
        "name": professional.name,
        "status": status_number(professional.state),
        "d_reason": professional.denial_reason,
        "f1_address": home_address_line(professional),
        "id": session.account_id,
        "_id": session.account_id,
    })
}

/// `POST /api/professionals` -> `{token, name, status: 0, d_reason: "", f1_address: "", id, _id}`.
async fn sign_up(rpc: Rpc, LegacyJson(body): LegacyJson<accounts_shared::SignUpBody>) -> Reply {
    let (session, account) = accounts_shared::sign_up(&rpc, pb::Role::Professional, body).await?;
    let professional = match account {
        Some(pb::sign_up_response::Account::Professional(professional)) => professional,
        _ => pb::Professional::default(),
    };
    let mut body = session_reply(&session, &professional);
    body["msg"] = json!("Registered Successfully");
    Ok(Json(body))
}

/// `POST /api/professionals/login` -> the sign-up reply plus `city`, `otp_verified` and
/// `membershipStatus` (the old app routes on them); 401 `{msg}` when refused. `city` is left
/// out until the profile has one: the old app tests `city !== undefined` to choose between
/// the request list and the profile form.
async fn log_in(rpc: Rpc, LegacyJson(body): LegacyJson<accounts_shared::LogInBody>) -> Reply {
    let (session, account) = accounts_shared::log_in(&rpc, pb::Role::Professional, body).await?;
    let professional = match account {
        Some(pb::log_in_response::Account::Professional(professional)) => professional,
        _ => pb::Professional::default(),
    };
    let city = professional
        .profile
        .as_ref()
        .and_then(|p| p.home_base.as_ref())
        .map(|home| home.city.clone())
        .filter(|city| !city.is_empty());
    let mut body = session_reply(&session, &professional);
    if let Some(city) = city {
        body["city"] = json!(city);
    }
    body["otp_verified"] = json!(otp_verified(professional.phone_verified));
    body["membershipStatus"] = json!(membership_status(professional.membership_active));
    Ok(Json(body))
}

/// `GET /api/professionals/get-professional/{token}`: the path's token is the session. Its
/// `sub` names the professional; the server verifies the token on GetProfessional.
async fn by_token(rpc: Rpc, Path(token): Path<String>) -> Reply<LegacyProfessional> {
    let token = LegacyToken::from_path(&token)?;
    let Some(id) = token.unverified_subject() else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "This session is not valid; please sign in again",
        ));
    };
    let rpc = rpc.with_token(token);
    let professional = get_professional(&rpc, id).await?;
    let catalogue = Catalogue::load(&rpc).await?;
    Ok(Json(LegacyProfessional::new(&professional, &catalogue)))
}

/// `GET /api/professionals/get-professionall/{id}` -> `{_id, phone, email, name, otp_verified}`.
async fn contact(rpc: Rpc, Path(id): Path<String>) -> Reply {
    let professional = get_professional(&rpc, id).await?;
    Ok(Json(json!({
        "_id": professional.id,
        "phone": professional.phone,
        "email": professional.email,
        "name": professional.name,
        "otp_verified": otp_verified(professional.phone_verified),
    })))
}

/// `GET /api/professionals/view-profile/{id}` -> the legacy professional record.
async fn view_profile(rpc: Rpc, Path(id): Path<String>) -> Reply<LegacyProfessional> {
    let professional = get_professional(&rpc, id).await?;
    let catalogue = Catalogue::load(&rpc).await?;
    Ok(Json(LegacyProfessional::new(&professional, &catalogue)))
}

/// `GET /api/professionals` -> ListProfessionals, every page, as one array of legacy records
/// (admin). `?status=0..3` keeps one legacy status only.
async fn list(rpc: Rpc, RawQuery(query): RawQuery) -> Reply<Vec<LegacyProfessional>> {
    let state = query
        .as_deref()
        .unwrap_or_default()
        .split('&')
        .find_map(|pair| pair.strip_prefix("status="))
        .and_then(state_from_status)
        .unwrap_or(pb::ProfessionalState::Unspecified);
    let catalogue = Catalogue::load(&rpc).await?;
    let mut records = Vec::new();
    let mut page_token = String::new();
    loop {
        let request = pb::ListProfessionalsRequest {
            page_size: PAGE_SIZE,
            page_token: page_token.clone(),
            state: state as i32,
            with_pending_change: false,
        };
        let page = rpc
            .accounts()
            .list_professionals(rpc.request(request))
            .await?
            .into_inner();
        records.extend(
            page.professionals
                .iter()
                .map(|professional| LegacyProfessional::new(professional, &catalogue)),
        );
        if page.next_page_token.is_empty() || page.next_page_token == page_token {
            break;
        }
        page_token = page.next_page_token;
    }
    Ok(Json(records))
}

/// The profile as the old multipart form sends it, in the server's terms. Names become ids
/// (specialisations, through the catalogue), provinces become codes, "30.00" becomes cents.
/// The old form has no sales tax numbers: those of `current` (the profile as saved) go
/// along unchanged, so a legacy save never erases them.
fn profile_request(
    form: &LegacyForm,
    id: String,
    catalogue: &Catalogue,
    current: Option<&pb::ProfessionalProfile>,
) -> pb::UpdateProfessionalProfileRequest {
    let fee = form.text(&["standard_fees", "minimum_fee"]);
    let profile = pb::ProfessionalProfile {
        description: form.text(&["description"]),
        registered_address: form.text(&["registered_address"]),
        home_base: Some(Address {
            line1: form.text(&["office_address"]),
            line2: String::new(),
            city: form.text(&["city"]),
            province: province_code(&form.text(&["state_or_province"])),
            postal_code: form.text(&["zipcode"]),
            country: "CA".to_owned(),
        }),
        available_days: days_from_text(&form.texts(&["availability_days", "availability_days[]"])),
        available_from: form.text(&["availability_hours1"]),
        available_to: form.text(&["availability_hours2"]),
        time_zone: String::new(),
        radius_km: radius_km(&form.text(&["radius_to_cater"])),
        service_ids: catalogue.ids(&form.texts(&[
            "specialisation",
            "specialisation[]",
            "specialization",
            "specialization[]",
        ])),
        qualification: form.text(&["qualification"]),
        experience: experience_from_text(&form.text(&["experience"])) as i32,
        minimum_fee: fee_cents(&fee).map(cad),
        emergencies_any_hour: false,
        gst_hst_number: current
            .map(|p| p.gst_hst_number.clone())
            .unwrap_or_default(),
        qst_number: current.map(|p| p.qst_number.clone()).unwrap_or_default(),
    };
    pb::UpdateProfessionalProfileRequest {
        id,
        name: form.text(&["name"]),
        email: form.text(&["email"]),
        sms_updates: sms_from_text(&form.text(&["sms_updates"])) as i32,
        language: language_from_text(&form.text(&["lang", "language"])) as i32,
        profile: Some(profile),
        // The old form has no such field: the choice made in the app stays.
        emergencies_any_hour: None,
    }
}

/// The first non-empty file of `names`.
fn first_file(form: &LegacyForm, names: &[&str]) -> Option<UploadedFile> {
    form.files(names).into_iter().find(|file| !file.is_empty())
}

/// `POST /api/professionals/profile` (multipart) -> UpdateProfessionalProfile, then
/// SetProfessionalPhoto when a photo came -> `{msg, professional}`.
async fn profile(rpc: Rpc, request: Request) -> Reply {
    let form = LegacyForm::read(request, &CARD_FIELDS).await?;
    let id = account_id(&form.text(&["id", "_id"]), &rpc);
    let catalogue = Catalogue::load(&rpc).await?;
    let current = get_professional(&rpc, id.clone()).await?;
    let update = profile_request(&form, id.clone(), &catalogue, current.profile.as_ref());
    let mut professional = rpc
        .accounts()
        .update_professional_profile(rpc.request(update))
        .await?
        .into_inner()
        .professional
        .unwrap_or_default();
    if let Some(photo) = first_file(&form, &["photo", "photo_id"]) {
        let request = pb::SetProfessionalPhotoRequest {
            id,
            content_type: upload_content_type(&photo.content_type, &photo.file_name),
            content: photo.bytes.to_vec(),
        };
        professional.photo_url = rpc
            .accounts()
            .set_professional_photo(rpc.request(request))
            .await?
            .into_inner()
            .photo_url;
    }
    Ok(Json(json!({
        "msg": "Profile Successfully Updated!",
        "professional": LegacyProfessional::new(&professional, &catalogue),
    })))
}

const LICENCE_UPDATED: &str = "Licence Successfully Updated!";

/// `POST /api/professionals/licenceUpdate` (multipart: id, textValues[], fileValues in the
/// same order) -> AddLicence per row, then SubmitProfileForReview -> `{ok: true, msg}`. A
/// refused row answers its own status with `{ok: false, msg}` (the old page reads `ok`); the
/// rows before it are kept.
async fn licence_update(rpc: Rpc, request: Request) -> Reply {
    let form = LegacyForm::read(request, &CARD_FIELDS)
        .await
        .map_err(ApiError::not_ok)?;
    let id = account_id(&form.text(&["id", "_id"]), &rpc);
    let labels = list_values(form.texts(&["textValues[]", "textValues"]));
    let files = form.files(&["fileValues", "fileValues[]"]);
    // Rows pair by position; a row whose file input was left empty uploads nothing.
    for (index, file) in files.iter().enumerate() {
        if file.is_empty() {
            continue;
        }
        let request = pb::AddLicenceRequest {
            professional_id: id.clone(),
            label: labels.get(index).cloned().unwrap_or_default(),
            file_name: file.file_name.clone(),
            content_type: upload_content_type(&file.content_type, &file.file_name),
            content: file.bytes.to_vec(),
        };
        rpc.accounts()
            .add_licence(rpc.request(request))
            .await
            .map_err(|status| ApiError::from(status).not_ok())?;
    }
    rpc.accounts()
        .submit_profile_for_review(rpc.request(pb::SubmitProfileForReviewRequest { id }))
        .await
        .map_err(|status| ApiError::from(status).not_ok())?;
    Ok(Json(json!({ "ok": true, "msg": LICENCE_UPDATED })))
}

/// `POST /api/professionals/withoutlicenceUpdate` -> SubmitProfileForReview (the id from the
/// body, or the token's). The other fields (phone, sms_updates, email, name, lang) were saved
/// with the profile and are not read again.
async fn without_licence(rpc: Rpc, LegacyJson(body): LegacyJson<IdBody>) -> Reply {
    let id = account_id(&body.id, &rpc);
    rpc.accounts()
        .submit_profile_for_review(rpc.request(pb::SubmitProfileForReviewRequest { id }))
        .await?;
    Ok(Json(json!({ "msg": LICENCE_UPDATED })))
}

/// `GET /api/professionals/delete-professional/{id}` -> DeleteProfessional (admin).
async fn delete(rpc: Rpc, Path(id): Path<String>) -> Reply {
    rpc.accounts()
        .delete_professional(rpc.request(pb::DeleteProfessionalRequest { id }))
        .await?;
    Ok(Json(json!({ "msg": "Deleted Successfully" })))
}

/// `GET /api/professionals/approve-professional/{id}` -> ApproveProfessional (admin).
async fn approve(rpc: Rpc, Path(id): Path<String>) -> Reply {
    rpc.accounts()
        .approve_professional(rpc.request(pb::ApproveProfessionalRequest { id }))
        .await?;
    Ok(Json(json!({ "msg": "Professional approved" })))
}

#[derive(Deserialize)]
struct DenyBody {
    #[serde(default, deserialize_with = "text")]
    id: String,
    #[serde(default, deserialize_with = "text")]
    reason: String,
}

/// `POST /api/professionals/disapprove-professional` {id, reason} -> DenyProfessional (admin).
async fn deny(rpc: Rpc, LegacyJson(body): LegacyJson<DenyBody>) -> Reply {
    let request = pb::DenyProfessionalRequest {
        id: body.id.trim().to_owned(),
        reason: body.reason,
    };
    rpc.accounts()
        .deny_professional(rpc.request(request))
        .await?;
    Ok(Json(json!({ "msg": "Professional denied" })))
}
