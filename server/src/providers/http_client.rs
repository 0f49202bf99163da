//! The HTTP client shared by the adapters that call a REST API (Twilio, Google, Facebook).

use std::time::Duration;

/// How long one call to an outside API may take before we give up on it.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// A client with a whole-request timeout, so a slow provider cannot hold a request forever.
pub fn client(timeout: Duration) -> Result<reqwest::Client, reqwest::Error> {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .user_agent(concat!("repairs-server/", env!("CARGO_PKG_VERSION")))
        .build()
}

/// `base` (with or without a trailing slash) followed by `path`.
pub fn endpoint(base: &str, path: &str) -> String {
    format!(
        "{}/{}",
        base.trim_end_matches('/'),
        path.trim_start_matches('/')
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_join_with_one_slash() {
        assert_eq!(endpoint("http://a/v1/", "/me"), "http://a/v1/me");
        assert_eq!(endpoint("http://a", "me"), "http://a/me");
    }
}
