//! The translation pass: translates repair requests' descriptions into the other language
//! after they are written, so professionals who read that language see a translation beside
//! the original and reading a request never waits on the provider. Runs in each server
//! process when a translation provider is configured; a description's translation is made
//! due in the transaction that writes it (`store::request_translations::make_due`), claimed
//! here with a lease, paid from the service's translation budget (not the customer's), and
//! retried with backoff when the provider fails or the budget is spent.

use std::time::Duration;

use chrono::Utc;
use tokio::{sync::watch, task::JoinHandle};

use crate::{
    domain::Language,
    providers::translation::service::{Payer, Texts},
    state::AppState,
    store::request_translations::{self, Due},
};

/// How often other processes' new descriptions are looked for (this process's wake it).
const POLL_EVERY: Duration = Duration::from_secs(5);
/// Descriptions claimed at a time, and how long a claim holds.
const BATCH: i64 = 10;
const LEASE: Duration = Duration::from_secs(120);
/// Tries of one description before it stays untranslated.
const MAX_ATTEMPTS: i32 = 6;

/// Wait before the next try: 30 s, doubled at each try, at most an hour.
fn backoff(attempts: i32) -> Duration {
    crate::backoff::doubling(attempts, Duration::from_secs(30), Duration::from_secs(3600))
}

/// The language a description is translated into: the other one.
pub fn other_language(language: Language) -> Language {
    match language {
        Language::English => Language::French,
        Language::French => Language::English,
    }
}

pub fn spawn(state: AppState, mut shutdown: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(crate::store::transaction::tracked(async move {
        while !*shutdown.borrow() {
            if let Err(error) = translate_due(&state).await {
                tracing::error!(error = ?error, "description translations could not be read");
            }
            tokio::select! {
                () = tokio::time::sleep(POLL_EVERY) => {}
                () = state.translation.descriptions_written() => {}
                changed = shutdown.changed() => if changed.is_err() { break },
            }
        }
    }))
}

/// Translates every due description, a batch at a time; how many were translated.
pub async fn translate_due(state: &AppState) -> sqlx::Result<usize> {
    let mut translated = 0;
    loop {
        let lease_until = Utc::now() + LEASE;
        let claimed = request_translations::claim(&state.db, BATCH, lease_until).await?;
        let full = claimed.len() == usize::try_from(BATCH).unwrap_or(usize::MAX);
        for due in claimed {
            if translate_one(state, due).await? {
                translated += 1;
            }
        }
        if !full {
            return Ok(translated);
        }
    }
}

/// `text` (in `source`) translated into `target`, paid from the service's budget; why not.
pub async fn translate_text(
    state: &AppState,
    text: &str,
    source: Language,
    target: Language,
) -> Result<String, String> {
    let texts = Texts::one(text.to_owned()).map_err(|error| error.to_string())?;
    let answer = state
        .translation
        .translate(Payer::Service, &texts, Some(source), target)
        .await;
    match answer.map(|mut all| all.pop()) {
        Ok(Some(translated)) => Ok(translated.text),
        Ok(None) => Err("the provider answered no translation".to_owned()),
        Err(error) => Err(error.to_string()),
    }
}

/// When a text that failed its try number `attempts` is tried again; `None` after the last.
pub fn retry_at(attempts: i32) -> Option<chrono::DateTime<Utc>> {
    (attempts < MAX_ATTEMPTS).then(|| Utc::now() + backoff(attempts))
}

async fn translate_one(state: &AppState, due: Due) -> sqlx::Result<bool> {
    let (source, target) = (due.description_language, due.target_language);
    let error = match translate_text(state, &due.description, source, target).await {
        Ok(translated) => {
            return request_translations::store(
                &state.db,
                due.repair_request_id,
                &due.description,
                &translated,
            )
            .await;
        }
        Err(error) => error,
    };
    let retry_at = retry_at(due.attempts);
    tracing::warn!(
        request = %due.repair_request_id,
        attempts = due.attempts,
        %error,
        will_retry = retry_at.is_some(),
        "description not translated"
    );
    request_translations::failed(
        &state.db,
        due.repair_request_id,
        due.attempts,
        retry_at,
        &error,
    )
    .await?;
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        assert_eq!(backoff(1), Duration::from_secs(30));
        assert_eq!(backoff(2), Duration::from_secs(60));
        assert_eq!(backoff(20), Duration::from_secs(3600));
    }
}
