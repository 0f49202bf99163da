//! Settings of a server run as several replicas: where files live (one S3-compatible bucket
//! for all, or the embedded default's local folder), whether this process may be the only
//! one without Redis, and how its readiness is checked.

use clap::Args;

#[derive(Debug, Clone, Args)]
pub struct Deployment {
    /// S3 bucket for stored files (licences, photos, icons), shared by every replica. Unset:
    /// files live in DATA_DIR/files, which only one server process can use. The store is
    /// reached with the standard AWS_* variables (AWS_ENDPOINT_URL for an S3-compatible
    /// server, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_ALLOW_HTTP, and the
    /// others AWS tools read, such as AWS_SESSION_TOKEN).
    #[arg(long, env = "FILES_BUCKET")]
    pub files_bucket: Option<String>,

    /// Address of an S3-compatible server (MinIO, Ceph, a cloud's S3 API), with FILES_BUCKET.
    /// Unset: AWS S3 in AWS_REGION.
    #[arg(long, env = "AWS_ENDPOINT_URL")]
    pub aws_endpoint_url: Option<String>,

    /// The bucket's region, with FILES_BUCKET.
    #[arg(long, env = "AWS_REGION")]
    pub aws_region: Option<String>,

    /// Access key id for FILES_BUCKET (unset: other AWS credentials, such as a web identity).
    #[arg(long, env = "AWS_ACCESS_KEY_ID")]
    pub aws_access_key_id: Option<String>,

    /// Secret access key for FILES_BUCKET, with AWS_ACCESS_KEY_ID.
    #[arg(long, env = "AWS_SECRET_ACCESS_KEY", hide_env_values = true)]
    pub aws_secret_access_key: Option<String>,

    /// Allows a plain-HTTP AWS_ENDPOINT_URL (a store on the same machine or network).
    #[arg(long, env = "AWS_ALLOW_HTTP", default_value_t = false, num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set, value_parser = clap::builder::BoolishValueParser::new())]
    pub aws_allow_http: bool,

    /// This is the only server process: allows DATABASE_URL without REDIS_URL, where codes,
    /// limits and caches live in this process alone. Without it such a start is refused.
    #[arg(long, env = "SINGLE_REPLICA", default_value_t = false, num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set, value_parser = clap::builder::BoolishValueParser::new())]
    pub single_replica: bool,

    /// How often readiness (`/readyz`, gRPC health) checks that Postgres and Redis answer, in
    /// milliseconds (each within a second).
    #[arg(long, env = "READINESS_CHECK_MS", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(100..=60_000))]
    pub readiness_check_ms: u64,

    /// On SIGTERM, how long the server keeps serving while NOT_SERVING before it stops
    /// accepting calls and ends its streams, in milliseconds: time for load balancers to see
    /// the change (some 5000 behind one; 0, the default, stops at once).
    #[arg(long, env = "DRAIN_DELAY_MS", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=120_000))]
    pub drain_delay_ms: u64,
}

impl Deployment {
    /// Local files, no Redis requirement waived, checks every 2 s.
    pub fn for_tests() -> Self {
        Self {
            files_bucket: None,
            aws_endpoint_url: None,
            aws_region: None,
            aws_access_key_id: None,
            aws_secret_access_key: None,
            aws_allow_http: false,
            single_replica: false,
            readiness_check_ms: 2000,
            drain_delay_ms: 0,
        }
    }
}

impl super::Config {
    /// Refuses what would break quietly across replicas: a shared database with codes,
    /// limits and caches kept in each process.
    pub fn check_replicas(&self) -> anyhow::Result<()> {
        if self.database_url.is_some()
            && self.redis_url.is_none()
            && !self.deployment.single_replica
        {
            anyhow::bail!(
                "DATABASE_URL is set but REDIS_URL is not: each server process would keep its own \
                 phone codes, sign-in limits and caches, so replicas would disagree. Set REDIS_URL \
                 to a Redis every replica shares, or SINGLE_REPLICA=true if this is the only \
                 server process."
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::config::Cli;

    fn config(args: &[&str]) -> crate::config::Config {
        Cli::try_parse_from([&["repairs-server"], args].concat())
            .unwrap()
            .config
    }

    #[test]
    fn a_shared_database_needs_redis_or_single_replica() {
        let refused = config(&["--database-url", "postgres://db/repairs"])
            .check_replicas()
            .unwrap_err()
            .to_string();
        assert!(refused.contains("REDIS_URL"), "{refused}");
        assert!(refused.contains("SINGLE_REPLICA=true"), "{refused}");
        for allowed in [
            &[
                "--database-url",
                "postgres://db/r",
                "--redis-url",
                "redis://r",
            ][..],
            &["--database-url", "postgres://db/r", "--single-replica"],
            &[
                "--database-url",
                "postgres://db/r",
                "--single-replica",
                "true",
            ],
            &[],
        ] {
            assert!(config(allowed).check_replicas().is_ok(), "{allowed:?}");
        }
        let no = config(&[
            "--database-url",
            "postgres://db/r",
            "--single-replica",
            "false",
        ]);
        assert!(no.check_replicas().is_err());
    }
}
