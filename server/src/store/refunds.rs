//! Refunds of captured payments, one row each (see migration `refunds`). Written `pending`
//! under the payment's row lock, so what is left to refund is always counted against the
//! refunds under way; settled `succeeded` (with the gateway's refund id) or `failed`.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, types::Json};
use uuid::Uuid;

use super::payments::TaxRow;

/// One refund as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RefundRow {
    pub id: Uuid,
    pub payment_id: Uuid,
    pub amount_cents: i64,
    pub currency: String,
    pub professional_cents: i64,
    pub fee_cents: i64,
    pub fee_tax_cents: i64,
    pub tax_cents: i64,
    /// The payment's taxes given back, one per tax (as `payment_taxes` rows).
    pub taxes: Json<Vec<TaxRow>>,
    pub reason: String,
    pub admin_id: Option<Uuid>,
    pub request_id: Option<Uuid>,
    /// `pending`, `succeeded` or `failed`.
    pub state: String,
    pub gateway_refund_id: Option<String>,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, payment_id, amount_cents, currency, professional_cents, fee_cents, \
     fee_tax_cents, tax_cents, taxes, reason, admin_id, request_id, state, gateway_refund_id, \
     created_at";

/// A refund to write.
#[derive(Debug, Clone)]
pub struct NewRefund<'a> {
    pub payment_id: Uuid,
    pub amount_cents: i64,
    pub currency: &'a str,
    pub professional_cents: i64,
    pub fee_cents: i64,
    pub fee_tax_cents: i64,
    pub taxes: Vec<TaxRow>,
    pub reason: &'a str,
    /// The admin and their request_id; none for one reported by the gateway.
    pub asked_by: Option<(Uuid, Uuid)>,
    pub state: &'a str,
    pub gateway_refund_id: Option<&'a str>,
}

/// The payment's state, amount and currency, its row locked until `tx` ends (so two refunds
/// of one payment are split one after the other).
#[tracing::instrument(skip_all)]
pub async fn lock_payment(
    tx: &mut PgConnection,
    payment_id: Uuid,
) -> sqlx::Result<Option<(String, i64, String)>> {
    sqlx::query_as("select state, amount_cents, currency from payments where id = $1 for update")
        .bind(payment_id)
        .fetch_optional(tx)
        .await
}

/// The payment's refunds, oldest first (failed ones too).
#[tracing::instrument(skip_all)]
pub async fn of_payment(db: impl PgExecutor<'_>, payment_id: Uuid) -> sqlx::Result<Vec<RefundRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from refunds where payment_id = $1 order by created_at, id"
    )))
    .bind(payment_id)
    .fetch_all(db)
    .await
}

/// The refund the admin's request_id made, if any.
#[tracing::instrument(skip_all)]
pub async fn asked(
    db: impl PgExecutor<'_>,
    admin_id: Uuid,
    request_id: Uuid,
) -> sqlx::Result<Option<RefundRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from refunds where admin_id = $1 and request_id = $2"
    )))
    .bind(admin_id)
    .bind(request_id)
    .fetch_optional(db)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<RefundRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from refunds where id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn insert(tx: &mut PgConnection, refund: &NewRefund<'_>) -> sqlx::Result<RefundRow> {
    let tax_cents: i64 = refund.taxes.iter().map(|t| t.amount_cents).sum();
    let taxes = serde_json::to_value(
        refund
            .taxes
            .iter()
            .map(|t| {
                serde_json::json!({
                    "tax": t.tax,
                    "rate_thousandths_percent": t.rate_thousandths_percent,
                    "amount_cents": t.amount_cents,
                    "registration_number": t.registration_number,
                })
            })
            .collect::<Vec<_>>(),
    )
    .map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "insert into refunds (id, payment_id, amount_cents, currency, professional_cents,
             fee_cents, fee_tax_cents, tax_cents, taxes, reason, admin_id, request_id, state,
             gateway_refund_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         returning {COLUMNS}"
    )))
    .bind(Uuid::now_v7())
    .bind(refund.payment_id)
    .bind(refund.amount_cents)
    .bind(refund.currency)
    .bind(refund.professional_cents)
    .bind(refund.fee_cents)
    .bind(refund.fee_tax_cents)
    .bind(tax_cents)
    .bind(taxes)
    .bind(refund.reason)
    .bind(refund.asked_by.map(|(admin, _)| admin))
    .bind(refund.asked_by.map(|(_, request)| request))
    .bind(refund.state)
    .bind(refund.gateway_refund_id)
    .fetch_one(tx)
    .await
}

/// Settles a pending refund: `succeeded` with the gateway's id, or `failed`.
#[tracing::instrument(skip_all)]
pub async fn settle(
    db: impl PgExecutor<'_>,
    id: Uuid,
    gateway_refund_id: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update refunds set state = case when $2::text is null then 'failed' else 'succeeded' end,
             gateway_refund_id = $2, updated_at = now()
         where id = $1 and state = 'pending'",
    )
    .bind(id)
    .bind(gateway_refund_id)
    .execute(db)
    .await?;
    Ok(())
}

/// CAPTURED -> REFUNDED, through the transaction that found nothing left to refund.
#[tracing::instrument(skip_all)]
pub async fn mark_refunded(tx: &mut PgConnection, payment_id: Uuid) -> sqlx::Result<bool> {
    let moved = sqlx::query(
        "update payments set state = 'refunded', client_secret = null, updated_at = now()
         where id = $1 and state = 'captured'",
    )
    .bind(payment_id)
    .execute(tx)
    .await?;
    Ok(moved.rows_affected() == 1)
}

/// Whether the gateway's refund `id` is recorded.
#[tracing::instrument(skip_all)]
pub async fn known(db: impl PgExecutor<'_>, gateway_refund_id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar("select exists (select 1 from refunds where gateway_refund_id = $1)")
        .bind(gateway_refund_id)
        .fetch_one(db)
        .await
}

/// The hire's order behind a payment and its professional, for the split.
#[tracing::instrument(skip_all)]
pub async fn hire_of(
    db: impl PgExecutor<'_>,
    payment_id: Uuid,
) -> sqlx::Result<Option<(Uuid, Uuid)>> {
    sqlx::query_as("select id, professional_id from orders where payment_id = $1")
        .bind(payment_id)
        .fetch_optional(db)
        .await
}

/// Hire payments with a refund made before `before` whose credit note nobody told.
#[tracing::instrument(skip_all)]
pub async fn untold(
    db: impl PgExecutor<'_>,
    before: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar(
        "select distinct r.payment_id from refunds r
         join orders o on o.payment_id = r.payment_id
         where r.state = 'succeeded' and r.told_at is null and r.updated_at < $1
         limit $2",
    )
    .bind(before)
    .bind(limit)
    .fetch_all(db)
    .await
}
