//! The professional's profile: saving it (validated field by field, the home base located
//! once from its postal code), the photo, licence documents, and submitting for review.

use bytes::Bytes;
use chrono::{NaiveTime, Utc};
use repairs_proto::limits::professional_profile::{
    DESCRIPTION_MAX_LEN, QUALIFICATION_MAX_LEN, REGISTERED_ADDRESS_MAX_LEN,
};
use uuid::Uuid;

use super::removal::discard_file;
use crate::{
    domain::{
        Address, AddressForm, Email, Experience, GstHstNumber, Language, PersonName, QstNumber,
        RadiusKm, SmsUpdates, TimeOfDay, VettedProfile, Weekday,
        text::{bounded_text, optional_text},
    },
    error::{ApiError, ApiResult, ErrorReason, FieldViolation, Violations},
    providers::{
        Precision,
        geocoding::service::AddressText,
        storage::{ContentKind, sniff_upload},
    },
    state::AppState,
    store::{
        professionals::{self, LicenceAdded, LicenceDeleted, LicenceRow, ProfileUpdate},
        services,
    },
};

/// Uploads are limited to 5 MiB.
pub const MAX_UPLOAD_BYTES: usize = 5 * 1024 * 1024;
/// The profile screen lists up to 11 licences.
pub const MAX_LICENCES: i64 = 11;
/// Minimum fees up to 100 000.00 CAD.
const MAX_FEE_CENTS: i64 = 10_000_000;

/// The profile as typed, before validation (transport-free).
#[derive(Debug, Default, Clone)]
pub struct ProfileForm {
    pub name: String,
    pub email: String,
    /// `None` keeps the current choice (as does `language`).
    pub sms_updates: Option<SmsUpdates>,
    pub language: Option<Language>,
    /// `None` keeps the current choice.
    pub emergencies_any_hour: Option<bool>,
    pub description: String,
    pub registered_address: String,
    pub home_base: AddressForm,
    pub available_days: Vec<i32>,
    pub available_from: String,
    pub available_to: String,
    pub radius_km: i32,
    pub service_ids: Vec<String>,
    pub qualification: String,
    pub experience: Option<Experience>,
    pub minimum_fee_cents: Option<i64>,
    pub minimum_fee_currency: String,
    /// Sales tax registrations as typed; empty: not registered.
    pub gst_hst_number: String,
    pub qst_number: String,
}

fn time_or(raw: &str, default: NaiveTime) -> Result<NaiveTime, String> {
    if raw.trim().is_empty() {
        Ok(default)
    } else {
        TimeOfDay::parse(raw).map(TimeOfDay::time)
    }
}

pub async fn save(state: &AppState, id: Uuid, form: ProfileForm) -> ApiResult<()> {
    let mut v = Violations::default();
    let name = v.check("name", PersonName::parse(&form.name));
    let email = v.check(
        "email",
        Email::parse(&form.email).map_err(|e| e.to_string()),
    );
    let description = v.check(
        "profile.description",
        bounded_text(&form.description, "a description", DESCRIPTION_MAX_LEN),
    );
    let registered_address = v.check(
        "profile.registered_address",
        bounded_text(
            &form.registered_address,
            "the registered address",
            REGISTERED_ADDRESS_MAX_LEN,
        ),
    );
    let home = v.check_parts(
        "profile.home_base",
        Address::parse_with_postal_code(&form.home_base),
    );
    let mut days: Vec<i16> = form
        .available_days
        .iter()
        .filter_map(|d| Weekday::from_iso(*d))
        .map(Weekday::iso)
        .collect();
    days.sort_unstable();
    days.dedup();
    if days.is_empty() || days.len() != form.available_days.len() {
        v.0.push(FieldViolation::new(
            "profile.available_days",
            "select at least one available day",
        ));
    }
    let from = v.check(
        "profile.available_from",
        time_or(&form.available_from, NaiveTime::MIN),
    );
    let to = v.check(
        "profile.available_to",
        time_or(
            &form.available_to,
            NaiveTime::from_hms_opt(23, 59, 0).unwrap_or(NaiveTime::MIN),
        ),
    );
    if let (Some(from), Some(to)) = (from, to)
        && to <= from
    {
        v.0.push(FieldViolation::new(
            "profile.available_to",
            "the end time must be after the start time",
        ));
    }
    let radius = v.check("profile.radius_km", RadiusKm::parse(form.radius_km));
    let service_ids: Vec<Uuid> = form
        .service_ids
        .iter()
        .filter_map(|s| Uuid::parse_str(s.trim()).ok())
        .collect();
    if service_ids.is_empty() {
        v.0.push(FieldViolation::new(
            "profile.service_ids",
            "select at least one specialisation",
        ));
    } else if service_ids.len() != form.service_ids.len()
        || !services::unknown_ids(&state.db, &service_ids)
            .await?
            .is_empty()
    {
        v.0.push(FieldViolation::new(
            "profile.service_ids",
            "choose specialisations from the list",
        ));
    }
    let qualification = v.check(
        "profile.qualification",
        optional_text(
            &form.qualification,
            "the qualification",
            QUALIFICATION_MAX_LEN,
        ),
    );
    let experience = v.check(
        "profile.experience",
        form.experience
            .ok_or_else(|| "choose your experience".to_owned()),
    );
    let fee = v.check(
        "profile.minimum_fee",
        match (form.minimum_fee_cents, form.minimum_fee_currency.as_str()) {
            (None, _) => Err("enter your minimum fee, such as 30.00".to_owned()),
            (Some(_), c) if !c.is_empty() && c != "CAD" => {
                Err("fees are in Canadian dollars (CAD)".to_owned())
            }
            (Some(cents), _) if !(0..=MAX_FEE_CENTS).contains(&cents) => {
                Err("enter a fee from 0 to 100 000 dollars".to_owned())
            }
            (Some(cents), _) => Ok(cents),
        },
    );
    let (gst_hst_number, qst_number) = tax_numbers(&mut v, &form);
    // The office is placed at its door or street (with Photon), else its full postal code or
    // area: never at a mere town.
    let place = match &home {
        Some(home) => {
            let found = state
                .geocoding
                .locate(AddressText::of(home), form.language.unwrap_or_default())
                .await?
                .filter(|located| located.precision <= Precision::PostalArea);
            if found.is_none() {
                v.0.push(FieldViolation::new(
                    "profile.home_base.postal_code",
                    "we could not find this postal code",
                ));
            }
            found
        }
        None => None,
    };
    let (
        Some(name),
        Some(email),
        Some(description),
        Some(registered_address),
        Some(home),
        Some(from),
        Some(to),
        Some(radius),
        Some(qualification),
        Some(experience),
        Some(fee),
        Some(place),
        Some(gst_hst_number),
        Some(qst_number),
        true,
    ) = (
        name,
        email,
        description,
        registered_address,
        home,
        from,
        to,
        radius,
        qualification,
        experience,
        fee,
        place,
        gst_hst_number,
        qst_number,
        v.0.is_empty(),
    )
    else {
        return Err(ApiError::invalid_fields(v.0));
    };
    let update = ProfileUpdate {
        vetted: VettedProfile::new(
            name.as_str().to_owned(),
            registered_address,
            qualification,
            Some(experience.as_str().to_owned()),
            service_ids,
        ),
        email,
        sms_updates: form.sms_updates,
        language: form.language,
        emergencies_any_hour: form.emergencies_any_hour,
        description,
        home,
        home_latitude: place.place.latitude,
        home_longitude: place.place.longitude,
        home_placed_by: place.precision.as_str(),
        time_zone: place.place.time_zone,
        available_days: days,
        available_from: from,
        available_to: to,
        radius_km: radius.km(),
        minimum_fee_cents: fee,
        gst_hst_number,
        qst_number,
    };
    // An approved professional's edit of what was vetted waits for an admin
    // (`vetting`); they stay approved and their quotes live.
    professionals::save_profile(&state.db, id, &update)
        .await?
        .ok_or_else(|| crate::error::not_found("professional"))?;
    Ok(())
}

/// The registration numbers (own-business fields, saved at once without review), each
/// `Some(None)` when left out; `None` with the violation recorded when malformed, and a QST
/// number without a GST/HST one is refused (QST is collected alongside the GST).
fn tax_numbers(
    v: &mut Violations,
    form: &ProfileForm,
) -> (Option<Option<GstHstNumber>>, Option<Option<QstNumber>>) {
    let gst_hst = v.check(
        "profile.gst_hst_number",
        GstHstNumber::parse_optional(&form.gst_hst_number),
    );
    let qst = v.check(
        "profile.qst_number",
        QstNumber::parse_optional(&form.qst_number),
    );
    if let (Some(None), Some(Some(_))) = (&gst_hst, &qst) {
        v.0.push(FieldViolation::new(
            "profile.qst_number",
            "give your GST/HST number with your QST number",
        ));
        return (gst_hst, None);
    }
    (gst_hst, qst)
}

pub async fn set_photo(
    state: &AppState,
    id: Uuid,
    content_type: &str,
    content: Vec<u8>,
) -> ApiResult<String> {
    let kind = sniff_upload(
        &content,
        content_type,
        ContentKind::IMAGES,
        MAX_UPLOAD_BYTES,
    )
    .map_err(|e| ApiError::upload("content", e))?;
    let key = format!(
        "professionals/{id}/photo-{}.{}",
        Uuid::now_v7(),
        kind.extension()
    );
    state
        .storage
        .put(&key, kind.content_type(), Bytes::from(content))
        .await?;
    // The file is stored first; whichever of the two files ends up unreferenced goes.
    match professionals::set_photo(&state.db, id, &key).await {
        Ok(Some(previous)) => {
            if let Some(old) = previous {
                discard_file(state, &old).await;
            }
            Ok(key)
        }
        Ok(None) => {
            discard_file(state, &key).await;
            Err(crate::error::not_found("professional"))
        }
        Err(error) => {
            discard_file(state, &key).await;
            Err(error.into())
        }
    }
}

pub async fn add_licence(
    state: &AppState,
    id: Uuid,
    label: &str,
    file_name: &str,
    content_type: &str,
    content: Vec<u8>,
) -> ApiResult<LicenceRow> {
    let label = bounded_text(label, "what the licence is for", 100)
        .map_err(|e| ApiError::invalid("label", e))?;
    let kind = sniff_upload(
        &content,
        content_type,
        ContentKind::IMAGES_AND_PDF,
        MAX_UPLOAD_BYTES,
    )
    .map_err(|e| ApiError::upload("content", e))?;
    let licence_id = Uuid::now_v7();
    let key = format!(
        "professionals/{id}/licences/{licence_id}.{}",
        kind.extension()
    );
    state
        .storage
        .put(&key, kind.content_type(), Bytes::from(content))
        .await?;
    let mut row = LicenceRow {
        id: licence_id,
        professional_id: id,
        label,
        file_key: key,
        file_name: file_name
            .chars()
            .filter(|c| !c.is_control())
            .take(200)
            .collect(),
        content_type: kind.content_type().to_owned(),
        uploaded_at: Utc::now(),
        awaiting_review: false,
    };
    let refused = match professionals::add_licence(&state.db, &row, MAX_LICENCES).await {
        Ok(LicenceAdded::Pending) => {
            // Waits for an admin in the approved professional's pending change.
            row.awaiting_review = true;
            return Ok(row);
        }
        Ok(LicenceAdded::ToProfile) => {
            // The licence's own transaction sent the profile back for review.
            sent_back_for_review(state, id, Marked::Already).await?;
            return Ok(row);
        }
        Ok(LicenceAdded::NoSuchProfessional) => crate::error::not_found("professional"),
        Ok(LicenceAdded::Full) => ApiError::FailedPrecondition {
            reason: ErrorReason::TooManyLicences,
            message: format!("a profile holds at most {MAX_LICENCES} licences; remove one first"),
        },
        Err(error) => error.into(),
    };
    // The file was stored first; nothing refers to it now.
    discard_file(state, &row.file_key).await;
    Err(refused)
}

/// Removes a licence. The last one an approved professional was approved with only when
/// `end_live_quotes` confirms it: they then need a new one, and their live quotes are
/// withdrawn (customers told) in the same transaction.
pub async fn delete_licence(
    state: &AppState,
    id: Uuid,
    licence_id: Uuid,
    end_live_quotes: bool,
) -> ApiResult<()> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let deleted = professionals::delete_licence(&mut tx, id, licence_id, end_live_quotes).await?;
    if let LicenceDeleted::LastApproved(_) = &deleted {
        crate::quotes::withdraw_all_of(&mut tx, id).await?;
    }
    tx.commit().await?;
    state.outbox.wake();
    match deleted {
        LicenceDeleted::NotFound => Err(crate::error::not_found("licence")),
        LicenceDeleted::LastNotConfirmed => Err(ApiError::FailedPrecondition {
            reason: ErrorReason::LastApprovedLicence,
            message: "this is your last approved licence: deleting it ends your live quotes \
                      and you get no jobs until a new one is approved; confirm to go on"
                .to_owned(),
        }),
        LicenceDeleted::Pending(key) | LicenceDeleted::LastApproved(key) => {
            discard_file(state, &key).await;
            Ok(())
        }
        LicenceDeleted::FromProfile(key) => {
            discard_file(state, &key).await;
            sent_back_for_review(state, id, Marked::NotYet).await
        }
    }
}

/// What deleting a licence of professional `id` would end (PreviewDeleteLicence).
pub async fn preview_delete_licence(
    state: &AppState,
    id: Uuid,
    licence_id: Uuid,
) -> ApiResult<professionals::LicenceDeletion> {
    let mut conn = state.db.acquire().await?;
    professionals::licence_deletion(&mut conn, id, licence_id)
        .await?
        .ok_or_else(|| crate::error::not_found("licence"))
}

/// "Continue without licence update": a denied profile goes back to the admins as it is; an
/// approved one stays approved (an edit of what was vetted waits as their pending change;
/// one of their own business alone never waits at all).
pub async fn submit_for_review(state: &AppState, id: Uuid) -> ApiResult<()> {
    let row = professionals::get(&state.db, id)
        .await?
        .ok_or_else(|| crate::error::not_found("professional"))?;
    if row.profile_saved_at.is_none() {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::ProfileIncomplete,
            message: "fill in and save your profile first".to_owned(),
        });
    }
    sent_back_for_review(state, id, Marked::Resubmitted).await
}

/// Whether the profile was already marked changed by the caller's own transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marked {
    Already,
    NotYet,
    /// Submitted again as it is: marked changed unless approved.
    Resubmitted,
}

/// The profile of a professional who is not approved changed: back to the admins if it was
/// decided, and their waiting quotes (of an approval that lapsed before) withdrawn unless
/// they may be hired, customers told, both in one transaction.
async fn sent_back_for_review(state: &AppState, id: Uuid, marked: Marked) -> ApiResult<()> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    match marked {
        Marked::Already => {}
        Marked::NotYet => {
            professionals::mark_profile_changed(&mut *tx, id).await?;
        }
        Marked::Resubmitted => {
            professionals::mark_resubmitted(&mut *tx, id).await?;
        }
    }
    crate::quotes::withdraw_unless_hireable(&mut tx, id).await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok(())
}
