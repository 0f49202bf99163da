//! Names the RPC in the UNIMPLEMENTED replies of methods not built yet, so a caller reads
//! "MarketplaceService.CreateRepairRequest is not available yet" instead of a bare
//! "Not yet implemented". Goes away when every method is built.

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
};

use http::HeaderValue;
use tower::{Layer, Service};

const UNIMPLEMENTED: &str = "12";

#[derive(Clone, Default)]
pub struct UnbuiltLayer;

impl<S> Layer<S> for UnbuiltLayer {
    type Service = Unbuilt<S>;
    fn layer(&self, inner: S) -> Self::Service {
        Unbuilt { inner }
    }
}

#[derive(Clone)]
pub struct Unbuilt<S> {
    inner: S,
}

/// "/repairs.content.v1.ContentService/GetHomePage" -> "ContentService.GetHomePage".
fn rpc_name(path: &str) -> String {
    let mut parts = path.trim_start_matches('/').splitn(2, '/');
    let service = parts.next().unwrap_or_default();
    let method = parts.next().unwrap_or_default();
    let short = service.rsplit('.').next().unwrap_or(service);
    format!("{short}.{method}")
}

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for Unbuilt<S>
where
    S: Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<ReqBody>) -> Self::Future {
        let rpc = rpc_name(request.uri().path());
        let response = self.inner.call(request);
        Box::pin(async move {
            let mut response = response.await?;
            let headers = response.headers_mut();
            if headers
                .get("grpc-status")
                .is_some_and(|v| v == UNIMPLEMENTED)
            {
                let message = format!("{rpc} is not available yet in this version of the server");
                if let Ok(value) = HeaderValue::from_str(&message) {
                    headers.insert("grpc-message", value);
                }
            }
            Ok(response)
        })
    }
}

#[cfg(test)]
mod tests {
    use tower::{Layer, ServiceExt, service_fn};

    #[test]
    fn names_the_service_and_method() {
        assert_eq!(
            super::rpc_name("/repairs.content.v1.ContentService/GetHomePage"),
            "ContentService.GetHomePage"
        );
    }

    /// The reply of a service whose every method answers `status`, through the layer.
    async fn reply_with(status: &'static str) -> http::Response<()> {
        let inner = service_fn(move |_: http::Request<()>| async move {
            http::Response::builder()
                .header("grpc-status", status)
                .header("grpc-message", "Not yet implemented")
                .body(())
        });
        let request = http::Request::builder()
            .uri("/repairs.content.v1.ContentService/TranslateText")
            .body(())
            .unwrap();
        super::UnbuiltLayer
            .layer(inner)
            .oneshot(request)
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn an_unimplemented_reply_names_its_rpc_and_others_pass_untouched() {
        let unbuilt = reply_with(super::UNIMPLEMENTED).await;
        assert_eq!(
            unbuilt.headers()["grpc-message"],
            "ContentService.TranslateText is not available yet in this version of the server"
        );
        let other = reply_with("14").await;
        assert_eq!(other.headers()["grpc-message"], "Not yet implemented");
    }
}
