//! The BFF: a thin HTTP front with no business logic. It passes gRPC-web through to the server,
//! translates the legacy `/api` calls into gRPC, passes `/files/...` downloads through to the
//! server's file listener, and serves the built web app.

use std::future::{Future, IntoFuture};
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{MatchedPath, Request, State};
use axum::response::Response;
use axum::routing::get;
use axum::{Router, middleware};
use http::{HeaderName, Method};
use tokio::net::TcpListener;
use tonic::transport::Channel;
use tower::ServiceBuilder;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnFailure, TraceLayer};
use tracing::Level;

mod cache;
pub mod config;
pub mod legacy;
pub mod metrics;
pub mod telemetry;

mod files;
mod forwarded;
mod grpc_web;
mod prerendered;
mod probes;
mod security_headers;
mod servers;
mod static_files;
mod unsubscribe;
mod webhooks;

use config::Config;

/// How long open streams may run on after a shutdown signal before the process exits anyway
/// (a browser watching a request would otherwise hold the shutdown forever).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// What every handler shares; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    upstream: grpc_web::Upstream,
    files: files::FileServer,
    web: static_files::WebApp,
    cors_origins: Vec<http::HeaderValue>,
    security_headers: security_headers::SecurityHeaders,
    /// gRPC channel to the servers for the legacy translations and the passthrough, spread
    /// over those that are serving (`servers`).
    channel: Channel,
    /// The service catalogue the legacy calls name services from (and the prerendered pages
    /// show), kept for a moment.
    legacy_catalogue: legacy::rpc::CatalogueCache,
    metrics: metrics::Metrics,
}

impl AppState {
    /// Must run inside the Tokio runtime (the channel's worker is spawned there).
    pub fn new(config: &Config) -> anyhow::Result<Self> {
        let channel = servers::balanced(
            &config.server_url.0,
            Duration::from_millis(config.server_check_ms),
        );
        let legacy_catalogue =
            legacy::rpc::CatalogueCache::new(Duration::from_millis(config.legacy_catalogue_ttl_ms));
        Ok(Self {
            upstream: grpc_web::Upstream::new(channel.clone()),
            files: files::FileServer::new(&config.files_url.0)?,
            web: static_files::WebApp::new(
                &config.web_dist,
                channel.clone(),
                legacy_catalogue.clone(),
            ),
            cors_origins: config.cors_origins.0.clone(),
            security_headers: security_headers::SecurityHeaders::new(
                config.stripe_publishable_key.is_some(),
            )?,
            channel,
            legacy_catalogue,
            metrics: metrics::Metrics::new()?,
        })
    }
}

/// The whole HTTP surface.
pub fn app(state: AppState) -> Router {
    let cors = cors(state.cors_origins.clone());
    Router::new()
        .merge(probes::routes(state.channel.clone()))
        .merge(legacy::routes(
            state.channel.clone(),
            state.legacy_catalogue.clone(),
        ))
        .merge(files::routes(state.files.clone()))
        .merge(webhooks::routes(state.channel.clone()))
        .merge(unsubscribe::routes())
        .route(
            "/metrics",
            get(metrics::serve).with_state(state.metrics.clone()),
        )
        .fallback(grpc_web_or_web_app)
        // On the routes (so each request's route is known), inside the layers below.
        .layer(middleware::from_fn_with_state(
            state.metrics.clone(),
            metrics::record,
        ))
        .layer(
            // Outermost first: every reply (CORS preflights and errors too) gets the security
            // headers, and the request id exists before the trace span and the upstream call.
            ServiceBuilder::new()
                .layer(middleware::map_response_with_state(
                    state.security_headers.clone(),
                    security_headers::add,
                ))
                .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
                .layer(PropagateRequestIdLayer::x_request_id())
                .layer(
                    TraceLayer::new_for_http()
                        .make_span_with(request_span)
                        .on_response(telemetry::log_response)
                        // A 5xx answer is already logged by `on_response`, at ERROR; what is
                        // left (a body broken mid-stream) is usually the client leaving.
                        .on_failure(DefaultOnFailure::new().level(Level::DEBUG)),
                )
                .layer(cors),
        )
        .with_state(state)
}

/// Paths no route claims: gRPC-web calls go to the server, the rest is the web app.
async fn grpc_web_or_web_app(State(state): State<AppState>, request: Request) -> Response {
    if grpc_web::is_grpc_web(request.headers()) {
        state.upstream.forward(request).await
    } else {
        state.web.serve(request).await
    }
}

/// The route pattern rather than the path where there is one: legacy paths carry tokens.
fn request_span(request: &Request) -> tracing::Span {
    let path = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| request.uri().path(), MatchedPath::as_str);
    let request_id = request
        .headers()
        .get("x-request-id")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    tracing::info_span!("request", method = %request.method(), path, request_id)
}

/// Browsers on other origins (the Vite dev server, a separate front-end host) may call both the
/// gRPC-web and the legacy API; the gRPC headers must be exposed or every error reads
/// "missing trailer" in the browser.
fn cors(origins: Vec<http::HeaderValue>) -> CorsLayer {
    let names = |names: &[&'static str]| -> Vec<HeaderName> {
        names
            .iter()
            .map(|name| HeaderName::from_static(name))
            .collect()
    };
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers(names(&[
            "content-type",
            "x-grpc-web",
            "x-user-agent",
            "grpc-timeout",
            "authorization",
            "x-auth-token",
        ]))
        .expose_headers(names(&[
            "grpc-status",
            "grpc-message",
            "grpc-status-details-bin",
        ]))
        .max_age(Duration::from_secs(3600))
}

/// Serves until `shutdown` completes, then lets open requests finish for a short grace period.
pub async fn serve(
    config: &Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let app = app(AppState::new(config)?).into_make_service_with_connect_info::<SocketAddr>();
    let (stopping, stopped) = tokio::sync::oneshot::channel::<()>();
    // No Nagle delay: small replies would otherwise wait for the browser's delayed ACK.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let server = axum::serve(listener, app).with_graceful_shutdown(async move {
        shutdown.await;
        // Only fails when serve already returned, and then nothing waits for it.
        let _ = stopping.send(());
    });
    let grace_over = async move {
        match stopped.await {
            Ok(()) => tokio::time::sleep(SHUTDOWN_GRACE).await,
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        result = server.into_future() => result?,
        () = grace_over => tracing::warn!("shutdown grace period over; closing open streams"),
    }
    Ok(())
}

/// Binds `BFF_ADDR`, says so on stdout, and serves until SIGINT or SIGTERM.
pub async fn run(config: Config) -> anyhow::Result<()> {
    let listener = TcpListener::bind(config.addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener.local_addr()?;
    if !static_files::is_built(&config.web_dist).await {
        tracing::warn!(web_dist = %config.web_dist.display(), "web app not built: pages answer a 'not built' notice");
    }
    tracing::info!(server_url = %config.server_url, files_url = %config.files_url, "forwarding gRPC-web and files");
    println!("BFF listening on http://{addr}");
    serve(&config, listener, shutdown_signal()).await
}

async fn shutdown_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for SIGINT");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
