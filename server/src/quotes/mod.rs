//! Quotes: the rules of sending, withdrawing and listing them. Who may quote is decided by
//! the matching rule ([`crate::matching::matches`]) behind the membership gate; a quote is
//! written in the transaction that locks its request, so a request that stops being open
//! (a hire, a cancel) takes no quote after.

mod notice;

use chrono::Utc;
use uuid::Uuid;

use crate::{
    alerts::{self, Alerting},
    auth::{
        Caller,
        access::{self, QuoteParties},
    },
    billing::{membership, sale},
    conversations::blocks,
    domain::{
        Cents, Currency, Money, Province, QuoteState, QuoteTaxTreatment, RepairRequestState, Topic,
        Urgency,
    },
    error::{ApiError, ApiResult, ErrorReason, FieldViolation, not_found},
    matching,
    outbox::{self, NewOutboxMessage},
    requests,
    state::AppState,
    store::{
        accounts::AccountKind,
        customers,
        page::PageRequest,
        professionals,
        quotes::{self, NewQuote, NewQuoteTaxes, QuoteRow},
    },
    tax::Registrations,
};

/// The longest job a quote may estimate: 30 days, in minutes.
pub const MAX_ESTIMATED_MINUTES: i32 = repairs_proto::limits::create_quote::ESTIMATED_MINUTES_MAX;
/// The largest fee a quote may ask: 1,000,000.00 CAD.
pub const MAX_FEE_CENTS: i64 = repairs_proto::limits::money::AMOUNT_CENTS_MAX;

/// What a professional sends, as received.
#[derive(Debug, Clone)]
pub struct QuoteForm {
    pub repair_request_id: Uuid,
    pub estimated_minutes: i32,
    /// `None`: the professional's minimum fee.
    pub fee: Option<(i64, String)>,
    pub surge: bool,
    /// Whether to add sales taxes; `None`: added when the professional is registered.
    pub add_taxes: Option<bool>,
    /// How soon after a hire they can be at the door, in minutes.
    pub arrival_minutes: Option<i32>,
    /// Sent through the legacy apply form, which has no arrival field.
    pub legacy_form: bool,
}

/// The latest arrival an emergency's quote may promise: a day, in minutes.
pub const MAX_EMERGENCY_ARRIVAL_MINUTES: i32 = 24 * 60;

/// The arrival time a quote on a request of `urgency` carries: required on an emergency
/// (except from the legacy form, which cannot say it), and then within a day.
fn check_arrival(form: &QuoteForm, urgency: Urgency) -> ApiResult<Option<i32>> {
    let required = || ApiError::InvalidArgument {
        reason: ErrorReason::ArrivalTimeRequired,
        violations: vec![FieldViolation::new(
            "arrival_minutes",
            "say how soon after the hire you can be at the door: within a day on an emergency",
        )],
    };
    match (urgency, form.arrival_minutes) {
        (Urgency::Immediate, None) if form.legacy_form => Ok(None),
        (Urgency::Immediate, None) => Err(required()),
        (Urgency::Immediate, Some(minutes)) if minutes > MAX_EMERGENCY_ARRIVAL_MINUTES => {
            Err(required())
        }
        (_, Some(minutes)) if !(1..=MAX_ESTIMATED_MINUTES).contains(&minutes) => {
            Err(ApiError::invalid(
                "arrival_minutes",
                "give the arrival time, from 1 minute to 30 days",
            ))
        }
        (_, arrival) => Ok(arrival),
    }
}

/// Sends a quote: only a member professional the request matches, on an open request, whose
/// customer did not block them, at least their minimum fee unless `surge`. The customer is told through the outbox in the
/// same transaction. A registered professional's quote carries the taxes of the property's
/// province on the day (UTC) unless they say not to add them; one without a GST/HST number
/// may not add any (FAILED_PRECONDITION, TAX_REGISTRATION_REQUIRED).
pub async fn create(
    state: &AppState,
    professional_id: Uuid,
    form: QuoteForm,
) -> ApiResult<QuoteRow> {
    membership::require_active(&state.db, professional_id).await?;
    let minimum = professionals::minimum_fee_cents(&state.db, professional_id).await?;
    let (estimated_minutes, fee_cents) = check_terms(&form, minimum)?;
    let seller = professionals::registrations(&state.db, professional_id)
        .await?
        .ok_or_else(|| not_found("professional"))?;
    let treatment = QuoteTaxTreatment::decide(form.add_taxes, seller.gst_hst.is_some())
        .ok_or_else(|| ApiError::FailedPrecondition {
            reason: ErrorReason::TaxRegistrationRequired,
            message: "add your GST/HST registration number to your profile to add sales taxes, \
                      or send the quote without taxes"
                .to_owned(),
        })?;
    if matching::matches(&state.db, professional_id, form.repair_request_id)
        .await?
        .is_none()
    {
        return Err(not_found("request"));
    }
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    // The lock orders this quote against a hire or a cancel of the same request.
    if quotes::lock_request_state(&mut tx, form.repair_request_id).await?
        != Some(RepairRequestState::Open)
    {
        return Err(requests::not_open());
    }
    let urgency = quotes::request_urgency(&mut *tx, form.repair_request_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    let arrival_minutes = check_arrival(&form, urgency)?;
    blocks::refuse_if_blocked(&mut *tx, form.repair_request_id, professional_id).await?;
    if quotes::released_on(&mut *tx, form.repair_request_id, professional_id).await? {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::QuoteReleased,
            message: "your hire on this request was released, so you cannot quote on it again"
                .to_owned(),
        });
    }
    let taxes = match treatment {
        QuoteTaxTreatment::Added => {
            taxes_at_property(&mut tx, &seller, form.repair_request_id, fee_cents).await?
        }
        other => NewQuoteTaxes::None(other),
    };
    let quote = quotes::insert(
        &mut tx,
        &NewQuote {
            repair_request_id: form.repair_request_id,
            professional_id,
            estimated_minutes,
            fee_cents,
            surge: form.surge,
            taxes,
            arrival_minutes,
        },
        Utc::now(),
    )
    .await?;
    tell_customer(&mut tx, state, &quote).await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok(quote)
}

/// The taxes `seller` adds to `fee_cents` on request `repair_request_id`: those of its
/// property's province, at today's rates (UTC), each under the professional's number.
async fn taxes_at_property(
    tx: &mut sqlx::PgConnection,
    seller: &Registrations,
    repair_request_id: Uuid,
    fee_cents: i64,
) -> ApiResult<NewQuoteTaxes> {
    let code = quotes::request_province(tx, repair_request_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    let place = Province::from_code(&code).ok_or_else(|| {
        ApiError::Internal(anyhow::anyhow!("request {repair_request_id} in {code:?}"))
    })?;
    let date = Utc::now().date_naive();
    let fee = Cents::new(fee_cents)
        .map(|cents| Money::new(cents, Currency::Cad))
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("checked fee: {e}")))?;
    let sale = sale::repair_sale(seller, place, date, fee)?;
    Ok(NewQuoteTaxes::Added {
        place,
        date,
        taxes: sale.taxes,
    })
}

/// The estimate and the fee in cents, or which field is wrong.
fn check_terms(form: &QuoteForm, minimum: Option<i64>) -> ApiResult<(i32, i64)> {
    if !(1..=MAX_ESTIMATED_MINUTES).contains(&form.estimated_minutes) {
        return Err(ApiError::invalid(
            "estimated_minutes",
            "give the estimated time, from 1 minute to 30 days",
        ));
    }
    let fee = match &form.fee {
        Some((cents, currency)) => {
            if Currency::parse(currency) != Ok(Currency::Cad) {
                return Err(ApiError::invalid("fee.currency", "quotes are in CAD"));
            }
            *cents
        }
        None => minimum.ok_or_else(|| {
            ApiError::invalid("fee", "give a fee: your profile has no minimum fee")
        })?,
    };
    if !(1..=MAX_FEE_CENTS).contains(&fee) {
        return Err(ApiError::invalid(
            "fee.amount_cents",
            "the fee must be above zero and at most 1,000,000.00",
        ));
    }
    if !form.surge && minimum.is_some_and(|minimum| fee < minimum) {
        return Err(ApiError::InvalidArgument {
            reason: ErrorReason::FeeBelowMinimum,
            violations: vec![FieldViolation::new(
                "fee",
                "the fee is below your minimum fee; tick surge cost to ask less for this job",
            )],
        });
    }
    Ok((form.estimated_minutes, fee))
}

/// Emails the request's customer (and texts them when they opted in) about a new quote, and
/// alerts each device they asked to be alerted on.
async fn tell_customer(
    tx: &mut sqlx::PgConnection,
    state: &AppState,
    quote: &QuoteRow,
) -> ApiResult<()> {
    let customer = customers::get(&mut *tx, quote.customer_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    let link = state.config.links().request_quotes(quote.repair_request_id);
    let mut messages = notice::new_quote(&customer, quote, &link);
    let tag = format!("quotes:{}", quote.repair_request_id);
    let key = format!("quote:{}", quote.id);
    let customer_id = [quote.customer_id];
    let to = Alerting::new(AccountKind::Customer, &customer_id, &link, &tag)
        .keyed(&key)
        .about(Topic::RequestUpdates);
    messages.extend(
        alerts::to_devices(&mut *tx, to, |_, language| {
            Some(notice::new_quote_alert(quote, language, &link))
        })
        .await?,
    );
    outbox::enqueue_many(&mut *tx, &messages).await?;
    Ok(())
}

/// Withdraws the professional's SUBMITTED quote while its request is open; a withdrawn one
/// answers unchanged.
pub async fn withdraw(state: &AppState, professional_id: Uuid, id: Uuid) -> ApiResult<QuoteRow> {
    if let Some(done) = quotes::withdraw(&state.db, id, professional_id, Utc::now()).await? {
        return Ok(done);
    }
    let quote = quotes::get(&state.db, id)
        .await?
        .filter(|quote| quote.professional_id == professional_id)
        .ok_or_else(|| not_found("quote"))?;
    match quote.state() {
        QuoteState::Withdrawn => Ok(quote),
        QuoteState::Submitted => Err(requests::not_open()),
        _ => Err(ApiError::FailedPrecondition {
            reason: ErrorReason::QuoteNotSubmitted,
            message: "only a quote still waiting for the customer can be withdrawn".to_owned(),
        }),
    }
}

/// A page of the quotes on a request, for its customer or an admin (NOT_FOUND otherwise).
pub async fn list_for_request(
    state: &AppState,
    caller: &Caller,
    repair_request_id: Uuid,
    page: &PageRequest,
) -> ApiResult<(Vec<QuoteRow>, String)> {
    let viewed = requests::get(state, caller, repair_request_id).await?;
    if access::quotes_only_of(caller).is_some() {
        // A professional sees their own quotes only, even on the job they were hired for.
        return Err(not_found("request"));
    }
    let rows = quotes::list_for_request(&state.db, viewed.request.id, page).await?;
    Ok(page.finish(rows, |quote| (quote.created_at, quote.id)))
}

/// A quote and its request as `caller` may see them: the request's customer, the quoting
/// professional or an admin; NOT_FOUND for anyone else.
pub async fn get(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
) -> ApiResult<(QuoteRow, requests::Viewed)> {
    let quote = quotes::get(&state.db, id)
        .await?
        .filter(|quote| {
            access::may_see_quote(
                caller,
                QuoteParties {
                    customer_id: quote.customer_id,
                    professional_id: quote.professional_id,
                },
            )
        })
        .ok_or_else(|| not_found("quote"))?;
    let viewed = requests::get(state, caller, quote.repair_request_id).await?;
    Ok((quote, viewed))
}

/// Withdraws the quotes of a professional who can no longer take jobs (denied, removed), in
/// the caller's transaction `tx`, and queues word to each customer concerned.
pub async fn withdraw_all_of(tx: &mut sqlx::PgConnection, professional_id: Uuid) -> ApiResult<()> {
    let withdrawn = quotes::withdraw_all_of(tx, professional_id, Utc::now()).await?;
    let told: Vec<NewOutboxMessage> = withdrawn.iter().map(notice::withdrawn).collect();
    outbox::enqueue_many(&mut *tx, &told).await?;
    Ok(())
}

/// After a professional's approval lapsed (their profile changed and waits for review), in
/// the caller's transaction `tx`: they can no longer be hired, so their waiting quotes are
/// withdrawn and the customers told, as on a denial. Nothing happens while they are approved.
pub async fn withdraw_unless_hireable(
    tx: &mut sqlx::PgConnection,
    professional_id: Uuid,
) -> ApiResult<()> {
    if !professionals::lock_hireable(tx, professional_id).await? {
        withdraw_all_of(tx, professional_id).await?;
    }
    Ok(())
}

/// Which of a professional's quotes to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfessionalView {
    /// Still waiting for the customer.
    Applied,
    /// Hired, the job not completed yet.
    Active,
    /// Hired and completed.
    Completed,
    /// Not selected.
    Lost,
    /// Every quote, withdrawn ones included.
    All,
}

impl ProfessionalView {
    /// The quote states and request states the view holds.
    fn states(self) -> (&'static [&'static str], Option<&'static [&'static str]>) {
        match self {
            Self::Applied => (&["submitted"], None),
            Self::Active => (&["hired"], Some(&["hired"])),
            Self::Completed => (&["hired"], Some(&["completed"])),
            Self::Lost => (&["not_selected"], None),
            Self::All => (&["submitted", "hired", "not_selected", "withdrawn"], None),
        }
    }
}

/// A page of a professional's quotes, newest first, each with its request as they may see
/// it (in full where they were hired, approximately elsewhere).
pub async fn list_for_professional(
    state: &AppState,
    caller: &Caller,
    professional_id: Uuid,
    view: ProfessionalView,
    page: &PageRequest,
) -> ApiResult<(Vec<(QuoteRow, requests::Viewed)>, String)> {
    let (quote_states, request_states) = view.states();
    let rows = quotes::list_for_professional(
        &state.db,
        professional_id,
        quote_states,
        request_states,
        page,
    )
    .await?;
    let (rows, next_page_token) = page.finish(rows, |quote| (quote.created_at, quote.id));
    let ids: Vec<Uuid> = rows.iter().map(|quote| quote.repair_request_id).collect();
    let viewed = requests::get_quoted(state, caller, professional_id, &ids).await?;
    Ok((rows.into_iter().zip(viewed).collect(), next_page_token))
}
