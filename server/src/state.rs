//! What every handler can reach: the database, the cache, the token keys and the providers.

use std::sync::Arc;

use sqlx::PgPool;

use crate::{
    auth::TokenKeys,
    cache::Cache,
    config::Config,
    providers::{EmailSender, SmsSender},
};

#[derive(Clone)]
pub struct AppState {
    pub db: PgPool,
    pub cache: Arc<dyn Cache>,
    pub tokens: Arc<TokenKeys>,
    pub sms: Arc<dyn SmsSender>,
    pub email: Arc<dyn EmailSender>,
    pub config: Arc<Config>,
}
