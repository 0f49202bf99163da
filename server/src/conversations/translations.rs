//! Messages in the translation pass (`crate::translations`): when a provider is configured
//! and a message's reader reads the other language, the message is made due in the
//! transaction that writes it, so reading a conversation never waits on the provider. The
//! reader sees the translation beside the original (`text_translation`).

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::{
    state::AppState,
    store::message_translations::{self, Due},
    translations::{DueText, Queue, other_language},
};

/// The messages waiting for their translation.
pub struct Messages;

#[async_trait]
impl Queue for Messages {
    const WHAT: &'static str = "message";
    const BATCH: i64 = 20;
    type Due = Due;

    async fn claim(state: &AppState, lease_until: DateTime<Utc>) -> sqlx::Result<Vec<Due>> {
        message_translations::claim(&state.db, Self::BATCH, lease_until).await
    }

    fn text(due: &Due) -> DueText<'_> {
        DueText {
            id: due.id,
            text: &due.text,
            source: due.text_language,
            target: other_language(due.text_language),
            attempts: due.attempts,
        }
    }

    async fn store(state: &AppState, due: &Due, translated: &str) -> sqlx::Result<bool> {
        message_translations::store(&state.db, due.id, translated).await
    }

    async fn failed(
        state: &AppState,
        due: &Due,
        retry_at: Option<DateTime<Utc>>,
        error: &str,
    ) -> sqlx::Result<()> {
        message_translations::failed(&state.db, due.id, retry_at, error).await
    }

    async fn written(state: &AppState) {
        state.translation.messages_written().await;
    }
}
