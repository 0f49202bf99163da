//! What every handler can reach: the database, the cache, the token keys and the providers.

use std::sync::Arc;

use sqlx::PgPool;

use crate::{
    auth::{SessionVersions, TokenKeys},
    cache::Cache,
    config::Config,
    providers::{EmailSender, FacebookIdentity, FileStorage, Geocoder, GoogleIdentity, SmsSender},
};

#[derive(Clone)]
pub struct AppState {
    pub db: PgPool,
    pub cache: Arc<dyn Cache>,
    pub tokens: Arc<TokenKeys>,
    /// Current token versions: ending sessions before they expire.
    pub sessions: SessionVersions,
    pub sms: Arc<dyn SmsSender>,
    pub email: Arc<dyn EmailSender>,
    pub config: Arc<Config>,
    pub storage: Arc<dyn FileStorage>,
    pub geocoder: Arc<dyn Geocoder>,
    pub google: Arc<dyn GoogleIdentity>,
    pub facebook: Arc<dyn FacebookIdentity>,
    /// Key of the keyed hashes of phone codes (derived from the server secret).
    pub phone_code_key: Arc<[u8; 32]>,
    /// Key that signs file links (derived from the server secret).
    pub file_link_key: Arc<[u8; 32]>,
}
