//! Translation between English and French (TranslateText, and request descriptions shown
//! to professionals of the other language). Every text goes through here: its bounds, the
//! cache (a text already translated into a language is never paid twice), the character
//! budgets (per caller and for the whole service, per hour, counted in `crate::budgets`
//! before they are checked and given back when nothing was translated), and a bound on the
//! calls in flight to the provider.

use std::{sync::Arc, time::Duration};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::sync::{Notify, Semaphore};
use uuid::Uuid;

use crate::{
    budgets::{Budget, Budgets, Spent},
    cache::{self, Cache},
    domain::Language,
    error::{ApiError, ApiResult, ErrorReason, FieldViolation},
    providers::{
        secret::to_hex,
        translation::{Translated, Translator},
    },
};

/// Texts in one call, characters in each and in all (TranslateTextRequest).
pub const MAX_TEXTS: usize = repairs_proto::limits::translate_text::TEXTS_MAX_ITEMS;
pub const MAX_TEXT_CHARS: usize = repairs_proto::limits::translate_text::TEXTS_ITEM_MAX_LEN;
pub const MAX_TOTAL_CHARS: usize = 20_000;

/// How long a translation stays cached: a text's translation does not go stale.
const CACHE_TTL: Duration = Duration::from_secs(30 * 24 * 3600);
const GLOBAL_BUDGET_KEY: &str = "translation:chars:all";

/// 1 to [`MAX_TEXTS`] texts, each 1 to [`MAX_TEXT_CHARS`] characters and
/// [`MAX_TOTAL_CHARS`] together.
#[derive(Debug, Clone)]
pub struct Texts(Vec<String>);

impl Texts {
    pub fn parse(texts: Vec<String>) -> ApiResult<Self> {
        if texts.is_empty() || texts.len() > MAX_TEXTS {
            return Err(ApiError::invalid(
                "texts",
                format!("send 1 to {MAX_TEXTS} texts to translate"),
            ));
        }
        let mut violations = Vec::new();
        let mut total = 0;
        for (i, text) in texts.iter().enumerate() {
            let chars = text.chars().count();
            total += chars;
            if text.trim().is_empty() {
                violations.push(FieldViolation::new(
                    format!("texts[{i}]"),
                    "write the text to translate",
                ));
            } else if chars > MAX_TEXT_CHARS {
                violations.push(FieldViolation::new(
                    format!("texts[{i}]"),
                    format!("a text to translate holds at most {MAX_TEXT_CHARS} characters"),
                ));
            }
        }
        if violations.is_empty() && total > MAX_TOTAL_CHARS {
            violations.push(FieldViolation::new(
                "texts",
                format!("the texts hold at most {MAX_TOTAL_CHARS} characters together"),
            ));
        }
        if violations.is_empty() {
            Ok(Self(texts))
        } else {
            Err(ApiError::invalid_fields(violations))
        }
    }

    /// A text already bounded elsewhere (a request's description).
    pub fn one(text: String) -> ApiResult<Self> {
        Self::parse(vec![text])
    }
}

/// Who pays for a translation: a signed-in caller's hourly budget, or only the service's
/// (request descriptions).
#[derive(Debug, Clone, Copy)]
pub enum Payer {
    Account(Uuid),
    Service,
}

pub struct Limits {
    pub concurrency: usize,
    /// How long a call waits for a turn at the provider.
    pub wait: Duration,
    pub chars_per_caller_per_hour: u32,
    pub chars_per_hour: u32,
}

pub struct TranslationService {
    translator: Option<Arc<dyn Translator>>,
    cache: Arc<dyn Cache>,
    budgets: Budgets,
    provider_calls: Semaphore,
    limits: Limits,
    /// Wakes this process's description translation pass (`requests::translations`).
    descriptions: Notify,
    /// Wakes this process's message translation pass (`conversations::translations`).
    messages: Notify,
}

#[derive(Serialize, Deserialize)]
struct Cached {
    text: String,
    /// "en", "fr", or empty when the provider read another language.
    source: String,
}

impl TranslationService {
    pub fn new(
        translator: Option<Arc<dyn Translator>>,
        cache: Arc<dyn Cache>,
        budgets: Budgets,
        limits: Limits,
    ) -> Self {
        Self {
            translator,
            cache,
            budgets,
            provider_calls: Semaphore::new(limits.concurrency.max(1)),
            limits,
            descriptions: Notify::new(),
            messages: Notify::new(),
        }
    }

    pub fn is_configured(&self) -> bool {
        self.translator.is_some()
    }

    /// Call after committing a description whose translation was made due.
    pub fn description_written(&self) {
        self.descriptions.notify_one();
    }

    /// Resolves when a description was written in this process.
    pub async fn descriptions_written(&self) {
        self.descriptions.notified().await;
    }

    /// Call after a message due for translation was written.
    pub fn message_written(&self) {
        self.messages.notify_one();
    }

    /// Resolves when a message due for translation was written in this process.
    pub async fn messages_written(&self) {
        self.messages.notified().await;
    }

    fn cache_key(kind: &str, source: Option<Language>, target: Language, text: &str) -> String {
        let hash = to_hex(&Sha256::digest(text.as_bytes()));
        let source = source.map_or("auto", Language::as_str);
        format!("translation:{kind}:{source}:{}:{hash}", target.as_str())
    }

    /// `texts` into `target`, in order, from the cache or else from the provider (paid by
    /// `payer`, then cached).
    pub async fn translate(
        &self,
        payer: Payer,
        texts: &Texts,
        source: Option<Language>,
        target: Language,
    ) -> ApiResult<Vec<Translated>> {
        // Not a passing outage (retrying cannot help): the server's setting, refused as such.
        let Some(translator) = &self.translator else {
            return Err(ApiError::FailedPrecondition {
                reason: ErrorReason::TranslationNotConfigured,
                message: "translation is not configured on this server".to_owned(),
            });
        };
        let keys: Vec<String> = texts
            .0
            .iter()
            .map(|text| Self::cache_key(translator.kind(), source, target, text))
            .collect();
        let mut found: Vec<Option<Translated>> = Vec::with_capacity(keys.len());
        for key in &keys {
            found.push(self.cached(key).await);
        }
        let missing: Vec<usize> = (0..found.len()).filter(|&i| found[i].is_none()).collect();
        if missing.is_empty() {
            return Ok(found.into_iter().flatten().collect());
        }
        let asked: Vec<String> = missing.iter().map(|&i| texts.0[i].clone()).collect();
        let chars = asked.iter().map(|t| t.chars().count()).sum::<usize>();
        let spent = self
            .spend(payer, i64::try_from(chars).unwrap_or(i64::MAX))
            .await?;
        let answer = spent
            .settle(self.call(translator.as_ref(), &asked, source, target).await)
            .await?;
        for (&i, translated) in missing.iter().zip(answer) {
            self.remember(&keys[i], &translated).await;
            found[i] = Some(translated);
        }
        Ok(found.into_iter().flatten().collect())
    }

    async fn cached(&self, key: &str) -> Option<Translated> {
        let cached: Cached = cache::cached_json(self.cache.as_ref(), key).await?;
        Some(Translated {
            source: Language::from_code(&cached.source),
            text: cached.text,
        })
    }

    async fn remember(&self, key: &str, translated: &Translated) {
        let cached = Cached {
            text: translated.text.clone(),
            source: translated
                .source
                .map(Language::as_str)
                .unwrap_or_default()
                .to_owned(),
        };
        cache::keep_json(self.cache.as_ref(), key, &cached, CACHE_TTL).await;
    }

    /// Counts `chars` against the payer's budget and the service's, refusing (and giving
    /// them back) when either is spent.
    async fn spend(&self, payer: Payer, chars: i64) -> ApiResult<Spent> {
        let mut budgets = Vec::with_capacity(2);
        if let Payer::Account(id) = payer {
            budgets.push(Budget::hourly(
                format!("translation:chars:account:{id}"),
                self.limits.chars_per_caller_per_hour,
                ErrorReason::TranslationCallerLimit,
                "you have asked for many translations this hour; try again later",
            ));
        }
        budgets.push(Budget::hourly(
            GLOBAL_BUDGET_KEY,
            self.limits.chars_per_hour,
            ErrorReason::TranslationBudgetSpent,
            "translations are paused for the rest of the hour; try again later",
        ));
        self.budgets.spend(&budgets, chars).await
    }

    /// One call to the provider, waiting at most `limits.wait` for a turn.
    async fn call(
        &self,
        translator: &dyn Translator,
        texts: &[String],
        source: Option<Language>,
        target: Language,
    ) -> ApiResult<Vec<Translated>> {
        let _turn = tokio::time::timeout(self.limits.wait, self.provider_calls.acquire())
            .await
            .map_err(|_| ApiError::Unavailable {
                reason: ErrorReason::TranslationUnavailable,
                message: "the translation service is busy; please try again".to_owned(),
            })?
            .map_err(|e| ApiError::Internal(e.into()))?;
        Ok(translator.translate(texts, source, target).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_count_each_text_and_all_of_them() {
        assert!(Texts::parse(vec![]).is_err());
        assert!(Texts::parse(vec!["a".into(); MAX_TEXTS + 1]).is_err());
        assert!(Texts::parse(vec!["a".into(); MAX_TEXTS]).is_ok());
        assert!(Texts::parse(vec![" ".into()]).is_err());
        assert!(Texts::parse(vec!["é".repeat(MAX_TEXT_CHARS)]).is_ok());
        assert!(Texts::parse(vec!["é".repeat(MAX_TEXT_CHARS + 1)]).is_err());
        assert!(Texts::parse(vec!["a".repeat(MAX_TEXT_CHARS); 4]).is_ok());
        assert!(Texts::parse(vec!["a".repeat(MAX_TEXT_CHARS); 5]).is_err());
    }

    #[test]
    fn cache_keys_name_provider_languages_and_text() {
        let key = TranslationService::cache_key("deepl", None, Language::French, "Hello");
        assert!(key.starts_with("translation:deepl:auto:fr:"), "{key}");
        assert_ne!(
            key,
            TranslationService::cache_key(
                "deepl",
                Some(Language::English),
                Language::French,
                "Hello"
            )
        );
        assert!(!key.contains("Hello"));
    }
}
