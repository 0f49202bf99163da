//! Prometheus metrics of one server process, served in the text format at `/metrics` on the
//! HTTP listener (`crate::http_routes`).
//!
//! Counted as things happen (atomics, no allocation on the way): every RPC by method and
//! status code with its latency ([`RpcMetricsLayer`]), payment failures, webhook failures and
//! the time from a request's placing to each notification handed to its provider. Read when
//! scraped ([`Metrics::render`] with a [`Snapshot`]): the pool, the outbox, open streams
//! and lapsing holds, from cheap queries on partial indexes.
//!
//! | metric | type | labels |
//! | --- | --- | --- |
//! | `grpc_server_handled_total` | counter | `grpc_service`, `grpc_method`, `grpc_code` |
//! | `grpc_server_handling_seconds` | histogram | `grpc_service`, `grpc_method` |
//! | `repairs_db_pool_connections` | gauge | `state` (`in_use`, `idle`) |
//! | `repairs_db_pool_max_connections` | gauge | |
//! | `repairs_db_pool_acquire_timeouts_total` | counter | |
//! | `repairs_outbox_messages` | gauge | `state` (`pending`, `parked`) |
//! | `repairs_outbox_oldest_pending_seconds` | gauge | |
//! | `repairs_open_streams` | gauge | `stream` |
//! | `repairs_webhook_failures_total` | counter | `provider`, `reason` |
//! | `repairs_payment_failures_total` | counter | `operation`, `reason` |
//! | `repairs_geocoder_failures_total` | counter | `operation` (`suggest`, `locate`, `reverse`), `reason` (`timeout`, `rate_limited`, `status`, `unreachable`, `unreadable`, `paused`) |
//! | `repairs_payment_holds` | gauge | `state` (`lapsing`: ends within a day, `lapsed`: ended, still held) |
//! | `repairs_notification_delay_seconds` | histogram | `channel` |
//! | `repairs_emergency_escalations_total` | counter | |
//! | `repairs_housekeeping_passes_total` | counter | `outcome` (`ok`, `failed`: a step failed) |
//! | `repairs_housekeeping_last_pass_timestamp_seconds` | gauge | |
//! | `repairs_retention_erased_total` | counter | `kind` (`requests`, `request_photos`, `problem_photos`, `message_photos`, `messages`, `outbox_messages`) |
//! | `repairs_service_account_calls_total` | counter | `service_account` (its id), `grpc_method`, `outcome` (`admitted`, `scope_missing`, `rate_limited`) |

mod rpc;

use std::sync::{
    Arc,
    atomic::{AtomicU64, Ordering},
};

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    IntGaugeVec, Opts, Registry, TextEncoder,
};

pub use rpc::{RpcMetrics, RpcMetricsLayer};

/// The content type of [`Metrics::render`]'s text.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Pool acquires that gave up waiting, since the process started (counted where sqlx's
/// error is turned into the caller's, `crate::error`).
static POOL_TIMEOUTS: AtomicU64 = AtomicU64::new(0);

/// A database call waited for a pooled connection until the pool's timeout.
pub fn count_pool_timeout() {
    POOL_TIMEOUTS.fetch_add(1, Ordering::Relaxed);
}

/// The metrics of one server; cheap to clone (one registry shared by the clones).
#[derive(Clone)]
pub struct Metrics(Arc<Inner>);

struct Inner {
    registry: Registry,
    rpc: RpcMetrics,
    webhook_failures: IntCounterVec,
    payment_failures: IntCounterVec,
    geocoder_failures: IntCounterVec,
    notification_delay: HistogramVec,
    escalations: IntCounter,
    service_calls: IntCounterVec,
    housekeeping_passes: IntCounterVec,
    housekeeping_last_pass: prometheus::Gauge,
    retention_erased: IntCounterVec,
    pool: IntGaugeVec,
    pool_max: IntGauge,
    pool_timeouts: IntCounter,
    outbox: IntGaugeVec,
    outbox_oldest: prometheus::Gauge,
    streams: IntGaugeVec,
    holds: IntGaugeVec,
}

/// What is read when scraped.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub pool_in_use: u32,
    pub pool_idle: u32,
    pub pool_max: u32,
    /// Open live streams by stream name.
    pub streams: Vec<(&'static str, usize)>,
    /// `None` when the database could not be read (the series keep their last values).
    pub outbox: Option<OutboxGauges>,
    pub holds: Option<HoldGauges>,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct OutboxGauges {
    pub pending: i64,
    pub parked: i64,
    /// Age of the oldest message still to be sent; 0 when there is none.
    pub oldest_pending_secs: f64,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct HoldGauges {
    /// Card holds still in place that end within a day.
    pub lapsing: i64,
    /// Card holds past their end that nothing released yet.
    pub lapsed: i64,
}

/// Seconds, from a millisecond to ten seconds: RPCs.
const RPC_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
/// Seconds, from a tenth of a second (a push) to an hour: a request's placing to a
/// notification's sending.
const DELAY_BUCKETS: &[f64] = &[
    0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0,
];

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

/// Registers `metric` (a name registered twice is a bug of this file, caught by its tests).
fn registered<M: prometheus::core::Collector + Clone + 'static>(
    registry: &Registry,
    metric: Result<M, prometheus::Error>,
) -> M {
    #[allow(clippy::expect_used, reason = "fixed names and labels, tested")]
    let metric = metric.expect("a valid metric");
    #[allow(
        clippy::expect_used,
        reason = "fixed names, each registered once, tested"
    )]
    registry
        .register(Box::new(metric.clone()))
        .expect("a metric registered once");
    metric
}

fn counters(name: &str, help: &str, labels: &[&str]) -> Result<IntCounterVec, prometheus::Error> {
    IntCounterVec::new(Opts::new(name, help), labels)
}

fn gauges(name: &str, help: &str, labels: &[&str]) -> Result<IntGaugeVec, prometheus::Error> {
    IntGaugeVec::new(Opts::new(name, help), labels)
}

fn histograms(
    name: &str,
    help: &str,
    buckets: &[f64],
    labels: &[&str],
) -> Result<HistogramVec, prometheus::Error> {
    HistogramVec::new(
        HistogramOpts::new(name, help).buckets(buckets.to_vec()),
        labels,
    )
}

impl Metrics {
    pub fn new() -> Self {
        let registry = Registry::new();
        let r = &registry;
        let rpc = RpcMetrics::new(
            registered(
                r,
                counters(
                    "grpc_server_handled_total",
                    "RPCs completed, by method and gRPC status code.",
                    &["grpc_service", "grpc_method", "grpc_code"],
                ),
            ),
            registered(
                r,
                histograms(
                    "grpc_server_handling_seconds",
                    "Time from an RPC's arrival to its status (a stream's whole life).",
                    RPC_BUCKETS,
                    &["grpc_service", "grpc_method"],
                ),
            ),
        );
        let inner = Inner {
            rpc,
            webhook_failures: registered(
                r,
                counters(
                    "repairs_webhook_failures_total",
                    "Provider webhooks refused or not applied, by provider and reason.",
                    &["provider", "reason"],
                ),
            ),
            payment_failures: registered(
                r,
                counters(
                    "repairs_payment_failures_total",
                    "Card gateway calls that failed, by operation and reason.",
                    &["operation", "reason"],
                ),
            ),
            geocoder_failures: registered(
                r,
                counters(
                    "repairs_geocoder_failures_total",
                    "Geocoder (Photon) calls that failed or were skipped while it was paused, \
                     answered from the gazetteer instead, by operation and reason.",
                    &["operation", "reason"],
                ),
            ),
            notification_delay: registered(
                r,
                histograms(
                    "repairs_notification_delay_seconds",
                    "From a repair request's placing to a notification of it handed to its provider.",
                    DELAY_BUCKETS,
                    &["channel"],
                ),
            ),
            escalations: registered(
                r,
                IntCounter::new(
                    "repairs_emergency_escalations_total",
                    "Emergencies nobody quoted on in time, announced to the next ring.",
                ),
            ),
            service_calls: registered(
                r,
                counters(
                    "repairs_service_account_calls_total",
                    "Calls made with a service account's key, by account, method and outcome.",
                    &["service_account", "grpc_method", "outcome"],
                ),
            ),
            housekeeping_passes: registered(
                r,
                counters(
                    "repairs_housekeeping_passes_total",
                    "Housekeeping passes finished, by outcome (failed: a step of it failed).",
                    &["outcome"],
                ),
            ),
            housekeeping_last_pass: registered(
                r,
                prometheus::Gauge::new(
                    "repairs_housekeeping_last_pass_timestamp_seconds",
                    "When this process last finished a housekeeping pass (Unix time; 0: none yet).",
                ),
            ),
            retention_erased: registered(
                r,
                counters(
                    "repairs_retention_erased_total",
                    "Records erased because their retention period ended, by kind.",
                    &["kind"],
                ),
            ),
            pool: registered(
                r,
                gauges(
                    "repairs_db_pool_connections",
                    "Database connections of the pool, in use or idle.",
                    &["state"],
                ),
            ),
            pool_max: registered(
                r,
                IntGauge::new(
                    "repairs_db_pool_max_connections",
                    "The pool's largest number of connections.",
                ),
            ),
            pool_timeouts: registered(
                r,
                IntCounter::new(
                    "repairs_db_pool_acquire_timeouts_total",
                    "Database calls that waited for a connection until the pool's timeout.",
                ),
            ),
            outbox: registered(
                r,
                gauges(
                    "repairs_outbox_messages",
                    "Outbox messages still to send (pending) or given up on (parked).",
                    &["state"],
                ),
            ),
            outbox_oldest: registered(
                r,
                prometheus::Gauge::new(
                    "repairs_outbox_oldest_pending_seconds",
                    "Age of the oldest outbox message still to send (0: none).",
                ),
            ),
            streams: registered(
                r,
                gauges(
                    "repairs_open_streams",
                    "Live streams open on this server, by stream.",
                    &["stream"],
                ),
            ),
            holds: registered(
                r,
                gauges(
                    "repairs_payment_holds",
                    "Card holds still in place that end within a day (lapsing) or have ended (lapsed).",
                    &["state"],
                ),
            ),
            registry,
        };
        Self(Arc::new(inner))
    }

    /// The per-RPC counters, for [`RpcMetricsLayer`].
    pub fn rpc(&self) -> &RpcMetrics {
        &self.0.rpc
    }

    /// A provider's webhook was refused or could not be applied.
    pub fn webhook_failed(&self, provider: &str, reason: &str) {
        self.0
            .webhook_failures
            .with_label_values(&[provider, reason])
            .inc();
    }

    /// A card gateway call failed.
    pub fn payment_failed(&self, operation: &str, reason: &str) {
        self.0
            .payment_failures
            .with_label_values(&[operation, reason])
            .inc();
    }

    /// A geocoder call failed (or was not made, the geocoder being paused) and the gazetteer
    /// answered instead.
    pub fn geocoder_failed(&self, operation: &str, reason: &str) {
        self.0
            .geocoder_failures
            .with_label_values(&[operation, reason])
            .inc();
    }

    /// A notification of a request was handed to its provider `seconds` after the request
    /// was placed.
    pub fn notification_sent(&self, channel: &str, seconds: f64) {
        self.notification_delay(channel).observe(seconds.max(0.0));
    }

    /// An emergency was announced to its next ring (`crate::requests::escalation`).
    /// A call with a good service key: `admitted`, or refused (`scope_missing`,
    /// `rate_limited`). Only accounts that exist are labels, so callers cannot grow the series.
    pub fn count_service_call(&self, account_id: uuid::Uuid, path: &str, outcome: &str) {
        let method = path.rsplit('/').next().unwrap_or_default();
        self.0
            .service_calls
            .with_label_values(&[account_id.to_string().as_str(), method, outcome])
            .inc();
    }

    pub fn emergency_escalated(&self) {
        self.0.escalations.inc();
    }

    /// A housekeeping pass finished (`crate::housekeeping`); `ok` when every step of it did.
    pub fn housekeeping_pass_finished(&self, ok: bool, at: chrono::DateTime<chrono::Utc>) {
        let outcome = if ok { "ok" } else { "failed" };
        let inner = &self.0;
        inner
            .housekeeping_passes
            .with_label_values(&[outcome])
            .inc();
        inner
            .housekeeping_last_pass
            .set(at.timestamp_millis() as f64 / 1000.0);
    }

    /// The retention pass erased `n` records of `kind` (`crate::retention`).
    pub fn retention_erased(&self, kind: &str, n: u64) {
        if n > 0 {
            self.0.retention_erased.with_label_values(&[kind]).inc_by(n);
        }
    }

    fn notification_delay(&self, channel: &str) -> Histogram {
        self.0.notification_delay.with_label_values(&[channel])
    }

    /// Every metric in the text format, with the scraped gauges set from `snapshot`.
    pub fn render(&self, snapshot: &Snapshot) -> String {
        let inner = &self.0;
        inner
            .pool
            .with_label_values(&["in_use"])
            .set(i64::from(snapshot.pool_in_use));
        inner
            .pool
            .with_label_values(&["idle"])
            .set(i64::from(snapshot.pool_idle));
        inner.pool_max.set(i64::from(snapshot.pool_max));
        let timeouts = POOL_TIMEOUTS.load(Ordering::Relaxed);
        inner
            .pool_timeouts
            .inc_by(timeouts.saturating_sub(inner.pool_timeouts.get()));
        for (stream, open) in &snapshot.streams {
            inner
                .streams
                .with_label_values(&[stream])
                .set(i64::try_from(*open).unwrap_or(i64::MAX));
        }
        if let Some(outbox) = snapshot.outbox {
            inner
                .outbox
                .with_label_values(&["pending"])
                .set(outbox.pending);
            inner
                .outbox
                .with_label_values(&["parked"])
                .set(outbox.parked);
            inner.outbox_oldest.set(outbox.oldest_pending_secs);
        }
        if let Some(holds) = snapshot.holds {
            inner
                .holds
                .with_label_values(&["lapsing"])
                .set(holds.lapsing);
            inner.holds.with_label_values(&["lapsed"]).set(holds.lapsed);
        }
        let mut text = Vec::new();
        if let Err(error) = TextEncoder::new().encode(&inner.registry.gather(), &mut text) {
            tracing::error!(%error, "could not write the metrics");
        }
        String::from_utf8_lossy(&text).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_written_with_the_scraped_gauges() {
        let metrics = Metrics::new();
        metrics.webhook_failed("stripe", "signature");
        metrics.payment_failed("authorize", "declined");
        metrics.notification_sent("sms", 3.0);
        let at = chrono::DateTime::from_timestamp(1_700_000_000, 500_000_000).unwrap_or_default();
        metrics.housekeeping_pass_finished(false, at);
        let text = metrics.render(&Snapshot {
            pool_in_use: 2,
            pool_idle: 3,
            pool_max: 10,
            streams: vec![("open_requests", 4)],
            outbox: Some(OutboxGauges {
                pending: 5,
                parked: 1,
                oldest_pending_secs: 12.5,
            }),
            holds: Some(HoldGauges {
                lapsing: 2,
                lapsed: 0,
            }),
        });
        for line in [
            "repairs_webhook_failures_total{provider=\"stripe\",reason=\"signature\"} 1",
            "repairs_payment_failures_total{operation=\"authorize\",reason=\"declined\"} 1",
            "repairs_notification_delay_seconds_bucket{channel=\"sms\",le=\"5\"} 1",
            "repairs_db_pool_connections{state=\"in_use\"} 2",
            "repairs_db_pool_connections{state=\"idle\"} 3",
            "repairs_db_pool_max_connections 10",
            "repairs_open_streams{stream=\"open_requests\"} 4",
            "repairs_outbox_messages{state=\"pending\"} 5",
            "repairs_outbox_messages{state=\"parked\"} 1",
            "repairs_outbox_oldest_pending_seconds 12.5",
            "repairs_payment_holds{state=\"lapsing\"} 2",
            "repairs_payment_holds{state=\"lapsed\"} 0",
            "repairs_housekeeping_passes_total{outcome=\"failed\"} 1",
            "repairs_housekeeping_last_pass_timestamp_seconds 1700000000.5",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "{line} missing from:\n{text}"
            );
        }
    }

    #[test]
    fn pool_timeouts_are_carried_into_the_counter() {
        let metrics = Metrics::new();
        count_pool_timeout();
        let text = metrics.render(&Snapshot::default());
        let line = text
            .lines()
            .find(|l| l.starts_with("repairs_db_pool_acquire_timeouts_total "))
            .unwrap_or_default();
        let value: u64 = line.rsplit(' ').next().unwrap_or("0").parse().unwrap_or(0);
        assert!(value >= 1, "{line}");
    }
}
