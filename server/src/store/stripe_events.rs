//! Stripe webhook events seen, by event id.

use sqlx::PgPool;

#[tracing::instrument(skip_all)]
pub async fn seen(db: &PgPool, id: &str) -> sqlx::Result<bool> {
    let row: Option<(i32,)> = sqlx::query_as("select 1 from stripe_events where id = $1")
        .bind(id)
        .fetch_optional(db)
        .await?;
    Ok(row.is_some())
}

/// Records an event; false when it was recorded before (a concurrent redelivery).
#[tracing::instrument(skip_all)]
pub async fn record(
    db: &PgPool,
    id: &str,
    kind: &str,
    charge_id: Option<&str>,
) -> sqlx::Result<bool> {
    let inserted = sqlx::query(
        "insert into stripe_events (id, type, charge_id) values ($1, $2, $3)
         on conflict (id) do nothing",
    )
    .bind(id)
    .bind(kind)
    .bind(charge_id)
    .execute(db)
    .await?;
    Ok(inserted.rows_affected() == 1)
}
