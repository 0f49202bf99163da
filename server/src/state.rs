//! What every handler can reach: the database, the cache, the budgets, the token keys and the
//! providers. Email and SMS are not here: they go through the outbox.

use std::sync::Arc;

use sqlx::PgPool;

use crate::store::reads::Reads;

use crate::{
    auth::{SessionVersions, TokenKeys, password::PasswordHasher},
    budgets::Budgets,
    cache::Cache,
    config::Config,
    live::{
        conversation_changes::ConversationChangesHub, open_requests::OpenRequestsHub,
        request_changes::RequestChangesHub, request_reach::RequestReachHub,
    },
    metrics::Metrics,
    outbox::OutboxSignal,
    photos::PhotoPipeline,
    providers::distance::DistanceService,
    providers::translation::service::TranslationService,
    providers::{
        FacebookIdentity, FileStorage, Geocoder, GoogleIdentity, PaymentGateway,
        payments::stripe::StripeGateway,
    },
};

#[derive(Clone)]
pub struct AppState {
    pub db: PgPool,
    /// Connections for reads of one statement outside a transaction (`store::reads`).
    pub reads: Reads,
    /// Public profiles, read in batches on `reads` (`store::batched`).
    pub public_profiles: crate::store::professionals::PublicProfiles,
    /// Short-lived values: phone codes, cached versions, distances and translations.
    pub cache: Arc<dyn Cache>,
    /// Hourly budgets and the sign-in limit, counted in Postgres (`crate::budgets`).
    pub budgets: Budgets,
    pub tokens: Arc<TokenKeys>,
    /// Current token versions: ending sessions before they expire.
    pub sessions: SessionVersions,
    /// Service accounts' keys, checked by the auth layer (`auth::service`).
    pub service_keys: crate::auth::service::ServiceKeys,
    /// Argon2 with bounded concurrency: every password hash and check goes through it.
    pub passwords: Arc<PasswordHasher>,
    /// Uploaded photos are decoded and written again here, with bounded concurrency
    /// (`crate::photos::process`).
    pub photos: Arc<PhotoPipeline>,
    /// Email and SMS are written to the outbox (`crate::outbox::enqueue`); this wakes the
    /// worker that sends them.
    pub outbox: OutboxSignal,
    pub config: Arc<Config>,
    pub storage: Arc<dyn FileStorage>,
    pub geocoder: Arc<dyn Geocoder>,
    /// Placing, suggesting and reverse-geocoding addresses (Photon, cache, budget, pause,
    /// gazetteer fallback).
    pub geocoding: Arc<crate::providers::geocoding::service::GeocoderService>,
    /// Distances for display, cached (`crate::providers::distance::cached`).
    pub distances: Arc<DistanceService>,
    /// New open requests pushed to the professionals watching their list.
    pub open_requests: Arc<OpenRequestsHub>,
    /// Changes of requests and their quotes pushed to those watching one request.
    pub request_changes: Arc<RequestChangesHub>,
    /// Requests whose counts of professionals alerted and who opened them may have changed,
    /// pushed to their customer's watch (`requests::reach`).
    pub request_reach: Arc<RequestReachHub>,
    /// New messages and read markers pushed to those watching a conversation
    /// (`conversations::watch`).
    pub conversation_changes: Arc<ConversationChangesHub>,
    /// Professionals' opens of requests, waiting to be written in batches
    /// (`store::request_opens`).
    pub request_opens: crate::store::request_opens::OpenRecorder,
    /// Translation through the configured provider, cached and bounded.
    pub translation: Arc<TranslationService>,
    pub google: Arc<dyn GoogleIdentity>,
    pub facebook: Arc<dyn FacebookIdentity>,
    /// The card gateway: Stripe when configured, the offline test gateway otherwise. Money
    /// moves through `billing::Ledger`, never through this directly.
    pub payments: Arc<dyn PaymentGateway>,
    /// Stripe Connect for payouts, when Stripe is configured (`billing::payouts`).
    pub connect: Option<Arc<StripeGateway>>,
    /// Key of the keyed hashes of phone codes (derived from the server secret).
    pub phone_code_key: Arc<[u8; 32]>,
    /// Key of the keyed hashes that name per-email counters in the cache (derived from the
    /// server secret), so the cache holds no addresses and cannot confirm a guessed one.
    pub counter_key: Arc<[u8; 32]>,
    /// Key that signs file links (derived from the server secret).
    pub file_link_key: Arc<[u8; 32]>,
    /// Signs the emails' unsubscribe links (`accounts::notifications`).
    pub unsubscribe_link_key: Arc<[u8; 32]>,
    /// What `/metrics` reports (`crate::metrics`).
    pub metrics: Metrics,
    /// The VAPID public key browsers subscribe to Web Push with (base64url); `None` when
    /// this server sends no pushes.
    pub push_public_key: Option<Arc<str>>,
    /// The native platforms (APNs, FCM) this server has keys for: native devices of the
    /// others are refused.
    pub native_push: crate::providers::native_push::NativePlatforms,
}
