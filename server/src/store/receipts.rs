//! The receipts of hires: what a hired order's payment came to, as its customer and
//! professional read of it, and the record that each outcome was told once
//! (`hire_receipts`, see its migration).

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::services::ServiceNames;
use crate::domain::Language;

/// A hired order's payment, with whom to tell and in which language and zone.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct HireFacts {
    pub order_id: Uuid,
    pub payment_id: Uuid,
    pub customer_id: Uuid,
    pub professional_id: Uuid,
    /// The platform's share of the payment before its taxes, as the payouts count it
    /// (`payout_fee` of the amount before the job's taxes).
    pub fee_cents: i64,
    #[sqlx(flatten)]
    pub service_name: ServiceNames,
    /// The request's IANA time zone, empty where its place has none: the customer's dates.
    pub request_time_zone: String,
    pub customer_name: String,
    pub customer_email: String,
    pub customer_language: Language,
    /// A deleted customer has no address left to write to.
    pub customer_deleted: bool,
    pub professional_name: String,
    pub professional_email: String,
    pub professional_language: Language,
    /// The professional's IANA time zone, empty when unknown.
    pub professional_time_zone: String,
    /// The province code of the professional's home base (the fee's taxes); empty if none.
    pub professional_home_province: String,
}

/// Order `order_id` with its payment, if the professional was hired on it (read through
/// `tx`); `fee_percent` is the platform's share (`PLATFORM_FEE_PERCENT`).
pub async fn hired_order(
    tx: &mut PgConnection,
    order_id: Uuid,
    fee_percent: u8,
) -> sqlx::Result<Option<HireFacts>> {
    sqlx::query_as(
        "select o.id as order_id, p.id as payment_id, o.customer_id, o.professional_id,
            payout_fee(p.subtotal_cents, $2) as fee_cents,
            s.name_en as service_name_en, s.name_fr as service_name_fr,
            r.time_zone as request_time_zone,
            c.name as customer_name, c.email::text as customer_email,
            c.language as customer_language, c.deleted_at is not null as customer_deleted,
            pr.name as professional_name, pr.email::text as professional_email,
            pr.language as professional_language, pr.time_zone as professional_time_zone,
            pr.home_province as professional_home_province
         from orders o
         join payments p on p.id = o.payment_id
         join repair_requests r on r.id = o.repair_request_id
         join services s on s.id = r.service_id
         join customers c on c.id = o.customer_id
         join professionals pr on pr.id = o.professional_id
         where o.id = $1 and o.hired_at is not null",
    )
    .bind(order_id)
    .bind(i32::from(fee_percent))
    .fetch_optional(tx)
    .await
}

/// Records that `outcome` of payment `payment_id` is being told, in the transaction that
/// writes the telling; false when it was told before (by any process, at any time).
pub async fn claim(tx: &mut PgConnection, payment_id: Uuid, outcome: &str) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "insert into hire_receipts (payment_id, outcome) values ($1, $2)
         on conflict do nothing",
    )
    .bind(payment_id)
    .bind(outcome)
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Hired orders whose payment moved before `before` to a state whose outcome was not told
/// (a process stopped between the two, or the telling failed), oldest first, at most
/// `limit`. `outcomes` pairs each payment state that tells something with its outcome.
pub async fn untold(
    db: &PgPool,
    outcomes: &[(&str, &str)],
    before: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<Uuid>> {
    let states: Vec<&str> = outcomes.iter().map(|(state, _)| *state).collect();
    let told_as: Vec<&str> = outcomes.iter().map(|(_, outcome)| *outcome).collect();
    sqlx::query_scalar(
        "select o.id from orders o
         join payments p on p.id = o.payment_id
         join unnest($1::text[], $2::text[]) as m (state, outcome) on m.state = p.state
         where o.hired_at is not null and p.updated_at < $3
           and not exists (select 1 from hire_receipts h
                           where h.payment_id = p.id and h.outcome = m.outcome)
         order by p.updated_at limit $4",
    )
    .bind(states)
    .bind(told_as)
    .bind(before)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Who a payment's receipt names, beside what the ledger holds of the payment itself.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReceiptParties {
    /// The payer's name (a customer, a professional or an admin); `None` if none is found.
    pub payer_name: Option<String>,
    /// The hired professional of a hire (the payee), and what they sold.
    pub payee_id: Option<Uuid>,
    pub payee_name: Option<String>,
    pub service_name_en: Option<String>,
    pub service_name_fr: Option<String>,
    /// The request's postal code (the place of the work); empty when it has none.
    pub postal_code: Option<String>,
}

/// The parties of payment `payment_id`'s receipt; `None` when there is no such payment.
#[tracing::instrument(skip_all)]
pub async fn receipt_parties(
    db: &PgPool,
    payment_id: Uuid,
) -> sqlx::Result<Option<ReceiptParties>> {
    sqlx::query_as(
        "select coalesce(c.name, payer.name, a.name) as payer_name,
            o.professional_id as payee_id, pr.name as payee_name,
            s.name_en as service_name_en, s.name_fr as service_name_fr, r.postal_code
         from payments p
         left join customers c on c.id = p.payer_id
         left join professionals payer on payer.id = p.payer_id
         left join admins a on a.id = p.payer_id
         left join orders o on o.payment_id = p.id and p.purpose = 'hire'
         left join professionals pr on pr.id = o.professional_id
         left join repair_requests r on r.id = o.repair_request_id
         left join services s on s.id = r.service_id
         where p.id = $1",
    )
    .bind(payment_id)
    .fetch_optional(db)
    .await
}
