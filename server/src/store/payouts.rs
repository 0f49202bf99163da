//! The payout ledger, read from the captured hire payments of a professional's orders and
//! the transfers recorded against them (see migration `payouts`).

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, PgPool, types::Json};
use uuid::Uuid;

use super::{page::PageRequest, payments::TaxRow};

/// One captured hire of a professional, with its transfer once paid.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PayoutRow {
    /// The captured payment: one per order, so it names the entry.
    pub id: Uuid,
    pub order_id: Uuid,
    pub gross_cents: i64,
    /// The hire's amount before the job's taxes, which the fee is a share of.
    pub subtotal_cents: i64,
    pub fee_cents: i64,
    /// `captured` or `refunded`.
    pub payment_state: String,
    pub captured_at: DateTime<Utc>,
    pub transfer_id: Option<String>,
    pub paid_at: Option<DateTime<Utc>>,
    /// Transfers that failed so far, when the next one is due and why the last failed.
    pub attempts: i32,
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    /// The admin's note of a payout recorded by hand.
    pub note: Option<String>,
    /// The province code of the professional's home base (where the platform's fee is
    /// supplied); empty when unknown.
    pub home_province: String,
    /// Whether the entry has a payout record (a transfer tried, or a payout made): its fee
    /// and the fee's taxes are then the recorded ones.
    pub recorded: bool,
    /// The fee's taxes as recorded; empty before the record (and when none applied).
    pub recorded_fee_taxes: Json<Vec<TaxRow>>,
    /// The professional's share given back by the payment's refunds (pending ones too: the
    /// money is on its way back to the customer), and the part of it given back before the
    /// payout (all of it while unpaid).
    pub refunded_cents: i64,
    pub refunded_before_payout_cents: i64,
}

/// What a professional is owed (captured, neither paid nor refunded) and was paid, net of
/// the fee and its taxes.
#[derive(Debug, Clone, Copy, sqlx::FromRow)]
pub struct PayoutTotals {
    pub owed_cents: i64,
    pub paid_cents: i64,
}

/// The entries of a professional: the fee of a recorded entry (paid, or a transfer tried)
/// is the one recorded then, of another one `fee_percent` now of the amount before the
/// job's taxes; the fee's taxes are recorded with it (`payout_fee_taxes`).
const ENTRIES: &str = "
    select p.id, o.id as order_id, p.amount_cents as gross_cents, p.subtotal_cents,
        coalesce(t.fee_cents, payout_fee(p.subtotal_cents, $2)) as fee_cents,
        p.state as payment_state, p.captured_at, t.transfer_id, t.paid_at,
        coalesce(t.attempts, 0) as attempts, t.next_attempt_at, t.last_error, m.note,
        pr.home_province, t.id is not null as recorded,
        coalesce((select json_agg(x order by x.tax) from payout_fee_taxes x
                  where x.order_id = o.id), '[]'::json) as recorded_fee_taxes,
        coalesce((select sum(r.professional_cents) from refunds r
                  where r.payment_id = p.id and r.state <> 'failed'), 0)::bigint
            as refunded_cents,
        coalesce((select sum(r.professional_cents) from refunds r
                  where r.payment_id = p.id and r.state <> 'failed'
                    and (t.paid_at is null or r.created_at < t.paid_at)), 0)::bigint
            as refunded_before_payout_cents
    from orders o
    join payments p on p.id = o.payment_id
    join professionals pr on pr.id = o.professional_id
    left join payouts t on t.order_id = o.id
    left join manual_payouts m on m.id = t.manual_payout_id
    where o.professional_id = $1 and p.purpose = 'hire' and p.captured_at is not null";

#[tracing::instrument(skip_all)]
pub async fn professional_exists(db: &PgPool, id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar("select exists (select 1 from professionals where id = $1)")
        .bind(id)
        .fetch_one(db)
        .await
}

/// What was paid to a professional: each paid entry's gross less its recorded fee, the
/// fee's recorded taxes and their share given back by refunds before the payout.
#[tracing::instrument(skip_all)]
pub async fn paid_cents(db: impl PgExecutor<'_>, professional: Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select coalesce(sum(t.gross_cents - t.fee_cents
                 - coalesce((select sum(x.amount_cents) from payout_fee_taxes x
                             where x.order_id = t.order_id), 0)
                 - coalesce((select sum(r.professional_cents) from refunds r
                             join orders o on o.payment_id = r.payment_id
                             where o.id = t.order_id and r.state <> 'failed'
                               and r.created_at < t.paid_at), 0)), 0)::bigint
         from payouts t where t.professional_id = $1 and t.paid_at is not null",
    )
    .bind(professional)
    .fetch_one(db)
    .await
}

/// The entries a professional is owed: captured, neither paid nor refunded.
#[tracing::instrument(skip_all)]
pub async fn owed(
    db: impl PgExecutor<'_>,
    professional: Uuid,
    fee_percent: u8,
) -> sqlx::Result<Vec<PayoutRow>> {
    let sql = format!("{ENTRIES} and p.state = 'captured' and t.paid_at is null");
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(professional)
        .bind(i32::from(fee_percent))
        .fetch_all(db)
        .await
}

/// A page of entries, newest capture first.
#[tracing::instrument(skip_all)]
pub async fn list(
    db: &PgPool,
    professional: Uuid,
    fee_percent: u8,
    page: &PageRequest,
) -> sqlx::Result<(Vec<PayoutRow>, String)> {
    let sql = format!(
        "{ENTRIES}
           and ($3::timestamptz is null or (p.captured_at, p.id) < ($3, $4))
         order by p.captured_at desc, p.id desc
         limit $5"
    );
    let rows: Vec<PayoutRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(professional)
        .bind(i32::from(fee_percent))
        .bind(page.after_time())
        .bind(page.after_id())
        .bind(page.fetch_limit())
        .fetch_all(db)
        .await?;
    Ok(page.finish(rows, |row| (row.captured_at, row.id)))
}

/// The entries of `orders` among the professional's captured hires, their payments locked
/// until the transaction ends (an entry being paid by hand is not refunded meanwhile).
#[tracing::instrument(skip_all)]
pub async fn lock_entries(
    tx: &mut PgConnection,
    professional: Uuid,
    fee_percent: u8,
    orders: &[Uuid],
) -> sqlx::Result<Vec<PayoutRow>> {
    let sql = format!("{ENTRIES} and o.id = any($3) order by o.id for update of p");
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(professional)
        .bind(i32::from(fee_percent))
        .bind(orders)
        .fetch_all(tx)
        .await
}

/// Which moment of an entry a period holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// The hire's capture (a monthly statement's jobs).
    Captured,
    /// The payout (a monthly statement's payouts).
    Paid,
}

/// The entries of `professional` whose `moment` falls in [`from`, `until`), oldest first.
#[tracing::instrument(skip_all)]
pub async fn between(
    db: &PgPool,
    professional: Uuid,
    fee_percent: u8,
    moment: Moment,
    (from, until): (DateTime<Utc>, DateTime<Utc>),
) -> sqlx::Result<Vec<PayoutRow>> {
    let column = match moment {
        Moment::Captured => "p.captured_at",
        Moment::Paid => "t.paid_at",
    };
    let sql = format!("{ENTRIES} and {column} >= $3 and {column} < $4 order by {column}, p.id");
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(professional)
        .bind(i32::from(fee_percent))
        .bind(from)
        .bind(until)
        .fetch_all(db)
        .await
}

/// Records the taxes of the fee of order `order_id`'s payout record, through the
/// transaction that first writes the record (a later write keeps the first ones).
#[tracing::instrument(skip_all)]
pub async fn record_fee_taxes(
    tx: &mut PgConnection,
    order_id: Uuid,
    province: &str,
    taxes: &[super::payments::NewPaymentTax<'_>],
) -> sqlx::Result<()> {
    super::payments::insert_taxes(
        tx,
        "insert into payout_fee_taxes (order_id, tax, rate_thousandths_percent,
             amount_cents, registration_number, province)
         values ($1, $2, $3, $4, $5, $6)
         on conflict do nothing",
        (order_id, Some(province)),
        taxes,
    )
    .await
}

/// The professional's Connect account and email.
#[tracing::instrument(skip_all)]
pub async fn stripe_account(db: &PgPool, professional: Uuid) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("select stripe_account_id from payout_accounts where professional_id = $1")
        .bind(professional)
        .fetch_optional(db)
        .await
}

#[tracing::instrument(skip_all)]
pub async fn professional_email(db: &PgPool, professional: Uuid) -> sqlx::Result<String> {
    sqlx::query_scalar("select email::text from professionals where id = $1")
        .bind(professional)
        .fetch_one(db)
        .await
}

/// Keeps the first account stored for a professional and answers it (Stripe's idempotency
/// key already makes a racing second creation answer the same account).
#[tracing::instrument(skip_all)]
pub async fn keep_stripe_account(
    db: &PgPool,
    professional: Uuid,
    account: &str,
) -> sqlx::Result<String> {
    sqlx::query_scalar(
        "with kept as (
            insert into payout_accounts (professional_id, stripe_account_id) values ($1, $2)
            on conflict (professional_id) do nothing
            returning stripe_account_id)
         select stripe_account_id from kept
         union all
         select stripe_account_id from payout_accounts where professional_id = $1
         limit 1",
    )
    .bind(professional)
    .bind(account)
    .fetch_one(db)
    .await
}
