//! The real server behind a BFF, for the end-to-end legacy tests: a fresh database in the test
//! Postgres (`TEST_DATABASE_URL`), the test Redis (`TEST_REDIS_URL`) under a key prefix of its
//! own, a temporary data directory (outbox files included), listeners on 127.0.0.1 port 0.
//! (The harness is the server's own, `repairs_server::testing`.)

use std::path::Path;

use repairs_server::testing::TestServer;

use super::Bff;

/// A server on a database of its own, and a BFF in front of it (gRPC and files).
pub struct Stack {
    pub server: TestServer,
    pub bff: Bff,
    pub http: reqwest::Client,
}

impl Stack {
    pub async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    /// A stack whose server's test configuration `adjust` may change first.
    pub async fn start_with(adjust: impl FnOnce(&mut repairs_server::config::Config)) -> Self {
        Self::start_serving(adjust, super::NO_WEB).await
    }

    /// A stack whose BFF serves the web build in `web_dist`.
    pub async fn start_serving(
        adjust: impl FnOnce(&mut repairs_server::config::Config),
        web_dist: &str,
    ) -> Self {
        let server = TestServer::start_with(adjust).await;
        let files_url = format!("http://{}", server.server.http_addr);
        let bff = Bff::start(Some(&server.url()), web_dist, &["--files-url", &files_url]).await;
        Self {
            server,
            bff,
            http: reqwest::Client::new(),
        }
    }

    pub fn data_dir(&self) -> &Path {
        self.server.data_dir()
    }

    pub fn url(&self, path: &str) -> String {
        self.bff.url(path)
    }

    /// Creates an admin straight in the database (there is no sign-up for admins).
    pub async fn create_admin(&self, email: &str, password: &str) {
        repairs_server::bootstrap::create_admin(
            &self.server.server.state.db,
            email,
            "Ada Admin",
            password,
        )
        .await
        .expect("create admin");
    }

    pub async fn stop(self) {
        self.bff.stop().await;
        self.server.stop().await;
    }
}
