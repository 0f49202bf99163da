//! Logging: tracing with an `EnvFilter`, as text or JSON lines on stderr (stdout is for the
//! one "listening" line).
//!
//! Each request's outcome is logged at [`http_level`] of its status: a success or redirect at
//! DEBUG, what the caller got wrong (4xx) at INFO, and at ERROR only what the team must look
//! at (5xx: the server unreachable, an internal failure).

use std::time::Duration;

use http::StatusCode;
use tracing::Level;
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

/// The level a request answered with `status` is logged at.
pub fn http_level(status: StatusCode) -> Level {
    if status.is_server_error() {
        Level::ERROR
    } else if status.is_client_error() {
        Level::INFO
    } else {
        Level::DEBUG
    }
}

/// Logs a request's answer (the trace layer's `on_response`) at [`http_level`] of its status.
pub fn log_response<B>(response: &http::Response<B>, latency: Duration, _span: &tracing::Span) {
    let status = response.status().as_u16();
    let latency_ms = latency.as_secs_f64() * 1e3;
    match http_level(response.status()) {
        Level::ERROR => tracing::error!(status, latency_ms, "answered"),
        Level::INFO => tracing::info!(status, latency_ms, "answered"),
        _ => tracing::debug!(status, latency_ms, "answered"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_server_errors_are_errors_and_successes_are_debug() {
        let level = |code: u16| http_level(StatusCode::from_u16(code).unwrap());
        for code in [200, 204, 206, 304, 307] {
            assert_eq!(level(code), Level::DEBUG, "{code}");
        }
        for code in [400, 401, 403, 404, 405, 409, 413, 429] {
            assert_eq!(level(code), Level::INFO, "{code}");
        }
        for code in [500, 502, 503, 504] {
            assert_eq!(level(code), Level::ERROR, "{code}");
        }
    }
}
