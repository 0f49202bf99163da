//! The payments ledger: payments and every attempt to move money. Rows are inserted and
//! updated, never deleted (the database refuses deletes).

use std::sync::LazyLock;

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::taxes::{StoredTaxes, taxes_column};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PaymentRow {
    pub id: Uuid,
    pub purpose: String,
    pub payer_id: Uuid,
    pub amount_cents: i64,
    pub currency: String,
    pub gateway: String,
    pub charge_id: String,
    pub state: String,
    pub client_secret: Option<String>,
    pub failure_code: Option<String>,
    pub authorization_expires_at: Option<DateTime<Utc>>,
    pub captured_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// What the amount is made of: the amount before tax, where and when the taxes were
    /// reckoned (when a tax rule was applied), and each tax.
    pub subtotal_cents: i64,
    pub tax_province: Option<String>,
    pub tax_date: Option<NaiveDate>,
    #[sqlx(try_from = "sqlx::types::Json<Vec<super::taxes::StoredTax>>")]
    pub taxes: StoredTaxes,
    /// What its refunds that succeeded add up to (`refunds`).
    pub refunded_cents: i64,
}

/// A payment's columns, its taxes with them, over the `payments` table (unaliased).
static PAYMENT_COLUMNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "id, purpose, payer_id, amount_cents, currency, gateway, charge_id, state, \
         client_secret, failure_code, authorization_expires_at, captured_at, created_at, \
         updated_at, subtotal_cents, tax_province, tax_date, {taxes}, \
         coalesce((select sum(r.amount_cents) from refunds r \
                   where r.payment_id = payments.id and r.state = 'succeeded'), 0)::bigint \
             as refunded_cents",
        taxes = taxes_column(
            "payment_taxes",
            "payment_id",
            "payments.id",
            "payments.currency"
        ),
    )
});

fn payment_sql(template: &str) -> sqlx::AssertSqlSafe<String> {
    sqlx::AssertSqlSafe(template.replace("{columns}", &PAYMENT_COLUMNS))
}

/// A payment as the gateway first answered it.
#[derive(Debug, Clone)]
pub struct NewPayment<'a> {
    pub purpose: &'a str,
    pub payer_id: Uuid,
    /// The total charged: the subtotal plus `taxes`.
    pub amount_cents: i64,
    pub currency: &'a str,
    pub gateway: &'a str,
    pub charge_id: &'a str,
    pub gateway_state: GatewayState<'a>,
    pub subtotal_cents: i64,
    /// The place of supply's code and the day the taxes became payable, when a tax rule
    /// was applied.
    pub tax_province: Option<&'a str>,
    pub tax_date: Option<NaiveDate>,
    pub taxes: &'a [NewPaymentTax<'a>],
}

/// One tax of a new payment.
#[derive(Debug, Clone, Copy)]
pub struct NewPaymentTax<'a> {
    /// "GST", "HST", "QST".
    pub tax: &'a str,
    pub rate_thousandths_percent: u32,
    pub amount_cents: i64,
    pub registration_number: &'a str,
}

/// One tax row as a query over `payment_taxes` or `payout_fee_taxes` gives it (`json_agg` of
/// the rows, no currency: the owner's); the statement and payouts read these.
#[derive(Debug, Clone, sqlx::FromRow, serde::Deserialize)]
pub struct TaxRow {
    pub tax: String,
    pub rate_thousandths_percent: i32,
    pub amount_cents: i64,
    pub registration_number: String,
}

/// What the gateway says of a payment now.
#[derive(Debug, Clone, Copy)]
pub struct GatewayState<'a> {
    pub state: &'a str,
    pub client_secret: Option<&'a str>,
    pub failure_code: Option<&'a str>,
    pub authorization_expires_at: Option<DateTime<Utc>>,
}

/// Records a payment with its taxes, in one transaction; a gateway id already recorded (a
/// retried call the gateway answered with the same payment) answers the existing row.
#[tracing::instrument(skip_all)]
pub async fn insert(db: &PgPool, payment: &NewPayment<'_>) -> sqlx::Result<PaymentRow> {
    let state = payment.gateway_state;
    let mut tx = crate::store::transaction::begin(db).await?;
    let inserted: Option<Uuid> = sqlx::query_scalar(
        "insert into payments (id, purpose, payer_id, amount_cents, currency, gateway,
             charge_id, state, client_secret, failure_code, authorization_expires_at,
             captured_at, subtotal_cents, tax_province, tax_date)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
             case when $8 = 'captured' then now() end, $12, $13, $14)
         on conflict (charge_id) do nothing
         returning id",
    )
    .bind(Uuid::now_v7())
    .bind(payment.purpose)
    .bind(payment.payer_id)
    .bind(payment.amount_cents)
    .bind(payment.currency)
    .bind(payment.gateway)
    .bind(payment.charge_id)
    .bind(state.state)
    .bind(state.client_secret)
    .bind(state.failure_code)
    .bind(state.authorization_expires_at)
    .bind(payment.subtotal_cents)
    .bind(payment.tax_province)
    .bind(payment.tax_date)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(id) = inserted {
        insert_taxes(
            &mut tx,
            "insert into payment_taxes (payment_id, tax, rate_thousandths_percent,
                 amount_cents, registration_number)
             values ($1, $2, $3, $4, $5)",
            (id, None),
            payment.taxes,
        )
        .await?;
    }
    let row = sqlx::query_as(payment_sql(
        "select {columns} from payments where charge_id = $1",
    ))
    .bind(payment.charge_id)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(row)
}

/// Inserts `taxes` through `tx` with `insert`, whose parameters are the owner's id, the
/// tax, its rate, its amount, the seller's number, then `extra` when given.
pub(super) async fn insert_taxes(
    tx: &mut sqlx::PgConnection,
    insert: &'static str,
    (owner, extra): (Uuid, Option<&str>),
    taxes: &[NewPaymentTax<'_>],
) -> sqlx::Result<()> {
    for tax in taxes {
        let query = sqlx::query(insert)
            .bind(owner)
            .bind(tax.tax)
            .bind(i32::try_from(tax.rate_thousandths_percent).unwrap_or(i32::MAX))
            .bind(tax.amount_cents)
            .bind(tax.registration_number);
        match extra {
            Some(extra) => query.bind(extra).execute(&mut *tx).await?,
            None => query.execute(&mut *tx).await?,
        };
    }
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn find(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<PaymentRow>> {
    sqlx::query_as(payment_sql("select {columns} from payments where id = $1"))
        .bind(id)
        .fetch_optional(db)
        .await
}

#[tracing::instrument(skip_all)]
pub async fn find_by_charge_id(db: &PgPool, charge_id: &str) -> sqlx::Result<Option<PaymentRow>> {
    sqlx::query_as(payment_sql(
        "select {columns} from payments where charge_id = $1",
    ))
    .bind(charge_id)
    .fetch_optional(db)
    .await
}

/// Moves a payment to the gateway's state if it is in one of `from`; `None` when it was not
/// (another call moved it first).
#[tracing::instrument(skip_all)]
pub async fn transition(
    db: &PgPool,
    id: Uuid,
    from: &[&str],
    to: &GatewayState<'_>,
) -> sqlx::Result<Option<PaymentRow>> {
    sqlx::query_as(payment_sql(
        "update payments set
             state = $3,
             client_secret = $4,
             failure_code = coalesce($5, failure_code),
             authorization_expires_at = coalesce($6, authorization_expires_at),
             captured_at = case when $3 = 'captured' then now() else captured_at end,
             updated_at = now()
         where id = $1 and state = any($2)
         returning {columns}",
    ))
    .bind(id)
    .bind(from)
    .bind(to.state)
    .bind(to.client_secret)
    .bind(to.failure_code)
    .bind(to.authorization_expires_at)
    .fetch_optional(db)
    .await
}

/// One call that moves money, as first claimed.
#[derive(Debug, Clone)]
pub struct NewAttempt<'a> {
    pub actor_id: Uuid,
    pub request_id: Uuid,
    pub operation: &'a str,
    pub fingerprint: &'a [u8],
    pub amount_cents: Option<i64>,
    pub currency: Option<&'a str>,
    pub gateway: &'a str,
    pub payment_id: Option<Uuid>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AttemptRow {
    pub id: Uuid,
    pub fingerprint: Vec<u8>,
    pub outcome: String,
    pub payment_id: Option<Uuid>,
    pub error_code: Option<String>,
}

/// Claims `request_id` for this call: `Some(attempt id)` when this call owns it (a new key,
/// or a same-payload attempt abandoned for longer than `stale_after_secs`), `None` when
/// another call has it. Atomic: two concurrent calls with one key never both own it.
#[tracing::instrument(skip_all)]
pub async fn claim_attempt(
    db: &PgPool,
    attempt: &NewAttempt<'_>,
    stale_after_secs: i64,
) -> sqlx::Result<Option<Uuid>> {
    let row: Option<(Uuid,)> = sqlx::query_as(
        "insert into payment_attempts (id, actor_id, request_id, operation, fingerprint,
             amount_cents, currency, gateway, payment_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         on conflict (actor_id, request_id) do update set started_at = now()
         where payment_attempts.outcome = 'running'
           and payment_attempts.fingerprint = excluded.fingerprint
           and payment_attempts.started_at < now() - make_interval(secs => $10)
         returning id",
    )
    .bind(Uuid::now_v7())
    .bind(attempt.actor_id)
    .bind(attempt.request_id)
    .bind(attempt.operation)
    .bind(attempt.fingerprint)
    .bind(attempt.amount_cents)
    .bind(attempt.currency)
    .bind(attempt.gateway)
    .bind(attempt.payment_id)
    .bind(stale_after_secs as f64)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|(id,)| id))
}

#[tracing::instrument(skip_all)]
pub async fn find_attempt(
    db: &PgPool,
    actor_id: Uuid,
    request_id: Uuid,
) -> sqlx::Result<Option<AttemptRow>> {
    sqlx::query_as(
        "select id, fingerprint, outcome, payment_id, error_code from payment_attempts
         where actor_id = $1 and request_id = $2",
    )
    .bind(actor_id)
    .bind(request_id)
    .fetch_optional(db)
    .await
}

/// The payment an attempt made or touched.
#[derive(Debug, Clone, Copy)]
pub struct AttemptPayment<'a> {
    pub id: Uuid,
    pub charge_id: &'a str,
    pub state: &'a str,
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy)]
pub enum AttemptEnd<'a> {
    Succeeded {
        payment: AttemptPayment<'a>,
    },
    Refused {
        payment: Option<AttemptPayment<'a>>,
        code: &'a str,
        message: &'a str,
    },
    /// The gateway could not be reached: the key may be taken over at once by a retry (the
    /// gateway's own idempotency key makes the retried call safe).
    Abandoned,
}

#[tracing::instrument(skip_all)]
pub async fn finish_attempt(db: &PgPool, id: Uuid, end: AttemptEnd<'_>) -> sqlx::Result<()> {
    let query = match end {
        AttemptEnd::Succeeded { payment } => sqlx::query(
            "update payment_attempts set outcome = 'succeeded', payment_id = $2,
                 charge_id = $3, state_after = $4, finished_at = now()
             where id = $1",
        )
        .bind(id)
        .bind(payment.id)
        .bind(payment.charge_id)
        .bind(payment.state),
        AttemptEnd::Refused {
            payment,
            code,
            message,
        } => sqlx::query(
            "update payment_attempts set outcome = 'refused',
                 payment_id = coalesce($2, payment_id), charge_id = $3, state_after = $4,
                 error_code = $5, error_message = $6, finished_at = now()
             where id = $1",
        )
        .bind(id)
        .bind(payment.map(|p| p.id))
        .bind(payment.map(|p| p.charge_id))
        .bind(payment.map(|p| p.state))
        .bind(code)
        .bind(message),
        AttemptEnd::Abandoned => {
            sqlx::query("update payment_attempts set started_at = '-infinity' where id = $1")
                .bind(id)
        }
    };
    query.execute(db).await?;
    Ok(())
}

/// Hire payments still held (authorised, or waiting for the cardholder) that no order holds,
/// made before `before`: what a hire cut short left behind.
pub async fn unattached_holds(
    db: &PgPool,
    before: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<PaymentRow>> {
    sqlx::query_as(payment_sql(
        "select {columns} from payments
         where purpose = 'hire' and state in ('authorized', 'requires_action')
           and created_at < $1
           and not exists (select 1 from orders o where o.payment_id = payments.id)
         order by created_at limit $2",
    ))
    .bind(before)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// What `/metrics` reports of the hires' card holds (on their partial index): those still in
/// place that end within `within`, and those past their end that nothing released yet.
pub async fn hold_gauges(db: &PgPool, within: chrono::Duration) -> sqlx::Result<(i64, i64)> {
    sqlx::query_as(
        "select count(*) filter (where authorization_expires_at > now()),
                count(*) filter (where authorization_expires_at <= now())
         from payments
         where state = 'authorized' and purpose = 'hire'
           and authorization_expires_at <= now() + $1",
    )
    .bind(within)
    .fetch_one(db)
    .await
}
