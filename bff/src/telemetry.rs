//! Logging: tracing with an `EnvFilter`, as text or JSON lines on stderr (stdout is for the
//! one "listening" line).

use tracing_subscriber::EnvFilter;

use crate::config::{Config, LogFormat};

pub fn init(config: &Config) -> anyhow::Result<()> {
    let filter = EnvFilter::try_new(&config.log_filter)
        .map_err(|e| anyhow::anyhow!("RUST_LOG {:?}: {e}", config.log_filter))?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let result = match config.log_format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
    result.map_err(|e| anyhow::anyhow!("cannot start logging: {e}"))
}
