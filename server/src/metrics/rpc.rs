//! Every RPC counted by method and status code, and timed, as a tower layer in front of the
//! services. Per call: a map lookup of the path, a clock read at each end and a few atomic
//! additions; nothing allocated (each method's series are made on its first call).
//!
//! The status is read where gRPC puts it: the response headers (a trailers-only reply, as
//! every error is) or the trailers after the body. A call whose reply is dropped before its
//! status (the client went away) counts as CANCELLED. Paths that are not a method of the
//! contract count as `unknown`, so a caller cannot grow the series without bound.

use std::{
    collections::HashMap,
    future::Future,
    pin::Pin,
    sync::{Arc, OnceLock},
    task::{Context, Poll, ready},
    time::Instant,
};

use http_body::{Body, Frame, SizeHint};
use pin_project_lite::pin_project;
use prometheus::{Histogram, HistogramVec, IntCounter, IntCounterVec};
use prost::Message;
use tower::{Layer, Service};

/// gRPC's status codes by number, as Prometheus labels.
const CODES: [&str; 17] = [
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
];
const CANCELLED: usize = 1;
const UNKNOWN: usize = 2;

/// The per-RPC series; cheap to clone.
#[derive(Clone)]
pub struct RpcMetrics(Arc<Methods>);

struct Methods {
    by_path: HashMap<Box<str>, Arc<Method>>,
    unknown: Arc<Method>,
}

/// One method's series, made on first use.
struct Method {
    service: Box<str>,
    name: Box<str>,
    handled: IntCounterVec,
    seconds: HistogramVec,
    codes: [OnceLock<IntCounter>; 17],
    timer: OnceLock<Histogram>,
}

impl Method {
    fn new(service: &str, name: &str, handled: &IntCounterVec, seconds: &HistogramVec) -> Self {
        Self {
            service: service.into(),
            name: name.into(),
            handled: handled.clone(),
            seconds: seconds.clone(),
            codes: Default::default(),
            timer: OnceLock::new(),
        }
    }

    fn record(&self, code: usize, started: Instant) {
        let code = code.min(CODES.len() - 1);
        let labels = [&*self.service, &*self.name];
        self.codes[code]
            .get_or_init(|| {
                self.handled
                    .with_label_values(&[labels[0], labels[1], CODES[code]])
            })
            .inc();
        self.timer
            .get_or_init(|| self.seconds.with_label_values(&labels))
            .observe(started.elapsed().as_secs_f64());
    }
}

/// `/package.Service/Method` of every method in the encoded descriptor sets.
fn method_paths(sets: &[&[u8]]) -> Vec<(String, String)> {
    let mut paths = Vec::new();
    for set in sets {
        let Ok(set) = prost_types::FileDescriptorSet::decode(*set) else {
            continue;
        };
        for file in set.file {
            let package = file.package();
            for service in &file.service {
                let service_name = format!("{package}.{}", service.name());
                for method in &service.method {
                    paths.push((service_name.clone(), method.name().to_owned()));
                }
            }
        }
    }
    paths
}

impl RpcMetrics {
    pub(super) fn new(handled: IntCounterVec, seconds: HistogramVec) -> Self {
        let by_path = method_paths(&[
            repairs_proto::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
            tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
            tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
        ])
        .into_iter()
        .map(|(service, name)| {
            let method = Method::new(&service, &name, &handled, &seconds);
            (format!("/{service}/{name}").into(), Arc::new(method))
        })
        .collect();
        let unknown = Arc::new(Method::new("unknown", "unknown", &handled, &seconds));
        Self(Arc::new(Methods { by_path, unknown }))
    }

    fn method(&self, path: &str) -> Arc<Method> {
        Arc::clone(self.0.by_path.get(path).unwrap_or(&self.0.unknown))
    }
}

/// Counts and times every call of the services it wraps (see the module's note).
#[derive(Clone)]
pub struct RpcMetricsLayer(RpcMetrics);

impl RpcMetricsLayer {
    pub fn new(metrics: &super::Metrics) -> Self {
        Self(metrics.rpc().clone())
    }
}

impl<S> Layer<S> for RpcMetricsLayer {
    type Service = RpcMetricsService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        RpcMetricsService {
            inner,
            metrics: self.0.clone(),
        }
    }
}

#[derive(Clone)]
pub struct RpcMetricsService<S> {
    inner: S,
    metrics: RpcMetrics,
}

/// Records its call when dropped: with the status seen, CANCELLED if none was.
struct Recorder {
    method: Arc<Method>,
    started: Instant,
    code: usize,
}

impl Recorder {
    fn finish(mut self, code: usize) {
        self.code = code;
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.method.record(self.code, self.started);
    }
}

/// The status code in `grpc-status`, if there is one.
fn status_of(headers: &http::HeaderMap) -> Option<usize> {
    let value = headers.get("grpc-status")?;
    Some(
        std::str::from_utf8(value.as_bytes())
            .ok()
            .and_then(|text| text.parse::<usize>().ok())
            .filter(|code| *code < CODES.len())
            .unwrap_or(UNKNOWN),
    )
}

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for RpcMetricsService<S>
where
    S: Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
{
    type Response = http::Response<RpcBody<ResBody>>;
    type Error = S::Error;
    type Future = RpcFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<ReqBody>) -> Self::Future {
        let recorder = Recorder {
            method: self.metrics.method(request.uri().path()),
            started: Instant::now(),
            code: CANCELLED,
        };
        RpcFuture {
            inner: self.inner.call(request),
            recorder: Some(recorder),
        }
    }
}

pin_project! {
    /// The call under way; its reply's body carries the recorder on to the trailers.
    pub struct RpcFuture<F> {
        #[pin]
        inner: F,
        recorder: Option<Recorder>,
    }
}

impl<F, B, E> Future for RpcFuture<F>
where
    F: Future<Output = Result<http::Response<B>, E>>,
{
    type Output = Result<http::Response<RpcBody<B>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let answered = ready!(this.inner.poll(cx));
        let mut recorder = this.recorder.take();
        Poll::Ready(match answered {
            Ok(response) => {
                if let Some(code) = status_of(response.headers())
                    && let Some(recorder) = recorder.take()
                {
                    recorder.finish(code);
                }
                Ok(response.map(|inner| RpcBody { inner, recorder }))
            }
            Err(error) => {
                if let Some(recorder) = recorder {
                    recorder.finish(UNKNOWN);
                }
                Err(error)
            }
        })
    }
}

pin_project! {
    /// A reply's body, unchanged; its trailers' status is recorded as it passes.
    pub struct RpcBody<B> {
        #[pin]
        inner: B,
        recorder: Option<Recorder>,
    }
}

impl<B: Default> Default for RpcBody<B> {
    fn default() -> Self {
        Self {
            inner: B::default(),
            recorder: None,
        }
    }
}

impl<B: Body> Body for RpcBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        let frame = ready!(this.inner.poll_frame(cx));
        let code = match &frame {
            Some(Ok(frame)) => frame
                .trailers_ref()
                .map(|trailers| status_of(trailers).unwrap_or(UNKNOWN)),
            Some(Err(_)) | None => Some(UNKNOWN),
        };
        if let Some(code) = code
            && let Some(recorder) = this.recorder.take()
        {
            recorder.finish(code);
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_of_the_contract_is_known() {
        let metrics = super::super::Metrics::new();
        let known = &metrics.rpc().0.by_path;
        assert!(known.contains_key("/repairs.accounts.v1.AccountsService/SignUp"));
        assert!(known.contains_key("/grpc.health.v1.Health/Check"));
        assert!(known.contains_key("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"));
        assert!(known.len() > 50, "{} methods", known.len());
        let unknown = metrics
            .rpc()
            .method("/repairs.accounts.v1.AccountsService/Nope");
        assert_eq!(&*unknown.service, "unknown");
    }

    #[test]
    fn status_is_read_from_the_header() {
        let mut headers = http::HeaderMap::new();
        assert_eq!(status_of(&headers), None);
        headers.insert("grpc-status", http::HeaderValue::from_static("16"));
        assert_eq!(status_of(&headers), Some(16));
        headers.insert("grpc-status", http::HeaderValue::from_static("99"));
        assert_eq!(status_of(&headers), Some(UNKNOWN));
    }
}
