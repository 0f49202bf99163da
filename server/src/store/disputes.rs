//! Card disputes, one row per gateway dispute (see migration `disputes`), and what the
//! platform holds about the disputed job, read for its evidence.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, types::Json};
use uuid::Uuid;

/// One dispute as stored, with its payment's hire when it is one.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DisputeRow {
    pub id: Uuid,
    pub payment_id: Uuid,
    pub gateway_dispute_id: String,
    pub amount_cents: i64,
    pub currency: String,
    pub reason: String,
    /// `needs_response`, `under_review`, `won` or `lost`.
    pub state: String,
    pub evidence_due_at: Option<DateTime<Utc>>,
    pub evidence: Option<Json<serde_json::Value>>,
    pub evidence_submitted_at: Option<DateTime<Utc>>,
    pub submitted_by: Option<Uuid>,
    pub submit_request_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub test_mode: bool,
    pub repair_request_id: Option<Uuid>,
    pub professional_id: Option<Uuid>,
}

const SELECT: &str = "select d.id, d.payment_id, d.gateway_dispute_id, d.amount_cents, d.currency,
        d.reason, d.state, d.evidence_due_at, d.evidence, d.evidence_submitted_at,
        d.submitted_by, d.submit_request_id, d.created_at, d.updated_at,
        p.gateway = 'test' as test_mode, o.repair_request_id, o.professional_id
     from disputes d
     join payments p on p.id = d.payment_id
     left join orders o on o.payment_id = d.payment_id";

/// A dispute as the gateway reports it.
#[derive(Debug, Clone)]
pub struct ReportedDispute<'a> {
    pub gateway_dispute_id: &'a str,
    pub payment_id: Uuid,
    pub amount_cents: i64,
    pub currency: &'a str,
    pub reason: &'a str,
    pub state: &'a str,
    pub evidence_due_at: Option<DateTime<Utc>>,
}

/// The payment with gateway id `charge_id`: its id and state, its row locked until `tx`
/// ends (a refund and a dispute on one payment are applied one after the other).
#[tracing::instrument(skip_all)]
pub async fn lock_payment_by_charge(
    tx: &mut PgConnection,
    charge_id: &str,
) -> sqlx::Result<Option<(Uuid, String)>> {
    sqlx::query_as("select id, state from payments where charge_id = $1 for update")
        .bind(charge_id)
        .fetch_optional(tx)
        .await
}

/// Writes the dispute or brings it up to date; a decided one (`won`, `lost`) keeps its
/// outcome against a late event of an earlier state. Its id, its state as stored, and
/// whether this wrote it first.
#[tracing::instrument(skip_all)]
pub async fn upsert(
    tx: &mut PgConnection,
    dispute: &ReportedDispute<'_>,
) -> sqlx::Result<(Uuid, String, bool)> {
    sqlx::query_as(
        "insert into disputes
             (id, payment_id, gateway_dispute_id, amount_cents, currency, reason, state,
              evidence_due_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (gateway_dispute_id) do update set
             amount_cents = excluded.amount_cents,
             reason = excluded.reason,
             state = case when disputes.state in ('won', 'lost') then disputes.state
                          else excluded.state end,
             evidence_due_at = excluded.evidence_due_at,
             updated_at = now()
         returning id, state, (xmax = 0) as inserted",
    )
    .bind(Uuid::now_v7())
    .bind(dispute.payment_id)
    .bind(dispute.gateway_dispute_id)
    .bind(dispute.amount_cents)
    .bind(dispute.currency)
    .bind(dispute.reason)
    .bind(dispute.state)
    .bind(dispute.evidence_due_at)
    .fetch_one(tx)
    .await
}

/// Moves the payment from one of `from` to `to` (its capture time kept: a won dispute is
/// the same capture); whether it moved.
#[tracing::instrument(skip_all)]
pub async fn move_payment(
    tx: &mut PgConnection,
    payment_id: Uuid,
    from: &[&str],
    to: &str,
) -> sqlx::Result<bool> {
    let moved = sqlx::query(
        "update payments set state = $3, updated_at = now() where id = $1 and state = any($2)",
    )
    .bind(payment_id)
    .bind(from)
    .bind(to)
    .execute(tx)
    .await?;
    Ok(moved.rows_affected() == 1)
}

#[tracing::instrument(skip_all)]
pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<DisputeRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} where d.id = $1")))
        .bind(id)
        .fetch_optional(db)
        .await
}

/// The dispute, its row locked until `tx` ends.
#[tracing::instrument(skip_all)]
pub async fn lock(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<DisputeRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where d.id = $1 for update of d"
    )))
    .bind(id)
    .fetch_optional(tx)
    .await
}

/// A page of disputes, newest first, in `state` when given.
#[tracing::instrument(skip_all)]
pub async fn list(
    db: impl PgExecutor<'_>,
    state: Option<&str>,
    page: &super::page::PageRequest,
) -> sqlx::Result<Vec<DisputeRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT}
         where ($1::text is null or d.state = $1)
           and ($2::timestamptz is null or (d.created_at, d.id) < ($2, $3))
         order by d.created_at desc, d.id desc
         limit $4"
    )))
    .bind(state)
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .fetch_all(db)
    .await
}

/// Records, through `tx`, the evidence sent by `admin` under `request_id`.
#[tracing::instrument(skip_all)]
pub async fn record_submission(
    tx: &mut PgConnection,
    id: Uuid,
    evidence: &serde_json::Value,
    admin: Uuid,
    request_id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query(
        "update disputes set evidence = $2, evidence_submitted_at = now(), submitted_by = $3,
             submit_request_id = $4, updated_at = now()
         where id = $1",
    )
    .bind(id)
    .bind(Json(evidence))
    .bind(admin)
    .bind(request_id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Takes back a submission the gateway refused, so it can be sent again.
#[tracing::instrument(skip_all)]
pub async fn clear_submission(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<()> {
    sqlx::query(
        "update disputes set evidence = null, evidence_submitted_at = null, submitted_by = null,
             submit_request_id = null, updated_at = now()
         where id = $1 and state = 'needs_response'",
    )
    .bind(id)
    .execute(db)
    .await?;
    Ok(())
}

/// What the platform holds about a hire, for its evidence.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JobRecord {
    pub customer_name: String,
    pub customer_email: String,
    pub service_name: String,
    pub description: String,
    pub quote_cents: i64,
    pub quote_currency: String,
    pub estimated_minutes: i32,
    pub hired_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub photo_count: i64,
}

/// The hire paid by `payment_id`, if it is one.
#[tracing::instrument(skip_all)]
pub async fn job_of(db: impl PgExecutor<'_>, payment_id: Uuid) -> sqlx::Result<Option<JobRecord>> {
    sqlx::query_as(
        "select c.name as customer_name, c.email::text as customer_email,
                s.name_en as service_name, r.description,
                q.fee_cents as quote_cents, q.currency as quote_currency, q.estimated_minutes,
                o.hired_at, o.completed_at,
                (select count(*) from repair_request_photos rp
                  where rp.repair_request_id = r.id)
                + (select count(*) from message_photos mp
                    where mp.repair_request_id = r.id and mp.professional_id = o.professional_id
                      and mp.message_id is not null) as photo_count
         from orders o
         join repair_requests r on r.id = o.repair_request_id
         join customers c on c.id = o.customer_id
         join services s on s.id = r.service_id
         join quotes q on q.id = o.quote_id
         where o.payment_id = $1",
    )
    .bind(payment_id)
    .fetch_optional(db)
    .await
}

/// One message of a job's conversation.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MessageRecord {
    pub author: String,
    pub created_at: DateTime<Utc>,
    pub text: String,
}

/// The first `limit` messages between the customer and the professional of the hire paid
/// by `payment_id`, oldest first (deleted ones left out).
#[tracing::instrument(skip_all)]
pub async fn messages_of(
    db: impl PgExecutor<'_>,
    payment_id: Uuid,
    limit: i64,
) -> sqlx::Result<Vec<MessageRecord>> {
    sqlx::query_as(
        "select m.author, m.created_at, m.text
         from orders o
         join conversations cv on cv.repair_request_id = o.repair_request_id
                              and cv.professional_id = o.professional_id
         join conversation_messages m on m.conversation_id = cv.id
         where o.payment_id = $1 and m.deleted_at is null
         order by m.sequence
         limit $2",
    )
    .bind(payment_id)
    .bind(limit)
    .fetch_all(db)
    .await
}
