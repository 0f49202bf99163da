//! Payouts an admin made by hand (test mode): the admin's record, once per request_id, and
//! the entries it marks paid (see migration `payout_transfers`).

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use super::payouts::PayoutRow;

/// What an admin recorded under one request_id.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ManualPayoutRow {
    pub id: Uuid,
    pub professional_id: Uuid,
    /// Sorted.
    pub order_ids: Vec<Uuid>,
    pub note: String,
}

/// Keeps the record unless the admin already used `request_id`: true when it was kept.
/// A second call with the same key waits here for the first one's transaction.
#[tracing::instrument(skip_all)]
pub async fn insert(
    tx: &mut PgConnection,
    admin: Uuid,
    request_id: Uuid,
    record: &ManualPayoutRow,
) -> sqlx::Result<bool> {
    let kept = sqlx::query(
        "insert into manual_payouts (id, admin_id, request_id, professional_id, order_ids, note)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (admin_id, request_id) do nothing",
    )
    .bind(record.id)
    .bind(admin)
    .bind(request_id)
    .bind(record.professional_id)
    .bind(&record.order_ids)
    .bind(&record.note)
    .execute(tx)
    .await?;
    Ok(kept.rows_affected() == 1)
}

#[tracing::instrument(skip_all)]
pub async fn find(
    tx: &mut PgConnection,
    admin: Uuid,
    request_id: Uuid,
) -> sqlx::Result<Option<ManualPayoutRow>> {
    sqlx::query_as(
        "select id, professional_id, order_ids, note from manual_payouts
         where admin_id = $1 and request_id = $2",
    )
    .bind(admin)
    .bind(request_id)
    .fetch_optional(tx)
    .await
}

/// Marks `entries` paid at `now` by the record, each at the fee it shows. Answers how many
/// were marked: an entry paid meanwhile (by another admin) is left alone and not counted.
#[tracing::instrument(skip_all)]
pub async fn mark_paid(
    tx: &mut PgConnection,
    record: &ManualPayoutRow,
    entries: &[PayoutRow],
    now: DateTime<Utc>,
) -> sqlx::Result<u64> {
    let column = |f: fn(&PayoutRow) -> i64| entries.iter().map(f).collect::<Vec<i64>>();
    let ids: Vec<Uuid> = entries.iter().map(|_| Uuid::now_v7()).collect();
    let orders: Vec<Uuid> = entries.iter().map(|e| e.order_id).collect();
    let marked = sqlx::query(
        "insert into payouts (id, order_id, professional_id, gross_cents, fee_cents, currency,
             paid_at, manual_payout_id)
         select e.id, e.order_id, $5, e.gross, e.fee, 'CAD', $6, $7
         from unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::bigint[])
             as e (id, order_id, gross, fee)
         on conflict (order_id) do update set paid_at = excluded.paid_at,
             manual_payout_id = excluded.manual_payout_id, next_attempt_at = null,
             last_error = null
         where payouts.paid_at is null",
    )
    .bind(&ids)
    .bind(&orders)
    .bind(column(|e| e.gross_cents))
    .bind(column(|e| e.fee_cents))
    .bind(record.professional_id)
    .bind(now)
    .bind(record.id)
    .execute(tx)
    .await?;
    Ok(marked.rows_affected())
}
