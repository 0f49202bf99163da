//! The translation pass, one for every kind of text people write that readers of the other
//! language read (requests' descriptions, conversations' messages): a text is made due in
//! the transaction that writes it, claimed here with a lease, translated by the provider
//! paid from the service's budget (not the writer's), stored beside the original, and
//! retried with backoff when the provider fails or the budget is spent. Runs in each server
//! process when a translation provider is configured, so reading never waits on the
//! provider. Each kind of text is a [`Queue`]: where its due texts are kept.

use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use tokio::{sync::watch, task::JoinHandle};
use uuid::Uuid;

use crate::{
    domain::Language,
    providers::translation::service::{Payer, Texts},
    state::AppState,
};

/// How often other processes' new texts are looked for (this process's wake it).
const POLL_EVERY: Duration = Duration::from_secs(5);
/// How long a claim holds.
const LEASE: Duration = Duration::from_secs(120);
/// Tries of one text before it stays untranslated.
const MAX_ATTEMPTS: i32 = 6;

/// One due text, as a queue hands it to the pass.
pub struct DueText<'a> {
    /// The record it belongs to, for the logs.
    pub id: Uuid,
    pub text: &'a str,
    pub source: Language,
    pub target: Language,
    /// Tries of it, this one included.
    pub attempts: i32,
}

/// Where one kind of text waits for its translation.
#[async_trait]
pub trait Queue: Send + Sync + 'static {
    /// What is translated, for the logs ("description", "message").
    const WHAT: &'static str;
    /// Texts claimed at a time.
    const BATCH: i64;
    type Due: Send + Sync;

    /// Claims up to [`Self::BATCH`] due texts until `lease_until`, counting a try of each.
    async fn claim(state: &AppState, lease_until: DateTime<Utc>) -> sqlx::Result<Vec<Self::Due>>;
    fn text(due: &Self::Due) -> DueText<'_>;
    /// Keeps the translation; whether it was kept (the text may have changed or gone).
    async fn store(state: &AppState, due: &Self::Due, translated: &str) -> sqlx::Result<bool>;
    /// Records a failed try, to be tried again at `retry_at` (`None`: never).
    async fn failed(
        state: &AppState,
        due: &Self::Due,
        retry_at: Option<DateTime<Utc>>,
        error: &str,
    ) -> sqlx::Result<()>;
    /// Ends when this process wrote a text of this kind.
    async fn written(state: &AppState);
}

/// The language a text is translated into: the other one.
pub fn other_language(language: Language) -> Language {
    match language {
        Language::English => Language::French,
        Language::French => Language::English,
    }
}

/// Wait before the next try: 30 s, doubled at each try, at most an hour.
fn backoff(attempts: i32) -> Duration {
    crate::backoff::doubling(attempts, Duration::from_secs(30), Duration::from_secs(3600))
}

/// When a text that failed its try number `attempts` is tried again; `None` after the last.
fn retry_at(attempts: i32) -> Option<DateTime<Utc>> {
    (attempts < MAX_ATTEMPTS).then(|| Utc::now() + backoff(attempts))
}

/// Runs the pass of `Q` until `shutdown`.
pub fn spawn<Q: Queue>(state: AppState, mut shutdown: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(crate::store::transaction::tracked(async move {
        while !*shutdown.borrow() {
            if let Err(error) = translate_due::<Q>(&state).await {
                tracing::error!(error = ?error, what = Q::WHAT, "translations could not be read");
            }
            tokio::select! {
                () = tokio::time::sleep(POLL_EVERY) => {}
                () = Q::written(&state) => {}
                changed = shutdown.changed() => if changed.is_err() { break },
            }
        }
    }))
}

/// Translates every due text of `Q`, a batch at a time; how many were translated.
pub async fn translate_due<Q: Queue>(state: &AppState) -> sqlx::Result<usize> {
    let mut translated = 0;
    loop {
        let claimed = Q::claim(state, Utc::now() + LEASE).await?;
        let full = claimed.len() == usize::try_from(Q::BATCH).unwrap_or(usize::MAX);
        for due in claimed {
            if translate_one::<Q>(state, &due).await? {
                translated += 1;
            }
        }
        if !full {
            return Ok(translated);
        }
    }
}

async fn translate_one<Q: Queue>(state: &AppState, due: &Q::Due) -> sqlx::Result<bool> {
    let text = Q::text(due);
    match translate_text(state, text.text, text.source, text.target).await {
        Ok(translated) => Q::store(state, due, &translated).await,
        Err(error) => {
            let retry_at = retry_at(text.attempts);
            tracing::warn!(
                what = Q::WHAT,
                id = %text.id,
                attempts = text.attempts,
                %error,
                will_retry = retry_at.is_some(),
                "text not translated"
            );
            Q::failed(state, due, retry_at, &error).await?;
            Ok(false)
        }
    }
}

/// `text` (in `source`) translated into `target`, paid from the service's budget; why not.
async fn translate_text(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        assert_eq!(backoff(1), Duration::from_secs(30));
        assert_eq!(backoff(2), Duration::from_secs(60));
        assert_eq!(backoff(20), Duration::from_secs(3600));
    }

    #[test]
    fn tries_end_after_the_last() {
        assert!(retry_at(MAX_ATTEMPTS - 1).is_some());
        assert!(retry_at(MAX_ATTEMPTS).is_none());
    }
}
