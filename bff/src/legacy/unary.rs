//! The channel as the legacy calls use it. Every call they make is unary (the contract has no
//! client streams), yet tonic hands each request to hyper as a stream of one message, and
//! hyper sends such a body after the headers, usually in a write of its own: two writes and two
//! wake-ups at the server per call. Here the message is taken whole before the call goes out,
//! so hyper sends the headers and the message together (`make bench`, docs/figures.md).

use std::task::{Context, Poll};

use bytes::Bytes;
use futures::future::BoxFuture;
use http_body_util::{BodyExt, Full};
use tonic::body::Body;
use tonic::transport::Channel;
use tower::Service;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A gRPC channel whose requests go out with their whole message in hand.
#[derive(Debug, Clone)]
pub struct UnaryChannel<S = Channel> {
    inner: S,
}

impl<S> UnaryChannel<S> {
    pub fn new(inner: S) -> Self {
        Self { inner }
    }
}

impl<S> Service<http::Request<Body>> for UnaryChannel<S>
where
    S: Service<http::Request<Body>> + Clone + Send + 'static,
    S::Error: Into<BoxError>,
    S::Future: Send,
{
    type Response = S::Response;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        // The clone that was made ready goes with the call (tower's rule for clones).
        let clone = self.inner.clone();
        let mut ready = std::mem::replace(&mut self.inner, clone);
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            // The one message, encoded at once by tonic; never larger than the legacy
            // request it was translated from allows.
            let message: Bytes = body.collect().await?.to_bytes();
            let request = http::Request::from_parts(parts, Body::new(Full::new(message)));
            ready.call(request).await.map_err(Into::into)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body as _;
    use tower::ServiceExt;

    /// What the inner channel saw: the request body's exact length, if it told one, and its
    /// bytes.
    async fn seen(request: http::Request<Body>) -> (Option<u64>, Bytes) {
        let exact = request.body().size_hint().exact();
        let bytes = request.into_body().collect().await.unwrap().to_bytes();
        (exact, bytes)
    }

    #[tokio::test]
    async fn a_streamed_message_goes_out_whole_with_its_length() {
        let inner = tower::service_fn(|request: http::Request<Body>| async move {
            let (exact, bytes) = seen(request).await;
            Ok::<_, BoxError>(http::Response::new((exact, bytes)))
        });
        let message = Bytes::from_static(b"\0\0\0\0\x03abc");
        let chunks = futures::stream::iter([
            Ok::<_, tonic::Status>(http_body::Frame::data(message.slice(..4))),
            Ok(http_body::Frame::data(message.slice(4..))),
        ]);
        let streamed = Body::new(http_body_util::StreamBody::new(chunks));
        assert_eq!(streamed.size_hint().exact(), None);

        let reply = UnaryChannel::new(inner)
            .oneshot(http::Request::new(streamed))
            .await
            .unwrap();
        assert_eq!(reply.into_body(), (Some(8), message));
    }

    #[tokio::test]
    async fn a_message_that_fails_to_encode_is_the_call_s_error() {
        let inner = tower::service_fn(|_: http::Request<Body>| async {
            Ok::<_, BoxError>(http::Response::new(()))
        });
        let failing = futures::stream::iter([Err::<http_body::Frame<Bytes>, _>(
            tonic::Status::internal("cannot encode"),
        )]);
        let error = UnaryChannel::new(inner)
            .oneshot(http::Request::new(Body::new(
                http_body_util::StreamBody::new(failing),
            )))
            .await
            .unwrap_err();
        let status = error.downcast::<tonic::Status>().unwrap();
        assert_eq!(status.message(), "cannot encode");
    }
}
