//! Postgres: the pool, the migrations, and (in the embedded default) the local cluster.

pub mod account_closures;
pub mod accounts;
pub mod admins;
pub mod audit;
pub mod batched;
pub mod consents;
pub mod contact_messages;
pub mod conversation_emails;
pub mod conversation_reports;
pub mod conversations;
pub mod coupons;
pub mod customers;
pub mod data_exports;
pub mod disputes;
pub mod email_verifications;
pub mod embedded_postgres;
pub mod export_records;
pub mod hire_releases;
pub mod job_problems;
mod language;
pub mod limit_counters;
pub mod manual_payouts;
pub mod match_rule;
pub mod memberships;
pub mod message_photos;
pub mod message_translations;
pub mod notification_preferences;
pub mod orders;
pub mod outbox;
pub mod page;
pub mod page_texts;
pub mod password_resets;
pub mod payments;
pub mod payout_transfers;
pub mod payouts;
pub mod pending_changes;
pub mod privacy_incidents;
pub mod professional_blocks;
pub mod professional_services;
pub mod professionals;
pub mod push_subscriptions;
pub mod quotes;
pub mod reads;
pub mod receipts;
pub mod refresh_tokens;
pub mod refunds;
pub mod repair_requests;
pub mod request_matches;
pub mod request_opens;
pub mod request_photos;
pub mod request_reach;
pub mod request_translations;
pub mod retention;
pub mod reviews;
pub mod service_accounts;
pub mod services;
pub mod session_versions;
pub mod social_identities;
pub mod standing;
pub mod stripe_events;
pub mod tax_report;
pub mod taxes;
pub mod transaction;
pub mod trips;

use std::time::Duration;

use anyhow::Context;
use sqlx::{PgPool, postgres::PgPoolOptions};

pub use embedded_postgres::EmbeddedPostgres;

/// The migrations in `migrations/`, compiled into the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// The database the server talks to, and the embedded cluster behind it if any.
pub struct Database {
    pub pool: PgPool,
    /// Connections of their own for reads of one statement (`reads`).
    pub reads: reads::Reads,
    pub embedded: Option<EmbeddedPostgres>,
}

/// A pooled connection idle at least this long is checked before use (see
/// [`transaction::watch_pool`]).
const PING_WHEN_IDLE_FOR: Duration = Duration::from_secs(10);

/// A connection is replaced after this long (the pool's and the reads').
const MAX_LIFETIME: Duration = Duration::from_secs(24 * 3600);

/// The pool: a short wait for a connection, so that with the database down a call fails
/// fast as UNAVAILABLE instead of hanging; and a few connections kept open however quiet the
/// server is, so that their prepared statements stay (a new connection prepares each
/// statement again on first use).
fn pool_options(config: &crate::config::Config) -> PgPoolOptions {
    transaction::watch_pool(PgPoolOptions::new(), PING_WHEN_IDLE_FOR)
        .max_connections(config.database_max_connections)
        .min_connections(config.database_min_connections)
        .acquire_timeout(Duration::from_millis(config.database_acquire_timeout_ms))
        .idle_timeout(Duration::from_secs(30 * 60))
        .max_lifetime(MAX_LIFETIME)
}

/// The read connections beside the pool, kept as the pool keeps its own.
fn reads_of(pool: &PgPool, config: &crate::config::Config) -> reads::Reads {
    reads::Reads::new(
        pool,
        reads::ReadsOptions {
            max_connections: config.database_read_connections,
            acquire_timeout: Duration::from_millis(config.database_acquire_timeout_ms),
            ping_when_idle_for: PING_WHEN_IDLE_FOR,
            max_lifetime: MAX_LIFETIME,
        },
    )
}

impl Database {
    /// Connects to `DATABASE_URL`, or starts the embedded cluster when it is unset.
    pub async fn open(config: &crate::config::Config) -> anyhow::Result<Self> {
        let pool_options = pool_options(config);
        match &config.database_url {
            Some(url) => {
                let pool = pool_options
                    .connect(url)
                    .await
                    .context("connecting to DATABASE_URL")?;
                Ok(Self {
                    reads: reads_of(&pool, config),
                    pool,
                    embedded: None,
                })
            }
            None => {
                let cluster =
                    EmbeddedPostgres::start(&config.data_dir, config.pg_bin_dir.as_deref()).await?;
                let pool = pool_options
                    .connect_with(cluster.connect_options())
                    .await
                    .context("connecting to the local Postgres cluster")?;
                Ok(Self {
                    reads: reads_of(&pool, config),
                    pool,
                    embedded: Some(cluster),
                })
            }
        }
    }

    pub async fn migrate(&self) -> anyhow::Result<()> {
        MIGRATOR
            .run(&self.pool)
            .await
            .context("applying migrations")
    }

    /// Closes the pool and stops the embedded cluster, if this process started one.
    pub async fn close(self) {
        self.reads.close().await;
        self.pool.close().await;
        if let Some(cluster) = self.embedded
            && let Err(error) = cluster.stop().await
        {
            tracing::error!(error = %error, "could not stop the local Postgres cluster");
        }
    }
}
