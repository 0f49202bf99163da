//! Machine translation between English and French, from an outside service: a self-hosted
//! LibreTranslate ([`libretranslate::LibreTranslate`]) or DeepL ([`deepl::DeepL`]). There is
//! no local stand-in: without a configured provider translation is refused as not
//! configured ([`service`]), never faked.

pub mod service;

use crate::error::{ApiError, ErrorReason};

pub mod deepl;
pub mod libretranslate;

use async_trait::async_trait;
use serde::de::DeserializeOwned;

use crate::domain::Language;

/// One text as the provider translated it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translated {
    pub text: String,
    /// The language the provider read the text as: the source given, or the one it detected
    /// (`None` when it detected a language other than English or French).
    pub source: Option<Language>,
}

#[derive(Debug, thiserror::Error)]
pub enum TranslationError {
    /// The service refused the call, failed, or did not answer in time; `detail` is for the
    /// log, never for the caller.
    #[error("the translation service is not answering right now; please try again")]
    Unavailable { detail: String },
}

impl TranslationError {
    pub fn unavailable(detail: impl Into<String>) -> Self {
        Self::Unavailable {
            detail: detail.into(),
        }
    }
}

#[async_trait]
pub trait Translator: Send + Sync + 'static {
    /// Names the provider, so cached translations of one never answer for another.
    fn kind(&self) -> &'static str;
    /// `texts` into `target`, in order; `source: None` lets the provider detect it.
    async fn translate(
        &self,
        texts: &[String],
        source: Option<Language>,
        target: Language,
    ) -> Result<Vec<Translated>, TranslationError>;
}

/// The provider answered a number of texts other than the number asked.
fn check_count<T>(asked: usize, answered: Vec<T>) -> Result<Vec<T>, TranslationError> {
    if answered.len() == asked {
        Ok(answered)
    } else {
        Err(TranslationError::unavailable(format!(
            "{} translations for {asked} texts",
            answered.len()
        )))
    }
}

/// Sends a provider's JSON call and reads its JSON reply. An error status is unavailable,
/// with the message the provider put in its body's `message_field` for the log.
async fn call_json<R: DeserializeOwned>(
    provider: &str,
    request: reqwest::RequestBuilder,
    message_field: &str,
) -> Result<R, TranslationError> {
    let response = request
        .send()
        .await
        .map_err(|e| TranslationError::unavailable(format!("{provider} request: {e}")))?;
    let status = response.status();
    if !status.is_success() {
        let body: serde_json::Value = response.json().await.unwrap_or_default();
        let message = body[message_field].as_str().unwrap_or("(no message)");
        return Err(TranslationError::unavailable(format!(
            "{provider} {status}: {message}"
        )));
    }
    response
        .json()
        .await
        .map_err(|e| TranslationError::unavailable(format!("{provider} reply: {e}")))
}

impl From<TranslationError> for ApiError {
    fn from(error: TranslationError) -> Self {
        let TranslationError::Unavailable { ref detail } = error;
        tracing::error!(%detail, "translation provider failed");
        Self::Unavailable {
            reason: ErrorReason::TranslationUnavailable,
            message: error.to_string(),
        }
    }
}
