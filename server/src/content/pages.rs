//! The texts of the home and professional landing pages and of the terms and privacy pages:
//! per language, each field either what an
//! admin set or its built-in default. Admins change named fields only, under an etag (the
//! page's version in that language), and every change is audited. Reads are cached and the
//! cache entry is dropped on change.

use std::{collections::BTreeMap, sync::LazyLock, time::Duration};

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::{
    domain::Language,
    error::{ApiError, ApiResult, ErrorReason},
    state::AppState,
    store::{audit, page_texts},
};

/// A landing page with admin-edited texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    Home,
    Professional,
    Terms,
    Privacy,
}

impl Page {
    fn key(self) -> &'static str {
        match self {
            Page::Home => "home",
            Page::Professional => "professional",
            Page::Terms => "terms",
            Page::Privacy => "privacy",
        }
    }

    /// Every field, by its path in the contract's message (`how_1.heading` for nested ones).
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            Page::Home => &[
                "banner_h1",
                "banner_h2",
                "banner_h3",
                "banner_link",
                "how_heading",
                "how_description",
                "how_1.heading",
                "how_1.description",
                "how_2.heading",
                "how_2.description",
                "how_3.heading",
                "how_3.description",
                "services_heading",
                "services_description",
                "section_1_heading",
                "section_1_description",
                "section_1_link",
            ],
            Page::Professional => &[
                "banner_h1",
                "banner_h3",
                "banner_link",
                "banner_bottom_heading",
                "banner_bottom_link",
                "services_heading",
                "services_description",
                "section_1_heading",
                "section_1_description",
                "section_1_link",
            ],
            Page::Terms => &["title", "body"],
            Page::Privacy => &["title", "body", "person_in_charge"],
        }
    }

    /// Where the web app's text catalogue holds a field's default: a text, or (for a legal
    /// page's body) a list of paragraphs.
    fn catalogue_pointer(self, field: &str) -> String {
        match (self, field) {
            (Page::Home, _) => format!("/home/{}", field.replace('.', "/")),
            (Page::Professional, _) => format!("/professionalPage/{field}"),
            (Page::Terms | Page::Privacy, "title") => format!("/pages/{}", self.key()),
            (Page::Privacy, "person_in_charge") => "/legal/privacyPersonInCharge".to_owned(),
            (Page::Terms | Page::Privacy, _) => format!("/legal/{}", self.key()),
        }
    }
}

/// The built-in defaults are the web app's own catalogue (`web/src/locales`), so the page
/// shows the same words whether the server answered or not, and there is one copy of them.
/// English, French.
static CATALOGUES: LazyLock<(Value, Value)> = LazyLock::new(|| {
    let parse = |text: &str| serde_json::from_str(text).unwrap_or(Value::Null);
    (
        parse(include_str!("../../../web/src/locales/en.json")),
        parse(include_str!("../../../web/src/locales/fr.json")),
    )
});

fn default_text(page: Page, language: Language, field: &str) -> String {
    let (english, french) = &*CATALOGUES;
    let found = language
        .pick(english, french)
        .pointer(&page.catalogue_pointer(field));
    match found {
        Some(Value::String(text)) => text.clone(),
        // Paragraphs, separated by a blank line as a legal page's body is.
        Some(Value::Array(paragraphs)) => paragraphs
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join("\n\n"),
        _ => String::new(),
    }
}

/// One page in one language, as shown.
#[derive(Debug, Clone)]
pub struct PageTexts {
    pub texts: BTreeMap<&'static str, String>,
    pub etag: String,
    pub updated_at: Option<DateTime<Utc>>,
}

impl PageTexts {
    pub fn get(&self, field: &str) -> String {
        self.texts.get(field).cloned().unwrap_or_default()
    }
}

fn resolve(page: Page, language: Language, stored: &page_texts::StoredPage) -> PageTexts {
    let texts = page
        .fields()
        .iter()
        .map(|&field| {
            let text = stored
                .values
                .get(field)
                .cloned()
                .unwrap_or_else(|| default_text(page, language, field));
            (field, text)
        })
        .collect();
    PageTexts {
        texts,
        etag: stored.version.to_string(),
        updated_at: stored.updated_at,
    }
}

const CACHE_TTL: Duration = Duration::from_secs(600);

fn cache_key(page: Page, language: Language) -> String {
    format!("page_texts:{}:{}", page.key(), language.as_str())
}

/// The page as shown: from the cache when there, else from Postgres (and then cached). A
/// cache that cannot be reached only costs the database read.
pub async fn read(state: &AppState, page: Page, language: Language) -> ApiResult<PageTexts> {
    let key = cache_key(page, language);
    if let Ok(Some(cached)) = state.cache.get(&key).await
        && let Ok(stored) = serde_json::from_str::<page_texts::StoredPage>(&cached)
    {
        return Ok(resolve(page, language, &stored));
    }
    let stored = page_texts::read(&state.db, page.key(), language).await?;
    if let Ok(json) = serde_json::to_string(&stored) {
        let _ = state.cache.set(&key, &json, CACHE_TTL).await;
    }
    Ok(resolve(page, language, &stored))
}

/// Which fields an update mask names: a field's path, or a step (`how_1`) for both of its
/// fields. Unknown paths and an empty mask are refused.
pub fn masked_fields(page: Page, paths: &[String]) -> ApiResult<Vec<&'static str>> {
    if paths.is_empty() {
        return Err(ApiError::invalid(
            "update_mask",
            "name the fields to change",
        ));
    }
    let mut fields = Vec::new();
    for path in paths {
        let named: Vec<&'static str> = page
            .fields()
            .iter()
            .copied()
            .filter(|f| {
                *f == path
                    || f.strip_prefix(path.as_str())
                        .is_some_and(|r| r.starts_with('.'))
            })
            .collect();
        if named.is_empty() {
            return Err(ApiError::invalid(
                "update_mask",
                format!("{path} is not a field of this page"),
            ));
        }
        fields.extend(named);
    }
    fields.sort_unstable();
    fields.dedup();
    Ok(fields)
}

/// An admin's change: the named fields take the given texts (an empty text goes back to the
/// default). Refused with ETAG_MISMATCH when `etag` is given and no longer current.
pub async fn update(
    state: &AppState,
    admin_id: audit::Actor,
    page: Page,
    language: Language,
    etag: &str,
    changes: BTreeMap<&'static str, String>,
) -> ApiResult<PageTexts> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let version = page_texts::lock_version(&mut tx, page.key(), language).await?;
    if !etag.is_empty() && etag != version.to_string() {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::EtagMismatch,
            message: "this page was changed by someone else since you opened it: reload it and make your change again".to_owned(),
        });
    }
    let before = page_texts::values(&mut *tx, page.key(), language).await?;
    let writes: BTreeMap<&str, Option<String>> = changes
        .into_iter()
        .map(|(field, text)| {
            let text = text.trim().to_owned();
            (field, (!text.is_empty()).then_some(text))
        })
        .collect();
    let before_json: serde_json::Map<String, Value> = writes
        .keys()
        .map(|f| {
            (
                f.to_string(),
                before
                    .get(*f)
                    .map_or(Value::Null, |v| Value::from(v.as_str())),
            )
        })
        .collect();
    let after_json: serde_json::Map<String, Value> = writes
        .iter()
        .map(|(f, v)| (f.to_string(), v.as_deref().map_or(Value::Null, Value::from)))
        .collect();
    page_texts::write(&mut tx, page.key(), language, &writes).await?;
    audit::record_change(
        &mut *tx,
        admin_id,
        &format!("{}_page.update", page.key()),
        (&format!("{}_page", page.key()), language.as_str()),
        Some(&Value::Object(before_json)),
        Some(&Value::Object(after_json)),
    )
    .await?;
    tx.commit().await?;
    // Dropped after the commit, so a reader cannot cache the old texts again afterwards.
    let _ = state.cache.delete(&cache_key(page, language)).await;
    let stored = page_texts::read(&state.db, page.key(), language).await?;
    Ok(resolve(page, language, &stored))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_has_a_default_in_both_languages() {
        for page in [Page::Home, Page::Professional, Page::Terms, Page::Privacy] {
            for language in [Language::English, Language::French] {
                for field in page.fields() {
                    assert!(
                        !default_text(page, language, field).is_empty(),
                        "{page:?} {language:?} {field}"
                    );
                }
            }
        }
        assert_ne!(
            default_text(Page::Home, Language::English, "banner_h1"),
            default_text(Page::Home, Language::French, "banner_h1")
        );
    }

    #[test]
    fn a_step_in_the_mask_names_both_of_its_fields() {
        let fields =
            masked_fields(Page::Home, &["how_1".to_owned(), "banner_h1".to_owned()]).unwrap();
        assert_eq!(fields, ["banner_h1", "how_1.description", "how_1.heading"]);
        assert!(masked_fields(Page::Home, &["how".to_owned()]).is_err());
        assert!(masked_fields(Page::Professional, &["banner_h2".to_owned()]).is_err());
        assert!(masked_fields(Page::Home, &[]).is_err());
    }
}
