//! Logs: `tracing` to stdout, text or JSON, filtered by RUST_LOG (default info).

use tracing_subscriber::{EnvFilter, fmt};

use crate::config::LogFormat;

pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,h2=warn,tower=warn,hyper=warn"));
    let builder = fmt().with_env_filter(filter).with_target(false);
    // A second init (tests start several servers) is harmless.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}
