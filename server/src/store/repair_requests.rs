//! Repair requests and the record of whom each one was sent to (`request_notifications`).

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{page::PageRequest, services::ServiceNames};
use crate::domain::{Language, RepairRequestState, RequestChange, StoredPhoto, Urgency};

/// A stored request with its service's names.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RepairRequestRow {
    pub id: Uuid,
    pub customer_id: Uuid,
    pub request_hash: Vec<u8>,
    pub service_id: Uuid,
    #[sqlx(flatten)]
    pub service_name: ServiceNames,
    pub urgency: String,
    pub description: String,
    pub line1: String,
    pub line2: String,
    pub city: String,
    pub province: String,
    pub postal_code: String,
    pub latitude: f64,
    pub longitude: f64,
    pub state: String,
    pub hired_application_id: Option<Uuid>,
    pub hired_professional_id: Option<Uuid>,
    pub expires_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    /// Raised by every change of the request or of one of its quotes (WatchRepairRequest).
    pub revision: i64,
    /// Live quotes (submitted or hired) on it.
    pub quote_count: i64,
    /// From the live order (`store::orders`): when the hold was authorised and the job
    /// marked done, and the payment waiting on the cardholder in 'pending_payment'.
    pub hired_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub pending_payment_id: Option<Uuid>,
    /// Both parties' contact details, shown only to them and admins once hired.
    pub hired_professional_name: Option<String>,
    pub hired_professional_email: Option<String>,
    pub hired_professional_phone: Option<String>,
    pub customer_name: String,
    pub customer_email: String,
    pub customer_phone: Option<String>,
    /// Whether its customer reviewed the hired professional.
    pub reviewed: bool,
    /// 'en' or 'fr': the customer's language when placed.
    pub description_language: Language,
    /// The description's machine translation, once made (`store::request_translations`),
    /// and the language it is in.
    pub description_translation: Option<String>,
    pub translation_language: Option<Language>,
    /// Photos of the damage, oldest first (`store::request_photos`).
    #[sqlx(json)]
    pub photos: Vec<StoredPhoto>,
    /// How many photos its customer said would follow the placing; its alerts wait for them
    /// while fewer are in (`requests::fanout`).
    pub photos_to_follow: i16,
    pub photo_count: i32,
    /// The problem reported on its job and still open (`store::job_problems`): its id, text
    /// and when it was reported.
    pub open_problem_id: Option<Uuid>,
    pub open_problem_text: Option<String>,
    pub open_problem_at: Option<DateTime<Utc>>,
    /// The hired professional's trip to the job, once started (`store::trips`).
    pub trip: Option<sqlx::types::Json<super::trips::TripRow>>,
}

impl RepairRequestRow {
    /// Where it is.
    pub fn point(&self) -> crate::domain::Coordinates {
        crate::domain::Coordinates {
            latitude: self.latitude,
            longitude: self.longitude,
        }
    }

    /// The stored state; the table's check admits no other spelling.
    pub fn state(&self) -> RepairRequestState {
        RepairRequestState::from_code(&self.state).unwrap_or(RepairRequestState::Open)
    }

    pub fn urgency(&self) -> Urgency {
        Urgency::from_code(&self.urgency).unwrap_or(Urgency::CanWait)
    }
}

/// What a customer wrote and where the gazetteer placed it: the part of a request that
/// create and update set.
#[derive(Debug, Clone)]
pub struct RequestContent {
    pub service_id: Uuid,
    pub urgency: Urgency,
    pub description: String,
    pub line1: String,
    pub line2: String,
    pub city: String,
    pub province: String,
    /// "A1A 1A1" or empty.
    pub postal_code: String,
    pub latitude: f64,
    pub longitude: f64,
    /// 'postal_code', 'postal_area' or 'city'.
    pub placed_by: &'static str,
    pub time_zone: String,
}

/// The request row joined to its service, from a `requests` relation (the table or a CTE).
const SELECT: &str = "select r.id, r.customer_id, r.request_hash, r.service_id,
        s.name_en as service_name_en, s.name_fr as service_name_fr, r.urgency, r.description,
        r.line1, r.line2, r.city, r.province, r.postal_code, r.latitude, r.longitude, r.state,
        r.hired_application_id, r.hired_professional_id, r.expires_at, r.created_at,
        r.updated_at, r.closed_at, r.revision, r.photos_to_follow, r.photo_count,
        (select count(*) from quotes q
         where q.repair_request_id = r.id and q.state in ('submitted', 'hired')) as quote_count,
        o.hired_at, o.completed_at,
        case when r.state = 'pending_payment' then o.payment_id end as pending_payment_id,
        hp.name as hired_professional_name, hp.email::text as hired_professional_email,
        hp.phone as hired_professional_phone, cu.name as customer_name,
        cu.email::text as customer_email, cu.phone as customer_phone,
        exists (select 1 from reviews v where v.repair_request_id = r.id) as reviewed,
        r.description_language, tr.translation as description_translation,
        tr.target_language as translation_language,
        coalesce((select json_agg(json_build_object('id', p.id, 'large_key', p.large_key,
                     'thumbnail_key', p.thumbnail_key, 'width', p.width, 'height', p.height,
                     'created_at', p.created_at) order by p.created_at, p.id)
                  from repair_request_photos p where p.repair_request_id = r.id),
                 '[]') as photos,
        jp.id as open_problem_id, jp.text as open_problem_text,
        jp.created_at as open_problem_at,
        (select to_jsonb(t) from trips t where t.quote_id = r.hired_application_id) as trip
    from requests r join services s on s.id = r.service_id
    join customers cu on cu.id = r.customer_id
    left join professionals hp on hp.id = r.hired_professional_id
    left join repair_request_translations tr
        on tr.repair_request_id = r.id and tr.translation is not null
    left join lateral (
        select hired_at, completed_at, payment_id from orders
        where repair_request_id = r.id and closed_at is null
    ) o on true
    left join job_problems jp on jp.repair_request_id = r.id and jp.state = 'open'";

type RowQuery<'q> =
    sqlx::query::QueryAs<'q, sqlx::Postgres, RepairRequestRow, sqlx::postgres::PgArguments>;

/// Binds the content's twelve columns, in table order from `service_id` to `time_zone`.
fn bind_content<'q>(query: RowQuery<'q>, content: &'q RequestContent) -> RowQuery<'q> {
    query
        .bind(content.service_id)
        .bind(content.urgency.as_str())
        .bind(&content.description)
        .bind(&content.line1)
        .bind(&content.line2)
        .bind(&content.city)
        .bind(&content.province)
        .bind(&content.postal_code)
        .bind(content.latitude)
        .bind(content.longitude)
        .bind(content.placed_by)
        .bind(&content.time_zone)
}

/// Who places a new request, with which idempotency key and draft hash, in which language, and
/// how many photos they add right after.
pub struct NewRequestKey<'a> {
    pub customer_id: Uuid,
    pub request_id: Uuid,
    pub request_hash: &'a [u8],
    pub description_language: Language,
    /// Photos the customer adds right after placing, which its alerts wait for.
    pub photos_to_follow: i16,
}

/// Inserts a new open request unless the customer already used `request_id`; `None` then.
pub async fn insert(
    tx: &mut PgConnection,
    id: Uuid,
    key: &NewRequestKey<'_>,
    content: &RequestContent,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<RepairRequestRow>> {
    let query = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with requests as (
            insert into repair_requests (id, customer_id, request_id, request_hash, service_id,
                urgency, description, line1, line2, city, province, postal_code, latitude,
                longitude, placed_by, time_zone, expires_at, created_at, updated_at,
                description_language, photos_to_follow)
            values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                $17, $18, $18, $19, $20)
            on conflict on constraint repair_requests_request_id_key do nothing
            returning *
         ) {SELECT}"
    )))
    .bind(id)
    .bind(key.customer_id)
    .bind(key.request_id)
    .bind(key.request_hash);
    bind_content(query, content)
        .bind(content.urgency.expires_at(now))
        .bind(now)
        .bind(key.description_language)
        .bind(key.photos_to_follow)
        .fetch_optional(tx)
        .await
}

/// The request a customer placed with an idempotency key.
pub async fn find_by_key(
    db: &PgPool,
    customer_id: Uuid,
    request_id: Uuid,
) -> sqlx::Result<Option<RepairRequestRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with requests as (
            select * from repair_requests where customer_id = $1 and request_id = $2
         ) {SELECT}"
    )))
    .bind(customer_id)
    .bind(request_id)
    .fetch_optional(db)
    .await
}

pub async fn get(
    db: impl sqlx::PgExecutor<'_>,
    id: Uuid,
) -> sqlx::Result<Option<RepairRequestRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with requests as (select * from repair_requests where id = $1) {SELECT}"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// The requests `ids` that exist, in no order (the open requests a professional is shown).
pub async fn get_many(db: &PgPool, ids: &[Uuid]) -> sqlx::Result<Vec<RepairRequestRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with requests as (select * from repair_requests where id = any($1)) {SELECT}"
    )))
    .bind(ids)
    .fetch_all(db)
    .await
}

/// The customer's most recently placed open request.
pub async fn latest_open(db: &PgPool, customer_id: Uuid) -> sqlx::Result<Option<RepairRequestRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with requests as (
            select * from repair_requests where customer_id = $1 and state = 'open'
            order by created_at desc, id desc limit 1
         ) {SELECT}"
    )))
    .bind(customer_id)
    .fetch_optional(db)
    .await
}

/// The ids of the customer's open requests, locked for a change of them all.
pub async fn lock_open_of(tx: &mut PgConnection, customer_id: Uuid) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar(
        "select id from repair_requests where customer_id = $1 and state = 'open'
         order by id for update",
    )
    .bind(customer_id)
    .fetch_all(tx)
    .await
}

/// Replaces the content of the customer's request while it is open; `None` when it is not
/// theirs or not open (the caller tells which).
pub async fn update_content(
    tx: &mut PgConnection,
    id: Uuid,
    customer_id: Uuid,
    content: &RequestContent,
) -> sqlx::Result<Option<RepairRequestRow>> {
    // The expiry follows the urgency, counted from when the request was placed.
    let query = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with requests as (
            update repair_requests set service_id = $3, urgency = $4, description = $5,
                line1 = $6, line2 = $7, city = $8, province = $9, postal_code = $10,
                latitude = $11, longitude = $12, placed_by = $13, time_zone = $14,
                expires_at = created_at + $15
            where id = $1 and customer_id = $2 and state = 'open'
            returning *
         ) {SELECT}"
    )))
    .bind(id)
    .bind(customer_id);
    bind_content(query, content)
        .bind(content.urgency.open_for())
        .fetch_optional(tx)
        .await
}

/// Cancels the customer's request by `change` (an open one, or a hired one whose hold was
/// released); `None` when it is not theirs or not in a state the change starts from.
pub async fn cancel(
    tx: &mut PgConnection,
    id: Uuid,
    customer_id: Uuid,
    change: RequestChange,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<RepairRequestRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with requests as (
            update repair_requests set state = $5, closed_at = $3
            where id = $1 and customer_id = $2 and state = any($4)
            returning *
         ) {SELECT}"
    )))
    .bind(id)
    .bind(customer_id)
    .bind(now)
    .bind(change.from_codes())
    .bind(change.leads_to().as_str())
    .fetch_optional(tx)
    .await
}

/// Applies `change` to request `id` (the hire's steps: AwaitPayment, Reopen); false when the
/// request was in no state the change starts from.
pub async fn move_state(
    tx: &mut PgConnection,
    id: Uuid,
    change: RequestChange,
) -> sqlx::Result<bool> {
    let done =
        sqlx::query("update repair_requests set state = $3 where id = $1 and state = any($2)")
            .bind(id)
            .bind(change.from_codes())
            .bind(change.leads_to().as_str())
            .execute(tx)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// OPEN, PENDING_PAYMENT (or HIRED, when a lapsed hold is authorised again) -> HIRED on the
/// quote `quote_id` of `professional_id`.
pub async fn hire(
    tx: &mut PgConnection,
    id: Uuid,
    quote_id: Uuid,
    professional_id: Uuid,
) -> sqlx::Result<bool> {
    let hire = RequestChange::Hire;
    let done = sqlx::query(
        "update repair_requests set state = $5, hired_application_id = $2,
            hired_professional_id = $3
         where id = $1 and state = any($4)",
    )
    .bind(id)
    .bind(quote_id)
    .bind(professional_id)
    .bind(hire.from_codes())
    .bind(hire.leads_to().as_str())
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// HIRED -> OPEN when its hire was released: nobody is hired any more. False when it was not
/// hired.
pub async fn release(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<bool> {
    let release = RequestChange::Release;
    let done = sqlx::query(
        "update repair_requests set state = $3, hired_application_id = null,
            hired_professional_id = null
         where id = $1 and state = any($2)",
    )
    .bind(id)
    .bind(release.from_codes())
    .bind(release.leads_to().as_str())
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks the customer's hired request completed; `None` when it is not theirs or not hired.
pub async fn complete(
    db: impl sqlx::PgExecutor<'_>,
    id: Uuid,
    customer_id: Uuid,
) -> sqlx::Result<Option<RepairRequestRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with requests as (
            update repair_requests set state = $4
            where id = $1 and customer_id = $2 and state = any($3)
            returning *
         ) {SELECT}"
    )))
    .bind(id)
    .bind(customer_id)
    .bind(RequestChange::Complete.from_codes())
    .bind(RequestChange::Complete.leads_to().as_str())
    .fetch_optional(db)
    .await
}

/// A page of requests, newest first, of one customer (or all customers) in some states (or
/// all) and of one service (or all).
/// Which requests [`list`] reads; `None` and `false` leave a filter out.
#[derive(Debug, Clone, Copy, Default)]
pub struct ListFilter<'a> {
    pub customer_id: Option<Uuid>,
    pub states: Option<&'a [RepairRequestState]>,
    pub service_id: Option<Uuid>,
    /// Only requests with at least one live (submitted or hired) quote.
    pub with_live_quotes: bool,
}

pub async fn list(
    db: &PgPool,
    filter: ListFilter<'_>,
    page: &PageRequest,
) -> sqlx::Result<Vec<RepairRequestRow>> {
    let states: Option<Vec<&str>> = filter
        .states
        .map(|s| s.iter().map(|s| s.as_str()).collect());
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with requests as (
            select * from repair_requests
            where ($1::uuid is null or customer_id = $1)
              and ($2::text[] is null or state = any($2))
              and ($3::uuid is null or service_id = $3)
              and ($4::timestamptz is null or (created_at, id) < ($4, $5))
              and (not $7 or exists (
                  select 1 from quotes q
                  where q.repair_request_id = repair_requests.id
                    and q.state in ('submitted', 'hired')))
            order by created_at desc, id desc limit $6
         ) {SELECT} order by r.created_at desc, r.id desc"
    )))
    .bind(filter.customer_id)
    .bind(states)
    .bind(filter.service_id)
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .bind(filter.with_live_quotes)
    .fetch_all(db)
    .await
}

/// A customer's requests: placed (any state), with a professional hired (hired or
/// completed), and completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct CustomerCounts {
    pub posted: i64,
    /// Quotes on all their requests, withdrawn ones left out.
    pub quotes_received: i64,
    pub hired: i64,
    pub completed: i64,
}

pub async fn customer_counts(db: &PgPool, customer_id: Uuid) -> sqlx::Result<CustomerCounts> {
    sqlx::query_as(
        "select count(*) as posted,
                count(*) filter (where state in ('hired', 'completed')) as hired,
                count(*) filter (where state = 'completed') as completed,
                (select count(*) from quotes q join repair_requests r
                     on r.id = q.repair_request_id
                 where r.customer_id = $1 and q.state <> 'withdrawn') as quotes_received
         from repair_requests where customer_id = $1",
    )
    .bind(customer_id)
    .fetch_one(db)
    .await
}

/// Closes every open request whose time ran out; how many.
pub async fn expire_due(db: &PgPool, now: DateTime<Utc>) -> sqlx::Result<u64> {
    let mut tx = crate::store::transaction::begin(db).await?;
    super::quotes::close_on_expiring(&mut tx, now).await?;
    let done = sqlx::query(
        "update repair_requests set state = 'expired', closed_at = $1
         where state = 'open' and expires_at <= $1",
    )
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected())
}

/// Claims the oldest emergency due for escalation at `now`: open, placed at or before
/// `placed_by`, not escalated yet, without a live quote (submitted or hired). Marked
/// escalated in the caller's transaction; another process's claim is skipped, not waited on.
pub async fn claim_escalation(
    tx: &mut PgConnection,
    now: DateTime<Utc>,
    placed_by: DateTime<Utc>,
) -> sqlx::Result<Option<RepairRequestRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with requests as (
            update repair_requests set escalated_at = $1
            where id = (
                select c.id from repair_requests c
                where c.state = 'open' and c.urgency = 'immediate' and c.escalated_at is null
                  and c.created_at <= $2 and c.expires_at > $1
                  and not exists (select 1 from quotes q where q.repair_request_id = c.id
                                  and q.state in ('submitted', 'hired'))
                order by c.created_at
                limit 1
                for update skip locked)
            returning *
         ) {SELECT}"
    )))
    .bind(now)
    .bind(placed_by)
    .fetch_optional(tx)
    .await
}

/// One professional to tell of a request on one channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    pub professional_id: Uuid,
    /// 'email' or 'sms'.
    pub channel: &'static str,
    /// From their home base, when matched.
    pub distance_m: i32,
}

/// Claims the right to tell these professionals of a request: the (professional, channel)
/// pairs claimed now, each the first time ever, whatever the process.
pub async fn claim_notifications(
    tx: &mut PgConnection,
    repair_request_id: Uuid,
    claims: &[Claim],
) -> sqlx::Result<Vec<(Uuid, String)>> {
    let professionals: Vec<Uuid> = claims.iter().map(|c| c.professional_id).collect();
    let channels: Vec<&str> = claims.iter().map(|c| c.channel).collect();
    let distances: Vec<i32> = claims.iter().map(|c| c.distance_m).collect();
    sqlx::query_as(
        "insert into request_notifications
            (repair_request_id, professional_id, channel, distance_m)
         select $1, professional_id, channel, distance_m
         from unnest($2::uuid[], $3::text[], $4::integer[])
            as claim (professional_id, channel, distance_m)
         on conflict do nothing
         returning professional_id, channel",
    )
    .bind(repair_request_id)
    .bind(professionals)
    .bind(channels)
    .bind(distances)
    .fetch_all(tx)
    .await
}

/// Links claimed notifications to the outbox messages that carry them.
pub async fn attach_messages(
    tx: &mut PgConnection,
    repair_request_id: Uuid,
    links: &[(Claim, Uuid)],
) -> sqlx::Result<()> {
    let professionals: Vec<Uuid> = links.iter().map(|(c, _)| c.professional_id).collect();
    let channels: Vec<&str> = links.iter().map(|(c, _)| c.channel).collect();
    let messages: Vec<Uuid> = links.iter().map(|(_, id)| *id).collect();
    sqlx::query(
        "update request_notifications n set outbox_message_id = l.message_id
         from unnest($2::uuid[], $3::text[], $4::uuid[])
            as l (professional_id, channel, message_id)
         where n.repair_request_id = $1 and n.professional_id = l.professional_id
           and n.channel = l.channel",
    )
    .bind(repair_request_id)
    .bind(professionals)
    .bind(channels)
    .bind(messages)
    .execute(tx)
    .await?;
    Ok(())
}

/// Drops the request's notifications still waiting in the outbox (the request was
/// cancelled: nobody should be invited to quote on it any more), pushes included (keyed
/// `repair-request:{id}:{subscription}`, `alerts`). Those a worker is sending
/// (leased) go on, as they may be out already, but their use ends now: one whose send
/// fails is not tried again (`outbox::mark_failed`).
pub async fn drop_unsent_notifications(
    tx: &mut PgConnection,
    repair_request_id: Uuid,
) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "update outbox_messages
         set state = case when leased_until >= now() then state else 'expired' end,
             finished_at = case when leased_until >= now() then finished_at else now() end,
             discard_after = now()
         where state = 'pending'
           and (id in (
                    select outbox_message_id from request_notifications
                    where repair_request_id = $1)
                or (channel = 'push' and dedupe_key like 'repair-request:' || $1 || ':%'))",
    )
    .bind(repair_request_id)
    .execute(tx)
    .await?;
    Ok(done.rows_affected())
}

impl RepairRequestRow {
    /// "100 8 Ave SW, Unit 2, Calgary, AB T2P 1J9".
    pub fn street_address(&self) -> String {
        let mut parts = vec![self.line1.as_str()];
        if !self.line2.is_empty() {
            parts.push(&self.line2);
        }
        parts.push(&self.city);
        format!(
            "{}, {} {}",
            parts.join(", "),
            self.province,
            self.postal_code
        )
        .trim_end()
        .to_owned()
    }
}
