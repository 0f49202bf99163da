//! Repair requests: the rules of placing, reading, changing, cancelling, listing and
//! expiring them. Who may see the street address ([`Location`]) and who was hired
//! ([`Viewed::new`]) is decided here; whom a request matches is decided by [`crate::matching`]
//! alone.

pub mod draft;
pub mod escalation;
mod fanout;
pub mod notice;
pub mod photos;
pub mod place;
pub mod reach;
pub mod translations;
pub mod watch;

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

pub use draft::{Draft, DraftForm};
use fanout::Whom;
pub use photos::PhotosToFollow;

use crate::{
    alerts,
    auth::{
        Caller,
        access::{self, ProfessionalAccess, RequestParties, RequestView},
    },
    budgets::{Budget, Spent},
    domain::{Email, RepairRequestState, RequestChange, Role},
    error::{ApiError, ApiResult, ErrorReason, not_found},
    matching::Distance,
    outbox::NewOutboxMessage,
    state::AppState,
    store::{
        customers,
        page::PageRequest,
        quotes,
        repair_requests::{self, ListFilter, NewRequestKey, RepairRequestRow, RequestContent},
        request_translations, services,
        standing::{self, Standing},
    },
};

/// What a caller may see of a request's whereabouts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Location {
    /// The street address: the customer, admins and the hired professional.
    Full,
    /// City, province, postal area and this distance from the professional's home base.
    Approximate(Distance),
}

/// A request as one caller may see it, made only by [`Viewed::new`].
#[derive(Debug, Clone)]
pub struct Viewed {
    pub request: RepairRequestRow,
    pub location: Location,
    /// Whether the viewer sees where the professional on the way is (its customer only).
    pub sees_trip_position: bool,
    /// Private: every view is made by [`Viewed::new`], and so through [`hide_hire_from`].
    _made: MadeByNew,
}

/// What only [`Viewed::new`] can put in a [`Viewed`].
#[derive(Debug, Clone, Copy)]
struct MadeByNew;

impl Viewed {
    /// `request` as `viewer` sees it from `location`, without who was hired unless the viewer
    /// may know (`hide_hire_from`, the one rule of it).
    pub fn new(viewer: &Caller, mut request: RepairRequestRow, location: Location) -> Self {
        hide_hire_from(viewer, &mut request);
        let sees_trip_position = access::may_see_trip_position(viewer, parties(&request));
        Self {
            request,
            location,
            sees_trip_position,
            _made: MadeByNew,
        }
    }

    /// `request` whole, hire included, for a service account's report (its scope
    /// `requests.read` is checked by the caller: `access::service_may`).
    pub fn reported(request: RepairRequestRow) -> Self {
        Self {
            request,
            location: Location::Full,
            sees_trip_position: false,
            _made: MadeByNew,
        }
    }

    fn full(viewer: &Caller, request: RepairRequestRow) -> Self {
        Self::new(viewer, request, Location::Full)
    }
}

/// The people `request` concerns, as the access rules take them.
fn parties(request: &RepairRequestRow) -> RequestParties {
    RequestParties {
        customer_id: request.customer_id,
        hired_professional_id: request.hired_professional_id,
    }
}

/// The one rule of who learns who was hired: the request's customer, admins and the hired
/// professional read the hired professional's id, name and contact details, the hired
/// quote's id and the trip to the job; anyone else (a professional who quoted and lost, one
/// the request matched) reads none of them, only that it was hired.
fn hide_hire_from(viewer: &Caller, request: &mut RepairRequestRow) {
    if !access::is_party(viewer, parties(request)) {
        request.trip = None;
        request.hired_professional_id = None;
        request.hired_application_id = None;
        request.hired_professional_name = None;
        request.hired_professional_email = None;
        request.hired_professional_phone = None;
    }
}

/// Places a request, once per idempotency key: a retry (or a concurrent double submit) with
/// the same key and draft answers the first request and tells nobody again; another draft
/// under the same key is REQUEST_ID_REUSED. The matching professionals are told in the
/// transaction that inserts the request; their alerts wait for the `photos_to_follow`.
pub async fn create(
    state: &AppState,
    customer_id: Uuid,
    request_id: Uuid,
    form: &DraftForm,
    photos_to_follow: PhotosToFollow,
) -> ApiResult<RepairRequestRow> {
    let draft = Draft::parse(form)?;
    let digest = draft.digest();
    let customer = customers::get(&state.db, customer_id)
        .await?
        .ok_or_else(|| not_found("account"))?;
    if !customer.phone_verified {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::PhoneNotVerified,
            message: "verify your phone number before placing a request".to_owned(),
        });
    }
    // A retry needs neither the catalogue nor the map.
    if let Some(first) = repair_requests::find_by_key(&state.db, customer_id, request_id).await? {
        return same_draft(first, &digest);
    }
    let key = NewRequestKey {
        customer_id,
        request_id,
        request_hash: &digest,
        description_language: customer.language,
        photos_to_follow: photos_to_follow.count(),
    };
    let spent = spend_placing_budget(state, customer_id).await?;
    // Only a request this call placed keeps the budget spent: a failure (an address nowhere
    // on the map, the geocoder or the database down) or a concurrent call with the same key
    // that placed it first gives it back.
    let placed = spent
        .settle_if(insert(state, &key, &draft).await, Option::is_some)
        .await?;
    match placed {
        Some(request) => Ok(request),
        None => {
            let first = repair_requests::find_by_key(&state.db, customer_id, request_id)
                .await?
                .ok_or_else(|| anyhow::anyhow!("idempotency key conflict without a row"))?;
            same_draft(first, &digest)
        }
    }
}

/// Inserts a new request and tells the matching professionals, in one transaction; `None`
/// when a concurrent call with the same key committed first.
async fn insert(
    state: &AppState,
    key: &NewRequestKey<'_>,
    draft: &Draft,
) -> ApiResult<Option<RepairRequestRow>> {
    let content = content(state, draft).await?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let inserted =
        repair_requests::insert(&mut tx, Uuid::now_v7(), key, &content, Utc::now()).await?;
    let Some(request) = inserted else {
        return Ok(None);
    };
    fanout::notify_matches(&mut tx, state, &request, Whom::Everyone).await?;
    let translate = ask_translation(&mut tx, state, &request).await?;
    tx.commit().await?;
    state.outbox.wake();
    if translate {
        state.translation.description_written();
    }
    Ok(Some(request))
}

/// Makes the translation of the request's description due, in the transaction that writes
/// it, when a translation provider is configured; tells whether it did.
async fn ask_translation(
    tx: &mut sqlx::PgConnection,
    state: &AppState,
    request: &RepairRequestRow,
) -> ApiResult<bool> {
    if !state.translation.is_configured() {
        return Ok(false);
    }
    let into = crate::translations::other_language(request.description_language);
    request_translations::make_due(tx, request.id, into).await?;
    Ok(true)
}

/// Counts a request placed by the customer this hour before checking the limit, so
/// concurrent calls cannot all slip under it. Retries of a placed request are not counted.
async fn spend_placing_budget(state: &AppState, customer_id: Uuid) -> ApiResult<Spent> {
    let limit = state.config.repair_requests_per_customer_per_hour;
    let budget = Budget::hourly(
        format!("repair-requests:customer:{customer_id}"),
        limit,
        ErrorReason::RepairRequestLimit,
        format!("you can place up to {limit} requests an hour; try again later"),
    );
    state.budgets.spend(&[budget], 1).await
}

fn same_draft(first: RepairRequestRow, digest: &[u8; 32]) -> ApiResult<RepairRequestRow> {
    if first.request_hash == digest {
        Ok(first)
    } else {
        Err(ApiError::FailedPrecondition {
            reason: ErrorReason::RequestIdReused,
            message: "this request id was used for another request; make a new one".to_owned(),
        })
    }
}

/// The service checked against the catalogue and the address placed on the map.
async fn content(state: &AppState, draft: &Draft) -> ApiResult<RequestContent> {
    // An archived service keeps its old requests but takes no new ones.
    let offered = services::get(&state.db, draft.service_id).await?;
    if !offered.is_some_and(|service| service.active) {
        return Err(ApiError::invalid(
            "draft.service_id",
            "choose a service from the list",
        ));
    }
    let placed = place::place(&state.geocoding, draft).await?;
    Ok(RequestContent {
        service_id: draft.service_id,
        urgency: draft.urgency,
        description: draft.description.clone(),
        line1: draft.address.line1.clone(),
        line2: draft.address.line2.clone(),
        city: draft.address.city.clone(),
        province: draft.address.province.clone(),
        postal_code: draft
            .address
            .postal_code_str()
            .unwrap_or_default()
            .to_owned(),
        latitude: placed.place.latitude,
        longitude: placed.place.longitude,
        placed_by: placed.precision.as_str(),
        time_zone: placed.place.time_zone,
    })
}

/// Reads a request as `caller` may see it: the customer, admins and the hired professional
/// in full, another professional as their standing on it allows
/// ([`access::professional_access`]), anyone else NOT_FOUND (never a hint that the request
/// exists).
pub async fn get(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<Viewed> {
    let request = repair_requests::get(&state.db, id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    match access::request_view(caller, parties(&request)) {
        RequestView::Full => Ok(Viewed::full(caller, request)),
        RequestView::None => Err(not_found("request")),
        RequestView::ByStanding => {
            let standing = standing::on(&state.db, caller.account_id, id).await?;
            view_by_standing(caller, request, standing.unwrap_or_default())
        }
    }
}

/// `request` as professional `caller` may see it by their `standing` on it.
fn view_by_standing(
    caller: &Caller,
    request: RepairRequestRow,
    standing: Standing,
) -> ApiResult<Viewed> {
    match (access::professional_access(&standing), standing.meters) {
        (ProfessionalAccess::Full, _) => Ok(Viewed::full(caller, request)),
        (ProfessionalAccess::Approximate, Some(meters)) => Ok(Viewed::new(
            caller,
            request,
            Location::Approximate(Distance { meters }),
        )),
        _ => Err(not_found("request")),
    }
}

/// The approximate views of requests professional `viewer` matches, in the order given; ids
/// no longer stored are left out.
pub async fn approximate_views(
    db: &PgPool,
    viewer: Uuid,
    matches: &[(Uuid, Distance)],
) -> ApiResult<Vec<Viewed>> {
    let viewer = Caller {
        account_id: viewer,
        role: Role::Professional,
    };
    let ids: Vec<Uuid> = matches.iter().map(|(id, _)| *id).collect();
    let mut rows: std::collections::HashMap<Uuid, RepairRequestRow> =
        repair_requests::get_many(db, &ids)
            .await?
            .into_iter()
            .map(|row| (row.id, row))
            .collect();
    Ok(matches
        .iter()
        .filter_map(|(id, distance)| {
            let request = rows.remove(id)?;
            Some(Viewed::new(
                &viewer,
                request,
                Location::Approximate(*distance),
            ))
        })
        .collect())
}

/// The requests `ids`, each quoted on by professional `professional_id`, as `caller` (that
/// professional or an admin) may see them, in the order of `ids`: the rules of [`get`] for
/// a quoter, in three queries however many there are (a professional's lists of quotes).
pub async fn get_quoted(
    state: &AppState,
    caller: &Caller,
    professional_id: Uuid,
    ids: &[Uuid],
) -> ApiResult<Vec<Viewed>> {
    let requests: HashMap<Uuid, RepairRequestRow> = repair_requests::get_many(&state.db, ids)
        .await?
        .into_iter()
        .map(|request| (request.id, request))
        .collect();
    if !access::may_see_work_of(caller, professional_id) {
        return Err(not_found("request"));
    }
    let standings: HashMap<Uuid, Standing> =
        standing::on_many(&state.db, professional_id, ids, Utc::now())
            .await?
            .into_iter()
            .collect();
    ids.iter()
        .map(|id| {
            // A request quoted twice (withdrawn, then quoted again) is listed twice.
            let request = requests
                .get(id)
                .cloned()
                .ok_or_else(|| not_found("request"))?;
            if access::request_view(caller, parties(&request)) == RequestView::Full {
                return Ok(Viewed::full(caller, request));
            }
            // Not an admin: the quoting professional themself (`may_see_work_of`).
            let standing = standings.get(id).copied().unwrap_or_default();
            view_by_standing(caller, request, standing)
        })
        .collect()
}

/// The customer's open request `id`, or why it cannot be changed: NOT_FOUND when it is not
/// theirs, REPAIR_REQUEST_NOT_OPEN when it is past open.
async fn refuse_change(db: &PgPool, customer_id: Uuid, id: Uuid) -> ApiError {
    match repair_requests::get(db, id).await {
        Ok(Some(request)) if request.customer_id == customer_id => not_open(),
        Ok(_) => not_found("request"),
        Err(error) => error.into(),
    }
}

pub fn not_open() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::RepairRequestNotOpen,
        message: "this request is no longer open, so it cannot be changed".to_owned(),
    }
}

/// Replaces an open request's content. When the service or the place changed, the
/// professionals it now matches are told; those told before are not told again.
pub async fn update(
    state: &AppState,
    customer_id: Uuid,
    id: Uuid,
    form: &DraftForm,
) -> ApiResult<RepairRequestRow> {
    let draft = Draft::parse(form)?;
    let before = repair_requests::get(&state.db, id)
        .await?
        .filter(|request| request.customer_id == customer_id)
        .ok_or_else(|| not_found("request"))?;
    let content = content(state, &draft).await?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let Some(after) = repair_requests::update_content(&mut tx, id, customer_id, &content).await?
    else {
        drop(tx);
        return Err(refuse_change(&state.db, customer_id, id).await);
    };
    let moved = (before.latitude, before.longitude) != (after.latitude, after.longitude);
    if moved || before.service_id != after.service_id {
        fanout::notify_matches(&mut tx, state, &after, Whom::Everyone).await?;
    }
    let translate =
        before.description != after.description && ask_translation(&mut tx, state, &after).await?;
    tx.commit().await?;
    state.outbox.wake();
    if translate {
        state.translation.description_written();
    }
    Ok(after)
}

/// Cancels a request by `change` (the legacy delete): an open one, or a hired one
/// whose hold was released (`crate::hiring::cancel`); REPAIR_REQUEST_NOT_OPEN when it moved
/// meanwhile. Cancelling a cancelled request answers it unchanged. Notifications not yet sent
/// are dropped: the request is no longer on offer. `also` (the hired professional's notice)
/// is queued in the cancel's own transaction, with the quoting professionals' notices: they
/// exist iff the request is cancelled.
pub async fn cancel(
    state: &AppState,
    customer_id: Uuid,
    id: Uuid,
    change: RequestChange,
    also: &[NewOutboxMessage],
) -> ApiResult<RepairRequestRow> {
    let now = Utc::now();
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let link = state.config.links().professional_jobs();
    let told = Told { also, link: &link };
    let Some(cancelled) = cancel_in(&mut tx, (customer_id, id), change, told, now).await? else {
        drop(tx);
        return match repair_requests::get(&state.db, id).await? {
            Some(request)
                if request.customer_id == customer_id
                    && request.state() == RepairRequestState::Cancelled =>
            {
                Ok(request)
            }
            _ => Err(refuse_change(&state.db, customer_id, id).await),
        };
    };
    tx.commit().await?;
    state.outbox.wake();
    Ok(cancelled)
}

/// What a cancel tells besides the professionals whose quotes it closes: `also` (the hired
/// professional's notices), and the page their alerts open (`link`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Told<'a> {
    pub also: &'a [NewOutboxMessage],
    pub link: &'a crate::config::links::PageLink,
}

/// Cancels the customer's request in `tx` if `change` may start from its state, and queues word to
/// the professionals whose quotes it closes (an email, and an alert on their devices), with
/// `told.also`; `None` when the request cannot be cancelled, and then `tx` must be dropped.
pub(crate) async fn cancel_in(
    tx: &mut PgConnection,
    (customer_id, id): (Uuid, Uuid),
    change: RequestChange,
    told: Told<'_>,
    now: DateTime<Utc>,
) -> ApiResult<Option<RepairRequestRow>> {
    // Closed first so the reply counts no live quote.
    let closed = quotes::close_submitted(tx, id, None, now).await?;
    let Some(cancelled) = repair_requests::cancel(tx, id, customer_id, change, now).await? else {
        return Ok(None);
    };
    repair_requests::drop_unsent_notifications(tx, id).await?;
    let mut messages: Vec<_> = closed.iter().map(notice::quote_closed).collect();
    if let Some(first) = closed.first() {
        let quoted: Vec<Uuid> = closed.iter().map(|q| q.professional_id).collect();
        let service = &first.service_name;
        let alerts = alerts::request_closed(&mut *tx, id, &quoted, service, true, told.link);
        messages.extend(alerts.await?);
    }
    messages.extend_from_slice(told.also);
    crate::outbox::enqueue_many(&mut *tx, &messages).await?;
    Ok(Some(cancelled))
}

/// The legacy `email-phone` call: makes sure the professional with `email` was told of the
/// customer's request (`repair_request_id`, or their latest open one) if it matches them now,
/// never twice. The answer is the same whether or not the email is a professional's, matches
/// or was told already, so nobody learns who is registered.
pub async fn notify_professional(
    state: &AppState,
    customer_id: Uuid,
    repair_request_id: Option<Uuid>,
    email: &str,
) -> ApiResult<()> {
    let email =
        Email::parse(email).map_err(|e| ApiError::invalid("professional_email", e.to_string()))?;
    let request = match repair_request_id {
        Some(id) => repair_requests::get(&state.db, id)
            .await?
            .filter(|request| request.customer_id == customer_id),
        None => repair_requests::latest_open(&state.db, customer_id).await?,
    }
    .ok_or_else(|| not_found("request"))?;
    if request.state() != RepairRequestState::Open {
        return Ok(());
    }
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    fanout::notify_matches(&mut tx, state, &request, Whom::Email(&email)).await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok(())
}

/// A customer's list views.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CustomerView {
    Pending,
    /// Open requests with at least one live quote.
    WithQuotes,
    Active,
    Completed,
    All,
}

impl CustomerView {
    fn filter(self, customer_id: Uuid) -> ListFilter<'static> {
        let states: Option<&'static [RepairRequestState]> = match self {
            CustomerView::Pending | CustomerView::WithQuotes => Some(&[RepairRequestState::Open]),
            CustomerView::Active => Some(&[
                RepairRequestState::Hired,
                RepairRequestState::PendingPayment,
            ]),
            CustomerView::Completed => Some(&[RepairRequestState::Completed]),
            CustomerView::All => None,
        };
        ListFilter {
            customer_id: Some(customer_id),
            states,
            with_live_quotes: self == CustomerView::WithQuotes,
            ..ListFilter::default()
        }
    }
}

/// A page of one customer's requests in a view, newest first.
pub async fn list_for_customer(
    db: &PgPool,
    customer_id: Uuid,
    view: CustomerView,
    page: &PageRequest,
) -> ApiResult<(Vec<RepairRequestRow>, String)> {
    let rows = repair_requests::list(db, view.filter(customer_id), page).await?;
    Ok(page.finish(rows, |row| (row.created_at, row.id)))
}

/// A page of every request, newest first, of one state and one service when given (admin).
pub async fn list_all(
    db: &PgPool,
    state: Option<RepairRequestState>,
    service_id: Option<Uuid>,
    page: &PageRequest,
) -> ApiResult<(Vec<RepairRequestRow>, String)> {
    let states = state.map(|s| [s]);
    let filter = ListFilter {
        states: states.as_ref().map(|s| &s[..]),
        service_id,
        ..ListFilter::default()
    };
    let rows = repair_requests::list(db, filter, page).await?;
    Ok(page.finish(rows, |row| (row.created_at, row.id)))
}

/// Closes the open requests nobody was hired on in time (see
/// [`crate::domain::Urgency::open_for`]); run by the housekeeping. How many.
pub async fn expire_due(db: &PgPool, now: DateTime<Utc>) -> sqlx::Result<u64> {
    repair_requests::expire_due(db, now).await
}
