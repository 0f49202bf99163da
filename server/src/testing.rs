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

pub mod local_server;
pub mod native_push;
pub mod photos;
pub mod push_service;
pub mod scrape;

pub use local_server::LocalServer;

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

/// A database of its own for one test, dropped by [`TestServer::stop`].
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
        sqlx::query(sqlx::AssertSqlSafe(format!("create database {name}")))
            .execute(&mut conn)
            .await
            .expect("create test database");
        let url = replace_database(&admin_url, &name);
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

fn replace_database(url: &str, database: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let base = base.rsplit_once('/').map_or(base, |(head, _)| head);
    match query {
        Some(q) => format!("{base}/{database}?{q}"),
        None => format!("{base}/{database}"),
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
            billing::{Ledger, Purpose, StartPayment, Timing},
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
                amount: Money::new(Cents::new(2999).expect("cents"), Currency::Eur),
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

/// The password of the accounts [`sign_up`] makes.
pub const TEST_PASSWORD: &str = "correct horse";

pub type AccountsClient =
    repairs_proto::accounts::accounts_service_client::AccountsServiceClient<Channel>;

/// An account made through AccountsService, and its first session.
pub struct SignedUp {
    pub id: String,
    /// The access token.
    pub token: String,
    /// The session's refresh token.
    pub refresh: String,
}

/// Signs up "Ana Lopez" with `email` and [`TEST_PASSWORD`], in English.
pub async fn sign_up(
    client: &mut AccountsClient,
    role: repairs_proto::accounts::Role,
    email: &str,
) -> SignedUp {
    let english = repairs_proto::types::Language::En;
    sign_up_as(client, role, "Ana Lopez", email, english).await
}

/// Signs up with this name and language, and [`TEST_PASSWORD`].
pub async fn sign_up_as(
    client: &mut AccountsClient,
    role: repairs_proto::accounts::Role,
    name: &str,
    email: &str,
    language: repairs_proto::types::Language,
) -> SignedUp {
    let session = client
        .sign_up(repairs_proto::accounts::SignUpRequest {
            role: role as i32,
            name: name.into(),
            email: email.into(),
            password: TEST_PASSWORD.into(),
            language: language as i32,
        })
        .await
        .expect("sign-up")
        .into_inner()
        .session
        .expect("a session");
    SignedUp {
        id: session.account_id,
        token: session.access_token,
        refresh: session.refresh_token,
    }
}

pub async fn log_in(
    client: &mut AccountsClient,
    role: repairs_proto::accounts::Role,
    email: &str,
    password: &str,
) -> Result<repairs_proto::accounts::LogInResponse, tonic::Status> {
    client
        .log_in(repairs_proto::accounts::LogInRequest {
            role: role as i32,
            email: email.into(),
            password: password.into(),
        })
        .await
        .map(tonic::Response::into_inner)
}

/// The token of a sign-in that must succeed.
pub async fn session_token(
    client: &mut AccountsClient,
    role: repairs_proto::accounts::Role,
    email: &str,
    password: &str,
) -> String {
    log_in(client, role, email, password)
        .await
        .expect("sign-in")
        .session
        .expect("a session")
        .access_token
}

/// A profile that saves: Calgary, weekdays, one service.
pub fn valid_profile(service_id: &str) -> repairs_proto::accounts::ProfessionalProfile {
    repairs_proto::accounts::ProfessionalProfile {
        description: "Licensed plumber, 24/7 emergencies.".into(),
        registered_address: "100 9 Ave SW, Calgary AB".into(),
        home_base: Some(repairs_proto::types::Address {
            line1: "100 9 Ave SW".into(),
            line2: String::new(),
            city: "Calgary".into(),
            province: "ab".into(),
            postal_code: "t2p1j9".into(),
            country: "CA".into(),
        }),
        available_days: vec![1, 2, 3, 4, 5],
        available_from: "07:00".into(),
        available_to: "22:00".into(),
        time_zone: String::new(),
        radius_km: 50,
        service_ids: vec![service_id.into()],
        qualification: "Red Seal".into(),
        experience: repairs_proto::accounts::Experience::Experience5To10 as i32,
        minimum_fee: Some(repairs_proto::types::Money {
            amount_cents: 3000,
            currency: "CAD".into(),
        }),
        emergencies_any_hour: false,
    }
}

/// Resets the password of account `account_id` (`role`, `email`) to `new_password` through
/// the emailed link, as a person does: the sessions issued before it end.
pub async fn reset_password(
    server: &TestServer,
    client: &mut AccountsClient,
    role: repairs_proto::accounts::Role,
    (account_id, email): (&str, &str),
    new_password: &str,
) {
    use repairs_proto::accounts::{RequestPasswordResetRequest, ResetPasswordRequest};
    client
        .request_password_reset(RequestPasswordResetRequest {
            role: role as i32,
            email: email.into(),
        })
        .await
        .expect("a reset link is sent");
    // Customers' links open /reset-password/, professionals' /prof-reset-password/.
    let mail = wait_for_message(
        server.data_dir(),
        "email.jsonl",
        email,
        "reset-password/",
        1,
    )
    .await;
    let link = mail["body"]
        .as_str()
        .and_then(|body| {
            body.split_whitespace()
                .find(|word| word.contains("reset-password/"))
        })
        .expect("the email holds the link");
    client
        .reset_password(ResetPasswordRequest {
            role: role as i32,
            account_id: account_id.into(),
            token: link.rsplit('/').next().unwrap_or_default().into(),
            new_password: new_password.into(),
        })
        .await
        .expect("the password is reset");
}

/// A small PDF that passes the upload checks.
pub const PDF: &[u8] = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";

/// Professional `professional_id`'s upload of a licence for plumbing ([`PDF`]), as `token`.
pub fn licence_upload(
    professional_id: &str,
    token: &str,
) -> tonic::Request<repairs_proto::accounts::AddLicenceRequest> {
    with_token(
        repairs_proto::accounts::AddLicenceRequest {
            professional_id: professional_id.into(),
            label: "Plumbing".into(),
            file_name: "licence.pdf".into(),
            content_type: "application/pdf".into(),
            content: PDF.to_vec(),
        },
        token,
    )
}

/// The start of a PNG, enough for the upload checks.
pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

/// Adds `authorization: Bearer <token>` to a request.
pub fn with_token<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("header value"),
    );
    request
}

/// The JSON lines a local stand-in wrote to `<data dir>/outbox/<file>`.
pub fn outbox(data_dir: &Path, file: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(data_dir.join("outbox").join(file))
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("outbox lines are JSON"))
        .collect()
}

/// Waits (up to 10 s) until the outbox worker has delivered `count` messages to `to` whose
/// body contains `containing` ("" for any) in an outbox file, and returns the last of them.
/// Polls `check` every 10 ms until it gives a value, for up to `secs`; then fails with what
/// it said last.
pub async fn poll<T>(secs: u64, mut check: impl FnMut() -> Result<T, String>) -> T {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        match check() {
            Ok(value) => return value,
            Err(why) => assert!(
                tokio::time::Instant::now() < deadline,
                "{why} after {secs} s"
            ),
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// Waits (up to `secs`) until `received` gives `count` items (`what` they are); fails
/// naming what `refused` says.
pub async fn wait_for_count<T, R: std::fmt::Debug>(
    secs: u64,
    count: usize,
    what: &str,
    received: impl Fn() -> Vec<T>,
    refused: impl Fn() -> R,
) -> Vec<T> {
    poll(secs, || {
        let got = received();
        if got.len() >= count {
            Ok(got)
        } else {
            Err(format!(
                "{} of {count} {what}; refused: {:?}",
                got.len(),
                refused()
            ))
        }
    })
    .await
}

/// Messages are sent after the call that wrote them has answered, so tests wait for them
/// rather than read the file at once.
pub async fn wait_for_message(
    data_dir: &Path,
    file: &str,
    to: &str,
    containing: &str,
    count: usize,
) -> serde_json::Value {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let mut sent: Vec<_> = outbox(data_dir, file)
            .into_iter()
            .filter(|m| m["to"] == to)
            .filter(|m| m["body"].as_str().is_some_and(|b| b.contains(containing)))
            .collect();
        if sent.len() >= count {
            return sent.pop().expect("at least one message");
        }
        if tokio::time::Instant::now() > deadline {
            panic!(
                "{} of {count} messages to {to} in {file} after 10 s",
                sent.len()
            );
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Waits (up to 10 s) until the outbox holds nothing left to deliver.
pub async fn wait_until_outbox_idle(db: &sqlx::PgPool) {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    while crate::store::outbox::pending_count(db)
        .await
        .expect("count pending outbox messages")
        > 0
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the outbox was not delivered within 10 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// The last message sent to `to` in an outbox file, as it is now.
pub fn last_message_to(data_dir: &Path, file: &str, to: &str) -> Option<serde_json::Value> {
    outbox(data_dir, file)
        .into_iter()
        .rev()
        .find(|m| m["to"] == to)
}

/// The `ErrorInfo.reason` of a status, or "" when it has none.
pub fn reason(status: &tonic::Status) -> String {
    use tonic_types::StatusExt;
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

/// The fields named in a status's `BadRequest` violations.
pub fn violated_fields(status: &tonic::Status) -> Vec<String> {
    use tonic_types::StatusExt;
    status
        .get_details_bad_request()
        .map(|bad| bad.field_violations.into_iter().map(|v| v.field).collect())
        .unwrap_or_default()
}

/// Creates the admin admin@example.ca ("admin password") and returns a session token.
pub async fn admin_token(server: &TestServer, client: &mut AccountsClient) -> String {
    crate::bootstrap::create_admin(
        &server.server.state.db,
        "admin@example.ca",
        "Admin",
        "admin password",
    )
    .await
    .expect("admin created");
    let admin = repairs_proto::accounts::Role::Admin;
    session_token(client, admin, "ADMIN@example.ca", "admin password").await
}

/// A professional's quote of `cents` CAD and 90 minutes on request `repair_request_id`.
pub async fn send_quote(
    server: &TestServer,
    token: &str,
    repair_request_id: &str,
    cents: i64,
) -> repairs_proto::marketplace::Quote {
    use repairs_proto::marketplace::{
        CreateQuoteRequest, marketplace_service_client::MarketplaceServiceClient,
    };
    MarketplaceServiceClient::new(server.channel().await)
        .create_quote(with_token(
            CreateQuoteRequest {
                repair_request_id: repair_request_id.to_owned(),
                estimated_minutes: 90,
                fee: Some(repairs_proto::types::Money {
                    amount_cents: cents,
                    currency: "CAD".to_owned(),
                }),
                surge: false,
            },
            token,
        ))
        .await
        .expect("the quote is sent")
        .into_inner()
        .quote
        .expect("a quote")
}
