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

    /// Address of the plain HTTP listener: signed file downloads (`/files/...`) and `/healthz`.
    #[arg(long, env = "HTTP_ADDR", default_value = "127.0.0.1:50052")]
    pub http_addr: SocketAddr,

    /// Folder for local state: the embedded Postgres cluster, the generated token secret,
    /// uploaded files and the SMS/email outbox.
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// Postgres connection URL. When unset, the server runs its own cluster in the data dir.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,

    /// How long a call waits for a database connection before failing as UNAVAILABLE.
    #[arg(long, env = "DATABASE_ACQUIRE_TIMEOUT_MS", default_value_t = 3000)]
    pub database_acquire_timeout_ms: u64,

    /// Database connections kept open even when the server is quiet (idle ones beyond these
    /// close after 30 minutes).
    #[arg(long, env = "DATABASE_MIN_CONNECTIONS", default_value_t = 2)]
    pub database_min_connections: u32,

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

    /// The web address people open, used in links sent by email (password reset, ...).
    #[arg(long, env = "PUBLIC_URL", default_value = "http://127.0.0.1:8080")]
    pub public_url: String,

    /// Google OAuth client ids whose ID tokens are accepted (comma-separated). Unset: Google
    /// sign-in is off.
    #[arg(long, env = "GOOGLE_CLIENT_IDS", value_delimiter = ',')]
    pub google_client_ids: Vec<String>,

    /// Where Google publishes its signing keys (JWKS).
    #[arg(
        long,
        env = "GOOGLE_JWKS_URL",
        default_value = "https://www.googleapis.com/oauth2/v3/certs"
    )]
    pub google_jwks_url: String,

    /// Facebook app id. Unset: Facebook login is off.
    #[arg(long, env = "FACEBOOK_APP_ID")]
    pub facebook_app_id: Option<String>,

    /// Facebook app secret (to check access tokens with the Graph API).
    #[arg(long, env = "FACEBOOK_APP_SECRET", hide_env_values = true)]
    pub facebook_app_secret: Option<String>,

    /// Base URL of the Facebook Graph API.
    #[arg(
        long,
        env = "FACEBOOK_GRAPH_URL",
        default_value = "https://graph.facebook.com/v23.0"
    )]
    pub facebook_graph_url: String,

    /// Twilio account SID. Unset: text messages go to the outbox file.
    #[arg(long, env = "TWILIO_ACCOUNT_SID")]
    pub twilio_account_sid: Option<String>,

    /// Twilio auth token.
    #[arg(long, env = "TWILIO_AUTH_TOKEN", hide_env_values = true)]
    pub twilio_auth_token: Option<String>,

    /// The number (E.164) or messaging service SID (MG...) texts are sent from.
    #[arg(long, env = "TWILIO_FROM")]
    pub twilio_from: Option<String>,

    /// Base URL of Twilio's REST API.
    #[arg(
        long,
        env = "TWILIO_BASE_URL",
        default_value = "https://api.twilio.com"
    )]
    pub twilio_base_url: String,

    /// SMTP server host. Unset: email goes to the outbox file.
    #[arg(long, env = "SMTP_HOST")]
    pub smtp_host: Option<String>,

    /// SMTP port (default: by SMTP_TLS, 587 for starttls, 465 for tls, 25 for none).
    #[arg(long, env = "SMTP_PORT")]
    pub smtp_port: Option<u16>,

    /// SMTP user name.
    #[arg(long, env = "SMTP_USERNAME")]
    pub smtp_username: Option<String>,

    /// SMTP password.
    #[arg(long, env = "SMTP_PASSWORD", hide_env_values = true)]
    pub smtp_password: Option<String>,

    /// SMTP transport security: starttls, tls or none.
    #[arg(long, env = "SMTP_TLS", default_value = "starttls")]
    pub smtp_tls: String,

    /// The From address of the product's email.
    #[arg(
        long,
        env = "EMAIL_FROM",
        default_value = "Repairs <no-reply@localhost>"
    )]
    pub email_from: String,

    /// Password hashes (sign-in, sign-up, reset) run at once; 0 means one per CPU core.
    /// Each takes 19 MiB while it runs.
    #[arg(long, env = "HASHING_CONCURRENCY", default_value_t = 0)]
    pub hashing_concurrency: usize,

    /// Password hashes allowed to wait for a turn; beyond them callers are refused at once
    /// (RESOURCE_EXHAUSTED) instead of piling up.
    #[arg(long, env = "HASHING_QUEUE", default_value_t = 16)]
    pub hashing_queue: usize,

    /// Stripe's secret API key (sk_...). Unset: payments go through the offline test
    /// gateway (test mode, no money moves).
    #[arg(long, env = "STRIPE_SECRET_KEY", hide_env_values = true)]
    pub stripe_secret_key: Option<String>,

    /// Stripe's publishable key (pk_...), for Stripe Elements in the web app. Required with
    /// STRIPE_SECRET_KEY.
    #[arg(long, env = "STRIPE_PUBLISHABLE_KEY")]
    pub stripe_publishable_key: Option<String>,

    /// The signing secret (whsec_...) of the Stripe webhook endpoint.
    #[arg(long, env = "STRIPE_WEBHOOK_SECRET", hide_env_values = true)]
    pub stripe_webhook_secret: Option<String>,

    /// Base URL of Stripe's API.
    #[arg(
        long,
        env = "STRIPE_API_BASE",
        default_value = "https://api.stripe.com"
    )]
    pub stripe_api_base: String,

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

    /// How many password hashes run at once: as set, else one per core.
    pub fn hashing_workers(&self) -> usize {
        match self.hashing_concurrency {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        }
    }

    pub fn outbox_dir(&self) -> PathBuf {
        self.data_dir.join("outbox")
    }

    /// A configuration for tests: everything explicit, nothing read from the environment.
    pub fn for_tests(data_dir: PathBuf, database_url: String, redis_url: Option<String>) -> Self {
        Self {
            grpc_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            http_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            data_dir,
            database_url: Some(database_url),
            database_acquire_timeout_ms: 3000,
            database_min_connections: 1,
            pg_bin_dir: None,
            redis_url,
            cache_prefix: format!("test:{}:", uuid::Uuid::now_v7()),
            jwt_secret: Some(format!("test-secret-{}", uuid::Uuid::now_v7())),
            session_ttl_secs: 3600,
            admin_session_ttl_secs: 8 * 3600,
            admin_email: None,
            admin_password: None,
            public_url: "http://127.0.0.1:8080".to_owned(),
            google_client_ids: Vec::new(),
            google_jwks_url: String::new(),
            facebook_app_id: None,
            facebook_app_secret: None,
            facebook_graph_url: String::new(),
            twilio_account_sid: None,
            twilio_auth_token: None,
            twilio_from: None,
            twilio_base_url: String::new(),
            smtp_host: None,
            smtp_port: None,
            smtp_username: None,
            smtp_password: None,
            smtp_tls: "none".to_owned(),
            email_from: "Repairs <no-reply@localhost>".to_owned(),
            hashing_concurrency: 0,
            hashing_queue: 16,
            stripe_secret_key: None,
            stripe_publishable_key: None,
            stripe_webhook_secret: None,
            stripe_api_base: String::new(),
            log_format: LogFormat::Text,
        }
    }
}
