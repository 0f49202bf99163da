//! DeepL: `POST {base}/v2/translate` with `Authorization: DeepL-Auth-Key <key>` and JSON
//! `{text: [...], target_lang, source_lang}` (`source_lang` left out to detect). It answers
//! `{translations: [{detected_source_language, text}]}` in the order of the texts, and errors
//! as `{message}`: 403 (bad key), 429 (too many requests), 456 (quota spent), 5xx.
//! Free-plan keys (ending in `:fx`) use another host than paid ones.

use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::{Translated, TranslationError, Translator, call_json, check_count};
use crate::{
    domain::Language,
    providers::{SecretString, http_client},
};

pub const DEEPL_PRO_URL: &str = "https://api.deepl.com";
pub const DEEPL_FREE_URL: &str = "https://api-free.deepl.com";

#[derive(Debug, Clone)]
pub struct DeepLConfig {
    pub api_key: SecretString,
    /// Without the `/v2` path: the free or pro host, or a local test server.
    pub base_url: String,
    pub timeout: Duration,
}

impl DeepLConfig {
    /// The host that serves `api_key`'s plan.
    pub fn new(api_key: impl Into<SecretString>) -> Self {
        let api_key = api_key.into();
        let base_url = if api_key.expose().ends_with(":fx") {
            DEEPL_FREE_URL
        } else {
            DEEPL_PRO_URL
        };
        Self {
            api_key,
            base_url: base_url.to_owned(),
            timeout: http_client::DEFAULT_TIMEOUT,
        }
    }
}

pub struct DeepL {
    config: DeepLConfig,
    http: reqwest::Client,
}

impl DeepL {
    pub fn new(config: DeepLConfig) -> Result<Self, reqwest::Error> {
        let http = http_client::client(config.timeout)?;
        Ok(Self { config, http })
    }
}

/// DeepL's source language codes.
fn source_code(language: Language) -> &'static str {
    match language {
        Language::English => "EN",
        Language::French => "FR",
    }
}

/// DeepL's target codes: English needs a variant (plain "EN" is deprecated there).
fn target_code(language: Language) -> &'static str {
    match language {
        Language::English => "EN-US",
        Language::French => "FR",
    }
}

#[derive(Serialize)]
struct TranslateBody<'a> {
    text: &'a [String],
    target_lang: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_lang: Option<&'static str>,
}

#[derive(Deserialize)]
struct TranslateReply {
    translations: Vec<Translation>,
}

#[derive(Deserialize)]
struct Translation {
    text: String,
    #[serde(default)]
    detected_source_language: Option<String>,
}

#[async_trait]
impl Translator for DeepL {
    fn kind(&self) -> &'static str {
        "deepl"
    }

    async fn translate(
        &self,
        texts: &[String],
        source: Option<Language>,
        target: Language,
    ) -> Result<Vec<Translated>, TranslationError> {
        let body = TranslateBody {
            text: texts,
            target_lang: target_code(target),
            source_lang: source.map(source_code),
        };
        let request = self
            .http
            .post(http_client::endpoint(&self.config.base_url, "v2/translate"))
            .header(
                "authorization",
                format!("DeepL-Auth-Key {}", self.config.api_key.expose()),
            )
            .json(&body);
        let reply: TranslateReply = call_json("DeepL", request, "message").await?;
        Ok(check_count(texts.len(), reply.translations)?
            .into_iter()
            .map(|t| Translated {
                source: match &t.detected_source_language {
                    Some(code) => Language::from_code(code),
                    None => source,
                },
                text: t.text,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_keys_go_to_the_free_host() {
        assert_eq!(DeepLConfig::new("abc:fx").base_url, DEEPL_FREE_URL);
        assert_eq!(DeepLConfig::new("abc").base_url, DEEPL_PRO_URL);
    }
}
