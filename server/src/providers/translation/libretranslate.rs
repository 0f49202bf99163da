//! LibreTranslate (open source, self-hosted): `POST {base}/translate` with JSON
//! `{q, source, target, format: "text", api_key}`, `q` a list of texts and `source` `"auto"`
//! to detect. It answers `{translatedText, detectedLanguage}` (lists for a list of texts;
//! `detectedLanguage` only when detecting, `{language, confidence}`), and errors as
//! `{error}` with 400 (bad input), 403 (bad or missing key), 429 (limit) or 500.

use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::{Translated, TranslationError, Translator, call_json, check_count};
use crate::{
    domain::Language,
    providers::{SecretString, http_client},
};

#[derive(Debug, Clone)]
pub struct LibreTranslateConfig {
    /// The server's base URL: `http://translate.internal:5000`.
    pub base_url: String,
    /// The server's API key, when it requires one (`--api-keys`).
    pub api_key: Option<SecretString>,
    pub timeout: Duration,
}

impl LibreTranslateConfig {
    pub fn new(base_url: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            api_key: None,
            timeout: http_client::DEFAULT_TIMEOUT,
        }
    }
}

pub struct LibreTranslate {
    config: LibreTranslateConfig,
    http: reqwest::Client,
}

impl LibreTranslate {
    pub fn new(config: LibreTranslateConfig) -> Result<Self, reqwest::Error> {
        let http = http_client::client(config.timeout)?;
        Ok(Self { config, http })
    }
}

#[derive(Serialize)]
struct TranslateBody<'a> {
    q: &'a [String],
    source: &'a str,
    target: &'a str,
    format: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    api_key: Option<&'a str>,
}

/// A field that is one value for one text and a list for a list of texts.
#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany<T> {
    Many(Vec<T>),
    One(T),
}

impl<T> OneOrMany<T> {
    fn into_vec(self) -> Vec<T> {
        match self {
            Self::Many(all) => all,
            Self::One(one) => vec![one],
        }
    }
}

#[derive(Deserialize)]
struct Detected {
    language: String,
}

#[derive(Deserialize)]
struct TranslateReply {
    #[serde(rename = "translatedText")]
    translated_text: OneOrMany<String>,
    #[serde(rename = "detectedLanguage", default)]
    detected_language: Option<OneOrMany<Detected>>,
}

#[async_trait]
impl Translator for LibreTranslate {
    fn kind(&self) -> &'static str {
        "libretranslate"
    }

    async fn translate(
        &self,
        texts: &[String],
        source: Option<Language>,
        target: Language,
    ) -> Result<Vec<Translated>, TranslationError> {
        let body = TranslateBody {
            q: texts,
            source: source.map_or("auto", Language::as_str),
            target: target.as_str(),
            format: "text",
            api_key: self.config.api_key.as_ref().map(SecretString::expose),
        };
        let request = self
            .http
            .post(http_client::endpoint(&self.config.base_url, "translate"))
            .json(&body);
        let reply: TranslateReply = call_json("LibreTranslate", request, "error").await?;
        let translated = check_count(texts.len(), reply.translated_text.into_vec())?;
        let detected: Vec<Option<Language>> = match reply.detected_language {
            Some(detected) => check_count(texts.len(), detected.into_vec())?
                .into_iter()
                .map(|d| Language::from_code(&d.language))
                .collect(),
            None => vec![source; texts.len()],
        };
        Ok(translated
            .into_iter()
            .zip(detected)
            .map(|(text, source)| Translated { text, source })
            .collect())
    }
}
