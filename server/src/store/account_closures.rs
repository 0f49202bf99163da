//! Accounts their person closed (`account_closures`): closed at once, erased once the grace
//! has run out and nothing holds them, then kept as a row naming only the id.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::accounts::AccountKind;

/// Closes account `id`, to be erased after `erase_after`; false when it was closed already.
pub async fn close(
    tx: &mut PgConnection,
    kind: AccountKind,
    id: Uuid,
    erase_after: DateTime<Utc>,
    keep_token_hash: &[u8],
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "insert into account_closures (account_kind, account_id, erase_after, keep_token_hash)
         values ($1, $2, $3, $4)
         on conflict (account_kind, account_id) do nothing",
    )
    .bind(kind.as_str())
    .bind(id)
    .bind(erase_after)
    .bind(keep_token_hash)
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Whether account `id` is closed (waiting for its erasure, or erased).
pub async fn is_closed(db: impl PgExecutor<'_>, kind: AccountKind, id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from account_closures
                        where account_kind = $1 and account_id = $2)",
    )
    .bind(kind.as_str())
    .bind(id)
    .fetch_one(db)
    .await
}

/// Keeps the closed, not yet erased account whose link hashes to `token_hash`: CLOSED ->
/// open. The account kept, or `None` when no such closure waits.
pub async fn keep(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
) -> sqlx::Result<Option<(AccountKind, Uuid)>> {
    let kept: Option<(String, Uuid)> = sqlx::query_as(
        "delete from account_closures where keep_token_hash = $1 and erased_at is null
         returning account_kind, account_id",
    )
    .bind(token_hash)
    .fetch_optional(db)
    .await?;
    Ok(kept.and_then(|(kind, id)| Some((kind_from(&kind)?, id))))
}

fn kind_from(code: &str) -> Option<AccountKind> {
    match code {
        "customer" => Some(AccountKind::Customer),
        "professional" => Some(AccountKind::Professional),
        _ => None,
    }
}

/// Claims up to `limit` closures whose grace ran out by `now`, not erased yet, oldest
/// first; locked until `tx` ends, so no other process erases them meanwhile.
pub async fn claim_due(
    tx: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<(AccountKind, Uuid)>> {
    let due: Vec<(String, Uuid)> = sqlx::query_as(
        "select account_kind, account_id from account_closures
         where erased_at is null and erase_after <= $1
         order by erase_after limit $2
         for update skip locked",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(tx)
    .await?;
    Ok(due
        .into_iter()
        .filter_map(|(kind, id)| Some((kind_from(&kind)?, id)))
        .collect())
}

/// Records the erasure of account `id`: CLOSED -> ERASED.
pub async fn mark_erased(tx: &mut PgConnection, kind: AccountKind, id: Uuid) -> sqlx::Result<()> {
    sqlx::query(
        "update account_closures set erased_at = now(), keep_token_hash = ''::bytea
         where account_kind = $1 and account_id = $2 and erased_at is null",
    )
    .bind(kind.as_str())
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Pushes a held closure's next look to `after` (a hire or a dispute still open).
pub async fn hold_until(
    tx: &mut PgConnection,
    kind: AccountKind,
    id: Uuid,
    after: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update account_closures set erase_after = $3
         where account_kind = $1 and account_id = $2 and erased_at is null",
    )
    .bind(kind.as_str())
    .bind(id)
    .bind(after)
    .execute(tx)
    .await?;
    Ok(())
}

/// The requests that hold account `id`'s erasure: a hire still open (hired, not done) or a
/// payment under dispute.
pub async fn holds(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar(
        "select r.id from repair_requests r
         where r.state = 'hired'
           and (($1 = 'customer' and r.customer_id = $2)
                or ($1 = 'professional' and r.hired_professional_id = $2))
         union
         select o.repair_request_id from orders o join disputes d on d.payment_id = o.payment_id
         where d.state in ('needs_response', 'under_review')
           and (($1 = 'customer' and o.customer_id = $2)
                or ($1 = 'professional' and o.professional_id = $2))
         order by 1",
    )
    .bind(kind.as_str())
    .bind(id)
    .fetch_all(db)
    .await
}
