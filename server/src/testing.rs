//! Test support (feature `test-support`, for this crate's and the BFF's tests): the real
//! server on a fresh database in the test Postgres (`TEST_DATABASE_URL`), Redis
//! (`TEST_REDIS_URL`) under a key prefix of its own, a temporary data directory, listeners on
//! 127.0.0.1 port 0, and readers of what the local stand-ins sent. `make test` provides both
//! URLs.

#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "test set-up fails loudly"
)]

mod accounts;
pub mod local_server;
pub mod native_push;
pub mod photos;
pub mod push_service;
pub mod road_router;
pub mod scrape;
mod template;
mod waits;

pub use accounts::*;
pub use local_server::LocalServer;
pub use waits::*;

use std::path::Path;

use crate::{RunningServer, config::Config};
use sqlx::{Connection, PgConnection};
use tonic::transport::Channel;

pub fn test_database_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .expect("TEST_DATABASE_URL is not set: run the tests with `make test`")
}

pub fn test_redis_url() -> String {
    std::env::var("TEST_REDIS_URL")
        .expect("TEST_REDIS_URL is not set: run the tests with `make test`")
}

/// A database of its own for one test, migrated (a copy of the migrated template), dropped
/// by [`TestServer::stop`].
pub struct TestDatabase {
    pub name: String,
    pub url: String,
}

impl TestDatabase {
    pub async fn create() -> Self {
        let admin_url = test_database_url();
        let name = format!("test_{}", uuid::Uuid::now_v7().simple());
        let mut conn = PgConnection::connect(&admin_url)
            .await
            .expect("connect to TEST_DATABASE_URL");
        let template = template::migrated_template(&mut conn, &admin_url).await;
        template::copy_template(&mut conn, &template, &name).await;
        let url = template::replace_database(&admin_url, &name);
        Self { name, url }
    }

    pub async fn drop_database(&self) {
        let mut conn = PgConnection::connect(&test_database_url())
            .await
            .expect("connect");
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "drop database if exists {} with (force)",
            self.name
        )))
        .execute(&mut conn)
        .await
        .expect("drop test database");
    }
}

pub struct TestServer {
    pub server: RunningServer,
    pub database: TestDatabase,
    pub data_dir: tempfile::TempDir,
}

impl TestServer {
    /// A server on Postgres and Redis with default test settings.
    pub async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    /// A server whose test configuration `adjust` may change first.
    pub async fn start_with(adjust: impl FnOnce(&mut Config)) -> Self {
        // `TEST_LOG=error` (any filter) shows the server's log in a failing test's output.
        if let Ok(filter) = std::env::var("TEST_LOG") {
            let _ = tracing_subscriber::fmt()
                .with_test_writer()
                .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
                .try_init();
        }
        let database = TestDatabase::create().await;
        let data_dir = tempfile::tempdir().expect("temp dir");
        let mut config = Config::for_tests(
            data_dir.path().to_path_buf(),
            database.url.clone(),
            Some(test_redis_url()),
        );
        config.vapid_private_key =
            Some(crate::providers::web_push::VapidKey::generate().private_base64url());
        adjust(&mut config);
        let server = crate::start(config).await.expect("server starts");
        Self {
            server,
            database,
            data_dir,
        }
    }

    /// A server whose texts go through Twilio with `auth_token` (no provider listens: nothing
    /// is sent), so that it takes the replies Twilio signs with that token.
    pub async fn with_twilio(auth_token: &str) -> Self {
        Self::start_with(|config| {
            config.twilio_account_sid = Some("AC00000000000000000000000000000000".into());
            config.twilio_auth_token = Some(auth_token.into());
            config.twilio_from = Some("+15875550000".into());
            config.twilio_base_url = "http://127.0.0.1:9".into();
        })
        .await
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.server.grpc_addr)
    }

    pub async fn channel(&self) -> Channel {
        Channel::from_shared(self.url())
            .expect("url")
            .connect()
            .await
            .expect("connect to server")
    }

    /// A token for a new account of `role` made straight in the database (its password is
    /// unusable): for tests about what a role may do, not about signing in.
    pub async fn account_token(&self, role: crate::domain::Role) -> (uuid::Uuid, String) {
        use crate::{domain::Role, store};
        let db = &self.server.state.db;
        let id = uuid::Uuid::now_v7();
        let email = crate::domain::Email::parse(&format!("{}@example.ca", id.simple()))
            .expect("test email");
        match role {
            Role::Admin => {
                store::admins::insert_with_id(db, id, &email, "Test admin", "!")
                    .await
                    .expect("insert admin");
            }
            Role::Customer | Role::Professional => {
                let kind = crate::accounts::account_kind(role).expect("account kind");
                store::accounts::insert(
                    db,
                    kind,
                    id,
                    "Test account",
                    &email,
                    None,
                    crate::domain::Language::English,
                )
                .await
                .expect("insert account");
            }
        }
        let token = self
            .server
            .state
            .tokens
            .issue(
                crate::auth::Caller {
                    account_id: id,
                    role,
                },
                0,
            )
            .expect("token");
        (id, token.token)
    }

    /// A token of `caller`'s account, at its current token version, that expires `after`
    /// from now (on the whole second before, as every token does): for tests of what ends
    /// with a session.
    pub async fn token_expiring_in(
        &self,
        caller: crate::auth::Caller,
        after: std::time::Duration,
    ) -> crate::auth::token::IssuedToken {
        use crate::domain::Role;
        let state = &self.server.state;
        let version = state
            .sessions
            .current(caller.role, caller.account_id)
            .await
            .expect("read the token version")
            .expect("the account exists");
        let lifetime = match caller.role {
            Role::Admin => state.config.admin_session_ttl(),
            Role::Customer | Role::Professional => state.config.session_ttl(),
        };
        let issued_at = std::time::SystemTime::now() + after - lifetime;
        state
            .tokens
            .issue_at(caller, version, issued_at)
            .expect("token")
    }

    /// A membership payment of `payer_id` waiting for 3-D Secure (the 4000 0025 0000 3155
    /// card), made in the server's ledger on the offline test gateway whatever gateway the
    /// server itself uses (a Stripe-mode server's webhooks and refusals read the ledger only).
    pub async fn pending_membership_payment(
        &self,
        payer_id: uuid::Uuid,
    ) -> crate::billing::Payment {
        use crate::{
            billing::{Ledger, Purpose, StartPayment, Timing, sale::Sale},
            domain::{Cents, Currency, Money},
            providers::payments::{
                IdempotencyKey, PaymentMethodRef, SystemClock, test_gateway::TestGateway,
            },
        };
        use std::sync::Arc;
        let db = self.server.state.db.clone();
        let ledger = Ledger::new(
            db.clone(),
            Arc::new(TestGateway::new(db, Arc::new(SystemClock))),
        );
        ledger
            .start(&StartPayment {
                purpose: Purpose::Membership,
                payer_id,
                sale: Sale::untaxed(Money::new(Cents::new(2999).expect("cents"), Currency::Cad)),
                payment_method: PaymentMethodRef::parse("4000 0025 0000 3155").expect("card"),
                timing: Timing::Now,
                request_id: IdempotencyKey::new(uuid::Uuid::new_v4()),
            })
            .await
            .expect("pending membership payment")
    }

    pub fn data_dir(&self) -> &Path {
        self.data_dir.path()
    }

    pub async fn stop(self) {
        self.server.stop().await.expect("server stops cleanly");
        self.database.drop_database().await;
        if let Some((count, first)) = crate::store::transaction::second_connections() {
            panic!(
                "{count} time(s) a task holding a transaction took a second database connection, at:\n{first}"
            );
        }
    }
}

/// Makes every insert into `table` fail, as a full disk or a lost connection would, until
/// [`repair_inserts`].
pub async fn break_inserts(db: &sqlx::PgPool, table: &str) {
    sqlx::query(
        "create or replace function refuse_insert() returns trigger as $$
         begin raise exception 'insert refused'; end $$ language plpgsql",
    )
    .execute(db)
    .await
    .expect("create refuse_insert()");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "create trigger refuse_insert before insert on {table}
         for each row execute function refuse_insert()"
    )))
    .execute(db)
    .await
    .expect("create the refuse_insert trigger");
}

pub async fn repair_inserts(db: &sqlx::PgPool, table: &str) {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "drop trigger refuse_insert on {table}"
    )))
    .execute(db)
    .await
    .expect("drop the refuse_insert trigger");
}
