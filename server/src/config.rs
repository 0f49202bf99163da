//! Server configuration: every setting is an environment variable and a flag of the same
//! meaning (`--help` lists them). Nothing secret has a built-in default.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use clap::{Args, Parser, Subcommand};

/// The repair marketplace's gRPC server.
#[derive(Debug, Parser)]
#[command(name = "repairs-server", version, about)]
pub struct Cli {
    #[command(flatten)]
    pub config: Config,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve gRPC (the default).
    Serve,
    /// Apply the database migrations and exit.
    Migrate,
    /// Create an administrator account (password from ADMIN_PASSWORD or standard input).
    CreateAdmin {
        /// The admin's email.
        #[arg(long)]
        email: String,
        /// The admin's display name.
        #[arg(long, default_value = "Administrator")]
        name: String,
    },
}

#[derive(Debug, Clone, Args)]
pub struct Config {
    /// Address of the gRPC (and gRPC-web) listener.
    #[arg(long, env = "GRPC_ADDR", default_value = "127.0.0.1:50051")]
    pub grpc_addr: SocketAddr,

    /// Folder for local state: the embedded Postgres cluster, the generated token secret,
    /// uploaded files and the SMS/email outbox.
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// Postgres connection URL. When unset, the server runs its own cluster in the data dir.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,

    /// Folder holding initdb, pg_ctl and postgres, for the embedded cluster. Found
    /// automatically when unset.
    #[arg(long, env = "PG_BIN_DIR")]
    pub pg_bin_dir: Option<PathBuf>,

    /// Redis URL for codes, counters and cached distances. When unset, an in-process cache
    /// with the same semantics is used (fine for one server process).
    #[arg(long, env = "REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<String>,

    /// Prefix of every cache key, so several deployments can share one Redis.
    #[arg(long, env = "CACHE_PREFIX", default_value = "repairs:")]
    pub cache_prefix: String,

    /// Secret for signing session tokens (at least 32 bytes). Required with DATABASE_URL;
    /// in the embedded default it is generated once and kept in the data dir.
    #[arg(long, env = "JWT_SECRET", hide_env_values = true)]
    pub jwt_secret: Option<String>,

    /// Lifetime of customer and professional sessions, in seconds.
    #[arg(long, env = "SESSION_TTL_SECS", default_value_t = 3600)]
    pub session_ttl_secs: u64,

    /// Lifetime of admin sessions, in seconds.
    #[arg(long, env = "ADMIN_SESSION_TTL_SECS", default_value_t = 8 * 3600)]
    pub admin_session_ttl_secs: u64,

    /// Email of an admin to create at start if missing (with ADMIN_PASSWORD).
    #[arg(long, env = "ADMIN_EMAIL")]
    pub admin_email: Option<String>,

    /// Password of the admin created at start (with ADMIN_EMAIL).
    #[arg(long, env = "ADMIN_PASSWORD", hide_env_values = true)]
    pub admin_password: Option<String>,

    /// Log format: text or json.
    #[arg(long, env = "LOG_FORMAT", default_value = "text")]
    pub log_format: LogFormat,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

impl Config {
    pub fn session_ttl(&self) -> Duration {
        Duration::from_secs(self.session_ttl_secs)
    }

    pub fn admin_session_ttl(&self) -> Duration {
        Duration::from_secs(self.admin_session_ttl_secs)
    }

    pub fn outbox_dir(&self) -> PathBuf {
        self.data_dir.join("outbox")
    }

    /// A configuration for tests: everything explicit, nothing read from the environment.
    pub fn for_tests(data_dir: PathBuf, database_url: String, redis_url: Option<String>) -> Self {
        Self {
            grpc_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            data_dir,
            database_url: Some(database_url),
            pg_bin_dir: None,
            redis_url,
            cache_prefix: format!("test:{}:", uuid::Uuid::now_v7()),
            jwt_secret: Some(format!("test-secret-{}", uuid::Uuid::now_v7())),
            session_ttl_secs: 3600,
            admin_session_ttl_secs: 8 * 3600,
            admin_email: None,
            admin_password: None,
            log_format: LogFormat::Text,
        }
    }
}
