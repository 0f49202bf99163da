//! Orders: one per payment of a hire (see `migrations/20261123000080_hires.sql`). The live
//! order of a request (`closed_at is null`) is the one it stands on.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::services::ServiceNames;
use crate::domain::{Language, OrderChange};

/// A completed job whose hire payment was captured: what a review needs to know about it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PaidJob {
    pub order_id: Uuid,
    pub repair_request_id: Uuid,
    pub customer_id: Uuid,
    pub professional_id: Uuid,
    pub completed_at: DateTime<Utc>,
}

/// The request's job when the request is COMPLETED and its live order's payment CAPTURED;
/// `None` otherwise (not completed, not paid, refunded, or no such request).
pub async fn paid_job(db: &PgPool, repair_request_id: Uuid) -> sqlx::Result<Option<PaidJob>> {
    sqlx::query_as(
        "select o.id as order_id, o.repair_request_id, o.customer_id, o.professional_id,
                o.completed_at
         from orders o
         join repair_requests r on r.id = o.repair_request_id
         join payments p on p.id = o.payment_id
         where o.repair_request_id = $1 and o.closed_at is null
           and r.state = 'completed' and p.state = 'captured'
           and o.completed_at is not null",
    )
    .bind(repair_request_id)
    .fetch_optional(db)
    .await
}

/// An order as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct OrderRecord {
    pub id: Uuid,
    pub repair_request_id: Uuid,
    pub quote_id: Uuid,
    pub customer_id: Uuid,
    pub professional_id: Uuid,
    pub request_id: Uuid,
    pub payment_id: Option<Uuid>,
    pub amount_cents: i64,
    pub currency: String,
    pub created_at: DateTime<Utc>,
    pub hired_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub closed_at: Option<DateTime<Utc>>,
    /// The card reference the hire was made with, when it may be kept (see
    /// `PaymentMethodRef::keepable`): what resuming a hire cut short needs.
    pub payment_method: Option<String>,
}

const RECORD: &str = "id, repair_request_id, quote_id, customer_id, professional_id, request_id,
    payment_id, amount_cents, currency, created_at, hired_at, completed_at, closed_at,
    payment_method";

/// The order the customer made under their idempotency key `request_id`.
pub async fn find_by_key(
    db: impl sqlx::PgExecutor<'_>,
    customer_id: Uuid,
    request_id: Uuid,
) -> sqlx::Result<Option<OrderRecord>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {RECORD} from orders where customer_id = $1 and request_id = $2"
    )))
    .bind(customer_id)
    .bind(request_id)
    .fetch_optional(db)
    .await
}

pub async fn get(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<OrderRecord>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {RECORD} from orders where id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

pub async fn find_by_payment(
    db: impl sqlx::PgExecutor<'_>,
    payment_id: Uuid,
) -> sqlx::Result<Option<OrderRecord>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {RECORD} from orders where payment_id = $1"
    )))
    .bind(payment_id)
    .fetch_optional(db)
    .await
}

/// The live order of a request, locked for the rest of the transaction.
pub async fn lock_live(
    tx: &mut PgConnection,
    repair_request_id: Uuid,
) -> sqlx::Result<Option<OrderRecord>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {RECORD} from orders where repair_request_id = $1 and closed_at is null
         for update"
    )))
    .bind(repair_request_id)
    .fetch_optional(tx)
    .await
}

/// What a hire claims before the card is authorised.
#[derive(Debug, Clone)]
pub struct NewClaim {
    pub repair_request_id: Uuid,
    pub quote_id: Uuid,
    pub customer_id: Uuid,
    pub professional_id: Uuid,
    pub request_id: Uuid,
    pub amount_cents: i64,
    pub currency: String,
    pub payment_method: Option<String>,
}

/// Inserts the live order of a request with no payment yet; `None` when the request has a
/// live order already or the customer used `request_id` before.
pub async fn insert_claim(
    tx: &mut PgConnection,
    claim: &NewClaim,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<OrderRecord>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "insert into orders (id, repair_request_id, quote_id, customer_id, professional_id,
            request_id, amount_cents, currency, created_at, payment_method)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         on conflict do nothing
         returning {RECORD}"
    )))
    .bind(Uuid::now_v7())
    .bind(claim.repair_request_id)
    .bind(claim.quote_id)
    .bind(claim.customer_id)
    .bind(claim.professional_id)
    .bind(claim.request_id)
    .bind(claim.amount_cents)
    .bind(&claim.currency)
    .bind(now)
    .bind(&claim.payment_method)
    .fetch_optional(tx)
    .await
}

/// Removes a claim whose card was refused, or that nothing can resume
/// ([`OrderChange::Unclaim`]); false when it is no longer a bare claim.
pub async fn delete_claim(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> sqlx::Result<bool> {
    let from = OrderChange::Unclaim.from_sql();
    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
        "delete from orders where id = $1 and {from}"
    )))
    .bind(id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Sets the columns `set` (with `$2` bound to `value`) of order `id` if `change` may start
/// from its stage; false when it may not (another call changed it first).
async fn change<'q, T>(
    db: impl sqlx::PgExecutor<'q>,
    id: Uuid,
    change: OrderChange,
    set: &str,
    value: T,
) -> sqlx::Result<bool>
where
    T: 'q + Send + sqlx::Encode<'q, sqlx::Postgres> + sqlx::Type<sqlx::Postgres>,
{
    let from = change.from_sql();
    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
        "update orders set {set} where id = $1 and {from}"
    )))
    .bind(id)
    .bind(value)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// [`OrderChange::AttachPayment`].
pub async fn attach_payment(
    tx: &mut PgConnection,
    id: Uuid,
    payment_id: Uuid,
) -> sqlx::Result<bool> {
    change(
        tx,
        id,
        OrderChange::AttachPayment,
        "payment_id = $2",
        payment_id,
    )
    .await
}

/// [`OrderChange::Close`]: the order stops being its request's live one.
pub async fn close(
    db: impl sqlx::PgExecutor<'_>,
    id: Uuid,
    now: DateTime<Utc>,
) -> sqlx::Result<bool> {
    change(db, id, OrderChange::Close, "closed_at = $2", now).await
}

/// [`OrderChange::Hire`].
pub async fn mark_hired(tx: &mut PgConnection, id: Uuid, now: DateTime<Utc>) -> sqlx::Result<bool> {
    change(tx, id, OrderChange::Hire, "hired_at = $2", now).await
}

/// [`OrderChange::Complete`].
pub async fn mark_completed(
    tx: &mut PgConnection,
    id: Uuid,
    now: DateTime<Utc>,
) -> sqlx::Result<bool> {
    change(tx, id, OrderChange::Complete, "completed_at = $2", now).await
}

/// Claims whose hire never finished (no payment attached), made before `before`, oldest
/// first.
pub async fn unfinished_claims(
    db: &PgPool,
    before: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<OrderRecord>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {RECORD} from orders
         where payment_id is null and closed_at is null and created_at < $1
         order by created_at limit $2"
    )))
    .bind(before)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The live order of a request.
pub async fn live(
    db: impl sqlx::PgExecutor<'_>,
    repair_request_id: Uuid,
) -> sqlx::Result<Option<OrderRecord>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {RECORD} from orders where repair_request_id = $1 and closed_at is null"
    )))
    .bind(repair_request_id)
    .fetch_optional(db)
    .await
}

/// A hold about to lapse, and whom to warn.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LapsingHold {
    pub order_id: Uuid,
    pub repair_request_id: Uuid,
    pub customer_name: String,
    pub customer_email: String,
    pub customer_language: Language,
    #[sqlx(flatten)]
    pub service_name: ServiceNames,
    pub lapses_at: DateTime<Utc>,
    /// The request's IANA time zone, empty where its place has none.
    pub time_zone: String,
}

/// Marks warned (and answers) up to `limit` hired, uncompleted orders whose authorised hold
/// lapses by `by` and were not warned yet; rows another process is warning are skipped.
pub async fn claim_hold_warnings(
    tx: &mut PgConnection,
    now: DateTime<Utc>,
    by: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<LapsingHold>> {
    sqlx::query_as(
        "with due as (
            select o.id from orders o
            join payments p on p.id = o.payment_id
            where p.state = 'authorized' and p.purpose = 'hire'
              and p.authorization_expires_at <= $2 and p.authorization_expires_at > $1
              and o.closed_at is null and o.completed_at is null and o.hold_warned_at is null
            order by p.authorization_expires_at
            limit $3
            for update of o skip locked
        ), warned as (
            update orders o set hold_warned_at = $1 from due where o.id = due.id
            returning o.id, o.repair_request_id, o.customer_id, o.payment_id
        )
        select w.id as order_id, w.repair_request_id, c.name as customer_name,
            c.email::text as customer_email, c.language as customer_language,
            s.name_en as service_name_en, s.name_fr as service_name_fr,
            p.authorization_expires_at as lapses_at, r.time_zone
        from warned w
        join customers c on c.id = w.customer_id
        join payments p on p.id = w.payment_id
        join repair_requests r on r.id = w.repair_request_id
        join services s on s.id = r.service_id",
    )
    .bind(now)
    .bind(by)
    .bind(limit)
    .fetch_all(tx)
    .await
}

/// Hire payments whose authorised hold ran out by `now` (up to `limit`).
pub async fn lapsed_holds(
    db: impl sqlx::PgExecutor<'_>,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar(
        "select id from payments
         where state = 'authorized' and purpose = 'hire' and authorization_expires_at <= $1
         order by authorization_expires_at limit $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// An admin to warn, and the language they read.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AdminRecipient {
    pub name: String,
    pub email: String,
    pub language: Language,
}

/// The admins to warn of what only admins act on.
pub async fn admin_recipients(db: impl sqlx::PgExecutor<'_>) -> sqlx::Result<Vec<AdminRecipient>> {
    sqlx::query_as(
        "select name, email::text as email, language from admins order by created_at limit 50",
    )
    .fetch_all(db)
    .await
}

/// An order with what its lists show: names, the quote's estimate, the request's state and
/// address, and both parties' contact details.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OrderView {
    #[sqlx(flatten)]
    pub order: OrderRecord,
    pub customer_name: String,
    pub customer_deleted: bool,
    pub customer_email: String,
    pub customer_phone: Option<String>,
    pub professional_name: String,
    pub professional_email: String,
    pub professional_phone: Option<String>,
    pub estimated_minutes: i32,
    pub request_state: String,
    pub line1: String,
    pub line2: String,
    pub city: String,
    pub province: String,
    pub postal_code: String,
}

const VIEW: &str = "select o.id, o.repair_request_id, o.quote_id, o.customer_id,
        o.professional_id, o.request_id, o.payment_id, o.amount_cents, o.currency,
        o.created_at, o.hired_at, o.completed_at, o.closed_at, o.payment_method,
        c.name as customer_name, c.deleted_at is not null as customer_deleted,
        case when c.deleted_at is null then c.email::text else '' end as customer_email,
        c.phone as customer_phone,
        p.name as professional_name, p.email::text as professional_email,
        p.phone as professional_phone, q.estimated_minutes, r.state as request_state,
        r.line1, r.line2, r.city, r.province, r.postal_code
    from o
    join customers c on c.id = o.customer_id
    join professionals p on p.id = o.professional_id
    join quotes q on q.id = o.quote_id
    join repair_requests r on r.id = o.repair_request_id";

pub async fn view(db: &PgPool, id: Uuid) -> sqlx::Result<Option<OrderView>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with o as (select * from orders where id = $1) {VIEW}"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// Whose orders a list holds; both `None`: every order (admin).
#[derive(Debug, Clone, Copy, Default)]
pub struct Party {
    pub customer_id: Option<Uuid>,
    pub professional_id: Option<Uuid>,
}

/// A page of orders that hold a payment, newest first (keyset on created_at, id).
pub async fn list(
    db: &PgPool,
    party: Party,
    page: &super::page::PageRequest,
) -> sqlx::Result<Vec<OrderView>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with o as (
            select * from orders
            where payment_id is not null
              and ($1::uuid is null or customer_id = $1)
              and ($2::uuid is null or professional_id = $2)
              and ($3::timestamptz is null or (created_at, id) < ($3, $4))
            order by created_at desc, id desc
            limit $5
        ) {VIEW}
        order by o.created_at desc, o.id desc"
    )))
    .bind(party.customer_id)
    .bind(party.professional_id)
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .fetch_all(db)
    .await
}
