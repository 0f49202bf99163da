//! The repair marketplace's gRPC server.
//!
//! Layers: [`api`] (transport: tonic services) -> domain rules -> [`store`] (Postgres) and
//! [`providers`] (SMS, email, ...), with [`cache`] for short-lived values and [`auth`] in
//! front of everything as a tower layer.

pub mod accounts;
pub mod alerts;
pub mod api;
pub mod auth;
pub mod backoff;
pub mod billing;
pub mod blocking;
pub mod bootstrap;
pub mod budgets;
pub mod cache;
pub mod config;
pub mod content;
pub mod conversations;
pub mod dashboards;
pub mod domain;
pub mod error;
pub mod hiring;
pub mod housekeeping;
pub mod http_routes;
pub mod live;
pub mod matching;
pub mod metrics;
pub mod outbox;
pub mod photos;
pub mod problems;
pub mod providers;
pub mod quotes;
pub mod readiness;
pub mod requests;
pub mod retention;
pub mod reviews;
pub mod setup;
pub mod state;
pub mod store;
pub mod tax;
pub mod telemetry;
#[cfg(feature = "test-support")]
pub mod testing;
pub mod translations;
pub mod trips;
pub mod words;

use std::{net::SocketAddr, sync::Arc, time::Duration};

use anyhow::Context;
use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};
use tonic::transport::server::TcpIncoming;
use tower_http::{
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    trace::TraceLayer,
};

use crate::{
    auth::{AuthLayer, TokenKeys},
    config::Config,
    state::AppState,
    store::Database,
};

/// A server that is up and serving; stop it with [`RunningServer::stop`].
pub struct RunningServer {
    pub grpc_addr: SocketAddr,
    pub http_addr: SocketAddr,
    pub state: AppState,
    /// What `/readyz` and gRPC health answer.
    pub readiness: readiness::Readiness,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl RunningServer {
    /// Stops accepting calls, finishes those under way, closes the database (and stops the
    /// embedded cluster).
    pub async fn stop(self) -> anyhow::Result<()> {
        // Load balancers are told first, and given DRAIN_DELAY_MS to move calls away.
        self.readiness.drain();
        let delay = self.state.config.deployment.drain_delay_ms;
        tokio::time::sleep(Duration::from_millis(delay)).await;
        // Open streams would hold the graceful shutdown forever: end them first.
        self.state.open_requests.close();
        self.state.request_changes.close();
        self.state.request_reach.close();
        self.state.conversation_changes.close();
        self.readiness.close();
        let _ = self.shutdown.send(());
        self.task.await.context("server task")?
    }

    /// Resolves when the server stops by itself (a fatal error).
    pub async fn wait(&mut self) -> anyhow::Result<()> {
        (&mut self.task).await.context("server task")?
    }
}

/// Opens the database (running migrations), the cache and the providers, and serves gRPC
/// (and gRPC-web) on `config.grpc_addr`.
pub async fn start(config: Config) -> anyhow::Result<RunningServer> {
    config.check_replicas()?;
    // A damaged sales tax table stops the server here, not at the first sale.
    tax::RateTable::shipped()?;
    let database = Database::open(&config).await?;
    match prepare_state(&config, &database).await {
        Ok(prepared) => serve(config, database, prepared).await,
        Err(error) => {
            database.close().await;
            Err(error)
        }
    }
}

/// The state the handlers share, and the providers only the outbox worker may use.
struct Prepared {
    state: AppState,
    sms: Arc<dyn providers::SmsSender>,
    email: Arc<dyn providers::EmailSender>,
    push: Option<Arc<dyn providers::web_push::PushSender>>,
    native_push: providers::native_push::NativePush,
}

async fn prepare_state(config: &Config, database: &Database) -> anyhow::Result<Prepared> {
    database.migrate().await?;
    let secret = auth::secret::load(
        config.jwt_secret.as_deref(),
        database.embedded.is_some(),
        &config.data_dir,
    )
    .await?;
    let vapid = providers::web_push::vapid::load(
        config.vapid_private_key.as_deref(),
        database.embedded.is_some(),
        &config.data_dir,
    )
    .await?;
    let native_push = providers::native_push::NativePush::from_config(config).await?;
    let cache = cache::open(config.redis_url.as_deref(), &config.cache_prefix).await?;
    bootstrap::admin_from_config(&database.pool, config).await?;
    let providers = setup::providers(config, &database.pool).await?;
    let distances = Arc::new(providers::distance::DistanceService::new(
        providers.distance,
        cache.clone(),
        config.distance_concurrency,
        Duration::from_millis(config.osrm_timeout_ms.max(1)),
    ));
    let budgets = budgets::Budgets::new(database.pool.clone());
    let metrics = metrics::Metrics::new();
    let geocoding = Arc::new(providers::geocoding::service::GeocoderService::new(
        providers.gazetteer,
        providers.photon,
        cache.clone(),
        budgets.clone(),
        metrics.clone(),
        config.address_suggestions_per_client_per_hour,
    ));
    let translation = Arc::new(providers::translation::service::TranslationService::new(
        providers.translator,
        cache.clone(),
        budgets.clone(),
        providers::translation::service::Limits {
            concurrency: config.translation_concurrency,
            wait: Duration::from_millis(config.translation_timeout_ms.max(1)),
            chars_per_caller_per_hour: config.translation_chars_per_caller_per_hour,
            chars_per_hour: config.translation_chars_per_hour,
        },
    ));
    let stream_limits = live::notify_hub::StreamLimits {
        per_caller: config.watch_streams_per_professional,
        total: config.watch_streams_total,
    };
    let state = AppState {
        db: database.pool.clone(),
        reads: database.reads.clone(),
        public_profiles: store::professionals::public_profiles(
            database.reads.clone(),
            config.database_read_connections,
        ),
        sessions: auth::SessionVersions::new(database.pool.clone(), cache.clone()),
        service_keys: auth::service::ServiceKeys::new(
            database.pool.clone(),
            cache.clone(),
            config.service_account_calls_per_minute,
        ),
        cache,
        budgets,
        tokens: Arc::new(TokenKeys::new(
            &secret,
            config.session_ttl(),
            config.admin_session_ttl(),
        )),
        passwords: Arc::new(auth::password::PasswordHasher::new(
            config.hashing_workers(),
            config.hashing_queue,
        )),
        photos: Arc::new(photos::PhotoPipeline::new(
            config.photo_workers(),
            config.photo_queue,
            config.photo_max_megapixels,
        )),
        outbox: outbox::OutboxSignal::default(),
        storage: providers.storage,
        geocoder: providers.geocoder,
        geocoding,
        distances,
        open_requests: live::open_requests::hub(stream_limits),
        request_changes: live::request_changes::hub(stream_limits),
        request_reach: live::request_reach::hub(stream_limits),
        conversation_changes: live::conversation_changes::hub(live::notify_hub::StreamLimits {
            per_caller: config.watch_conversations_per_account,
            total: config.watch_streams_total,
        }),
        request_opens: store::request_opens::OpenRecorder::new(database.pool.clone()),
        translation,
        google: providers.google,
        facebook: providers.facebook,
        payments: providers::payments::metered::metered(providers.payments, &metrics),
        connect: providers.connect,
        config: Arc::new(config.clone()),
        phone_code_key: Arc::new(auth::secret::derive_key(&secret, "phone-codes")),
        counter_key: Arc::new(auth::secret::derive_key(&secret, "counter-keys")),
        file_link_key: Arc::new(auth::secret::derive_key(&secret, "file-links")),
        unsubscribe_link_key: Arc::new(auth::secret::derive_key(&secret, "unsubscribe-links")),
        metrics,
        push_public_key: vapid.as_ref().map(|key| key.public_base64url().into()),
        native_push: native_push.platforms(),
    };
    let push = match vapid {
        Some(key) => Some(Arc::new(providers::web_push::WebPushClient::new(
            key,
            config.push_contact(),
            config.push_concurrency,
        )?) as Arc<dyn providers::web_push::PushSender>),
        None => None,
    };
    Ok(Prepared {
        state,
        sms: providers.sms,
        email: providers.email,
        push,
        native_push,
    })
}

/// The outbox worker, the periodic purge, the escalation sweep, the unread-message emails'
/// sweep and the translation passes, stopped together after the last call.
struct BackgroundTasks {
    shutdown: tokio::sync::watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl BackgroundTasks {
    fn start(config: &Config, prepared: &Prepared, readiness: &readiness::Readiness) -> Self {
        let (shutdown, stop) = tokio::sync::watch::channel(false);
        let state = &prepared.state;
        let mut worker = outbox::Worker::new(
            state.db.clone(),
            prepared.sms.clone(),
            prepared.email.clone(),
            outbox::WorkerSettings::from_config(config),
            state.outbox.clone(),
        )
        .with_metrics(state.metrics.clone())
        .with_native_push(prepared.native_push.clone())
        .with_unsubscribing(Arc::new(accounts::notifications::EmailFooters::new(
            *state.unsubscribe_link_key,
            state.config.clone(),
        )));
        if let Some(push) = &prepared.push {
            worker = worker.with_push(push.clone());
        }
        let mut tasks = vec![
            worker.spawn(stop.clone()),
            housekeeping::spawn(
                state.clone(),
                Duration::from_secs(config.purge_interval_secs.max(1)),
                stop.clone(),
            ),
            live::listener::spawn(
                state.db.clone(),
                vec![
                    state.open_requests.clone(),
                    state.request_changes.clone(),
                    state.request_reach.clone(),
                    state.conversation_changes.clone(),
                ],
                stop.clone(),
            ),
            readiness.spawn_checks(
                state.db.clone(),
                state.cache.clone(),
                Duration::from_millis(config.deployment.readiness_check_ms),
                stop.clone(),
            ),
        ];
        tasks.push(requests::escalation::spawn(state.clone(), stop.clone()));
        tasks.push(conversations::emails::spawn(state.clone(), stop.clone()));
        tasks.push(accounts::export::spawn(state.clone(), stop.clone()));
        if state.translation.is_configured() {
            tasks.push(translations::spawn::<requests::translations::Descriptions>(
                state.clone(),
                stop.clone(),
            ));
            tasks.push(
                translations::spawn::<conversations::translations::Messages>(state.clone(), stop),
            );
        }
        Self { shutdown, tasks }
    }

    async fn stop(self) {
        let _ = self.shutdown.send(true);
        for task in self.tasks {
            if let Err(error) = task.await {
                tracing::error!(error = ?error, "background task failed");
            }
        }
    }
}

async fn serve(
    config: Config,
    database: Database,
    prepared: Prepared,
) -> anyhow::Result<RunningServer> {
    let state = prepared.state.clone();
    let listener = match TcpListener::bind(config.grpc_addr).await {
        Ok(listener) => listener,
        Err(error) => {
            database.close().await;
            return Err(error).with_context(|| format!("binding {}", config.grpc_addr));
        }
    };
    let grpc_addr = listener.local_addr()?;
    let http_listener = match TcpListener::bind(config.http_addr).await {
        Ok(listener) => listener,
        Err(error) => {
            database.close().await;
            return Err(error).with_context(|| format!("binding {}", config.http_addr));
        }
    };
    let http_addr = http_listener.local_addr()?;

    let limits = match api::limits::RequestLimitsLayer::new() {
        Ok(limits) => limits,
        Err(error) => {
            database.close().await;
            return Err(error);
        }
    };

    let readiness = readiness::Readiness::default();
    // v1 for current clients, v1alpha for the many (grpcurl, Python) that still ask for it.
    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(repairs_proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
    };
    let reflection_v1 = reflection().build_v1().context("building reflection v1")?;
    let reflection_v1alpha = reflection()
        .build_v1alpha()
        .context("building reflection v1alpha")?;

    let routes = api::routes(state.clone())
        .add_service(api::health::service(readiness.clone()))
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha);

    let (shutdown, shutdown_signal) = oneshot::channel::<()>();
    let request_id = http::HeaderName::from_static("x-request-id");
    let server = tonic::transport::Server::builder()
        .accept_http1(true)
        .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
        .layer(
            TraceLayer::new_for_grpc()
                .make_span_with(|request: &http::Request<_>| {
                    let id = request
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    tracing::info_span!("rpc", path = %request.uri().path(), request_id = %id)
                })
                .on_failure(telemetry::log_grpc_failure),
        )
        .layer(PropagateRequestIdLayer::new(request_id))
        .layer(tonic_web::GrpcWebLayer::new())
        // Below gRPC-web (the status is in the trailers here), above the deadline and auth
        // (their refusals are counted).
        .layer(metrics::RpcMetricsLayer::new(&state.metrics))
        // Not tonic's `timeout`, which answers CANCELLED. The layers above call this one as
        // they are called, so its clock starts before tonic's (which reads `grpc-timeout`
        // too); the auth layer below would call later.
        .layer(api::deadline::DeadlineLayer::new(Duration::from_millis(
            config.rpc_timeout_ms.max(1),
        )))
        .layer(AuthLayer::new(
            state.tokens.clone(),
            state.sessions.clone(),
            auth::layer::ServiceAuth {
                keys: state.service_keys.clone(),
                metrics: state.metrics.clone(),
            },
        ))
        .layer(limits)
        .layer(store::transaction::TrackedLayer)
        .add_routes(routes);

    let (http_shutdown, http_shutdown_signal) = oneshot::channel::<()>();
    let http_listener = axum::serve::ListenerExt::tap_io(http_listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let http = axum::serve(
        http_listener,
        http_routes::router(state.clone(), readiness.clone())
            .layer(store::transaction::TrackedLayer),
    )
    .with_graceful_shutdown(async {
        let _ = http_shutdown_signal.await;
    });
    let background = BackgroundTasks::start(&config, &prepared, &readiness);
    let task = tokio::spawn(async move {
        let http_task = tokio::spawn(async move { http.await.context("serving HTTP") });
        let result = server
            // No Nagle delay: small replies would otherwise wait for the peer's delayed ACK.
            .serve_with_incoming_shutdown(
                TcpIncoming::from(listener).with_nodelay(Some(true)),
                async {
                    let _ = shutdown_signal.await;
                },
            )
            .await
            .context("serving gRPC");
        let _ = http_shutdown.send(());
        let http_result = http_task.await.context("HTTP task");
        background.stop().await;
        database.close().await;
        result.and(http_result?)
    });
    tracing::info!(%grpc_addr, %http_addr, "server listening");
    Ok(RunningServer {
        grpc_addr,
        http_addr,
        state,
        readiness,
        shutdown,
        task,
    })
}
