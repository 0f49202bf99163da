//! Request limits, in front of every service: gRPC callers reach the server directly, so
//! nothing may rely on the BFF's body limit. Before a handler runs, the request body is read
//! up to its RPC's size ([`schema::MAX_REQUEST_BYTES`], or [`schema::MAX_UPLOAD_BYTES`] for
//! the RPCs that carry a file), so a huge body is never decoded, and then every field, nested
//! ones included, is checked against the rules the contracts state in their `buf.validate`
//! annotations ([`repairs_proto::limits`], generated from them at build time). Too large a
//! request is RESOURCE_EXHAUSTED (`REQUEST_TOO_LARGE`, as gRPC itself answers); a field that
//! breaks a rule is INVALID_ARGUMENT with a violation per field. The domain types then parse
//! each value (trimming, formats the contract does not state).

pub mod problems;
pub mod schema;

use std::{
    sync::Arc,
    task::{Context, Poll},
};

use bytes::{Buf, Bytes};
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use tonic::{Status, body::Body};
use tower::{BoxError, Layer, Service};

use self::schema::{Input, Refusal, Schema};
use crate::error::{ApiError, ErrorReason};

#[derive(Clone)]
pub struct RequestLimitsLayer {
    schema: Arc<Schema>,
}

impl RequestLimitsLayer {
    /// Limits for every RPC of the contracts.
    pub fn new() -> anyhow::Result<Self> {
        let schema = Schema::from_descriptors(repairs_proto::FILE_DESCRIPTOR_SET)
            .map_err(|e| anyhow::anyhow!("reading the contracts' descriptors: {e}"))?;
        Ok(Self {
            schema: Arc::new(schema),
        })
    }
}

impl<S> Layer<S> for RequestLimitsLayer {
    type Service = RequestLimits<S>;
    fn layer(&self, inner: S) -> Self::Service {
        RequestLimits {
            inner,
            schema: self.schema.clone(),
        }
    }
}

#[derive(Clone)]
pub struct RequestLimits<S> {
    inner: S,
    schema: Arc<Schema>,
}

type BoxFuture<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send>>;

impl<S, ReqBody> Service<http::Request<ReqBody>> for RequestLimits<S>
where
    S: Service<http::Request<Body>, Response = http::Response<Body>> + Clone + Send + 'static,
    S::Future: Send,
    S::Error: Send,
    ReqBody: http_body::Body<Data = Bytes> + Send + 'static,
    ReqBody::Error: Into<BoxError>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = BoxFuture<Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<ReqBody>) -> Self::Future {
        // The service that was made ready serves this call; a fresh clone waits for the next.
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let Some(input) = self.schema.input_of(request.uri().path()) else {
            // Health and reflection: not the product's contracts, tonic's own limits apply.
            return Box::pin(inner.call(request.map(Body::new)));
        };
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            match checked_body(input, body).await {
                Ok(body) => inner.call(http::Request::from_parts(parts, body)).await,
                Err(error) => Ok(Status::from(error).into_http()),
            }
        })
    }
}

/// Reads the body within the RPC's size and checks each message in it.
async fn checked_body<B>(input: Input, body: B) -> Result<Body, ApiError>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    // Each gRPC message is framed by 5 bytes: a compression flag and its length.
    let max_bytes = input.max_bytes;
    let collected = Limited::new(body, max_bytes + 5)
        .collect()
        .await
        .map_err(|error| {
            if error.is::<LengthLimitError>() {
                ApiError::ResourceExhausted {
                    reason: ErrorReason::RequestTooLarge,
                    message: format!(
                        "this request is larger than the {} KiB this call accepts",
                        max_bytes / 1024
                    ),
                }
            } else {
                tracing::debug!(%error, "request body could not be read");
                ApiError::invalid("", "the request could not be read")
            }
        })?
        .to_bytes();
    let mut frames = collected.clone();
    while frames.has_remaining() {
        if frames.remaining() < 5 {
            return Err(malformed());
        }
        let compressed = frames.get_u8() != 0;
        let len = usize::try_from(frames.get_u32()).map_err(|_| malformed())?;
        if compressed {
            return Err(ApiError::invalid(
                "",
                "compressed requests are not accepted",
            ));
        }
        if frames.remaining() < len {
            return Err(malformed());
        }
        let message = frames.split_to(len);
        Schema::check(input.rules, &message).map_err(|refusal| match refusal {
            Refusal::Malformed => malformed(),
            Refusal::Fields(violations) => ApiError::invalid_fields(violations),
        })?;
    }
    Ok(Body::new(Full::new(collected)))
}

fn malformed() -> ApiError {
    ApiError::invalid("", "this request is not a valid message for this call")
}
