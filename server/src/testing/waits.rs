//! Waiting for what the server does in the background (the outbox, the live streams) and
//! reading what it sent and refused.

use super::*;

/// The JSON lines a local stand-in wrote to `<data dir>/outbox/<file>`.
pub fn outbox(data_dir: &Path, file: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(data_dir.join("outbox").join(file))
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("outbox lines are JSON"))
        .collect()
}

/// Waits (up to 10 s) until the outbox worker has delivered `count` messages to `to` whose
/// body contains `containing` ("" for any) in an outbox file, and returns the last of them.
/// Polls `check` every 10 ms until it gives a value, for up to `secs`; then fails with what
/// it said last.
pub async fn poll<T>(secs: u64, mut check: impl FnMut() -> Result<T, String>) -> T {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        match check() {
            Ok(value) => return value,
            Err(why) => assert!(
                tokio::time::Instant::now() < deadline,
                "{why} after {secs} s"
            ),
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// Waits (up to `secs`) until `received` gives `count` items (`what` they are); fails
/// naming what `refused` says.
pub async fn wait_for_count<T, R: std::fmt::Debug>(
    secs: u64,
    count: usize,
    what: &str,
    received: impl Fn() -> Vec<T>,
    refused: impl Fn() -> R,
) -> Vec<T> {
    poll(secs, || {
        let got = received();
        if got.len() >= count {
            Ok(got)
        } else {
            Err(format!(
                "{} of {count} {what}; refused: {:?}",
                got.len(),
                refused()
            ))
        }
    })
    .await
}

/// Messages are sent after the call that wrote them has answered, so tests wait for them
/// rather than read the file at once.
pub async fn wait_for_message(
    data_dir: &Path,
    file: &str,
    to: &str,
    containing: &str,
    count: usize,
) -> serde_json::Value {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let mut sent: Vec<_> = outbox(data_dir, file)
            .into_iter()
            .filter(|m| m["to"] == to)
            .filter(|m| m["body"].as_str().is_some_and(|b| b.contains(containing)))
            .collect();
        if sent.len() >= count {
            return sent.pop().expect("at least one message");
        }
        if tokio::time::Instant::now() > deadline {
            panic!(
                "{} of {count} messages to {to} in {file} after 10 s",
                sent.len()
            );
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Waits (up to 10 s) until the outbox holds nothing left to deliver.
pub async fn wait_until_outbox_idle(db: &sqlx::PgPool) {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    while crate::store::outbox::pending_count(db)
        .await
        .expect("count pending outbox messages")
        > 0
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the outbox was not delivered within 10 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// The last message sent to `to` in an outbox file, as it is now.
pub fn last_message_to(data_dir: &Path, file: &str, to: &str) -> Option<serde_json::Value> {
    outbox(data_dir, file)
        .into_iter()
        .rev()
        .find(|m| m["to"] == to)
}

/// The `ErrorInfo.reason` of a status, or "" when it has none.
pub fn reason(status: &tonic::Status) -> String {
    use tonic_types::StatusExt;
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

/// The fields named in a status's `BadRequest` violations.
pub fn violated_fields(status: &tonic::Status) -> Vec<String> {
    use tonic_types::StatusExt;
    status
        .get_details_bad_request()
        .map(|bad| bad.field_violations.into_iter().map(|v| v.field).collect())
        .unwrap_or_default()
}
