//! Problems reported after the job and their photos (`job_problems`, `job_problem_photos`;
//! `migrations/20261205000300_job_problems.sql`). A report and a resolution lock the job's
//! request row for update first, so two reports never both find the job without an open
//! problem, and a message written meanwhile (which holds the row `for share`) sees the
//! conversation as the problem leaves it.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::services::ServiceNames;
use crate::domain::{
    Language, PhotoKeys, StoredPhoto,
    job_problem::{Outcome, ProblemChange, ProblemState},
};

/// A problem with what its views need.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProblemRow {
    pub id: Uuid,
    pub repair_request_id: Uuid,
    pub customer_id: Uuid,
    pub professional_id: Uuid,
    pub client_key: Uuid,
    pub text: String,
    pub state: String,
    pub created_at: DateTime<Utc>,
    pub resolved_at: Option<DateTime<Utc>>,
    pub outcome: Option<String>,
    pub resolution_note: Option<String>,
    #[sqlx(flatten)]
    pub service_name: ServiceNames,
    pub professional_name: String,
    pub customer_name: String,
    /// Its photos, in their order.
    #[sqlx(json)]
    pub photos: Vec<StoredPhoto>,
}

impl ProblemRow {
    pub fn state(&self) -> ProblemState {
        ProblemState::from_code(&self.state).unwrap_or(ProblemState::Open)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome.as_deref().and_then(Outcome::from_code)
    }
}

const SELECT_PROBLEM: &str = "select jp.id, jp.repair_request_id, jp.customer_id,
        jp.professional_id, jp.client_key, jp.text, jp.state, jp.created_at, jp.resolved_at,
        jp.outcome, jp.resolution_note,
        s.name_en as service_name_en, s.name_fr as service_name_fr,
        coalesce(p.name, '') as professional_name, coalesce(c.name, '') as customer_name,
        coalesce((select json_agg(json_build_object('id', ph.id, 'large_key', ph.large_key,
                     'thumbnail_key', ph.thumbnail_key, 'width', ph.width,
                     'height', ph.height, 'created_at', ph.created_at) order by ph.position)
                  from job_problem_photos ph where ph.problem_id = jp.id), '[]') as photos
    from job_problems jp
    join repair_requests r on r.id = jp.repair_request_id
    join services s on s.id = r.service_id
    left join professionals p on p.id = jp.professional_id
    left join customers c on c.id = jp.customer_id";

/// The problem `id`.
pub async fn get(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<ProblemRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT_PROBLEM} where jp.id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// The open problem on request `repair_request_id`, if any.
pub async fn open_on(
    db: impl PgExecutor<'_>,
    repair_request_id: Uuid,
) -> sqlx::Result<Option<ProblemRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT_PROBLEM} where jp.repair_request_id = $1 and jp.state = 'open'"
    )))
    .bind(repair_request_id)
    .fetch_optional(db)
    .await
}

/// The open problems on `ids` (for lists of requests).
pub async fn open_on_many(db: impl PgExecutor<'_>, ids: &[Uuid]) -> sqlx::Result<Vec<ProblemRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT_PROBLEM} where jp.repair_request_id = any($1) and jp.state = 'open'"
    )))
    .bind(ids)
    .fetch_all(db)
    .await
}

/// The problem customer `customer_id` reported under their key `client_key`.
pub async fn find_by_key(
    db: impl PgExecutor<'_>,
    customer_id: Uuid,
    client_key: Uuid,
) -> sqlx::Result<Option<ProblemRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT_PROBLEM} where jp.customer_id = $1 and jp.client_key = $2"
    )))
    .bind(customer_id)
    .bind(client_key)
    .fetch_optional(db)
    .await
}

/// The job as a report needs it, its request's row locked for update until `tx` ends.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LockedJob {
    pub customer_id: Uuid,
    pub state: String,
    pub hired_professional_id: Option<Uuid>,
    /// From its live order.
    pub completed_at: Option<DateTime<Utc>>,
}

/// Locks request `repair_request_id` for update and reads it as a job.
pub async fn lock_job(
    tx: &mut PgConnection,
    repair_request_id: Uuid,
) -> sqlx::Result<Option<LockedJob>> {
    sqlx::query_as(
        "select r.customer_id, r.state, r.hired_professional_id,
                (select o.completed_at from orders o
                 where o.repair_request_id = r.id and o.closed_at is null) as completed_at
         from repair_requests r where r.id = $1 for update of r",
    )
    .bind(repair_request_id)
    .fetch_optional(tx)
    .await
}

/// What a report writes.
#[derive(Debug, Clone, Copy)]
pub struct NewProblem<'a> {
    pub repair_request_id: Uuid,
    pub customer_id: Uuid,
    pub professional_id: Uuid,
    pub client_key: Uuid,
    pub text: &'a str,
}

/// Writes an open problem (the job's row locked by [`lock_job`]); its id.
pub async fn insert(tx: &mut PgConnection, new: &NewProblem<'_>) -> sqlx::Result<Uuid> {
    let id = Uuid::now_v7();
    sqlx::query(
        "insert into job_problems (id, repair_request_id, customer_id, professional_id,
             client_key, text)
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(new.repair_request_id)
    .bind(new.customer_id)
    .bind(new.professional_id)
    .bind(new.client_key)
    .bind(new.text)
    .execute(tx)
    .await?;
    Ok(id)
}

/// Gives the customer's waiting photos `ids` on the request to `problem_id`, in order; how
/// many were theirs and waiting.
pub async fn attach_photos(
    tx: &mut PgConnection,
    problem_id: Uuid,
    (repair_request_id, customer_id): (Uuid, Uuid),
    ids: &[Uuid],
) -> sqlx::Result<usize> {
    let done = sqlx::query(
        "update job_problem_photos ph set problem_id = $1, position = given.position
         from unnest($4::uuid[]) with ordinality as given(id, position)
         where ph.id = given.id and ph.repair_request_id = $2 and ph.customer_id = $3
           and ph.problem_id is null",
    )
    .bind(problem_id)
    .bind(repair_request_id)
    .bind(customer_id)
    .bind(ids)
    .execute(tx)
    .await?;
    Ok(usize::try_from(done.rows_affected()).unwrap_or(usize::MAX))
}

/// Keeps an uploaded photo for the customer's next report on the request, unless `max` wait
/// already (the request's row locked by [`lock_job`]); whether it was kept.
pub async fn add_photo(
    tx: &mut PgConnection,
    (repair_request_id, customer_id): (Uuid, Uuid),
    photo: &StoredPhoto,
    max: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "insert into job_problem_photos
            (id, repair_request_id, customer_id, large_key, thumbnail_key, width, height,
             created_at)
         select $1, $2, $3, $4, $5, $6, $7, $8
         where (select count(*) from job_problem_photos
                where repair_request_id = $2 and customer_id = $3 and problem_id is null) < $9",
    )
    .bind(photo.id)
    .bind(repair_request_id)
    .bind(customer_id)
    .bind(&photo.large_key)
    .bind(&photo.thumbnail_key)
    .bind(photo.width)
    .bind(photo.height)
    .bind(photo.created_at)
    .bind(max)
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Deletes the photos no report took, uploaded before `before`: their files, to remove.
pub async fn remove_unattached_before(
    db: impl PgExecutor<'_>,
    before: DateTime<Utc>,
) -> sqlx::Result<Vec<PhotoKeys>> {
    let keys: Vec<(String, String)> = sqlx::query_as(
        "delete from job_problem_photos where problem_id is null and created_at < $1
         returning large_key, thumbnail_key",
    )
    .bind(before)
    .fetch_all(db)
    .await?;
    Ok(keys
        .into_iter()
        .map(|(large, thumbnail)| PhotoKeys { large, thumbnail })
        .collect())
}

/// Whose problems a list shows.
#[derive(Debug, Clone, Copy)]
pub enum Whose {
    All,
    Customer(Uuid),
    Professional(Uuid),
}

/// Where a page of the queue starts: after this (rank, time, id). Open problems rank 0 and go
/// oldest first; resolved ones rank 1 and go newest resolved first.
pub type QueueKey = (i32, i64, Uuid);

/// A page of problems in queue order (see [`QueueKey`]), with each row's key.
pub async fn page(
    db: impl PgExecutor<'_>,
    whose: Whose,
    state: Option<ProblemState>,
    after: Option<QueueKey>,
    limit: i64,
) -> sqlx::Result<Vec<(ProblemRow, QueueKey)>> {
    let (owner_column, owner) = match whose {
        Whose::All => ("null", None),
        Whose::Customer(id) => ("jp.customer_id", Some(id)),
        Whose::Professional(id) => ("jp.professional_id", Some(id)),
    };
    let (rank, time, id) = after.unwrap_or((-1, i64::MIN, Uuid::nil()));
    #[derive(sqlx::FromRow)]
    struct Ranked {
        #[sqlx(flatten)]
        row: ProblemRow,
        queue_rank: i32,
        queue_time: i64,
    }
    let rows: Vec<Ranked> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select * from (
             select q.*,
                 case when q.state = 'open' then 0 else 1 end as queue_rank,
                 case when q.state = 'open'
                      then (extract(epoch from q.created_at) * 1000000)::bigint
                      else -(extract(epoch from q.resolved_at) * 1000000)::bigint
                 end as queue_time
             from ({SELECT_PROBLEM}
                   where ($1::uuid is null or {owner_column} = $1)
                     and ($2::text is null or jp.state = $2)) q) ranked
         where (queue_rank, queue_time, id) > ($3, $4, $5)
         order by queue_rank, queue_time, id
         limit $6"
    )))
    .bind(owner)
    .bind(state.map(ProblemState::as_str))
    .bind(rank)
    .bind(time)
    .bind(id)
    .bind(limit)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|ranked| {
            let key = (ranked.queue_rank, ranked.queue_time, ranked.row.id);
            (ranked.row, key)
        })
        .collect())
}

/// The problem `id` locked for update, with its state and when it was reported.
pub async fn lock(
    tx: &mut PgConnection,
    id: Uuid,
) -> sqlx::Result<Option<(Uuid, ProblemState, DateTime<Utc>)>> {
    let row: Option<(Uuid, String, DateTime<Utc>)> = sqlx::query_as(
        "select repair_request_id, state, created_at from job_problems where id = $1 for update",
    )
    .bind(id)
    .fetch_optional(tx)
    .await?;
    Ok(row.map(|(request, state, at)| {
        (
            request,
            ProblemState::from_code(&state).unwrap_or(ProblemState::Open),
            at,
        )
    }))
}

/// Applies `change` (resolving) to problem `id` if it is in a state the change starts from;
/// whether it was.
pub async fn resolve(
    tx: &mut PgConnection,
    id: Uuid,
    admin_id: Uuid,
    (outcome, note): (Outcome, &str),
) -> sqlx::Result<bool> {
    let change = ProblemChange::Resolve;
    let done = sqlx::query(
        "update job_problems set state = $2, resolved_at = now(), resolved_by = $3,
             outcome = $4, resolution_note = $5
         where id = $1 and state = any($6)",
    )
    .bind(id)
    .bind(change.leads_to().as_str())
    .bind(admin_id)
    .bind(outcome.as_str())
    .bind(note)
    .bind(change.from_codes())
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Whether the job's payment was refunded after `since` (the report), in full or in part.
/// The one place that decides what counts as "refunded" for a REFUND outcome: a succeeded
/// refund of the job's payment made after the report.
pub async fn refunded_since(
    db: impl PgExecutor<'_>,
    repair_request_id: Uuid,
    since: DateTime<Utc>,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists(
             select 1 from orders o
             join refunds f on f.payment_id = o.payment_id
             where o.repair_request_id = $1 and o.closed_at is null
               and f.state = 'succeeded' and f.created_at >= $2)",
    )
    .bind(repair_request_id)
    .bind(since)
    .fetch_one(db)
    .await
}

/// An admin's language, `None` when no such admin.
pub async fn admin_language(
    db: impl PgExecutor<'_>,
    admin_id: Uuid,
) -> sqlx::Result<Option<Language>> {
    sqlx::query_scalar("select language from admins where id = $1")
        .bind(admin_id)
        .fetch_optional(db)
        .await
}

/// One event of a job's history, as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EventRow {
    /// `posted`, `quoted`, `hired`, `completed`, `captured`, `refunded`, `messages`,
    /// `problem_reported`, `problem_resolved`.
    pub kind: String,
    pub at: DateTime<Utc>,
    pub detail: String,
    pub amount_cents: i64,
    pub count: i64,
}

/// The history of the job on request `repair_request_id`, oldest first.
pub async fn history(
    db: impl PgExecutor<'_>,
    repair_request_id: Uuid,
) -> sqlx::Result<Vec<EventRow>> {
    sqlx::query_as(
        "select * from (
             select 'posted' as kind, r.created_at as at, '' as detail, 0::bigint as amount_cents,
                    0::bigint as count
             from repair_requests r where r.id = $1
           union all
             select 'quoted', q.created_at, coalesce(p.name, ''), q.fee_cents, 0
             from quotes q left join professionals p on p.id = q.professional_id
             where q.repair_request_id = $1
           union all
             select 'hired', o.hired_at, coalesce(p.name, ''), o.amount_cents, 0
             from orders o left join professionals p on p.id = o.professional_id
             where o.repair_request_id = $1 and o.hired_at is not null
           union all
             select 'completed', o.completed_at, '', 0, 0
             from orders o where o.repair_request_id = $1 and o.completed_at is not null
           union all
             select 'captured', pay.captured_at, '', pay.amount_cents, 0
             from orders o join payments pay on pay.id = o.payment_id
             where o.repair_request_id = $1 and pay.captured_at is not null
           union all
             select 'refunded', a.finished_at, '', coalesce(a.amount_cents, 0), 0
             from orders o join payment_attempts a on a.payment_id = o.payment_id
             where o.repair_request_id = $1 and a.operation = 'refund'
               and a.outcome = 'succeeded' and a.finished_at is not null
           union all
             select 'messages', max(m.created_at), '', 0, count(*)
             from conversations c join conversation_messages m on m.conversation_id = c.id
             where c.repair_request_id = $1
             having count(*) > 0
           union all
             select 'problem_reported', jp.created_at, '', 0, 0
             from job_problems jp where jp.repair_request_id = $1
           union all
             select 'problem_resolved', jp.resolved_at, coalesce(jp.outcome, ''), 0, 0
             from job_problems jp where jp.repair_request_id = $1 and jp.resolved_at is not null
         ) events order by at, kind",
    )
    .bind(repair_request_id)
    .fetch_all(db)
    .await
}
