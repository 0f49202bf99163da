//! The translation pass of messages: when a provider is configured and a message's reader
//! reads the other language, the message is made due in the transaction that writes it and
//! translated here after, as requests' descriptions are (`requests::translations`: the same
//! provider, cache, service budget and retries), so reading a conversation never waits on the
//! provider. The reader sees the translation beside the original (`text_translation`).

use std::time::Duration;

use chrono::Utc;
use tokio::{sync::watch, task::JoinHandle};

use crate::{
    requests::translations::{other_language, retry_at, translate_text},
    state::AppState,
    store::message_translations::{self, Due},
};

/// How often other processes' new messages are looked for (this process's wake it).
const POLL_EVERY: Duration = Duration::from_secs(5);
/// Messages claimed at a time, and how long a claim holds.
const BATCH: i64 = 20;
const LEASE: Duration = Duration::from_secs(120);

/// Translates every due message, a batch at a time; how many were translated.
pub async fn translate_due(state: &AppState) -> sqlx::Result<usize> {
    let mut translated = 0;
    loop {
        let claimed = message_translations::claim(&state.db, BATCH, Utc::now() + LEASE).await?;
        let full = claimed.len() == usize::try_from(BATCH).unwrap_or(usize::MAX);
        for due in claimed {
            if translate_one(state, &due).await? {
                translated += 1;
            }
        }
        if !full {
            return Ok(translated);
        }
    }
}

async fn translate_one(state: &AppState, due: &Due) -> sqlx::Result<bool> {
    let target = other_language(due.text_language);
    match translate_text(state, &due.text, due.text_language, target).await {
        Ok(translated) => message_translations::store(&state.db, due.id, &translated).await,
        Err(error) => {
            let retry_at = retry_at(due.attempts);
            tracing::warn!(
                message = %due.id,
                attempts = due.attempts,
                %error,
                will_retry = retry_at.is_some(),
                "message not translated"
            );
            message_translations::failed(&state.db, due.id, retry_at, &error).await?;
            Ok(false)
        }
    }
}

pub fn spawn(state: AppState, mut shutdown: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(crate::store::transaction::tracked(async move {
        while !*shutdown.borrow() {
            if let Err(error) = translate_due(&state).await {
                tracing::error!(error = ?error, "message translations could not be read");
            }
            tokio::select! {
                () = tokio::time::sleep(POLL_EVERY) => {}
                () = state.translation.messages_written() => {}
                changed = shutdown.changed() => if changed.is_err() { break },
            }
        }
    }))
}
