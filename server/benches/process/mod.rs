//! The server binary as a process of its own, for the benchmarks that measure what the
//! server alone takes (its resident set, from /proc), apart from the clients driving it.

use std::{
    collections::BTreeMap,
    path::Path,
    process::Stdio,
    time::{Duration, Instant},
};

use tokio::process::Child;
use tonic::transport::Channel;

use super::common;

pub struct ServerProcess {
    child: Child,
    url: String,
    /// Redis URL and key prefix, when the server uses Redis.
    #[allow(dead_code, reason = "the load test reads it, not every benchmark")]
    pub redis: Option<(String, String)>,
    /// Its database in the test Postgres, when it does not run its own cluster.
    pub database: Option<common::TestDatabase>,
    _data_dir: tempfile::TempDir,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl ServerProcess {
    /// Starts `binary` on free ports of 127.0.0.1: on the test Postgres (a database of its
    /// own) and Redis, or, `embedded`, on its own cluster and in-process cache; `settings`
    /// are more environment variables. Waits until it listens.
    pub async fn start(binary: &Path, embedded: bool, settings: &[(&str, &str)]) -> Self {
        // Under target/: as root, the embedded cluster runs as `postgres`, which cannot enter
        // a 0700 temporary folder.
        let data_dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let grpc_port = free_port();
        let mut command = tokio::process::Command::new(binary);
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("DATA_DIR", data_dir.path())
            .env("GRPC_ADDR", format!("127.0.0.1:{grpc_port}"))
            .env("HTTP_ADDR", format!("127.0.0.1:{}", free_port()))
            .env("LOG_FORMAT", "json")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .envs(settings.iter().copied())
            .kill_on_drop(true);
        let (redis, database) = if embedded {
            std::fs::set_permissions(
                data_dir.path(),
                std::os::unix::fs::PermissionsExt::from_mode(0o755),
            )
            .unwrap();
            (None, None)
        } else {
            let database = common::TestDatabase::create().await;
            let prefix = format!("load:{}:", uuid::Uuid::now_v7());
            let redis_url = common::test_redis_url();
            command
                .env("DATABASE_URL", &database.url)
                .env("REDIS_URL", &redis_url)
                .env("CACHE_PREFIX", &prefix)
                .env(
                    "JWT_SECRET",
                    format!("load-test-secret-{}", uuid::Uuid::now_v7()),
                );
            (Some((redis_url, prefix)), Some(database))
        };
        let child = command.spawn().expect("the server binary starts");
        let url = format!("http://127.0.0.1:{grpc_port}");
        let started = Instant::now();
        while Channel::from_shared(url.clone())
            .unwrap()
            .connect()
            .await
            .is_err()
        {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the server did not listen within 60 s"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Self {
            child,
            url,
            redis,
            database,
            _data_dir: data_dir,
        }
    }

    /// A connection to its gRPC listener.
    pub async fn channel(&self) -> Channel {
        Channel::from_shared(self.url.clone())
            .unwrap()
            .connect()
            .await
            .unwrap()
    }

    /// Resident set and its peak, in MB, from /proc.
    pub fn memory(&self) -> (f64, f64) {
        let pid = self.child.id().unwrap();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let kb = |field: &str| -> f64 {
            status
                .lines()
                .find_map(|line| line.strip_prefix(field))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|n| n.parse::<f64>().ok())
                .unwrap_or(f64::NAN)
        };
        (kb("VmRSS:") / 1024.0, kb("VmHWM:") / 1024.0)
    }

    /// Stops the server as Ctrl-C would (it stops its Postgres cluster on the way out).
    pub async fn stop(mut self) {
        let pid = self.child.id().unwrap().to_string();
        let _ = tokio::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .await;
        if tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
        if let Some(database) = &self.database {
            database.drop_database().await;
        }
    }
}

/// Answers counted by what they were: "OK", or the code and the reason.
pub fn tally(answers: Vec<Result<(), tonic::Status>>) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for answer in answers {
        let key = match answer {
            Ok(()) => "OK".to_owned(),
            Err(status) => format!("{:?} {}", status.code(), common::reason(&status)),
        };
        *counts.entry(key).or_default() += 1;
    }
    counts
}
