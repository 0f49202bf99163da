//! The counters of budgets and limits (`crate::budgets`): one row per key and window, counted
//! with one upsert so concurrent calls each read their own count.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

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

/// Ties counts to the outbox message they paid for, in the transaction that writes it:
/// `amount` under each key, in the window ending at its time.
pub async fn pay_for_message(
    tx: &mut PgConnection,
    message_id: Uuid,
    amount: i64,
    counted: &[(String, DateTime<Utc>)],
) -> sqlx::Result<()> {
    let (keys, ends): (Vec<&str>, Vec<DateTime<Utc>>) = counted
        .iter()
        .map(|(key, end)| (key.as_str(), *end))
        .unzip();
    sqlx::query(
        "insert into outbox_message_budgets (outbox_message_id, key, amount, expires_at)
         select $1, key, $2, expires_at from unnest($3::text[], $4::timestamptz[])
             as paid (key, expires_at)",
    )
    .bind(message_id)
    .bind(amount)
    .bind(keys)
    .bind(ends)
    .execute(tx)
    .await?;
    Ok(())
}

/// Gives back what the messages that ended unsent (parked or expired) paid, in the windows
/// it was counted in, and drops the ties of every finished message: once each, whichever
/// worker runs it. How many counters were given to.
pub async fn give_back_unsent(db: &PgPool) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "with finished as (
             delete from outbox_message_budgets b using outbox_messages m
             where m.id = b.outbox_message_id and m.state <> 'pending'
             returning m.state, b.key, b.amount, b.expires_at
         ), owed as (
             select key, expires_at, sum(amount)::bigint as amount from finished
             where state in ('parked', 'expired') group by key, expires_at
         )
         update limit_counters c set n = greatest(c.n - owed.amount, 0)
         from owed where c.key = owed.key and c.expires_at = owed.expires_at",
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// Deletes the windows that ended; how many.
pub async fn purge_ended(db: &PgPool) -> sqlx::Result<u64> {
    let done = sqlx::query("delete from limit_counters where expires_at <= now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
