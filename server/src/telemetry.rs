//! Logs: `tracing` to stdout, text or JSON, filtered by RUST_LOG (default info).
//!
//! What each call's outcome is logged at ([`grpc_level`]): a success at DEBUG; what the
//! caller got wrong or may not do (bad input, not found, already exists, no right, a state
//! that does not allow it, not signed in, a limit reached ...) at INFO; a deadline passed at
//! WARN; and at ERROR only what the team must look at: internal errors, a dependency
//! unavailable, data loss, unknown failures.

use std::time::Duration;

use tonic::Code;
use tower_http::classify::GrpcFailureClass;
use tracing::Level;
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

/// The level a call that ended with `code` is logged at.
pub fn grpc_level(code: Code) -> Level {
    match code {
        Code::Ok => Level::DEBUG,
        Code::Cancelled
        | Code::InvalidArgument
        | Code::NotFound
        | Code::AlreadyExists
        | Code::PermissionDenied
        | Code::ResourceExhausted
        | Code::FailedPrecondition
        | Code::Aborted
        | Code::OutOfRange
        | Code::Unimplemented
        | Code::Unauthenticated => Level::INFO,
        Code::DeadlineExceeded => Level::WARN,
        Code::Unknown | Code::Internal | Code::Unavailable | Code::DataLoss => Level::ERROR,
    }
}

/// Logs a call that did not end OK (the trace layer's `on_failure`), at [`grpc_level`] of
/// its code; a failure with no code (a broken body) at ERROR.
pub fn log_grpc_failure(failure: GrpcFailureClass, latency: Duration, _span: &tracing::Span) {
    let latency_ms = latency.as_secs_f64() * 1e3;
    let (level, code) = match failure {
        GrpcFailureClass::Code(code) => (grpc_level(Code::from_i32(code.get())), code.get()),
        GrpcFailureClass::Error(error) => {
            tracing::error!(%error, latency_ms, "call failed");
            return;
        }
    };
    let message = "call failed";
    match level {
        Level::ERROR => tracing::error!(code, latency_ms, "{message}"),
        Level::WARN => tracing::warn!(code, latency_ms, "{message}"),
        Level::INFO => tracing::info!(code, latency_ms, "{message}"),
        _ => tracing::debug!(code, latency_ms, "{message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_the_team_must_look_at_is_an_error() {
        let client_caused = [3, 5, 6, 7, 9, 16];
        for number in 0..=16 {
            let code = Code::from_i32(number);
            let level = grpc_level(code);
            if number == 0 {
                assert_eq!(level, Level::DEBUG, "a success");
            } else if client_caused.contains(&number) {
                assert_eq!(level, Level::INFO, "{code:?} is the caller's");
            } else if [2, 13, 14, 15].contains(&number) {
                assert_eq!(level, Level::ERROR, "{code:?} is ours to look at");
            } else {
                assert!(level > Level::ERROR, "{code:?} is not an error of ours");
            }
        }
    }
}
