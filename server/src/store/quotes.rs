//! Quotes on repair requests. Rows are never deleted; `state` says how each one ended.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use std::sync::LazyLock;

use chrono::NaiveDate;

use super::{
    page::PageRequest,
    reviews::ReviewSummary,
    services::ServiceNames,
    taxes::{StoredTax, StoredTaxes, taxes_column},
};
use crate::domain::{
    Cents, Currency, Language, Money, Province, QuoteChange, QuoteState, QuoteTaxTreatment,
    RepairRequestState, Urgency,
};
use crate::tax::ChargedTax;

/// A quote joined to who sent it and what it is for.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct QuoteRow {
    pub id: Uuid,
    pub repair_request_id: Uuid,
    pub professional_id: Uuid,
    pub professional_name: String,
    pub estimated_minutes: i32,
    pub fee_cents: i64,
    pub currency: String,
    pub surge: bool,
    /// 'submitted', 'hired', 'not_selected' or 'withdrawn' (the table's check).
    pub state: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The request's customer, to check who may read the quote.
    pub customer_id: Uuid,
    #[sqlx(flatten)]
    pub service_name: ServiceNames,
    pub request_description: String,
    /// The professional's reviews in short, counted in the same query.
    #[sqlx(flatten)]
    pub professional_reviews: ReviewSummary,
    /// Whether taxes were added when it was sent; when they were, where (the property's
    /// province code) and on which day they were reckoned, and each tax.
    #[sqlx(try_from = "String")]
    pub tax_treatment: QuoteTaxTreatment,
    pub tax_province: Option<String>,
    pub tax_date: Option<NaiveDate>,
    #[sqlx(try_from = "sqlx::types::Json<Vec<StoredTax>>")]
    pub taxes: StoredTaxes,
    /// Minutes after a hire until at the door, when the professional said.
    pub arrival_minutes: Option<i32>,
}

impl QuoteRow {
    pub fn state(&self) -> QuoteState {
        QuoteState::from_code(&self.state).unwrap_or(QuoteState::Withdrawn)
    }

    /// When a hired professional should be at the door: the hire (the quote's last change,
    /// to HIRED) plus the arrival they promised.
    pub fn arrive_by(&self) -> Option<DateTime<Utc>> {
        let minutes = self.arrival_minutes?;
        (self.state() == QuoteState::Hired)
            .then(|| self.updated_at + chrono::Duration::minutes(i64::from(minutes)))
    }
}

/// The quote row with its joins, from a `q` relation (the table or a CTE).
static SELECT: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select q.id, q.repair_request_id, q.professional_id,
            p.name as professional_name, q.estimated_minutes, q.fee_cents, q.currency, q.surge,
            q.state, q.created_at, q.updated_at, r.customer_id, s.name_en as service_name_en,
            s.name_fr as service_name_fr, r.description as request_description, {reviews},
            q.tax_treatment, q.tax_province, q.tax_date, {taxes}, q.arrival_minutes
        from q
        join professionals p on p.id = q.professional_id
        join repair_requests r on r.id = q.repair_request_id
        join services s on s.id = r.service_id",
        reviews = super::reviews::summary_columns("q.professional_id"),
        taxes = taxes_column("quote_taxes", "quote_id", "q.id", "q.currency"),
    )
});

/// What a professional asks for a job.
#[derive(Debug, Clone)]
pub struct NewQuote {
    pub repair_request_id: Uuid,
    pub professional_id: Uuid,
    pub estimated_minutes: i32,
    pub fee_cents: i64,
    pub surge: bool,
    pub taxes: NewQuoteTaxes,
    /// Minutes after a hire until at the door, when said.
    pub arrival_minutes: Option<i32>,
}

/// The taxes a new quote carries, fixed as it is sent.
#[derive(Debug, Clone)]
pub enum NewQuoteTaxes {
    /// Added: reckoned in `place` on `date`; each tax with the professional's number.
    Added {
        place: Province,
        date: NaiveDate,
        taxes: Vec<ChargedTax>,
    },
    /// None: [`QuoteTaxTreatment::NotAdded`] or [`QuoteTaxTreatment::NotRegistered`].
    None(QuoteTaxTreatment),
}

/// Inserts a SUBMITTED quote with its taxes. A second live quote of the professional on the
/// request breaks `quotes_one_live_idx` (ALREADY_EXISTS through the error mapping).
pub async fn insert(
    tx: &mut PgConnection,
    quote: &NewQuote,
    now: DateTime<Utc>,
) -> sqlx::Result<QuoteRow> {
    let (treatment, place, date, taxes) = match &quote.taxes {
        NewQuoteTaxes::Added { place, date, taxes } => (
            QuoteTaxTreatment::Added,
            Some(place.code()),
            Some(*date),
            taxes.as_slice(),
        ),
        NewQuoteTaxes::None(treatment) => (*treatment, None, None, &[][..]),
    };
    let id = Uuid::now_v7();
    sqlx::query(
        "insert into quotes (id, repair_request_id, professional_id, estimated_minutes,
            fee_cents, surge, created_at, updated_at, tax_treatment, tax_province, tax_date,
            arrival_minutes)
        values ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10, $11)",
    )
    .bind(id)
    .bind(quote.repair_request_id)
    .bind(quote.professional_id)
    .bind(quote.estimated_minutes)
    .bind(quote.fee_cents)
    .bind(quote.surge)
    .bind(now)
    .bind(treatment.as_str())
    .bind(place)
    .bind(date)
    .bind(quote.arrival_minutes)
    .execute(&mut *tx)
    .await?;
    for tax in taxes {
        sqlx::query(
            "insert into quote_taxes (quote_id, tax, rate_thousandths_percent, amount_cents,
                registration_number)
            values ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(tax.line.name.as_str())
        .bind(i32::try_from(tax.line.rate.thousandths_percent()).unwrap_or(i32::MAX))
        .bind(tax.line.amount.cents().get())
        .bind(&tax.registration_number)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with q as (select * from quotes where id = $1) {select}",
        select = SELECT.as_str()
    )))
    .bind(id)
    .fetch_one(&mut *tx)
    .await
}

/// The province code of request `id`'s property (its address), read through `tx`.
pub async fn request_province(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("select province from repair_requests where id = $1")
        .bind(id)
        .fetch_optional(tx)
        .await
}

pub async fn get(db: &PgPool, id: Uuid) -> sqlx::Result<Option<QuoteRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with q as (select * from quotes where id = $1) {select}",
        select = SELECT.as_str()
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// SUBMITTED -> WITHDRAWN for the quote of `professional_id`, while its request is open;
/// `None` when the quote is not theirs, not submitted or its request not open.
pub async fn withdraw(
    db: &PgPool,
    id: Uuid,
    professional_id: Uuid,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<QuoteRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with q as (
            update quotes set state = $5, updated_at = $3
            where id = $1 and professional_id = $2 and state = any($4)
              and exists (select 1 from repair_requests r
                          where r.id = quotes.repair_request_id and r.state = 'open')
            returning *
        ) {select}",
        select = SELECT.as_str()
    )))
    .bind(id)
    .bind(professional_id)
    .bind(now)
    .bind(QuoteChange::Withdraw.from_codes())
    .bind(QuoteChange::Withdraw.leads_to().as_str())
    .fetch_optional(db)
    .await
}

/// A page of a request's quotes, oldest first, withdrawn ones left out (keyset on
/// created_at, id ascending).
pub async fn list_for_request(
    db: &PgPool,
    repair_request_id: Uuid,
    page: &PageRequest,
) -> sqlx::Result<Vec<QuoteRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with q as (
            select * from quotes
            where repair_request_id = $1 and state <> 'withdrawn'
              and ($2::timestamptz is null or (created_at, id) > ($2, $3))
        ) {select}
        order by q.created_at, q.id
        limit $4",
        select = SELECT.as_str()
    )))
    .bind(repair_request_id)
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .fetch_all(db)
    .await
}

/// A request's quotes for a live snapshot, oldest first, withdrawn ones left out: all of
/// them, or only those of `professional_id`; at most `limit`.
pub async fn live_for_request(
    db: &PgPool,
    repair_request_id: Uuid,
    professional_id: Option<Uuid>,
    limit: i64,
) -> sqlx::Result<Vec<QuoteRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with q as (
            select * from quotes
            where repair_request_id = $1 and state <> 'withdrawn'
              and ($2::uuid is null or professional_id = $2)
        ) {select}
        order by q.created_at, q.id
        limit $3",
        select = SELECT.as_str()
    )))
    .bind(repair_request_id)
    .bind(professional_id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Locks request `id` for the rest of the transaction; its state, `None` when it does not
/// exist.
/// The urgency of request `id` (read in the transaction that locked it).
pub async fn request_urgency(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<Urgency>> {
    let code: Option<String> =
        sqlx::query_scalar("select urgency from repair_requests where id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(code.and_then(|code| Urgency::from_code(&code)))
}

/// The quote hired on request `id`, if any.
pub async fn hired_quote_id(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<Uuid>> {
    let quote: Option<Option<Uuid>> =
        sqlx::query_scalar("select hired_application_id from repair_requests where id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(quote.flatten())
}

pub async fn lock_request_state(
    tx: &mut PgConnection,
    id: Uuid,
) -> sqlx::Result<Option<RepairRequestState>> {
    let state: Option<String> =
        sqlx::query_scalar("select state from repair_requests where id = $1 for update")
            .bind(id)
            .fetch_optional(tx)
            .await?;
    Ok(
        state
            .map(|state| RepairRequestState::from_code(&state).unwrap_or(RepairRequestState::Open)),
    )
}

/// SUBMITTED (or HIRED, authorised again) -> HIRED; false when the quote was withdrawn or
/// not selected meanwhile.
pub async fn hire(tx: &mut PgConnection, id: Uuid, now: DateTime<Utc>) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update quotes set state = $4, updated_at = $2 where id = $1 and state = any($3)",
    )
    .bind(id)
    .bind(now)
    .bind(QuoteChange::Hire.from_codes())
    .bind(QuoteChange::Hire.leads_to().as_str())
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A professional whose quote was closed, and how to tell them.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClosedQuote {
    pub professional_id: Uuid,
    pub email: String,
    pub name: String,
    pub language: Language,
    #[sqlx(flatten)]
    pub service_name: ServiceNames,
}

/// The hire that sets the other quotes aside: its quote, kept, and its order, which a release
/// of the hire reads to bring them back.
#[derive(Debug, Clone, Copy)]
pub struct SetAside {
    pub quote_id: Uuid,
    pub order_id: Uuid,
}

/// SUBMITTED -> NOT_SELECTED for every quote on request `repair_request_id` but the hired one
/// of `keep` (none when it was cancelled); who to tell.
pub async fn close_submitted(
    tx: &mut PgConnection,
    repair_request_id: Uuid,
    keep: Option<SetAside>,
    now: DateTime<Utc>,
) -> sqlx::Result<Vec<ClosedQuote>> {
    sqlx::query_as(
        "with q as (
            update quotes set state = $5, updated_at = $2, set_aside_by = $6
            where repair_request_id = $1 and state = any($4)
              and ($3::uuid is null or id <> $3)
            returning professional_id
        )
        select q.professional_id, p.email::text as email, p.name, p.language,
            s.name_en as service_name_en, s.name_fr as service_name_fr
        from q
        join professionals p on p.id = q.professional_id
        join repair_requests r on r.id = $1
        join services s on s.id = r.service_id",
    )
    .bind(repair_request_id)
    .bind(now)
    .bind(keep.map(|hire| hire.quote_id))
    .bind(QuoteChange::NotSelect.from_codes())
    .bind(QuoteChange::NotSelect.leads_to().as_str())
    .bind(keep.map(|hire| hire.order_id))
    .fetch_all(tx)
    .await
}

/// Whether professional `professional_id`'s hire on request `repair_request_id` was
/// released (they may not quote on it again).
pub async fn released_on(
    db: impl sqlx::PgExecutor<'_>,
    repair_request_id: Uuid,
    professional_id: Uuid,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from quotes
            where repair_request_id = $1 and professional_id = $2 and state = $3)",
    )
    .bind(repair_request_id)
    .bind(professional_id)
    .bind(QuoteState::Released.as_str())
    .fetch_one(db)
    .await
}

/// HIRED -> RELEASED for the quote `id`; false when it was not hired.
pub async fn release(tx: &mut PgConnection, id: Uuid, now: DateTime<Utc>) -> sqlx::Result<bool> {
    let release = QuoteChange::Release;
    let done = sqlx::query(
        "update quotes set state = $4, updated_at = $2 where id = $1 and state = any($3)",
    )
    .bind(id)
    .bind(now)
    .bind(release.from_codes())
    .bind(release.leads_to().as_str())
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// NOT_SELECTED -> SUBMITTED for the quotes the hire `order_id` set aside, whose
/// professionals may still take jobs; who to tell that the customer is choosing again.
pub async fn revive_set_aside(
    tx: &mut PgConnection,
    order_id: Uuid,
    now: DateTime<Utc>,
) -> sqlx::Result<Vec<ClosedQuote>> {
    let revive = QuoteChange::Revive;
    sqlx::query_as(
        "with q as (
            update quotes set state = $4, updated_at = $2, set_aside_by = null
            where set_aside_by = $1 and state = any($3)
            returning professional_id, repair_request_id
        )
        select q.professional_id, p.email::text as email, p.name, p.language,
            s.name_en as service_name_en, s.name_fr as service_name_fr
        from q
        join professionals p on p.id = q.professional_id
        join repair_requests r on r.id = q.repair_request_id
        join services s on s.id = r.service_id",
    )
    .bind(order_id)
    .bind(now)
    .bind(revive.from_codes())
    .bind(revive.leads_to().as_str())
    .fetch_all(tx)
    .await
}

/// A quote withdrawn because its professional can no longer take jobs, and whom to tell.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WithdrawnQuote {
    pub customer_email: String,
    pub customer_name: String,
    pub customer_language: Language,
    pub professional_name: String,
    #[sqlx(flatten)]
    pub service_name: ServiceNames,
}

/// SUBMITTED -> WITHDRAWN for every quote of professional `professional_id` (denied or
/// removed); the customers to tell.
pub async fn withdraw_all_of(
    tx: &mut PgConnection,
    professional_id: Uuid,
    now: DateTime<Utc>,
) -> sqlx::Result<Vec<WithdrawnQuote>> {
    sqlx::query_as(
        "with q as (
            update quotes set state = $4, updated_at = $2
            where professional_id = $1 and state = any($3)
            returning repair_request_id
        )
        select c.email::text as customer_email, c.name as customer_name,
            c.language as customer_language, p.name as professional_name,
            s.name_en as service_name_en, s.name_fr as service_name_fr
        from q
        join repair_requests r on r.id = q.repair_request_id
        join customers c on c.id = r.customer_id and c.deleted_at is null
        join professionals p on p.id = $1
        join services s on s.id = r.service_id",
    )
    .bind(professional_id)
    .bind(now)
    .bind(QuoteChange::Withdraw.from_codes())
    .bind(QuoteChange::Withdraw.leads_to().as_str())
    .fetch_all(tx)
    .await
}

/// SUBMITTED -> NOT_SELECTED for the quotes on open requests whose time ran out at `now`
/// (run just before those requests expire, in the same transaction).
pub async fn close_on_expiring(tx: &mut PgConnection, now: DateTime<Utc>) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "update quotes set state = 'not_selected', updated_at = $1
         where state = 'submitted' and repair_request_id in
            (select id from repair_requests where state = 'open' and expires_at <= $1)",
    )
    .bind(now)
    .execute(tx)
    .await?;
    Ok(done.rows_affected())
}

/// A page of a professional's quotes, newest first: those in `quote_states`, on requests in
/// `request_states` (any when `None`).
pub async fn list_for_professional(
    db: &PgPool,
    professional_id: Uuid,
    quote_states: &[&str],
    request_states: Option<&[&str]>,
    page: &PageRequest,
) -> sqlx::Result<Vec<QuoteRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with q as (
            select quotes.* from quotes
            join repair_requests rr on rr.id = quotes.repair_request_id
            where quotes.professional_id = $1 and quotes.state = any($2)
              and ($3::text[] is null or rr.state = any($3))
              and ($4::timestamptz is null or (quotes.created_at, quotes.id) < ($4, $5))
        ) {select}
        order by q.created_at desc, q.id desc
        limit $6",
        select = SELECT.as_str()
    )))
    .bind(professional_id)
    .bind(quote_states)
    .bind(request_states)
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .fetch_all(db)
    .await
}

/// A professional's dashboard counters over their quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct ProfessionalCounts {
    /// Requests with a quote of theirs that was not withdrawn.
    pub quoted: i64,
    /// Requests they were hired on (hired or completed).
    pub hired: i64,
    /// Of those, the completed ones.
    pub completed: i64,
}

pub async fn professional_counts(
    db: &PgPool,
    professional_id: Uuid,
) -> sqlx::Result<ProfessionalCounts> {
    sqlx::query_as(
        "select count(distinct q.repair_request_id) filter (where q.state <> 'withdrawn')
                    as quoted,
                count(*) filter (where q.state = 'hired' and r.state in ('hired', 'completed'))
                    as hired,
                count(*) filter (where q.state = 'hired' and r.state = 'completed')
                    as completed
         from quotes q join repair_requests r on r.id = q.repair_request_id
         where q.professional_id = $1",
    )
    .bind(professional_id)
    .fetch_one(db)
    .await
}

impl QuoteRow {
    /// A stored quote's fee (the table admits only positive CAD amounts).
    pub fn fee(&self) -> Money {
        Money::parse(self.fee_cents, &self.currency)
            .unwrap_or_else(|_| Money::new(Cents::ZERO, Currency::Cad))
    }
}
