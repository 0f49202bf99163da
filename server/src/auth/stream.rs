//! Live streams that end with the session that opened them. [`bound`] wraps a server stream
//! with its caller's session (who, token version, expiry) and ends it with the status of
//! the failure, through `crate::error`: UNAUTHENTICATED / SESSION_REVOKED once the session
//! was ended (a password reset, an admin's decision, a deletion: [`super::revocation`]),
//! SESSION_EXPIRED at the token's expiry, or the status of a right the stream also needs
//! ([`Guard::with_right`]) once it is lost. The session is checked as the auth layer checks
//! it ([`SessionVersions::check`], one cache read) every [`RECHECK_EVERY`] and before each
//! message, so nothing leaves once the session is known to be over. Every stream also ends,
//! quietly, after [`MAX_LIFETIME`]: the client reconnects, which checks everything again.

use std::{
    future::Future,
    sync::Arc,
    time::{Duration, SystemTime},
};

use futures::{StreamExt, future::BoxFuture, stream};
use tokio::time::{Instant, Interval, MissedTickBehavior};
use tonic::{Status, codegen::BoxStream};

use super::{
    revocation::SessionVersions,
    token::{TokenError, VerifiedToken},
};
use crate::error::{ApiError, ApiResult};

/// How often a quiet stream checks its session (and right): an ended session ends its streams
/// within this time.
pub const RECHECK_EVERY: Duration = Duration::from_secs(3);

/// How long a stream lasts at most.
pub const MAX_LIFETIME: Duration = Duration::from_secs(30 * 60);

type Right = Arc<dyn Fn() -> BoxFuture<'static, ApiResult<()>> + Send + Sync>;

/// What a stream must go on holding: its session, and a right when it needs one.
#[derive(Clone)]
pub struct Guard {
    versions: SessionVersions,
    session: VerifiedToken,
    right: Option<Right>,
}

impl Guard {
    pub fn new(versions: SessionVersions, session: VerifiedToken) -> Self {
        Self {
            versions,
            session,
            right: None,
        }
    }

    /// Checks `right` too (a professional's standing, say) each time the session is checked;
    /// its error ends the stream.
    pub fn with_right<F>(mut self, right: impl Fn() -> F + Send + Sync + 'static) -> Self
    where
        F: Future<Output = ApiResult<()>> + Send + 'static,
    {
        self.right = Some(Arc::new(move || Box::pin(right())));
        self
    }

    /// Whether the stream may go on: the token unexpired, its session current, the right
    /// held.
    pub async fn check(&self) -> ApiResult<()> {
        if SystemTime::now() >= self.session.expires_at {
            return Err(TokenError::Expired.into());
        }
        self.versions.check(&self.session).await?;
        match &self.right {
            Some(right) => right().await,
            None => Ok(()),
        }
    }
}

/// What ends a stream that nothing else ended.
#[derive(Clone, Copy)]
enum End {
    /// The token expires first: SESSION_EXPIRED.
    Expiry,
    /// [`MAX_LIFETIME`] runs out first: a quiet end.
    Lifetime,
}

struct Bound<T> {
    inner: BoxStream<T>,
    guard: Guard,
    recheck: Interval,
    ends_at: Instant,
    end: End,
    over: bool,
}

/// `inner` for as long as `guard` holds, and [`MAX_LIFETIME`] at most. Dropping `inner` once
/// ended tells whatever feeds it that the client is gone.
pub fn bound<T: Send + 'static>(guard: Guard, inner: BoxStream<T>) -> BoxStream<T> {
    let left = guard
        .session
        .expires_at
        .duration_since(SystemTime::now())
        .unwrap_or_default();
    let (lasts, end) = if left <= MAX_LIFETIME {
        (left, End::Expiry)
    } else {
        (MAX_LIFETIME, End::Lifetime)
    };
    let now = Instant::now();
    let mut recheck = tokio::time::interval_at(now + RECHECK_EVERY, RECHECK_EVERY);
    recheck.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let bound = Bound {
        inner,
        guard,
        recheck,
        ends_at: now + lasts,
        end,
        over: false,
    };
    Box::pin(stream::unfold(bound, next))
}

/// What woke a stream up.
enum Woken<T> {
    End,
    Recheck,
    Inner(Option<Result<T, Status>>),
}

async fn next<T>(mut bound: Bound<T>) -> Option<(Result<T, Status>, Bound<T>)> {
    if bound.over {
        return None;
    }
    loop {
        let woken = tokio::select! {
            () = tokio::time::sleep_until(bound.ends_at) => Woken::End,
            _ = bound.recheck.tick() => Woken::Recheck,
            item = bound.inner.next() => Woken::Inner(item),
        };
        let failed: ApiError = match woken {
            Woken::End => match bound.end {
                End::Expiry => TokenError::Expired.into(),
                End::Lifetime => return None,
            },
            Woken::Recheck => match bound.guard.check().await {
                Ok(()) => continue,
                Err(error) => error,
            },
            Woken::Inner(Some(Ok(message))) => match bound.guard.check().await {
                Ok(()) => return Some((Ok(message), bound)),
                Err(error) => error,
            },
            Woken::Inner(Some(Err(status))) => {
                bound.over = true;
                return Some((Err(status), bound));
            }
            Woken::Inner(None) => return None,
        };
        bound.over = true;
        return Some((Err(Status::from(failed)), bound));
    }
}
