//! Professional accounts: the profile, its services and licences, and the approval state.

use chrono::{DateTime, NaiveTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{page::PageRequest, pending_changes, professional_services};
use crate::domain::{
    Address, Email, GstHstNumber, Language, PostalCode, ProfessionalState, ProfileEdit, QstNumber,
    SmsUpdates, VettedEdit, VettedProfile,
};
use crate::tax::Registrations;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProfessionalRow {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub phone_verified: bool,
    pub sms_updates: String,
    pub language: Language,
    pub state: String,
    pub denial_reason: String,
    pub approved_at: Option<DateTime<Utc>>,
    pub profile_saved_at: Option<DateTime<Utc>>,
    pub description: String,
    pub registered_address: String,
    pub home_line1: String,
    pub home_line2: String,
    pub home_city: String,
    pub home_province: String,
    pub home_postal_code: String,
    pub time_zone: String,
    pub available_days: Vec<i16>,
    pub available_from: NaiveTime,
    pub available_to: NaiveTime,
    pub radius_km: Option<i32>,
    pub qualification: String,
    pub experience: Option<String>,
    pub minimum_fee_cents: Option<i64>,
    /// Told of emergencies outside their hours when nobody answered in time.
    pub emergencies_any_hour: bool,
    pub photo_key: Option<String>,
    pub membership_expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Paused until then, as stored (the rule compares it with its instant).
    pub paused_until: Option<DateTime<Utc>>,
    /// On call until then, as stored.
    pub on_call_until: Option<DateTime<Utc>>,
    /// Service ids, in catalogue order.
    pub service_ids: Vec<Uuid>,
    /// Sales tax registrations, normalised; `None` when not registered.
    pub gst_hst_number: Option<String>,
    pub qst_number: Option<String>,
    /// Since when they need a new licence (they deleted the last one they were approved with).
    pub licence_needed_since: Option<DateTime<Utc>>,
}

impl ProfessionalRow {
    pub fn state(&self) -> ProfessionalState {
        ProfessionalState::from_code(&self.state).unwrap_or(ProfessionalState::WaitingForApproval)
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LicenceRow {
    pub id: Uuid,
    pub professional_id: Uuid,
    pub label: String,
    pub file_key: String,
    pub file_name: String,
    pub content_type: String,
    pub uploaded_at: DateTime<Utc>,
    /// Part of the pending change, waiting for an admin (set by [`add_licence`]).
    pub awaiting_review: bool,
}

const SELECT: &str = "select p.id, p.name, p.email::text as email, p.phone, p.phone_verified,
    p.sms_updates, p.language, p.state, p.denial_reason, p.approved_at, p.profile_saved_at,
    p.description, p.registered_address, p.home_line1, p.home_line2, p.home_city,
    p.home_province, p.home_postal_code, p.time_zone, p.available_days, p.available_from,
    p.available_to, p.radius_km, p.qualification, p.experience, p.minimum_fee_cents,
    p.emergencies_any_hour, p.photo_key, p.membership_expires_at, p.created_at, p.updated_at,
    p.paused_until, p.on_call_until, p.gst_hst_number, p.qst_number, p.licence_needed_since,
    coalesce((select array_agg(ps.service_id order by s.position)
              from professional_services ps join services s on s.id = ps.service_id
              where ps.professional_id = p.id), '{}') as service_ids
    from professionals p";

pub async fn get(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<ProfessionalRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} where p.id = $1")))
        .bind(id)
        .fetch_optional(db)
        .await
}

/// A page of professionals, newest first, in `state` if given, and only those whose pending
/// change waits when `with_pending_change`.
pub async fn list(
    db: &PgPool,
    state: Option<ProfessionalState>,
    with_pending_change: bool,
    page: &PageRequest,
) -> sqlx::Result<Vec<ProfessionalRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where ($1::text is null or p.state = $1)
           and ($2::timestamptz is null or (p.created_at, p.id) < ($2, $3))
           and (not $5 or exists (select 1 from professional_pending_changes c
                                  where c.professional_id = p.id))
         order by p.created_at desc, p.id desc limit $4"
    )))
    .bind(state.map(ProfessionalState::as_str))
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .bind(with_pending_change)
    .fetch_all(db)
    .await
}

/// What customers see of a professional.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PublicProfessionalRow {
    pub id: Uuid,
    pub name: String,
    pub photo_key: Option<String>,
    pub description: String,
    pub radius_km: Option<i32>,
    pub experience: Option<String>,
    pub minimum_fee_cents: Option<i64>,
    #[sqlx(flatten)]
    pub reviews: super::reviews::ReviewSummary,
    /// Approved by an admin: anyone may see it (otherwise [`PublicViewer::may_see`]).
    pub approved: bool,
}

/// Who asks for a public profile, for [`get_public`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PublicViewer {
    Anyone,
    /// A signed-in professional: their own profile shows whatever its state.
    Professional(Uuid),
    /// Admins see every profile.
    Admin,
}

impl PublicViewer {
    /// Approved professionals only, but for the professional themself and admins.
    pub fn may_see(self, profile: &PublicProfessionalRow) -> bool {
        profile.approved
            || match self {
                Self::Anyone => false,
                Self::Professional(own) => own == profile.id,
                Self::Admin => true,
            }
    }
}

/// Public profiles by id, read together when calls come at once (`batched`).
pub type PublicProfiles = super::batched::Batched<PublicProfessionalRow>;

/// Public profiles read on `reads`, at most `runners` statements at once.
pub fn public_profiles(reads: super::reads::Reads, runners: u32) -> PublicProfiles {
    let statement = format!(
        "select id, name, photo_key, description, radius_km, experience, minimum_fee_cents,
                state = 'approved' as approved, {reviews}
         from professionals p
         where id = any($1)",
        reviews = super::reviews::summary_columns("p.id"),
    );
    PublicProfiles::new(reads, statement.into(), |row| row.id, runners)
}

/// A professional's public profile, if `viewer` may see it ([`PublicViewer::may_see`]).
#[tracing::instrument(skip_all)]
pub async fn get_public(
    profiles: &PublicProfiles,
    id: Uuid,
    viewer: PublicViewer,
) -> sqlx::Result<Option<PublicProfessionalRow>> {
    Ok(profiles
        .get(id)
        .await?
        .filter(|profile| viewer.may_see(profile)))
}

/// The profile as saved: every field replaced, but SMS choice, language and the choice of
/// emergencies at any hour, kept when `None`.
#[derive(Debug, Clone)]
pub struct ProfileUpdate {
    /// What an admin vets: saved, or kept as a pending change ([`VettedEdit`]).
    pub vetted: VettedProfile,
    pub email: Email,
    pub sms_updates: Option<SmsUpdates>,
    pub language: Option<Language>,
    pub emergencies_any_hour: Option<bool>,
    pub description: String,
    pub home: Address<PostalCode>,
    pub home_latitude: f64,
    pub home_longitude: f64,
    /// How precisely the office was placed (`Precision::as_str`).
    pub home_placed_by: &'static str,
    pub time_zone: String,
    pub available_days: Vec<i16>,
    pub available_from: NaiveTime,
    pub available_to: NaiveTime,
    pub radius_km: i32,
    pub minimum_fee_cents: i64,
    /// Own-business fields: saved as given, never reviewed.
    pub gst_hst_number: Option<GstHstNumber>,
    pub qst_number: Option<QstNumber>,
}

/// Saves the profile, in one transaction. The vetted part goes where [`VettedEdit`] sends
/// it: an approved professional's is kept as their pending change (the profile keeps the
/// approved values, and the state), anyone else's is saved and moves the state when it
/// changed. Answers `None` when there is no such
/// professional, otherwise where the vetted part went.
pub async fn save_profile(
    db: &PgPool,
    id: Uuid,
    p: &ProfileUpdate,
) -> sqlx::Result<Option<ProfileEdit>> {
    let mut tx = crate::store::transaction::begin(db).await?;
    let Some(current) = lock_state(&mut tx, id).await? else {
        return Ok(None);
    };
    let Some(approved) = pending_changes::approved(&mut tx, id).await? else {
        return Ok(None);
    };
    let edit = VettedEdit::of(current, approved, p.vetted.clone());
    if edit.outcome == ProfileEdit::Pending {
        pending_changes::propose(&mut tx, id, edit.proposed.as_ref()).await?;
    }
    let (vetted, next) = (&edit.profile, edit.next_state(current));
    sqlx::query(
        "update professionals set name = $2, email = $3, sms_updates = coalesce($4, sms_updates),
            language = coalesce($5, language), description = $6, registered_address = $7,
            home_line1 = $8, home_line2 = $9, home_city = $10, home_province = $11,
            home_postal_code = $12, home_latitude = $13, home_longitude = $14, time_zone = $15,
            available_days = $16, available_from = $17, available_to = $18, radius_km = $19,
            qualification = $20, experience = $21, minimum_fee_cents = $22, state = $23,
            emergencies_any_hour = coalesce($24, emergencies_any_hour), home_placed_by = $25,
            gst_hst_number = $26, qst_number = $27, profile_saved_at = now()
         where id = $1",
    )
    .bind(id)
    .bind(&vetted.name)
    .bind(p.email.as_str())
    .bind(p.sms_updates.map(SmsUpdates::as_str))
    .bind(p.language)
    .bind(&p.description)
    .bind(&vetted.registered_address)
    .bind(&p.home.line1)
    .bind(&p.home.line2)
    .bind(&p.home.city)
    .bind(&p.home.province)
    .bind(p.home.postal_code.as_str())
    .bind(p.home_latitude)
    .bind(p.home_longitude)
    .bind(&p.time_zone)
    .bind(&p.available_days)
    .bind(p.available_from)
    .bind(p.available_to)
    .bind(p.radius_km)
    .bind(&vetted.qualification)
    .bind(&vetted.experience)
    .bind(p.minimum_fee_cents)
    .bind(next.as_str())
    .bind(p.emergencies_any_hour)
    .bind(p.home_placed_by)
    .bind(p.gst_hst_number.as_ref().map(GstHstNumber::as_str))
    .bind(p.qst_number.as_ref().map(QstNumber::as_str))
    .execute(&mut *tx)
    .await?;
    professional_services::replace(&mut tx, id, &vetted.service_ids).await?;
    tx.commit().await?;
    Ok(Some(edit.outcome))
}

/// The sales tax registrations professional `id` sells repair work under (none given: a
/// small supplier); `None` when there is no such professional.
pub async fn registrations(db: &PgPool, id: Uuid) -> sqlx::Result<Option<Registrations>> {
    let row: Option<(Option<String>, Option<String>)> =
        sqlx::query_as("select gst_hst_number, qst_number from professionals where id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    // The table's checks admit well-formed numbers alone.
    let read = |e: String| sqlx::Error::Decode(e.into());
    row.map(|(gst_hst, qst)| {
        Ok(Registrations {
            gst_hst: gst_hst
                .map(|n| GstHstNumber::parse(&n))
                .transpose()
                .map_err(read)?,
            qst: qst
                .map(|n| QstNumber::parse(&n))
                .transpose()
                .map_err(read)?,
        })
    })
    .transpose()
}

/// Whether the professional may be hired (they exist and are approved), the row share-locked
/// until the transaction ends so that an admin's decision waits for the hire or comes first.
pub async fn lock_hireable(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<bool> {
    let approved: Option<bool> = sqlx::query_scalar(
        "select state = 'approved' and licence_needed_since is null from professionals
             where id = $1 for share",
    )
    .bind(id)
    .fetch_optional(tx)
    .await?;
    Ok(approved == Some(true))
}

/// Reads a professional's state and locks the row until the transaction ends.
pub async fn lock_state(
    tx: &mut PgConnection,
    id: Uuid,
) -> sqlx::Result<Option<ProfessionalState>> {
    let row: Option<(String,)> =
        sqlx::query_as("select state from professionals where id = $1 for update")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    Ok(row.map(|(state,)| {
        ProfessionalState::from_code(&state).unwrap_or(ProfessionalState::WaitingForApproval)
    }))
}

/// Moves a professional whose profile changed (licences, say) back to review if decided
/// (an approved professional's changes wait apart instead: `pending_changes`).
pub async fn mark_profile_changed(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update professionals set state = case when state = 'waiting_for_approval'
             then state else 'profile_updated' end
         where id = $1",
    )
    .bind(id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A profile submitted again as it is: a denied one goes back to review (`profile_updated`);
/// an approved one, or one still waiting, stays as it is.
pub async fn mark_resubmitted(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update professionals set state = 'profile_updated' where id = $1 and state = 'denied'",
    )
    .bind(id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// What became of an admin's decision.
#[derive(Debug, PartialEq, Eq)]
pub enum Decided {
    /// Done; the professional was in this state before.
    Done(ProfessionalState),
    NoSuchProfessional,
    /// The professional's state does not allow it; this is the state they are in.
    NotAllowedFrom(ProfessionalState),
}

/// Sets the state an admin decided, only from a state that allows it, checked under the row
/// lock so two admins cannot both act on the same state. Runs in the caller's transaction, so
/// the audit row, the email (and, for a denial, the end of the sessions) go in with it.
pub async fn decide(
    tx: &mut PgConnection,
    id: Uuid,
    allowed: impl Fn(ProfessionalState) -> bool,
    next: ProfessionalState,
    reason: &str,
) -> sqlx::Result<Decided> {
    let Some(current) = lock_state(tx, id).await? else {
        return Ok(Decided::NoSuchProfessional);
    };
    if !allowed(current) {
        return Ok(Decided::NotAllowedFrom(current));
    }
    sqlx::query(
        "update professionals set state = $2, denial_reason = $3,
            approved_at = case when $2 = 'approved' then now() else approved_at end
         where id = $1",
    )
    .bind(id)
    .bind(next.as_str())
    .bind(reason)
    .execute(&mut *tx)
    .await?;
    Ok(Decided::Done(current))
}

/// Sets the photo and returns the key it replaces, for the caller to remove that file; `None`
/// when there is no such professional. The row is locked first, so of two photos saved at
/// once each replaces the other in turn and no file is left unreferenced.
pub async fn set_photo(
    db: &PgPool,
    id: Uuid,
    photo_key: &str,
) -> sqlx::Result<Option<Option<String>>> {
    let mut tx = crate::store::transaction::begin(db).await?;
    let previous: Option<(Option<String>,)> =
        sqlx::query_as("select photo_key from professionals where id = $1 for update")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let Some((previous,)) = previous else {
        return Ok(None);
    };
    sqlx::query("update professionals set photo_key = $2 where id = $1")
        .bind(id)
        .bind(photo_key)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some(previous))
}

pub async fn licences(db: &PgPool, professional_id: Uuid) -> sqlx::Result<Vec<LicenceRow>> {
    sqlx::query_as(
        "select id, professional_id, label, file_key, file_name, content_type, uploaded_at,
             awaiting_review
         from licences where professional_id = $1 order by uploaded_at, id",
    )
    .bind(professional_id)
    .fetch_all(db)
    .await
}

/// What became of a licence to add.
#[derive(Debug, PartialEq, Eq)]
pub enum LicenceAdded {
    /// Added to the profile, which went back to review if it was decided.
    ToProfile,
    /// Added to the approved professional's pending change.
    Pending,
    NoSuchProfessional,
    /// The profile already holds this many licences.
    Full,
}

/// Adds a licence unless the profile already holds `max`: counted and inserted under the
/// professional's row lock, so uploads at the same time cannot pass the limit together. An
/// approved professional's waits in their pending change (`keeps_changes_pending`); anyone
/// else's joins the profile, which goes back to review. `licence.awaiting_review` is set here.
pub async fn add_licence(
    db: &PgPool,
    licence: &LicenceRow,
    max: i64,
) -> sqlx::Result<LicenceAdded> {
    let mut tx = crate::store::transaction::begin(db).await?;
    let Some(current) = lock_state(&mut tx, licence.professional_id).await? else {
        return Ok(LicenceAdded::NoSuchProfessional);
    };
    let (held,): (i64,) =
        sqlx::query_as("select count(*) from licences where professional_id = $1")
            .bind(licence.professional_id)
            .fetch_one(&mut *tx)
            .await?;
    if held >= max {
        return Ok(LicenceAdded::Full);
    }
    let pending = current.keeps_changes_pending();
    sqlx::query(
        "insert into licences (id, professional_id, label, file_key, file_name, content_type,
             uploaded_at, awaiting_review)
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(licence.id)
    .bind(licence.professional_id)
    .bind(&licence.label)
    .bind(&licence.file_key)
    .bind(&licence.file_name)
    .bind(&licence.content_type)
    .bind(licence.uploaded_at)
    .bind(pending)
    .execute(&mut *tx)
    .await?;
    let added = if pending {
        pending_changes::licences_changed(&mut tx, licence.professional_id).await?;
        LicenceAdded::Pending
    } else {
        mark_profile_changed(&mut *tx, licence.professional_id).await?;
        LicenceAdded::ToProfile
    };
    tx.commit().await?;
    Ok(added)
}

/// What became of a licence to remove.
#[derive(Debug, PartialEq, Eq)]
pub enum LicenceDeleted {
    /// Removed (its file key to delete); the approved professional stays as they are.
    Pending(String),
    /// Removed (its file key to delete); the profile goes back to review if it was decided.
    FromProfile(String),
    /// Removed, and it was the last licence the approved professional was approved with:
    /// they now need a new one (`licence_needed_since` set). Its file key to delete.
    LastApproved(String),
    /// Not removed: it is the last approved licence and the caller did not confirm it.
    LastNotConfirmed,
    NotFound,
}

/// What deleting a licence would do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LicenceDeletion {
    /// It is the last licence the approved professional was approved with.
    pub last_approved: bool,
    /// Their live quotes (submitted, waiting for a customer).
    pub live_quotes: i64,
}

/// What deleting licence `licence_id` of professional `professional_id` would do, read
/// through `tx` (with the professional's row locked when the caller holds its lock); `None`
/// when no such licence is theirs.
pub async fn licence_deletion(
    tx: &mut PgConnection,
    professional_id: Uuid,
    licence_id: Uuid,
) -> sqlx::Result<Option<LicenceDeletion>> {
    let row: Option<(bool, bool, i64, i64)> = sqlx::query_as(
        "select p.state = 'approved' and p.licence_needed_since is null, l.awaiting_review,
            (select count(*) from licences o where o.professional_id = p.id and not o.awaiting_review),
            (select count(*) from quotes q where q.professional_id = p.id and q.state = 'submitted')
         from licences l join professionals p on p.id = l.professional_id
         where l.id = $1 and l.professional_id = $2",
    )
    .bind(licence_id)
    .bind(professional_id)
    .fetch_optional(tx)
    .await?;
    Ok(row.map(
        |(approved, awaiting_review, approved_licences, live_quotes)| {
            let last_approved = approved && !awaiting_review && approved_licences == 1;
            LicenceDeletion {
                last_approved,
                live_quotes: if last_approved { live_quotes } else { 0 },
            }
        },
    ))
}

/// Removes a licence of this professional, under their row lock, in the caller's `tx`. An
/// approved professional stays approved (`keeps_changes_pending`): a licence awaiting review
/// leaves their pending change; one they were approved with is simply gone, unless it is the
/// last one: then only when `confirmed`, and they need a new one from now on.
pub async fn delete_licence(
    tx: &mut PgConnection,
    professional_id: Uuid,
    licence_id: Uuid,
    confirmed: bool,
) -> sqlx::Result<LicenceDeleted> {
    let Some(current) = lock_state(&mut *tx, professional_id).await? else {
        return Ok(LicenceDeleted::NotFound);
    };
    let Some(deletion) = licence_deletion(&mut *tx, professional_id, licence_id).await? else {
        return Ok(LicenceDeleted::NotFound);
    };
    if deletion.last_approved && !confirmed {
        return Ok(LicenceDeleted::LastNotConfirmed);
    }
    let (key, awaiting_review): (String, bool) = sqlx::query_as(
        "delete from licences where id = $1 and professional_id = $2
         returning file_key, awaiting_review",
    )
    .bind(licence_id)
    .bind(professional_id)
    .fetch_one(&mut *tx)
    .await?;
    if deletion.last_approved {
        sqlx::query("update professionals set licence_needed_since = now() where id = $1")
            .bind(professional_id)
            .execute(&mut *tx)
            .await?;
        return Ok(LicenceDeleted::LastApproved(key));
    }
    Ok(if current.keeps_changes_pending() {
        if awaiting_review {
            pending_changes::licences_changed(tx, professional_id).await?;
        }
        LicenceDeleted::Pending(key)
    } else {
        LicenceDeleted::FromProfile(key)
    })
}

/// The professional's minimum ("standard") fee in CAD cents; `None` when not given.
/// Where professional `id` sets out from: their home base, when placed.
pub async fn home_base(db: &PgPool, id: Uuid) -> sqlx::Result<Option<crate::domain::Coordinates>> {
    let point: Option<(Option<f64>, Option<f64>)> =
        sqlx::query_as("select home_latitude, home_longitude from professionals where id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(match point {
        Some((Some(latitude), Some(longitude))) => Some(crate::domain::Coordinates {
            latitude,
            longitude,
        }),
        _ => None,
    })
}

pub async fn minimum_fee_cents(db: &PgPool, id: Uuid) -> sqlx::Result<Option<i64>> {
    let fee: Option<Option<i64>> =
        sqlx::query_scalar("select minimum_fee_cents from professionals where id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(fee.flatten())
}

/// A professional's pause and on-call window, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, sqlx::FromRow)]
pub struct AvailabilityRow {
    pub paused_until: Option<DateTime<Utc>>,
    pub on_call_until: Option<DateTime<Utc>>,
}

/// Professional `id`'s pause and on-call window, locked for the rest of the transaction;
/// `None` when there is no such professional.
pub async fn lock_availability(
    tx: &mut PgConnection,
    id: Uuid,
) -> sqlx::Result<Option<AvailabilityRow>> {
    sqlx::query_as("select paused_until, on_call_until from professionals where id = $1 for update")
        .bind(id)
        .fetch_optional(tx)
        .await
}

/// Replaces professional `id`'s pause and on-call window in the caller's transaction, under
/// the row's lock; answers what they were, `None` when there is no such professional.
pub async fn set_availability(
    tx: &mut PgConnection,
    id: Uuid,
    next: AvailabilityRow,
) -> sqlx::Result<Option<AvailabilityRow>> {
    let before = lock_availability(&mut *tx, id).await?;
    if before.is_some() {
        sqlx::query("update professionals set paused_until = $2, on_call_until = $3 where id = $1")
            .bind(id)
            .bind(next.paused_until)
            .bind(next.on_call_until)
            .execute(&mut *tx)
            .await?;
    }
    Ok(before)
}

/// Clears the pauses and on-call windows that ended by `now`; answers how many
/// professionals' rows changed.
pub async fn end_availability_due(db: &PgPool, now: DateTime<Utc>) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "update professionals set
             paused_until = case when paused_until <= $1 then null else paused_until end,
             on_call_until = case when on_call_until <= $1 then null else on_call_until end
         where paused_until <= $1 or on_call_until <= $1",
    )
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// The name an erased professional's row keeps, where the books still point to it.
pub const ERASED_NAME: &str = "Deleted professional";

/// Whether the books hold professional `id` (orders, payouts): then their erasure keeps the
/// row, anonymised ([`anonymise`]), rather than deleting it.
pub async fn kept_by_books(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from orders where professional_id = $1)
             or exists (select 1 from payout_accounts where professional_id = $1)",
    )
    .bind(id)
    .fetch_one(tx)
    .await
}

/// Removes what identifies professional `id` while keeping the row the books point to: name,
/// email, phone, password, profile, home base, tax numbers, photo, licences, services, sign-in
/// links and identities and devices. The files to discard once committed; `None` when there
/// is no such professional.
pub async fn anonymise(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<Vec<String>>> {
    let locked: Option<(Option<String>,)> =
        sqlx::query_as("select photo_key from professionals where id = $1 for update")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let Some((photo,)) = locked else {
        return Ok(None);
    };
    let mut files: Vec<String> =
        sqlx::query_scalar("delete from licences where professional_id = $1 returning file_key")
            .bind(id)
            .fetch_all(&mut *tx)
            .await?;
    files.extend(photo);
    for statement in [
        "delete from professional_services where professional_id = $1",
        "delete from social_identities where professional_id = $1",
        "delete from password_resets where role = 'professional' and account_id = $1",
        "delete from email_verifications where role = 'professional' and account_id = $1",
        "delete from outbox_messages where channel = 'push' and recipient in (
            select id::text from push_subscriptions where professional_id = $1)",
        "delete from push_subscriptions where professional_id = $1",
        "delete from professional_pending_changes where professional_id = $1",
    ] {
        sqlx::query(statement).bind(id).execute(&mut *tx).await?;
    }
    sqlx::query(
        "update professionals set name = $2, email = 'deleted-' || id || '@deleted.invalid',
             password_hash = null, phone = null, phone_verified = false, sms_updates = 'no',
             email_verified_at = null, description = '', registered_address = '',
             home_line1 = '', home_line2 = '', home_city = '', home_province = '',
             home_postal_code = '', home_latitude = null, home_longitude = null,
             radius_km = null, qualification = '', experience = null, photo_key = null,
             qst_number = null, gst_hst_number = null, membership_expires_at = null,
             on_call_until = null, paused_until = null
         where id = $1",
    )
    .bind(id)
    .bind(ERASED_NAME)
    .execute(&mut *tx)
    .await?;
    Ok(Some(files))
}
