//! Budgets and limits on what callers may do in a window (requests placed, contact messages,
//! reset links, texts, translated characters, sign-in tries). Their counters live in Postgres
//! (`store::limit_counters`): every server replica shares them, they hold while Redis is down
//! or after it restarts empty, and the calls they limit need Postgres anyway (translation
//! aside), so counting there adds no new way for them to fail.
//!
//! A call counts what it spends before checking it, so concurrent calls cannot all slip under
//! a limit. What it spent is a [`Spent`]: kept when the call succeeds, given back when it
//! fails (or is dropped unfinished), so a failure of ours never costs the caller; what pays
//! for a text is given back by the outbox worker should the text end unsent.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    error::{ApiError, ApiResult, ErrorReason},
    store::limit_counters,
};

pub const HOUR: Duration = Duration::from_secs(3600);

/// One budget: at most `limit` per window under `key`, else the call is refused with
/// RESOURCE_EXHAUSTED, `reason` and `message` (and, when `says_renewal`, when the window
/// renews: in the message and as `RetryInfo`).
#[derive(Debug, Clone)]
pub struct Budget {
    pub key: String,
    pub limit: i64,
    pub window: Duration,
    pub reason: ErrorReason,
    pub message: String,
    pub says_renewal: bool,
}

impl Budget {
    /// A budget per hour.
    pub fn hourly(
        key: impl Into<String>,
        limit: impl Into<i64>,
        reason: ErrorReason,
        message: impl Into<String>,
    ) -> Self {
        Self {
            key: key.into(),
            limit: limit.into(),
            window: HOUR,
            reason,
            message: message.into(),
            says_renewal: false,
        }
    }

    /// A budget per `window` whose refusal says when it renews.
    pub fn renewing(
        key: impl Into<String>,
        limit: impl Into<i64>,
        window: Duration,
        reason: ErrorReason,
        message: impl Into<String>,
    ) -> Self {
        Self {
            window,
            says_renewal: true,
            ..Self::hourly(key, limit, reason, message)
        }
    }

    /// The refusal of a call counted in the window ending at `renews_at`.
    fn refusal(&self, renews_at: DateTime<Utc>) -> ApiError {
        if !self.says_renewal {
            return ApiError::ResourceExhausted {
                reason: self.reason,
                message: self.message.clone(),
            };
        }
        let wait = (renews_at - Utc::now()).to_std().unwrap_or_default();
        let minutes = wait.as_secs().div_ceil(60).max(1);
        let renews = match minutes {
            ..=90 => format!("{minutes} min"),
            _ => format!("{} h", minutes.div_ceil(60)),
        };
        ApiError::RetryLater {
            reason: self.reason,
            message: format!("{}; it renews in {renews}", self.message),
            retry_after: wait,
        }
    }
}

/// The counters, in Postgres.
#[derive(Clone)]
pub struct Budgets {
    db: PgPool,
}

impl Budgets {
    pub fn new(db: PgPool) -> Self {
        Self { db }
    }

    /// Counts `amount` against each budget in turn. The first one found spent refuses the
    /// call with its reason, and everything this call counted is given back first (a refused
    /// call costs nothing, and cannot push a limit's window further).
    pub async fn spend(&self, budgets: &[Budget], amount: i64) -> ApiResult<Spent> {
        let mut spent = Spent {
            db: self.db.clone(),
            amount,
            counted: Vec::with_capacity(budgets.len()),
        };
        for budget in budgets {
            let counted =
                match limit_counters::add(&self.db, &budget.key, amount, budget.window).await {
                    Ok(counted) => counted,
                    Err(error) => {
                        spent.give_back().await;
                        return Err(error.into());
                    }
                };
            spent.counted.push((budget.key.clone(), counted.expires_at));
            if counted.n > budget.limit {
                tracing::warn!(key = %budget.key, limit = budget.limit, "budget spent");
                spent.give_back().await;
                return Err(budget.refusal(counted.expires_at));
            }
        }
        Ok(spent)
    }

    /// Forgets what was counted under `key` (a successful sign-in clears its tries).
    pub async fn clear(&self, key: &str) -> ApiResult<()> {
        Ok(limit_counters::clear(&self.db, key).await?)
    }
}

/// Counts up to `wanted` under `key`, as much as is left of its `limit` this hour, in the
/// caller's transaction (whose rollback gives it back); how much was counted. For what is
/// cut down rather than refused. The counter stays locked until the transaction ends
/// (concurrent spenders of the key wait), so spend late in the transaction.
pub async fn spend_up_to(
    tx: &mut PgConnection,
    key: &str,
    limit: i64,
    wanted: i64,
) -> sqlx::Result<i64> {
    if wanted <= 0 {
        return Ok(0);
    }
    let counted = limit_counters::add(&mut *tx, key, wanted, HOUR).await?;
    let left = (limit - (counted.n - wanted)).max(0);
    let granted = wanted.min(left);
    if granted < wanted {
        tracing::warn!(%key, limit, "budget spent");
        limit_counters::give_back(&mut *tx, key, wanted - granted, counted.expires_at).await?;
    }
    Ok(granted)
}

/// What one call counted. Settle it with the call's outcome ([`Spent::settle`]); dropped
/// unsettled (a call cancelled, or a `?` before settling), it is given back in the
/// background.
#[must_use = "settle what was spent with the call's outcome, or it is given back"]
pub struct Spent {
    db: PgPool,
    amount: i64,
    /// Each key counted, and the end of the window it was counted in.
    counted: Vec<(String, DateTime<Utc>)>,
}

impl Spent {
    /// Keeps what was spent when the call succeeded, gives it back (before the caller hears
    /// of the failure) when it failed; the outcome passes through.
    pub async fn settle<T, E>(self, outcome: Result<T, E>) -> Result<T, E> {
        self.settle_if(outcome, |_| true).await
    }

    /// As [`Spent::settle`], when only some successes did what was counted (`kept`).
    pub async fn settle_if<T, E>(
        self,
        outcome: Result<T, E>,
        kept: impl FnOnce(&T) -> bool,
    ) -> Result<T, E> {
        if outcome.as_ref().is_ok_and(kept) {
            self.keep();
        } else {
            self.give_back().await;
        }
        outcome
    }

    /// The call did what was counted: the spending stands.
    pub fn keep(mut self) {
        self.counted.clear();
    }

    /// Ties what was spent to the outbox message `message_id` it pays for, in the transaction
    /// that writes the message: should the message end unsent (the provider refused it), the
    /// outbox worker gives it back ([`give_back_unsent`]). Settle this as usual after.
    pub async fn pay_for_message(
        &self,
        tx: &mut PgConnection,
        message_id: Uuid,
    ) -> sqlx::Result<()> {
        limit_counters::pay_for_message(tx, message_id, self.amount, &self.counted).await
    }

    /// Takes back what was counted, in the windows it was counted in.
    pub async fn give_back(mut self) {
        give_back(&self.db, self.amount, std::mem::take(&mut self.counted)).await;
    }
}

impl Drop for Spent {
    fn drop(&mut self) {
        if self.counted.is_empty() {
            return;
        }
        let (db, amount, counted) = (
            self.db.clone(),
            self.amount,
            std::mem::take(&mut self.counted),
        );
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move { give_back(&db, amount, counted).await });
            }
            Err(_) => tracing::warn!(?counted, "budget not given back: no runtime"),
        }
    }
}

/// Gives back what outbox messages that ended unsent had paid ([`Spent::pay_for_message`]);
/// how many counters were given to.
pub async fn give_back_unsent(db: &PgPool) -> sqlx::Result<u64> {
    limit_counters::give_back_unsent(db).await
}

async fn give_back(db: &PgPool, amount: i64, counted: Vec<(String, DateTime<Utc>)>) {
    for (key, expires_at) in counted {
        if let Err(error) = limit_counters::give_back(db, &key, amount, expires_at).await {
            tracing::warn!(%error, %key, "budget not given back");
        }
    }
}
