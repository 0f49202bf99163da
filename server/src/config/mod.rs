//! Server configuration: every setting is an environment variable and a flag of the same
//! meaning (`--help` lists them). Nothing secret has a built-in default.

use std::{net::SocketAddr, path::PathBuf};

use clap::Args;

mod cli;
mod deployment;
mod derived;
pub mod links;
mod values;

pub use cli::{Cli, Command};
pub use deployment::Deployment;
pub use values::*;
use values::{
    parse_duration, parse_gst_hst_number, parse_public_url, parse_qst_number, parse_trusted_proxy,
};

use crate::domain::{GstHstNumber, Language, QstNumber};

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

    /// How long a call may run before it is stopped and answered DEADLINE_EXCEEDED (a
    /// client's shorter `grpc-timeout` wins). A stream's limit covers its opening only.
    #[arg(long, env = "RPC_TIMEOUT_MS", default_value_t = 60_000)]
    pub rpc_timeout_ms: u64,

    /// How long a call waits for a database connection before failing as UNAVAILABLE.
    #[arg(long, env = "DATABASE_ACQUIRE_TIMEOUT_MS", default_value_t = 3000)]
    pub database_acquire_timeout_ms: u64,

    /// Database connections kept open even when the server is quiet (idle ones beyond these
    /// close after 30 minutes).
    #[arg(long, env = "DATABASE_MIN_CONNECTIONS", default_value_t = 2)]
    pub database_min_connections: u32,

    /// Database connections this process opens at most (every replica opens its own).
    #[arg(long, env = "DATABASE_MAX_CONNECTIONS", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub database_max_connections: u32,

    /// Database connections for one-row reads by id (public profiles), beside those above:
    /// each runs one statement at a time for every such read waiting (up to 64), and goes
    /// back as it ends, without the round trip the pool makes as it takes a connection back
    /// (`store::reads`, `store::batched`). One makes the largest batches: on two cores with
    /// Postgres beside it, more connections meant smaller batches and fewer reads a second.
    #[arg(long, env = "DATABASE_READ_CONNECTIONS", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub database_read_connections: u32,

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

    /// Lifetime of admin sessions, in seconds: their access tokens and, as admins are signed
    /// in for a working day at most, their whole sign-in (no refresh goes beyond it).
    #[arg(long, env = "ADMIN_SESSION_TTL_SECS", default_value_t = 8 * 3600)]
    pub admin_session_ttl_secs: u64,

    /// Days a customer's or professional's sign-in can be renewed with its refresh tokens,
    /// from the sign-in on; then they sign in again.
    #[arg(long, env = "SESSION_REFRESH_DAYS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=365))]
    pub session_refresh_days: u64,

    /// Email of an admin to create at start if missing (with ADMIN_PASSWORD).
    #[arg(long, env = "ADMIN_EMAIL")]
    pub admin_email: Option<String>,

    /// Password of the admin created at start (with ADMIN_EMAIL).
    #[arg(long, env = "ADMIN_PASSWORD", hide_env_values = true)]
    pub admin_password: Option<String>,

    /// The language the admin created at start reads the product's emails in: en or fr.
    #[arg(long, env = "ADMIN_LANGUAGE", default_value = "en", value_parser = parse_language)]
    pub admin_language: Language,

    /// The web address people open (the BFF), with its scheme: the base of the links sent by
    /// email and text (`links::PAGES`) and of the file links in gRPC replies.
    #[arg(long, env = "PUBLIC_URL", default_value = "http://127.0.0.1:8080", value_parser = parse_public_url)]
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

    /// Photos (of the damage, of messages) decoded and written again at once; 0 means one per
    /// CPU core. Each takes up to 4 bytes per pixel of its photo while it runs (160 MB at
    /// PHOTO_MAX_MEGAPIXELS=40).
    #[arg(long, env = "PHOTO_CONCURRENCY", default_value_t = 0)]
    pub photo_concurrency: usize,

    /// Photos allowed to wait for a turn, each holding its upload (up to 15 MiB); beyond them
    /// uploads are refused at once (RESOURCE_EXHAUSTED, reason SERVER_BUSY).
    #[arg(long, env = "PHOTO_QUEUE", default_value_t = 16)]
    pub photo_queue: usize,

    /// Largest photo accepted, in millions of pixels (PHOTO_TOO_MANY_PIXELS beyond), checked
    /// from the file's header before anything is decoded.
    #[arg(long, env = "PHOTO_MAX_MEGAPIXELS", default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub photo_max_megapixels: u32,

    /// One month of membership, in Canadian cents (2999 is 29.99 $). From Stripe's smallest
    /// charge to 1,000.00 $.
    #[arg(long, env = "MEMBERSHIP_PRICE_CENTS", default_value_t = 2999, value_parser = clap::value_parser!(i64).range(50..=100_000))]
    pub membership_price_cents: i64,

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

    /// The platform's GST/HST registration number (9 digits, RT and 4 digits:
    /// 123456789RT0001), checked at start. Set: the membership is charged GST or HST at the
    /// professional's province's rate, and receipts show the number. Unset: the platform is
    /// not registered, charges no GST/HST, and receipts say so.
    #[arg(long, env = "GST_HST_NUMBER", value_parser = parse_gst_hst_number)]
    pub gst_hst_number: Option<GstHstNumber>,

    /// The platform's Quebec sales tax (QST) registration number (10 digits, TQ and 4
    /// digits: 1234567890TQ0001), checked at start. Set: memberships of professionals based
    /// in Quebec are charged QST. Unset: no QST, and receipts say the platform is not
    /// registered for it.
    #[arg(long, env = "QST_NUMBER", value_parser = parse_qst_number)]
    pub qst_number: Option<QstNumber>,

    /// The seller's name on the membership receipts: the business the GST/HST and QST
    /// numbers are registered to.
    #[arg(long, env = "PLATFORM_LEGAL_NAME", default_value = "Repairs")]
    pub platform_legal_name: String,

    /// The platform's postal address, given with its name at the foot of every email a
    /// person may turn off (CASL asks such mail to say who sends it and how to reach them).
    #[arg(long, env = "PLATFORM_MAILING_ADDRESS", default_value = "")]
    pub platform_mailing_address: String,

    /// The platform's share of each captured hire, in percent (0 to 100); the professional
    /// is owed the rest. The fee is rounded down to the cent.
    #[arg(
        long,
        env = "PLATFORM_FEE_PERCENT",
        default_value_t = 0,
        value_parser = clap::value_parser!(u8).range(0..=100)
    )]
    pub platform_fee_percent: u8,

    /// Log format: text or json.
    #[arg(long, env = "LOG_FORMAT", default_value = "text")]
    pub log_format: LogFormat,

    /// Proxies (the BFF, a load balancer) whose `x-forwarded-for` names the client; a call
    /// from any other peer is counted against the peer's own address (comma-separated
    /// addresses or CIDR ranges: `127.0.0.1,10.0.0.0/8`).
    #[arg(
        long,
        env = "TRUSTED_PROXIES",
        value_delimiter = ',',
        default_value = "127.0.0.1,::1",
        value_parser = parse_trusted_proxy
    )]
    pub trusted_proxies: Vec<ipnet::IpNet>,

    /// How often the outbox worker looks for messages to send, in milliseconds (it is also
    /// woken at once by messages written in this process).
    #[arg(long, env = "OUTBOX_POLL_MS", default_value_t = 1000)]
    pub outbox_poll_ms: u64,

    /// Tries of an outbox message before it is parked for an admin to look at.
    #[arg(long, env = "OUTBOX_MAX_ATTEMPTS", default_value_t = 8)]
    pub outbox_max_attempts: u32,

    /// How long a worker's claim on an outbox message keeps other workers off it, in seconds:
    /// longer than any provider call. A worker that dies mid-send leaves its messages to the
    /// others after this long.
    #[arg(long, env = "OUTBOX_LEASE_SECS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub outbox_lease_secs: u64,

    /// Wait before the second try of a failed message, in milliseconds; doubled at each
    /// further try, up to an hour.
    #[arg(long, env = "OUTBOX_RETRY_BASE_MS", default_value_t = 5000)]
    pub outbox_retry_base_ms: u64,

    /// Days between a person closing their account and its erasure, while the emailed link
    /// can still keep it (RequestAccountDeletion).
    #[arg(
        long,
        env = "ACCOUNT_DELETION_GRACE_DAYS",
        default_value_t = 14,
        value_parser = clap::value_parser!(u32).range(0..=365)
    )]
    pub account_deletion_grace_days: u32,

    /// Months the photos and messages of a request stay after it closed (cancelled, expired
    /// or completed); then the housekeeping pass erases them (`crate::retention`).
    #[arg(
        long,
        env = "RETENTION_REQUEST_MONTHS",
        default_value_t = 24,
        value_parser = clap::value_parser!(u32).range(1..=120)
    )]
    pub retention_request_months: u32,

    /// Days sent (or expired) emails and texts stay in the outbox before the housekeeping pass
    /// erases them (`crate::retention`).
    #[arg(
        long,
        env = "RETENTION_OUTBOX_DAYS",
        default_value_t = 30,
        value_parser = clap::value_parser!(u32).range(1..=3650)
    )]
    pub retention_outbox_days: u32,

    /// How often expired reset links and old outbox rows are purged, in seconds.
    #[arg(long, env = "PURGE_INTERVAL_SECS", default_value_t = 3600)]
    pub purge_interval_secs: u64,

    /// Password-reset emails asked for one email address per hour.
    #[arg(long, env = "PASSWORD_RESET_PER_EMAIL_PER_HOUR", default_value_t = 3)]
    pub password_reset_per_email_per_hour: u32,

    /// Password resets asked from one client address per hour.
    #[arg(
        long,
        env = "PASSWORD_RESET_PER_ADDRESS_PER_HOUR",
        default_value_t = 20
    )]
    pub password_reset_per_address_per_hour: u32,

    /// Where contact-form messages are emailed; unset keeps them for the admins' inbox only.
    #[arg(long, env = "CONTACT_EMAIL")]
    pub contact_email: Option<String>,

    /// Contact-form messages one client address may send per hour without signing in.
    #[arg(
        long,
        env = "CONTACT_MESSAGES_PER_ADDRESS_PER_HOUR",
        default_value_t = 5
    )]
    pub contact_messages_per_address_per_hour: u32,

    /// Contact-form messages one signed-in account may send per hour, wherever from.
    #[arg(
        long,
        env = "CONTACT_MESSAGES_PER_ACCOUNT_PER_HOUR",
        default_value_t = 10
    )]
    pub contact_messages_per_account_per_hour: u32,

    /// Where distances (GetDistance), drive times (the order matching professionals are
    /// alerted in) and trips' arrival times come from: `great-circle` (drives: the straight
    /// line times 1.3 at 40 km/h), or `osrm`, the OSRM server at OSRM_URL, with the straight
    /// line standing in when it fails. Who may see or be told of a request is always decided
    /// on great-circle distance.
    #[arg(
        long,
        env = "DISTANCE_PROVIDER",
        value_enum,
        default_value = "great-circle"
    )]
    pub distance_provider: DistanceProviderKind,

    /// Base URL of the OSRM server (its `table` and `route` services), with
    /// DISTANCE_PROVIDER=osrm.
    #[arg(long, env = "OSRM_URL")]
    pub osrm_url: Option<String>,

    /// How long one OSRM look-up may take, in milliseconds.
    #[arg(long, env = "OSRM_TIMEOUT_MS", default_value_t = 2000)]
    pub osrm_timeout_ms: u64,

    /// Distance look-ups sent to the provider at once; more wait up to OSRM_TIMEOUT_MS.
    #[arg(long, env = "DISTANCE_CONCURRENCY", default_value_t = 8)]
    pub distance_concurrency: usize,

    /// Where translations come from: `none` (TranslateText answers "not configured" and
    /// requests are shown untranslated), `libretranslate` (LIBRETRANSLATE_URL) or `deepl`
    /// (DEEPL_API_KEY).
    #[arg(long, env = "TRANSLATION_PROVIDER", value_enum, default_value = "none")]
    pub translation_provider: TranslationProviderKind,

    /// Base URL of the LibreTranslate server, with TRANSLATION_PROVIDER=libretranslate.
    #[arg(long, env = "LIBRETRANSLATE_URL")]
    pub libretranslate_url: Option<String>,

    /// The LibreTranslate server's API key, when it asks for one.
    #[arg(long, env = "LIBRETRANSLATE_API_KEY", hide_env_values = true)]
    pub libretranslate_api_key: Option<String>,

    /// DeepL's API key, with TRANSLATION_PROVIDER=deepl.
    #[arg(long, env = "DEEPL_API_KEY", hide_env_values = true)]
    pub deepl_api_key: Option<String>,

    /// DeepL's base URL; unset: the free plan's host for keys ending in `:fx`, the paid
    /// plan's otherwise.
    #[arg(long, env = "DEEPL_API_URL")]
    pub deepl_api_url: Option<String>,

    /// How long one call to the translation provider may take, in milliseconds.
    #[arg(long, env = "TRANSLATION_TIMEOUT_MS", default_value_t = 10_000)]
    pub translation_timeout_ms: u64,

    /// Calls to the translation provider at once; more wait up to TRANSLATION_TIMEOUT_MS.
    #[arg(long, env = "TRANSLATION_CONCURRENCY", default_value_t = 4)]
    pub translation_concurrency: usize,

    /// Characters one account may have translated per hour (TranslateText); what the cache
    /// already holds is free.
    #[arg(
        long,
        env = "TRANSLATION_CHARS_PER_CALLER_PER_HOUR",
        default_value_t = 20_000
    )]
    pub translation_chars_per_caller_per_hour: u32,

    /// Characters sent to the translation provider per hour, all callers, request
    /// descriptions and replicas together.
    #[arg(long, env = "TRANSLATION_CHARS_PER_HOUR", default_value_t = 200_000)]
    pub translation_chars_per_hour: u32,

    /// Where addresses are placed and suggested: `gazetteer` (built in: full postal codes,
    /// postal areas, towns) or `photon` (street addresses from the Photon server at
    /// PHOTON_URL, the gazetteer as fallback).
    #[arg(long, env = "GEOCODER", value_enum, default_value = "gazetteer")]
    pub geocoder: GeocoderKind,

    /// Base URL of the Photon server, with GEOCODER=photon.
    #[arg(long, env = "PHOTON_URL")]
    pub photon_url: Option<String>,

    /// How long one suggestion from Photon may take, in milliseconds (the person is typing).
    #[arg(long, env = "PHOTON_SUGGEST_TIMEOUT_MS", default_value_t = 800)]
    pub photon_suggest_timeout_ms: u64,

    /// How long placing an address being saved, or a position, may take at Photon, in
    /// milliseconds.
    #[arg(long, env = "PHOTON_TIMEOUT_MS", default_value_t = 5000)]
    pub photon_timeout_ms: u64,

    /// Street-address suggestions one client may have from Photon per hour (cached answers
    /// are free).
    #[arg(
        long,
        env = "ADDRESS_SUGGESTIONS_PER_CLIENT_PER_HOUR",
        default_value_t = 600
    )]
    pub address_suggestions_per_client_per_hour: u32,

    /// The VAPID private key (RFC 8292) that signs Web Push messages: the P-256 private
    /// scalar, base64url. Every replica shares it; unset with DATABASE_URL, Web Push is off.
    /// In the embedded default it is generated once and kept in the data dir.
    #[arg(long, env = "VAPID_PRIVATE_KEY", hide_env_values = true)]
    pub vapid_private_key: Option<String>,

    /// Whom push services may contact about our messages (a `mailto:` or `https:` address);
    /// unset, `mailto:` the address of EMAIL_FROM.
    #[arg(long, env = "VAPID_CONTACT")]
    pub vapid_contact: Option<String>,

    /// The push services' hosts Web Push subscriptions may name, comma-separated; `*.name`
    /// allows any host under `name`. Endpoints are https, or http to a listed loopback
    /// address (tests).
    #[arg(
        long,
        env = "PUSH_ENDPOINT_HOSTS",
        value_delimiter = ',',
        default_value = "fcm.googleapis.com,updates.push.services.mozilla.com,*.notify.windows.com,web.push.apple.com"
    )]
    pub push_endpoint_hosts: Vec<String>,

    /// Web Push messages posted to push services at once by one server process (and as
    /// many to APNs, and to FCM).
    #[arg(long, env = "PUSH_CONCURRENCY", default_value_t = 8)]
    pub push_concurrency: usize,

    /// APNs' address (HTTP/2): Apple's production service, or
    /// `https://api.sandbox.push.apple.com` for development builds of the app.
    #[arg(long, env = "APNS_URL", default_value = "https://api.push.apple.com")]
    pub apns_url: String,

    /// The team's APNs signing key (the `.p8` file Apple gives, PKCS#8 PEM). With
    /// APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC, iOS devices may subscribe; without, they
    /// are refused (NATIVE_PUSH_NOT_CONFIGURED).
    #[arg(long, env = "APNS_KEY_FILE")]
    pub apns_key_file: Option<PathBuf>,

    /// The id of that key (10 characters, Apple's developer account shows it).
    #[arg(long, env = "APNS_KEY_ID")]
    pub apns_key_id: Option<String>,

    /// The team id the key belongs to: the issuer of every APNs token.
    #[arg(long, env = "APNS_TEAM_ID")]
    pub apns_team_id: Option<String>,

    /// The iOS app's bundle id: the `apns-topic` of every push.
    #[arg(long, env = "APNS_TOPIC")]
    pub apns_topic: Option<String>,

    /// FCM's address (HTTP v1 API).
    #[arg(long, env = "FCM_URL", default_value = "https://fcm.googleapis.com")]
    pub fcm_url: String,

    /// The Firebase project's service account key (the JSON file Google gives: project id,
    /// client email, private key, token_uri). Set, Android devices may subscribe; unset, they
    /// are refused (NATIVE_PUSH_NOT_CONFIGURED).
    #[arg(long, env = "FCM_SERVICE_ACCOUNT_FILE")]
    pub fcm_service_account_file: Option<PathBuf>,

    /// Live streams one caller may hold at once, of each kind: a professional's open-requests
    /// list (WatchOpenRequests), one account's watched requests (WatchRepairRequest).
    #[arg(long, env = "WATCH_STREAMS_PER_PROFESSIONAL", default_value_t = 4)]
    pub watch_streams_per_professional: usize,

    /// Live streams of each kind one server process holds at once, all callers together.
    #[arg(long, env = "WATCH_STREAMS_TOTAL", default_value_t = 1000)]
    pub watch_streams_total: usize,

    /// Conversations one account may watch at once (WatchConversation): a customer's request
    /// page may show one per professional.
    #[arg(long, env = "WATCH_CONVERSATIONS_PER_ACCOUNT", default_value_t = 16)]
    pub watch_conversations_per_account: usize,

    /// Messages one account may send in ten minutes (SendMessage), all conversations
    /// together; beyond, RESOURCE_EXHAUSTED (MESSAGE_BUDGET_SPENT) until the window renews.
    #[arg(
        long,
        env = "MESSAGES_PER_ACCOUNT_PER_10_MINUTES",
        default_value_t = 30
    )]
    pub messages_per_account_per_10_minutes: u32,

    /// Messages one account may send in a day, all conversations together.
    #[arg(long, env = "MESSAGES_PER_ACCOUNT_PER_DAY", default_value_t = 300)]
    pub messages_per_account_per_day: u32,

    /// How long a message stays unread before its reader is emailed of it (their devices
    /// with alerts on are pushed at once). Seconds, or `90s`, `2m`, `1h`.
    #[arg(long, env = "MESSAGE_EMAIL_AFTER", default_value = "2m", value_parser = parse_duration)]
    pub message_email_after: std::time::Duration,

    /// The least time between two emails of unread messages of one conversation to one
    /// reader; what arrives meanwhile goes into the next. Seconds, or `90s`, `15m`, `1h`.
    #[arg(long, env = "MESSAGE_EMAIL_EVERY", default_value = "15m", value_parser = parse_duration)]
    pub message_email_every: std::time::Duration,

    /// Repair requests one customer may place per hour: each one emails (and may text) every
    /// matching professional, so this bounds what one account can make the service send.
    #[arg(
        long,
        env = "REPAIR_REQUESTS_PER_CUSTOMER_PER_HOUR",
        default_value_t = 20
    )]
    pub repair_requests_per_customer_per_hour: u32,

    /// Professionals told of one repair request at most, the nearest first.
    #[arg(long, env = "REPAIR_REQUEST_MAX_NOTIFIED", default_value_t = 200)]
    pub repair_request_max_notified: usize,

    /// How long an emergency waits for a quote before the next ring is told of it: the
    /// matching professionals beyond the nearest REPAIR_REQUEST_MAX_NOTIFIED, and those off
    /// duty who chose to receive emergencies at any hour. Seconds, or a number with `s`, `m`
    /// or `h` (`90s`, `10m`, `1h`).
    #[arg(long, env = "EMERGENCY_ESCALATE_AFTER", default_value = "10m", value_parser = parse_duration)]
    pub emergency_escalate_after: std::time::Duration,

    /// How long a new request's alerts wait at most for the photos its customer said would
    /// follow (CreateRepairRequest's photos_to_follow); they leave as soon as the photos are
    /// in. Seconds, or `90s`, `2m`.
    #[arg(long, env = "REQUEST_PHOTOS_WAIT", default_value = "2m", value_parser = parse_duration)]
    pub request_photos_wait: std::time::Duration,

    /// The shortest time between two positions of one trip to a job (ShareTripPosition);
    /// phones send every 15 to 30 s. Seconds, or `10s`.
    #[arg(long, env = "TRIP_POSITION_EVERY", default_value = "10s", value_parser = parse_duration)]
    pub trip_position_every: std::time::Duration,

    /// Texts telling professionals of new requests, per hour, all replicas together; beyond
    /// it they get the email alone. Apart from the phone codes' budget, so busy hours never
    /// stop sign-ups.
    #[arg(long, env = "SMS_NOTIFICATIONS_PER_HOUR", default_value_t = 2000)]
    pub sms_notifications_per_hour: u32,

    /// Text messages the whole service sends per hour (phone codes), across all replicas.
    #[arg(long, env = "SMS_BUDGET_PER_HOUR", default_value_t = 500)]
    pub sms_budget_per_hour: u32,

    /// Text messages asked from one client address per hour.
    #[arg(long, env = "SMS_BUDGET_PER_ADDRESS_PER_HOUR", default_value_t = 10)]
    pub sms_budget_per_address_per_hour: u32,

    /// Text messages to one country calling code per hour, unless SMS_COUNTRY_BUDGETS says
    /// otherwise for that code.
    #[arg(long, env = "SMS_BUDGET_PER_COUNTRY_PER_HOUR", default_value_t = 100)]
    pub sms_budget_per_country_per_hour: u32,

    /// Hourly budgets of given country calling codes, comma-separated `code=count`
    /// (`1=400,91=20`); `code=0` stops texts to that country.
    #[arg(long, env = "SMS_COUNTRY_BUDGETS", value_delimiter = ',')]
    pub sms_country_budgets: Vec<CountryBudget>,

    /// How long a service account's keys keep working after a rotation replaced them, so the
    /// service can change keys without a gap. Seconds, or a number with `s`, `m` or `h`.
    #[arg(long, env = "SERVICE_KEY_GRACE", default_value = "24h", value_parser = parse_duration)]
    pub service_key_grace: std::time::Duration,

    /// Calls one service account may make per minute, all replicas together; beyond,
    /// RESOURCE_EXHAUSTED (SERVICE_ACCOUNT_RATE_LIMITED) until the minute renews.
    #[arg(long, env = "SERVICE_ACCOUNT_CALLS_PER_MINUTE", default_value_t = 600)]
    pub service_account_calls_per_minute: u32,

    /// Object storage, replicas and readiness.
    #[command(flatten)]
    pub deployment: Deployment,
}
