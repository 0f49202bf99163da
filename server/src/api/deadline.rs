//! Deadlines that run out answer DEADLINE_EXCEEDED. A call has until the earlier of the
//! server's limit (`RPC_TIMEOUT_MS`) and the client's `grpc-timeout`; a handler still running
//! then is dropped and the caller reads DEADLINE_EXCEEDED with reason `DEADLINE_EXCEEDED`,
//! through `crate::error`. tonic's own timer (`Server::timeout`, and the one it always sets
//! from `grpc-timeout`, outside every layer) answers CANCELLED "Timeout expired" instead,
//! which clients read as their own cancel. Its timer starts once the layers' `call` returned,
//! so this one, started in `call`, is never later, and tonic polls the call before its timer:
//! when that fires, this layer is already past its deadline and answers (see `passed`). As
//! with tonic, a stream's deadline covers its opening only (its lifetime is `auth::stream`'s).

use std::{
    future::Future,
    task::{Context, Poll},
    time::Duration,
};

use futures::future::BoxFuture;
use tokio::time::Instant;
use tonic::Status;
use tower::{Layer, Service};

use crate::error::{ApiError, ErrorReason};

#[derive(Debug, Clone, Copy)]
pub struct DeadlineLayer {
    limit: Duration,
}

impl DeadlineLayer {
    /// Calls last `limit` at most, less when the client asks.
    pub fn new(limit: Duration) -> Self {
        Self { limit }
    }
}

impl<S> Layer<S> for DeadlineLayer {
    type Service = Deadline<S>;
    fn layer(&self, inner: S) -> Self::Service {
        Deadline {
            inner,
            limit: self.limit,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Deadline<S> {
    inner: S,
    limit: Duration,
}

/// The client's `grpc-timeout` (gRPC over HTTP/2: up to 8 digits and a unit); `None` when
/// absent or not of that form, as tonic reads it.
fn client_timeout(headers: &http::HeaderMap) -> Option<Duration> {
    let value = headers.get("grpc-timeout")?.to_str().ok()?;
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount * 3600),
        "M" => Duration::from_secs(amount * 60),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

/// Resolves once `deadline` has passed by the clock, not only once its timer fired: when
/// tonic's timer (set just after this one, for no less time) fires first, this must already
/// be ready when tonic polls the call before answering CANCELLED.
async fn passed(deadline: Instant) {
    let mut timer = std::pin::pin!(tokio::time::sleep_until(deadline));
    std::future::poll_fn(|cx| {
        if Instant::now() >= deadline {
            return Poll::Ready(());
        }
        timer.as_mut().poll(cx)
    })
    .await;
}

fn exceeded() -> ApiError {
    ApiError::DeadlineExceeded {
        reason: ErrorReason::DeadlineExceeded,
        message: "this took longer than allowed and was stopped; please try again".to_owned(),
    }
}

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for Deadline<S>
where
    S: Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
    ResBody: Default,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<ReqBody>) -> Self::Future {
        // Taken now, before tonic's timer starts (it starts once this returns).
        let allowed = client_timeout(request.headers()).map_or(self.limit, |t| t.min(self.limit));
        let deadline = Instant::now() + allowed;
        let call = self.inner.call(request);
        Box::pin(async move {
            tokio::select! {
                biased;
                answered = call => answered,
                () = passed(deadline) => Ok(Status::from(exceeded()).into_http()),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timeout(value: &str) -> Option<Duration> {
        let mut headers = http::HeaderMap::new();
        headers.insert("grpc-timeout", value.parse().unwrap());
        client_timeout(&headers)
    }

    #[test]
    fn grpc_timeouts_are_read_in_each_unit_and_nonsense_is_ignored() {
        assert_eq!(timeout("2H"), Some(Duration::from_secs(7200)));
        assert_eq!(timeout("3M"), Some(Duration::from_secs(180)));
        assert_eq!(timeout("5S"), Some(Duration::from_secs(5)));
        assert_eq!(timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(timeout("999999u"), Some(Duration::from_micros(999_999)));
        assert_eq!(timeout("10n"), Some(Duration::from_nanos(10)));
        for wrong in ["", "S", "123456789S", "5s", "-5S", "5 S", "five"] {
            assert_eq!(timeout(wrong), None, "{wrong:?}");
        }
        assert_eq!(client_timeout(&http::HeaderMap::new()), None);
    }

    #[tokio::test]
    async fn a_call_past_its_deadline_answers_deadline_exceeded() {
        let slow = tower::service_fn(|_: http::Request<()>| async {
            tokio::time::sleep(Duration::from_secs(60)).await;
            Ok::<_, std::convert::Infallible>(http::Response::new(String::new()))
        });
        let mut service = DeadlineLayer::new(Duration::from_millis(20)).layer(slow);
        let response = service.call(http::Request::new(())).await.unwrap();
        let status = Status::from_header_map(response.headers()).unwrap();
        assert_eq!(status.code(), tonic::Code::DeadlineExceeded);
    }
}
