//! The test gateway's disputes, played as Stripe's test mode plays them: a charge made with
//! the dispute test card is disputed as soon as the money is taken (`needs_response`, its
//! evidence due in 7 days); evidence submitted decides it at once, lost when its text holds
//! `losing_evidence` and won otherwise. Each change waits (`undelivered`) until the
//! platform applied it, the way Stripe retries a webhook until it is acknowledged.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgExecutor, PgPool};

use crate::{
    domain::Money,
    providers::payments::{DisputeSubmission, GatewayDispute, IdempotencyKey, PaymentError},
};

/// How long the cardholder's bank waits for evidence.
const EVIDENCE_DAYS: i64 = 7;

/// The words of Stripe's test mode that lose a dispute.
const LOSING_EVIDENCE: &str = "losing_evidence";

/// SQL: intent `$1` has a dispute still open.
pub(super) const OPEN_ON_INTENT: &str = "exists (select 1 from test_gateway_disputes d
     where d.intent_id = $1 and d.status in ('needs_response', 'under_review'))";

#[derive(sqlx::FromRow)]
struct DisputeRow {
    id: String,
    intent_id: String,
    amount_cents: i64,
    currency: String,
    status: String,
    evidence_due_at: DateTime<Utc>,
    submit_key: Option<String>,
}

const COLUMNS: &str = "id, intent_id, amount_cents, currency, status, evidence_due_at, submit_key";

/// Opens intent `id`'s dispute once it is charged, if it was made with the dispute card
/// (once: the dispute's id is the intent's).
pub(super) async fn open_if_charged(
    db: impl PgExecutor<'_>,
    id: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into test_gateway_disputes
             (id, intent_id, amount_cents, currency, status, evidence_due_at, created_at)
         select 'dp_' || id, id, amount_cents, currency, 'needs_response', $2, $3
         from test_gateway_intents
         where id = $1 and disputes_on_capture and status = 'succeeded'
         on conflict (id) do nothing",
    )
    .bind(id)
    .bind(now + Duration::days(EVIDENCE_DAYS))
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// Decides dispute `id` on its evidence, once per key.
pub(super) async fn submit(
    db: &PgPool,
    id: &str,
    evidence: &DisputeSubmission,
    key: &IdempotencyKey,
) -> Result<GatewayDispute, PaymentError> {
    let key = key.for_step("dispute");
    let lost = evidence.uncategorized_text.contains(LOSING_EVIDENCE);
    let decided: Option<DisputeRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "update test_gateway_disputes
         set status = case when $2 then 'lost' else 'won' end, undelivered = true,
             submit_key = $3
         where id = $1 and status = 'needs_response'
         returning {COLUMNS}"
    )))
    .bind(id)
    .bind(lost)
    .bind(&key)
    .fetch_optional(db)
    .await
    .map_err(unavailable)?;
    if let Some(row) = decided {
        return row.into_dispute();
    }
    // Submitted before: under this key it answers the dispute as it is, else it is closed.
    let row = find(db, id).await?.ok_or(PaymentError::NotFound)?;
    if row.submit_key.as_deref() == Some(key.as_str()) {
        row.into_dispute()
    } else {
        Err(PaymentError::State { step: "contested" })
    }
}

async fn find(db: &PgPool, id: &str) -> Result<Option<DisputeRow>, PaymentError> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from test_gateway_disputes where id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
    .map_err(unavailable)
}

/// The disputes whose latest change the platform has not applied, oldest first.
pub(super) async fn played(db: &PgPool, limit: i64) -> Result<Vec<GatewayDispute>, PaymentError> {
    let rows: Vec<DisputeRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from test_gateway_disputes where undelivered
         order by created_at, id limit $1"
    )))
    .bind(limit)
    .fetch_all(db)
    .await
    .map_err(unavailable)?;
    rows.into_iter().map(DisputeRow::into_dispute).collect()
}

/// Marks `dispute`'s change applied, unless it changed again since it was read.
pub(super) async fn applied(db: &PgPool, dispute: &GatewayDispute) -> Result<(), PaymentError> {
    sqlx::query(
        "update test_gateway_disputes set undelivered = false where id = $1 and status = $2",
    )
    .bind(&dispute.id)
    .bind(&dispute.status)
    .execute(db)
    .await
    .map_err(unavailable)?;
    Ok(())
}

fn unavailable(error: sqlx::Error) -> PaymentError {
    PaymentError::test_gateway_database(error, "test gateway disputes")
}

impl DisputeRow {
    fn into_dispute(self) -> Result<GatewayDispute, PaymentError> {
        let amount = Money::parse(self.amount_cents, &self.currency)
            .map_err(|e| PaymentError::Unavailable(anyhow::anyhow!("stored test dispute: {e}")))?;
        let open = self.status == "needs_response";
        Ok(GatewayDispute {
            id: self.id,
            charge_id: self.intent_id,
            amount,
            reason: "product_not_received".to_owned(),
            status: self.status,
            evidence_due_by: open.then_some(self.evidence_due_at),
        })
    }
}
