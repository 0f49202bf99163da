//! The real server behind a BFF, for the end-to-end legacy tests: a fresh database in the test
//! Postgres (`TEST_DATABASE_URL`), the test Redis (`TEST_REDIS_URL`) under a key prefix of its
//! own, a temporary data directory (outbox files included), listeners on 127.0.0.1 port 0.
//! (The few lines of server/tests/common it needs, copied.)

use std::path::Path;

use repairs_server::RunningServer;
use repairs_server::config::Config;
use sqlx::{Connection, PgConnection};

use super::Bff;

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!("{name} is not set: run the tests with `make test` (or `source /tmp/devenv`)")
    })
}

/// `url` with its database name replaced.
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

async fn admin_connection() -> PgConnection {
    PgConnection::connect(&env("TEST_DATABASE_URL"))
        .await
        .expect("connect to TEST_DATABASE_URL")
}

/// A server on a database of its own, and a BFF in front of it (gRPC and files).
pub struct Stack {
    pub server: RunningServer,
    pub bff: Bff,
    database: String,
    data_dir: tempfile::TempDir,
    pub http: reqwest::Client,
}

impl Stack {
    pub async fn start() -> Self {
        let database = format!("test_{}", uuid::Uuid::now_v7().simple());
        let mut conn = admin_connection().await;
        sqlx::query(sqlx::AssertSqlSafe(format!("create database {database}")))
            .execute(&mut conn)
            .await
            .expect("create test database");
        let data_dir = tempfile::tempdir().expect("temp dir");
        let config = Config::for_tests(
            data_dir.path().to_path_buf(),
            replace_database(&env("TEST_DATABASE_URL"), &database),
            Some(env("TEST_REDIS_URL")),
        );
        let server = repairs_server::start(config).await.expect("server starts");
        let server_url = format!("http://{}", server.grpc_addr);
        let files_url = format!("http://{}", server.http_addr);
        let bff = Bff::start(
            Some(&server_url),
            super::NO_WEB,
            &["--files-url", &files_url],
        )
        .await;
        Self {
            server,
            bff,
            database,
            data_dir,
            http: reqwest::Client::new(),
        }
    }

    pub fn data_dir(&self) -> &Path {
        self.data_dir.path()
    }

    pub fn url(&self, path: &str) -> String {
        self.bff.url(path)
    }

    /// Creates an admin straight in the database (there is no sign-up for admins).
    pub async fn create_admin(&self, email: &str, password: &str) {
        repairs_server::bootstrap::create_admin(
            &self.server.state.db,
            email,
            "Ada Admin",
            password,
        )
        .await
        .expect("create admin");
    }

    pub async fn stop(self) {
        self.bff.stop().await;
        self.server.stop().await.expect("server stops cleanly");
        let mut conn = admin_connection().await;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "drop database if exists {} with (force)",
            self.database
        )))
        .execute(&mut conn)
        .await
        .expect("drop test database");
    }
}

/// The JSON lines a local stand-in wrote to `<data dir>/outbox/<file>`.
pub fn outbox(data_dir: &Path, file: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(data_dir.join("outbox").join(file))
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("outbox lines are JSON"))
        .collect()
}

/// The last message sent to `to` in an outbox file.
pub fn last_message_to(data_dir: &Path, file: &str, to: &str) -> Option<serde_json::Value> {
    outbox(data_dir, file)
        .into_iter()
        .rev()
        .find(|m| m["to"] == to)
}
