//! The counters of budgets and limits (`crate::budgets`): one row per key and window, counted
//! with one upsert so concurrent calls each read their own count.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};

/// A count just made, and the end of the window it was made in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    pub n: i64,
    pub expires_at: DateTime<Utc>,
}

/// Adds `amount` to `key` and returns the new count. A key that is missing, or whose window
/// ended, starts a window of `window` from `amount`.
pub async fn add(
    db: impl PgExecutor<'_>,
    key: &str,
    amount: i64,
    window: Duration,
) -> sqlx::Result<Counted> {
    let (n, expires_at) = sqlx::query_as(
        "insert into limit_counters (key, n, expires_at)
         values ($1, $2, now() + make_interval(secs => $3))
         on conflict (key) do update set
             n = case when limit_counters.expires_at > now()
                 then limit_counters.n + excluded.n else excluded.n end,
             expires_at = case when limit_counters.expires_at > now()
                 then limit_counters.expires_at else excluded.expires_at end
         returning n, expires_at",
    )
    .bind(key)
    .bind(amount)
    .bind(window.as_secs_f64())
    .fetch_one(db)
    .await?;
    Ok(Counted { n, expires_at })
}

/// Takes `amount` back from `key`, in the window it was counted in only: once that window
/// has ended (or the key was cleared), there is nothing to give back.
pub async fn give_back(
    db: impl PgExecutor<'_>,
    key: &str,
    amount: i64,
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update limit_counters set n = greatest(n - $2, 0) where key = $1 and expires_at = $3",
    )
    .bind(key)
    .bind(amount)
    .bind(expires_at)
    .execute(db)
    .await?;
    Ok(())
}

/// Forgets a key's count.
pub async fn clear(db: &PgPool, key: &str) -> sqlx::Result<()> {
    sqlx::query("delete from limit_counters where key = $1")
        .bind(key)
        .execute(db)
        .await?;
    Ok(())
}

/// Deletes the windows that ended; how many.
pub async fn purge_ended(db: &PgPool) -> sqlx::Result<u64> {
    let done = sqlx::query("delete from limit_counters where expires_at <= now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
