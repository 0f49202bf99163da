//! Whether this replica should be sent calls: Postgres and Redis answer, and it is not
//! stopping. Checked every READINESS_CHECK_MS, each question bounded by a second, and
//! read by `/readyz` and the gRPC health service (`api::health`). Stopping turns it
//! NOT_SERVING before anything else, so load balancers move calls away while streams drain.
//! Postgres is asked on a connection of the check's own (one more per replica), not a pooled
//! one: a replica whose pool is busy serving calls is still ready, and taking it out would
//! only pile its calls onto the others until they too look unready.

use std::{sync::Arc, time::Duration};

use sqlx::{Connection, PgConnection, PgPool, postgres::PgConnectOptions};
use tokio::{sync::watch, task::JoinHandle};

use crate::cache::Cache;

/// The longest Postgres or Redis may take to answer a readiness question: far above an
/// ordinary answer, so a busy moment does not take the replica out.
const CHECK_TIMEOUT: Duration = Duration::from_secs(1);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Ready,
    /// Postgres or Redis did not answer; what failed, in a few words.
    NotReady(String),
    /// Stopping: no new calls, open ones finish.
    Draining,
    /// Stopped: health watchers are told and their streams end.
    Stopped,
}

impl Status {
    pub fn is_ready(&self) -> bool {
        *self == Self::Ready
    }

    /// The short text `/readyz` answers.
    pub fn describe(&self) -> String {
        match self {
            Self::Ready => "ready".to_owned(),
            Self::NotReady(reason) => format!("not ready: {reason}"),
            Self::Draining => "not ready: shutting down".to_owned(),
            Self::Stopped => "not ready: stopped".to_owned(),
        }
    }
}

/// Cheap to clone; every clone sees the same status.
#[derive(Clone)]
pub struct Readiness {
    status: Arc<watch::Sender<Status>>,
}

impl Default for Readiness {
    /// Ready: a server is built after Postgres and Redis have answered.
    fn default() -> Self {
        Self {
            status: Arc::new(watch::Sender::new(Status::Ready)),
        }
    }
}

impl Readiness {
    pub fn current(&self) -> Status {
        self.status.borrow().clone()
    }

    /// Every change from now on (the current status first).
    pub fn subscribe(&self) -> watch::Receiver<Status> {
        self.status.subscribe()
    }

    /// Not ready from now on, whatever the checks find.
    pub fn drain(&self) {
        self.status.send_if_modified(|status| match status {
            Status::Stopped | Status::Draining => false,
            _ => {
                *status = Status::Draining;
                true
            }
        });
        tracing::info!("draining: readiness is NOT_SERVING");
    }

    /// Ends the health watchers' streams.
    pub fn close(&self) {
        self.status.send_replace(Status::Stopped);
    }

    /// A check's outcome, unless the server is already stopping.
    fn record(&self, outcome: Result<(), String>) {
        self.status.send_if_modified(|status| {
            let next = match (&*status, outcome) {
                (Status::Draining | Status::Stopped, _) => return false,
                (_, Ok(())) => Status::Ready,
                (_, Err(reason)) => Status::NotReady(reason),
            };
            if *status == next {
                return false;
            }
            match &next {
                Status::NotReady(reason) => tracing::warn!(reason, "readiness: NOT_SERVING"),
                _ => tracing::info!("readiness: SERVING"),
            }
            *status = next;
            true
        });
    }

    /// Checks Postgres and Redis every `every` until `stop` turns true.
    pub fn spawn_checks(
        &self,
        db: PgPool,
        cache: Arc<dyn Cache>,
        every: Duration,
        mut stop: watch::Receiver<bool>,
    ) -> JoinHandle<()> {
        let readiness = self.clone();
        let mut postgres = PostgresProbe::new(&db);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = ticks.tick() => {}
                    _ = stop.wait_for(|stopped| *stopped) => return,
                }
                readiness.record(check(&mut postgres, cache.as_ref(), CHECK_TIMEOUT).await);
            }
        })
    }
}

/// The readiness check's own Postgres connection, opened again after any failure.
struct PostgresProbe {
    options: PgConnectOptions,
    connection: Option<PgConnection>,
}

impl PostgresProbe {
    /// Connects like the pool `db` does (the first check opens the connection).
    fn new(db: &PgPool) -> Self {
        Self {
            options: db.connect_options().as_ref().clone(),
            connection: None,
        }
    }

    /// `select 1`. The connection is held outside the probe while asked, so one left
    /// half-way by a timeout (the future dropped) or an error is closed, never reused.
    async fn ask(&mut self) -> sqlx::Result<()> {
        let mut connection = match self.connection.take() {
            Some(connection) => connection,
            None => PgConnection::connect_with(&self.options).await?,
        };
        sqlx::query("select 1").execute(&mut connection).await?;
        self.connection = Some(connection);
        Ok(())
    }
}

/// `select 1` and a Redis PING, each within `limit`.
async fn check(
    postgres: &mut PostgresProbe,
    cache: &dyn Cache,
    limit: Duration,
) -> Result<(), String> {
    let postgres = tokio::time::timeout(limit, postgres.ask()).await;
    match postgres {
        Ok(Ok(_)) => {}
        Ok(Err(error)) => return Err(format!("Postgres: {error}")),
        Err(_) => return Err(format!("Postgres did not answer within {limit:?}")),
    }
    match tokio::time::timeout(limit, cache.ping()).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(error)) => Err(format!("Redis: {error}")),
        Err(_) => Err(format!("Redis did not answer within {limit:?}")),
    }
}
