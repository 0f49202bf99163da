//! The work queue of Stripe payouts: the owed entries whose professional has a Connect
//! account, claimed one at a time with `for update skip locked` on the captured payment, so
//! that two server processes never send one entry twice, and the outcome written back in
//! the same transaction.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

/// An owed entry to transfer, locked by the claiming transaction.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DueTransfer {
    pub order_id: Uuid,
    pub professional_id: Uuid,
    pub stripe_account_id: String,
    pub gross_cents: i64,
    pub fee_cents: i64,
    /// Transfers that failed so far.
    pub attempts: i32,
}

/// What a claim found.
#[derive(Debug)]
pub enum Claim {
    /// An entry to transfer, locked until the transaction ends.
    Due(DueTransfer),
    /// The entry found was paid by another process meanwhile: look again.
    Taken,
    /// Nothing is due.
    Empty,
}

/// Locks the oldest captured hire, not refunded, whose payout is neither paid nor waiting
/// for a later retry, of a professional with a Connect account and not in `skip`. Its fee
/// is the one recorded at a failed attempt, else `fee_percent` now of the amount before
/// the job's taxes (as `payouts::ENTRIES` reckons it).
#[tracing::instrument(skip_all)]
pub async fn claim_due(
    tx: &mut PgConnection,
    now: DateTime<Utc>,
    fee_percent: u8,
    skip: &[Uuid],
) -> sqlx::Result<Claim> {
    let due: Option<DueTransfer> = sqlx::query_as(
        "select o.id as order_id, o.professional_id, a.stripe_account_id,
            p.amount_cents as gross_cents,
            coalesce(t.fee_cents, payout_fee(p.subtotal_cents, $2)) as fee_cents,
            coalesce(t.attempts, 0) as attempts
         from payments p
         join orders o on o.payment_id = p.id
         join payout_accounts a on a.professional_id = o.professional_id
         left join payouts t on t.order_id = o.id
         where p.purpose = 'hire' and p.state = 'captured' and p.captured_at is not null
           and (t.id is null or (t.paid_at is null and t.next_attempt_at <= $1))
           and o.professional_id <> all($3)
         order by p.captured_at, p.id
         limit 1
         for update of p skip locked",
    )
    .bind(now)
    .bind(i32::from(fee_percent))
    .bind(skip)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(due) = due else {
        return Ok(Claim::Empty);
    };
    // The lock re-reads the payment but not the payout joined to it: a process that paid
    // the entry and committed just before the lock was taken is seen only by a new read.
    let still_due: bool = sqlx::query_scalar(
        "select not exists (select 1 from payouts where order_id = $1
             and (paid_at is not null or next_attempt_at > $2))",
    )
    .bind(due.order_id)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    Ok(if still_due {
        Claim::Due(due)
    } else {
        Claim::Taken
    })
}

/// The entry is paid by `transfer_id` (none when nothing was left to send after the fee).
#[tracing::instrument(skip_all)]
pub async fn record_paid(
    tx: &mut PgConnection,
    due: &DueTransfer,
    transfer_id: Option<&str>,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into payouts (id, order_id, professional_id, gross_cents, fee_cents, currency,
             transfer_id, paid_at, attempts)
         values ($1, $2, $3, $4, $5, 'CAD', $6, $7, $8)
         on conflict (order_id) do update set transfer_id = excluded.transfer_id,
             paid_at = excluded.paid_at, next_attempt_at = null, last_error = null",
    )
    .bind(Uuid::now_v7())
    .bind(due.order_id)
    .bind(due.professional_id)
    .bind(due.gross_cents)
    .bind(due.fee_cents)
    .bind(transfer_id)
    .bind(now)
    .bind(due.attempts)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The transfer failed: counted, kept with `error`, and due again at `retry_at`.
#[tracing::instrument(skip_all)]
pub async fn record_failure(
    tx: &mut PgConnection,
    due: &DueTransfer,
    error: &str,
    retry_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into payouts (id, order_id, professional_id, gross_cents, fee_cents, currency,
             attempts, next_attempt_at, last_error)
         values ($1, $2, $3, $4, $5, 'CAD', 1, $6, $7)
         on conflict (order_id) do update set attempts = payouts.attempts + 1,
             next_attempt_at = excluded.next_attempt_at, last_error = excluded.last_error",
    )
    .bind(Uuid::now_v7())
    .bind(due.order_id)
    .bind(due.professional_id)
    .bind(due.gross_cents)
    .bind(due.fee_cents)
    .bind(retry_at)
    .bind(error)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
