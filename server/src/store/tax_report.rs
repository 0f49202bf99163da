//! What the sales tax report and the monthly statements read: the taxes recorded with
//! payments and with payouts' fees, summed per seller, province, tax and rate over a period,
//! and the names a statement's jobs carry. Every query is bounded by its period.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::payments::TaxRow;

/// One group of taxes: who collected them (`platform` or `professionals`), where, which tax
/// at which rate, on how much, how much, and over how many sales.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TaxSum {
    pub seller: String,
    pub province: String,
    pub tax: String,
    pub rate_thousandths_percent: i32,
    pub taxable_cents: i64,
    pub tax_cents: i64,
    pub sales: i64,
}

/// The taxes recorded with captured payments (disputed ones too: the money is held until the
/// bank decides) whose day of supply is in [`from`, `to`], less those given back by the
/// partial refunds made in it (each credit note's taxes and the amount before them, on the
/// day it was made): the platform's on what it sold (memberships, test charges), the
/// professionals' on their repair work (hires). A payment refunded in full is left out.
#[tracing::instrument(skip_all)]
pub async fn payment_taxes(
    db: &PgPool,
    from: NaiveDate,
    to: NaiveDate,
) -> sqlx::Result<Vec<TaxSum>> {
    sqlx::query_as(
        "select case when purpose = 'hire' then 'professionals' else 'platform' end as seller,
            province, tax, rate_thousandths_percent,
            sum(taxable_cents)::bigint as taxable_cents,
            sum(tax_cents)::bigint as tax_cents, sum(sales)::bigint as sales
         from (
             select p.purpose, p.tax_province as province, x.tax, x.rate_thousandths_percent,
                 p.subtotal_cents as taxable_cents, x.amount_cents as tax_cents, 1 as sales
             from payments p
             join payment_taxes x on x.payment_id = p.id
             where p.state in ('captured', 'disputed') and p.tax_date between $1 and $2
               and p.tax_province is not null
             union all
             select p.purpose, p.tax_province, t.tax, t.rate_thousandths_percent,
                 -(r.amount_cents - r.tax_cents), -t.amount_cents, 0
             from refunds r
             join payments p on p.id = r.payment_id
             cross join lateral jsonb_to_recordset(r.taxes)
                 as t(tax text, rate_thousandths_percent integer, amount_cents bigint)
             where r.state = 'succeeded' and p.state in ('captured', 'disputed')
               and (r.created_at at time zone 'UTC')::date between $1 and $2
               and p.tax_province is not null
         ) lines
         group by 1, 2, 3, 4",
    )
    .bind(from)
    .bind(to)
    .fetch_all(db)
    .await
}

/// The taxes recorded with the fees of payouts whose hire was captured in [`from`,
/// `until`) and not refunded: the platform's.
#[tracing::instrument(skip_all)]
pub async fn recorded_fee_taxes(
    db: &PgPool,
    (from, until): (DateTime<Utc>, DateTime<Utc>),
) -> sqlx::Result<Vec<TaxSum>> {
    sqlx::query_as(
        "select 'platform' as seller, x.province, x.tax, x.rate_thousandths_percent,
            sum(t.fee_cents)::bigint as taxable_cents,
            sum(x.amount_cents)::bigint as tax_cents, count(*)::bigint as sales
         from payouts t
         join payout_fee_taxes x on x.order_id = t.order_id
         join orders o on o.id = t.order_id
         join payments p on p.id = o.payment_id
         where p.state in ('captured', 'disputed')
           and p.captured_at >= $1 and p.captured_at < $2
         group by 1, 2, 3, 4",
    )
    .bind(from)
    .bind(until)
    .fetch_all(db)
    .await
}

/// Captured, not refunded hires without a payout record yet, whose fee's taxes are still
/// reckoned at each read: grouped by the capture's day (UTC), the professional's home base
/// and the fee (`fee_percent` of the amount before the job's taxes).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UnrecordedFees {
    pub day: NaiveDate,
    pub home_province: String,
    pub fee_cents: i64,
    pub sales: i64,
}

#[tracing::instrument(skip_all)]
pub async fn unrecorded_fees(
    db: &PgPool,
    (from, until): (DateTime<Utc>, DateTime<Utc>),
    fee_percent: u8,
) -> sqlx::Result<Vec<UnrecordedFees>> {
    sqlx::query_as(
        "select (p.captured_at at time zone 'UTC')::date as day, pr.home_province,
            payout_fee(p.subtotal_cents, $3) as fee_cents, count(*)::bigint as sales
         from payments p
         join orders o on o.payment_id = p.id
         join professionals pr on pr.id = o.professional_id
         left join payouts t on t.order_id = o.id
         where p.purpose = 'hire' and p.state in ('captured', 'disputed')
           and p.captured_at >= $1 and p.captured_at < $2 and t.id is null
         group by 1, 2, 3",
    )
    .bind(from)
    .bind(until)
    .bind(i32::from(fee_percent))
    .fetch_all(db)
    .await
}

/// A statement's job: the request's service, the customer and the job's taxes.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JobFacts {
    pub order_id: Uuid,
    pub service_name_en: String,
    pub service_name_fr: String,
    pub customer_name: String,
    pub taxes: sqlx::types::Json<Vec<TaxRow>>,
}

#[tracing::instrument(skip_all)]
pub async fn job_facts(db: &PgPool, orders: &[Uuid]) -> sqlx::Result<Vec<JobFacts>> {
    sqlx::query_as(
        "select o.id as order_id, s.name_en as service_name_en, s.name_fr as service_name_fr,
            c.name as customer_name,
            coalesce((select json_agg(x) from payment_taxes x where x.payment_id = o.payment_id),
                     '[]'::json) as taxes
         from orders o
         join repair_requests r on r.id = o.repair_request_id
         join services s on s.id = r.service_id
         join customers c on c.id = o.customer_id
         where o.id = any($1)",
    )
    .bind(orders)
    .fetch_all(db)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn professional_name(db: &PgPool, id: Uuid) -> sqlx::Result<String> {
    sqlx::query_scalar("select name from professionals where id = $1")
        .bind(id)
        .fetch_one(db)
        .await
}
