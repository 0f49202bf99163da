//! moto, an S3 server for tests (a dev tool, run only here), started on 127.0.0.1 by a test
//! and stopped by it. `scripts/test.sh` installs it into `target/moto-venv`; `MOTO_SERVER`
//! names another `moto_server`.

use std::{path::PathBuf, process::Stdio, time::Duration};

use repairs_server::providers::storage::S3Config;
use tokio::process::{Child, Command};

use super::free_port;

pub struct Moto {
    child: Child,
    pub endpoint: String,
}

impl Moto {
    pub async fn start() -> Self {
        let program = std::env::var_os("MOTO_SERVER")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("../target/moto-venv/bin/moto_server")
            });
        assert!(
            program.exists(),
            "no moto_server at {program:?}: run the tests with `make test`, or set MOTO_SERVER"
        );
        let port = free_port();
        let child = Command::new(program)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start moto_server");
        let endpoint = format!("http://127.0.0.1:{port}");
        let http = reqwest::Client::new();
        for _ in 0..300 {
            if http.get(&endpoint).send().await.is_ok() {
                return Self { child, endpoint };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("moto_server did not start on port {port}");
    }

    /// A new, empty bucket.
    pub async fn bucket(&self) -> String {
        let name = format!("files-{}", uuid::Uuid::now_v7().simple());
        let status = reqwest::Client::new()
            .put(format!("{}/{name}", self.endpoint))
            .send()
            .await
            .unwrap()
            .status();
        assert!(status.is_success(), "creating bucket {name}: {status}");
        name
    }

    /// The adapter's settings for `bucket` on this server.
    pub fn config(&self, bucket: &str) -> S3Config {
        S3Config {
            bucket: bucket.to_owned(),
            endpoint: Some(self.endpoint.clone()),
            region: Some("ca-central-1".to_owned()),
            access_key_id: Some("test".to_owned()),
            secret_access_key: Some("test".to_owned()),
            allow_http: true,
        }
    }

    /// Sets a server's configuration to keep its files in `bucket`.
    pub fn configure(&self, config: &mut repairs_server::config::Config, bucket: &str) {
        let s3 = self.config(bucket);
        let deployment = &mut config.deployment;
        deployment.files_bucket = Some(s3.bucket);
        deployment.aws_endpoint_url = s3.endpoint;
        deployment.aws_region = s3.region;
        deployment.aws_access_key_id = s3.access_key_id;
        deployment.aws_secret_access_key = s3.secret_access_key;
        deployment.aws_allow_http = true;
    }

    pub async fn stop(mut self) {
        self.child.kill().await.expect("stop moto_server");
    }
}
