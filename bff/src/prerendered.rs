//! The pages the web build prerendered (web/src/prerender: the landing and sign-in pages in
//! English and French), served at their paths with the current texts filled in, so that they
//! paint before the app's JavaScript arrives and an admin's edit shows without a rebuild.
//!
//! `WEB_DIST/pages/index.json` names each page's file and what to fill in: the markers
//! `{{banner_h1}}`, `{{how_1.heading}}` take the server's text of that field (as the legacy
//! `/api/pages` reads it), or the catalogue's `defaults` where the server's is empty; and
//! `{{services}}` takes one card per service of `ListServices` (the copy the legacy calls
//! keep, `LEGACY_CATALOGUE_TTL_MS`), from the card template of its
//! icon: `image` for a service with an icon URL, the category whose English name it has, else
//! `wrench`; the catalogue's categories (`defaultServices`) while the server lists none. The
//! rules are the app's (`useHomePage`, `useServiceCatalogue`): the app's first render, which
//! hydrates the page, shows the same.

use std::collections::HashMap;
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use axum::body::Body;
use axum::extract::{FromRequestParts, Request};
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, header};
use repairs_proto::content as pb;
use repairs_proto::types::Language;
use serde::Deserialize;
use serde_json::Value;
use tonic::transport::Channel;
use tower::ServiceExt;
use tower_http::compression::Compression;

use crate::legacy::catalogue::Catalogue;
use crate::legacy::pages::{home_json, professional_json};
use crate::legacy::rpc::{CatalogueCache, Rpc};

/// One prerendered page as `pages/index.json` describes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    file: String,
    language: String,
    /// `home`, `professional`, or none for a page without server texts.
    data: Option<String>,
    #[serde(default)]
    defaults: HashMap<String, String>,
    #[serde(default)]
    cards: HashMap<String, String>,
    /// English category names -> the card of their icon.
    #[serde(default)]
    categories: HashMap<String, String>,
    #[serde(default)]
    default_services: Vec<DefaultService>,
}

#[derive(Debug, Deserialize)]
struct DefaultService {
    kind: String,
    name: String,
    description: String,
}

/// What a card shows of a service.
struct Card<'a> {
    kind: &'a str,
    name: &'a str,
    description: &'a str,
    icon_url: &'a str,
}

/// A prerendered page found for a path: what to fill in, and its template.
pub struct Page {
    entry: Arc<Entry>,
    template: String,
}

type Index = Arc<HashMap<String, Arc<Entry>>>;

#[derive(Clone)]
pub struct Prerendered {
    folder: PathBuf,
    channel: Channel,
    /// The services' copy the legacy calls keep (`LEGACY_CATALOGUE_TTL_MS`): a landing page
    /// seen by many asks the server for its services once per TTL, not once per view.
    catalogue: CatalogueCache,
    /// pages/index.json as last read, with its modification time (read again when it changes,
    /// so a new build needs no restart).
    index: Arc<Mutex<Option<(SystemTime, Index)>>>,
}

impl Prerendered {
    pub fn new(dist: &Path, channel: Channel, catalogue: CatalogueCache) -> Self {
        Self {
            folder: dist.join("pages"),
            channel,
            catalogue,
            index: Arc::default(),
        }
    }

    async fn index(&self) -> Option<Index> {
        let path = self.folder.join("index.json");
        let modified = tokio::fs::metadata(&path).await.ok()?.modified().ok()?;
        if let Some((read_at, index)) = self.index.lock().ok()?.as_ref()
            && *read_at == modified
        {
            return Some(index.clone());
        }
        let text = tokio::fs::read(&path).await.ok()?;
        let index: HashMap<String, Entry> = serde_json::from_slice(&text)
            .map_err(|error| tracing::error!(%error, "pages/index.json of the web build is not readable"))
            .ok()?;
        let index: Index = Arc::new(
            index
                .into_iter()
                .map(|(path, entry)| (path, Arc::new(entry)))
                .collect(),
        );
        *self.index.lock().ok()? = Some((modified, index.clone()));
        Some(index)
    }

    /// The page the build prerendered for `path`, if any.
    pub async fn page(&self, path: &str) -> Option<Page> {
        let entry = self.index().await?.get(path)?.clone();
        let template = tokio::fs::read_to_string(self.folder.join(&entry.file))
            .await
            .ok()?;
        Some(Page { entry, template })
    }

    /// The page filled in with the server's texts, compressed as the client accepts.
    pub async fn serve(&self, page: Page, request: Request) -> Response {
        let Page { entry, template } = page;
        let (mut parts, body) = request.into_parts();
        let html = match &entry.data {
            Some(data) => {
                parts.extensions.insert(self.catalogue.clone());
                let texts = match Rpc::from_request_parts(&mut parts, &self.channel).await {
                    Ok(rpc) => ServerTexts::load(&rpc, data, &entry.language).await,
                    Err(_) => ServerTexts::default(),
                };
                fill_page(&template, &entry, &texts)
            }
            None => template,
        };
        let page = (
            [(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))],
            axum::response::Html(html),
        )
            .into_response();
        // The compression layer around a service that answers this one page.
        let mut page = Some(page);
        let compressed = Compression::new(tower::service_fn(move |_: Request| {
            std::future::ready(Ok::<_, Infallible>(page.take().unwrap_or_default()))
        }))
        .oneshot(Request::from_parts(parts, body))
        .await;
        match compressed {
            Ok(response) => response.map(Body::new),
            Err(never) => match never {},
        }
    }
}

/// The server's side of a page: its texts by marker name, and its services (`None` when the
/// server did not answer: the page then shows the defaults, as the app does).
#[derive(Default)]
struct ServerTexts {
    texts: HashMap<String, String>,
    services: Option<Catalogue>,
}

impl ServerTexts {
    async fn load(rpc: &Rpc, data: &str, language: &str) -> Self {
        let language = if language == "fr" {
            Language::Fr
        } else {
            Language::En
        } as i32;
        let mut content = rpc.content();
        let page = async {
            let page = if data == "home" {
                let reply = content
                    .get_home_page(rpc.request(pb::GetHomePageRequest { language }))
                    .await?
                    .into_inner();
                home_json(&reply.page.unwrap_or_default(), reply.etag)
            } else {
                let reply = content
                    .get_professional_page(rpc.request(pb::GetProfessionalPageRequest { language }))
                    .await?
                    .into_inner();
                professional_json(&reply.page.unwrap_or_default(), reply.etag)
            };
            Ok::<_, tonic::Status>(page)
        };
        let (page, services) = tokio::join!(page, Catalogue::load(rpc));
        let mut texts = HashMap::new();
        match page {
            Ok(page) => flatten(&page, "", &mut texts),
            Err(status) => {
                tracing::warn!(%status, "landing page texts unavailable: defaults shown")
            }
        }
        let services = match services {
            Ok(catalogue) => Some(catalogue),
            Err(error) => {
                tracing::warn!(?error, "services unavailable: the categories shown");
                None
            }
        };
        Self { texts, services }
    }
}

/// `{"how_1": {"heading": "x"}}` as `how_1.heading -> x`.
fn flatten(value: &Value, prefix: &str, out: &mut HashMap<String, String>) {
    match value {
        Value::Object(fields) => {
            for (key, inner) in fields {
                flatten(inner, &format!("{prefix}{key}."), out);
            }
        }
        Value::String(text) => {
            out.insert(prefix.trim_end_matches('.').to_owned(), text.clone());
        }
        _ => {}
    }
}

fn fill_page(template: &str, entry: &Entry, server: &ServerTexts) -> String {
    let services = services_html(entry, server.services.as_ref().map(Catalogue::services));
    fill(template, |name| {
        if name == "services" {
            return Some(services.clone());
        }
        let default = entry.defaults.get(name)?;
        let text = server
            .texts
            .get(name)
            .filter(|text| !text.is_empty())
            .unwrap_or(default);
        Some(escape(text))
    })
}

fn services_html(entry: &Entry, services: Option<&[pb::Service]>) -> String {
    let localized = |text: Option<&repairs_proto::types::LocalizedText>| {
        let text = text.cloned().unwrap_or_default();
        if entry.language == "fr" && !text.fr.is_empty() {
            text.fr
        } else {
            text.en
        }
    };
    let cards: Vec<String> = match services {
        Some(services) if !services.is_empty() => services
            .iter()
            .map(|service| {
                let english = service.name.as_ref().map_or("", |name| name.en.as_str());
                let kind = if !service.icon_url.is_empty() {
                    "image"
                } else {
                    entry
                        .categories
                        .get(english)
                        .map_or("wrench", String::as_str)
                };
                card(
                    entry,
                    &Card {
                        kind,
                        name: &localized(service.name.as_ref()),
                        description: &localized(service.description.as_ref()),
                        icon_url: &service.icon_url,
                    },
                )
            })
            .collect(),
        _ => entry
            .default_services
            .iter()
            .map(|service| {
                card(
                    entry,
                    &Card {
                        kind: &service.kind,
                        name: &service.name,
                        description: &service.description,
                        icon_url: "",
                    },
                )
            })
            .collect(),
    };
    cards.concat()
}

fn card(entry: &Entry, card: &Card) -> String {
    let template = entry.cards.get(card.kind).map_or("", String::as_str);
    fill(template, |name| match name {
        "service.name" => Some(escape(card.name)),
        "service.description" => Some(escape(card.description)),
        "service.icon_url" => Some(escape(card.icon_url)),
        _ => None,
    })
}

/// The template with each `{{name}}` that `value` knows replaced; the rest as it was.
fn fill(template: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len() + template.len() / 8);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let replaced = after.find("}}").and_then(|end| {
            let name = &after[..end];
            let known = name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
            known.then(|| value(name)).flatten().map(|text| (text, end))
        });
        match replaced {
            Some((text, end)) => {
                out.push_str(&text);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Text for HTML content and quoted attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        serde_json::from_value(serde_json::json!({
            "file": "home.html",
            "language": "fr",
            "data": "home",
            "defaults": { "banner_h1": "Réparations", "how_1.heading": "Publiez" },
            "cards": {
                "plumbing": "<li>P {{service.name}}|{{service.description}}</li>",
                "wrench": "<li>W {{service.name}}|{{service.description}}</li>",
                "image": "<li><img src=\"{{service.icon_url}}\">{{service.name}}</li>"
            },
            "categories": { "Plumbing Services": "plumbing" },
            "defaultServices": [{ "kind": "plumbing", "name": "Plomberie", "description": "Fuites" }]
        }))
        .unwrap()
    }

    fn service(en: &str, fr: &str, icon_url: &str) -> pb::Service {
        let text = |en: &str, fr: &str| repairs_proto::types::LocalizedText {
            en: en.to_owned(),
            fr: fr.to_owned(),
        };
        pb::Service {
            name: Some(text(en, fr)),
            description: Some(text(&format!("{en} d"), "")),
            icon_url: icon_url.to_owned(),
            ..Default::default()
        }
    }

    #[test]
    fn markers_take_the_server_text_or_the_default_escaped() {
        let mut server = ServerTexts::default();
        server
            .texts
            .insert("banner_h1".into(), "Vite & <bien>".into());
        server.texts.insert("how_1.heading".into(), String::new());
        let html = fill_page(
            "<h1>{{banner_h1}}</h1><h3>{{how_1.heading}}</h3>{{unknown}}<style>a{{}}</style>",
            &entry(),
            &server,
        );
        assert_eq!(
            html,
            "<h1>Vite &amp; &lt;bien&gt;</h1><h3>Publiez</h3>{{unknown}}<style>a{{}}</style>"
        );
    }

    #[test]
    fn services_take_the_card_of_their_icon_in_the_page_language() {
        let server = ServerTexts {
            services: Some(Catalogue::new(vec![
                service("Plumbing Services", "Plomberie", ""),
                service("Welding", "", ""),
                service("Glass", "Vitres", "/files/icons/g.png?a=1&b=\"2\""),
            ])),
            ..Default::default()
        };
        let html = fill_page("<ul>{{services}}</ul>", &entry(), &server);
        assert_eq!(
            html,
            "<ul><li>P Plomberie|Plumbing Services d</li><li>W Welding|Welding d</li>\
             <li><img src=\"/files/icons/g.png?a=1&amp;b=&quot;2&quot;\">Vitres</li></ul>"
        );
    }

    #[test]
    fn without_services_the_categories_show() {
        for services in [None, Some(Catalogue::default())] {
            let server = ServerTexts {
                services,
                ..Default::default()
            };
            let html = fill_page("<ul>{{services}}</ul>", &entry(), &server);
            assert_eq!(html, "<ul><li>P Plomberie|Fuites</li></ul>");
        }
    }
}
