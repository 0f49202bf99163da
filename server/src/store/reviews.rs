//! Reviews of hired professionals, one per request. Rows are never changed.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::page::PageRequest;

/// A review with its author's name.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReviewRow {
    pub id: Uuid,
    pub repair_request_id: Uuid,
    pub customer_id: Uuid,
    pub customer_name: String,
    pub customer_deleted: bool,
    pub professional_id: Uuid,
    /// 1 to 5 (the table's check).
    pub rating: i16,
    pub body: String,
    pub created_at: DateTime<Utc>,
}

/// A professional's reviews in short.
#[derive(Debug, Clone, Copy, Default, PartialEq, sqlx::FromRow)]
pub struct ReviewSummary {
    pub review_count: i64,
    /// 0 without reviews.
    pub average_rating: f64,
}

/// The two columns `review_count` and `average_rating` of the professional whose id is the
/// SQL expression `professional_id`, for a select list: the one way every list that shows a
/// professional's reviews in short counts them (in the same query as its rows).
pub fn summary_columns(professional_id: &str) -> String {
    format!(
        "(select count(*) from reviews v where v.professional_id = {professional_id})
             as review_count,
         coalesce((select avg(v.rating)::float8 from reviews v
                   where v.professional_id = {professional_id}), 0) as average_rating"
    )
}

const SELECT: &str = "select v.id, v.repair_request_id, v.customer_id, c.name as customer_name,
        c.deleted_at is not null as customer_deleted, v.professional_id, v.rating, v.body, v.created_at
    from v join customers c on c.id = v.customer_id";

/// What a customer writes about a paid, completed job.
#[derive(Debug, Clone)]
pub struct NewReview {
    pub repair_request_id: Uuid,
    pub order_id: Uuid,
    pub customer_id: Uuid,
    pub professional_id: Uuid,
    pub rating: i16,
    pub body: String,
}

/// Inserts a review. A second one on the request breaks `reviews_one_per_request`
/// (ALREADY_EXISTS through the error mapping), also when two calls race.
pub async fn insert(
    db: impl sqlx::PgExecutor<'_>,
    review: &NewReview,
    now: DateTime<Utc>,
) -> sqlx::Result<ReviewRow> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with v as (
            insert into reviews (id, repair_request_id, order_id, customer_id, professional_id,
                rating, body, created_at)
            values ($1, $2, $3, $4, $5, $6, $7, $8)
            returning *
        ) {SELECT}"
    )))
    .bind(Uuid::now_v7())
    .bind(review.repair_request_id)
    .bind(review.order_id)
    .bind(review.customer_id)
    .bind(review.professional_id)
    .bind(review.rating)
    .bind(&review.body)
    .bind(now)
    .fetch_one(db)
    .await
}

pub async fn for_request(db: &PgPool, repair_request_id: Uuid) -> sqlx::Result<Option<ReviewRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with v as (select * from reviews where repair_request_id = $1) {SELECT}"
    )))
    .bind(repair_request_id)
    .fetch_optional(db)
    .await
}

/// A page of a professional's reviews, newest first.
pub async fn list_for_professional(
    db: &PgPool,
    professional_id: Uuid,
    page: &PageRequest,
) -> sqlx::Result<Vec<ReviewRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with v as (
            select * from reviews
            where professional_id = $1
              and ($2::timestamptz is null or (created_at, id) < ($2, $3))
            order by created_at desc, id desc
            limit $4
        ) {SELECT}
        order by v.created_at desc, v.id desc"
    )))
    .bind(professional_id)
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .fetch_all(db)
    .await
}

pub async fn summary(db: &PgPool, professional_id: Uuid) -> sqlx::Result<ReviewSummary> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {}",
        summary_columns("$1")
    )))
    .bind(professional_id)
    .fetch_one(db)
    .await
}
