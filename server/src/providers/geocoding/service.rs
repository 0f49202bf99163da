//! Every geocoding the product does goes through here: suggestions as a person types, placing
//! an address being saved (a request's, a professional's office), and the address at a
//! phone's position. The gazetteer answers on its own by default; with Photon configured
//! (`GEOCODER=photon`), Photon is asked first for street addresses, and:
//! - answers are cached (Redis, or in process without it) by operation, language and
//!   normalised query, so a repeated query never calls out twice within [`CACHE_TTL`];
//! - each client's suggestion calls that reach Photon are counted against an hourly budget
//!   (in `crate::budgets`: counted before checked, given back when Photon fails);
//! - a call waits at most the suggestion or the saving timeout;
//! - after [`FAILURES_BEFORE_PAUSE`] failures within [`FAILURE_WINDOW`] (counted in the
//!   cache, so with Redis every replica counts together and pauses together) Photon is not
//!   called for [`PAUSE`];
//! - any failure, or a pause, falls back to the gazetteer with the precision it has (never an
//!   error to the caller) and is counted in `repairs_geocoder_failures_total`.

use std::{sync::Arc, time::Duration};

use sha2::{Digest, Sha256};

use super::{
    Gazetteer, GeocodeError, Place, Precision, Suggestion, SuggestionKind,
    photon::{Found, Photon, PhotonError, Search},
};
use crate::{
    budgets::{Budget, Budgets},
    cache::{self, Cache},
    domain::{Address, Coordinates, address::PostalCodeOf},
    domain::{ClientAddr, Language},
    error::{ApiResult, ErrorReason},
    metrics::Metrics,
    providers::secret::to_hex,
};

/// How long an answer stays cached: addresses move rarely.
pub const CACHE_TTL: Duration = Duration::from_secs(7 * 24 * 3600);
pub const FAILURES_BEFORE_PAUSE: i64 = 5;
pub const FAILURE_WINDOW: Duration = Duration::from_secs(60);
pub const PAUSE: Duration = Duration::from_secs(30);
/// Queries shorter than this are answered from the gazetteer (postal codes, towns).
pub const MIN_STREET_QUERY_CHARS: usize = 3;

const PAUSED_KEY: &str = "geocoder:photon:paused";
const FAILURES_KEY: &str = "geocoder:photon:failures";

/// An address to place, as written.
#[derive(Debug, Clone, Copy)]
pub struct AddressText<'a> {
    pub line1: &'a str,
    pub city: &'a str,
    /// Two-letter code.
    pub province: &'a str,
    /// "T2P 1J9", when given.
    pub postal_code: Option<&'a str>,
}

impl<'a> AddressText<'a> {
    /// A checked address as the geocoder reads it (its second line does not place it).
    pub fn of<P: PostalCodeOf>(address: &'a Address<P>) -> Self {
        Self {
            line1: &address.line1,
            city: &address.city,
            province: &address.province,
            postal_code: address.postal_code_str(),
        }
    }
}

/// A placed address.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    pub place: Place,
    pub precision: Precision,
}

/// The address at a position.
#[derive(Debug, Clone, PartialEq)]
pub struct AtPosition {
    pub line1: String,
    pub city: String,
    pub province: String,
    pub postal_code: String,
    pub precision: Precision,
    pub point: Coordinates,
}

pub struct GeocoderService {
    gazetteer: Arc<Gazetteer>,
    photon: Option<Photon>,
    cache: Arc<dyn Cache>,
    budgets: Budgets,
    metrics: Metrics,
    suggestions_per_client_per_hour: u32,
}

#[derive(Debug, Clone, Copy)]
enum Operation {
    Suggest,
    Locate,
    Reverse,
}

impl Operation {
    fn as_str(self) -> &'static str {
        match self {
            Operation::Suggest => "suggest",
            Operation::Locate => "locate",
            Operation::Reverse => "reverse",
        }
    }
}

impl GeocoderService {
    pub fn new(
        gazetteer: Arc<Gazetteer>,
        photon: Option<Photon>,
        cache: Arc<dyn Cache>,
        budgets: Budgets,
        metrics: Metrics,
        suggestions_per_client_per_hour: u32,
    ) -> Self {
        Self {
            gazetteer,
            photon,
            cache,
            budgets,
            metrics,
            suggestions_per_client_per_hour,
        }
    }

    pub fn gazetteer(&self) -> &Gazetteer {
        &self.gazetteer
    }

    /// Suggestions for what was typed: street addresses from Photon (when configured, the
    /// query is 3 characters or more and not the start of a postal code), else postal codes,
    /// areas and towns from the gazetteer. RESOURCE_EXHAUSTED ADDRESS_SUGGESTION_LIMIT when
    /// the client's hourly budget of Photon calls is spent.
    pub async fn suggest(
        &self,
        client: ClientAddr,
        query: &str,
        province: Option<&str>,
        language: Language,
        near: Option<Coordinates>,
        limit: usize,
    ) -> ApiResult<Vec<Suggestion>> {
        let from_gazetteer = || self.gazetteer.suggestions(query, province, limit);
        let Some(photon) = &self.photon else {
            return Ok(from_gazetteer());
        };
        let normalised = normalise(query);
        if normalised.chars().count() < MIN_STREET_QUERY_CHARS || looks_postal(&normalised) {
            return Ok(from_gazetteer());
        }
        // The bias changes the answer: kept to a tenth of a degree (about 10 km) in the key.
        let bias = near.map_or_else(String::new, |p| {
            format!("{:.1},{:.1}", p.latitude, p.longitude)
        });
        let key = cache_key(
            Operation::Suggest,
            language,
            &format!(
                "{normalised}|{}|{bias}|{limit}",
                province.unwrap_or_default()
            ),
        );
        let budget = Budget::hourly(
            format!("geocoder:suggest:client:{}", client.limit_key()),
            self.suggestions_per_client_per_hour,
            ErrorReason::AddressSuggestionLimit,
            "you have looked up many addresses this hour; type the postal code or try again later",
        );
        let search = Search {
            text: query,
            language,
            near,
            limit,
        };
        let call = async {
            // Counted before it is checked; given back when Photon fails.
            let spent = self.budgets.spend(&[budget], 1).await?;
            let timeout = photon.config().suggest_timeout;
            Ok(spent.settle(photon.search(search, timeout).await).await)
        };
        let Some(found) = self.ask(Operation::Suggest, &key, call).await? else {
            return Ok(from_gazetteer());
        };
        let suggestions: Vec<Suggestion> = found
            .iter()
            .filter(|f| province.is_none_or(|code| f.province == code))
            .filter(|f| f.precision <= Precision::Street)
            .map(suggestion)
            .take(limit)
            .collect();
        if suggestions.is_empty() {
            return Ok(from_gazetteer());
        }
        Ok(suggestions)
    }

    /// Places an address being saved: its door or street from Photon (when configured and it
    /// finds one in the stated province), else the full postal code, the postal area, then
    /// the town from the gazetteer. `None` when nothing places it.
    pub async fn locate(
        &self,
        address: AddressText<'_>,
        language: Language,
    ) -> Result<Option<Located>, GeocodeError> {
        if let Some(located) = self.locate_street(address, language).await {
            return Ok(Some(located));
        }
        Ok(self.locate_in_gazetteer(address))
    }

    /// The gazetteer's chain alone: full postal code, postal area, town.
    pub fn locate_in_gazetteer(&self, address: AddressText<'_>) -> Option<Located> {
        let at = |place: Option<Place>, precision| place.map(|place| Located { place, precision });
        if let Some(code) = address.postal_code {
            let full = at(
                self.gazetteer.lookup_full_postal_code(code),
                Precision::PostalCode,
            );
            let area = || {
                at(
                    self.gazetteer.lookup_postal_code(code),
                    Precision::PostalArea,
                )
            };
            if let Some(located) = full.or_else(area) {
                return Some(located);
            }
        }
        at(
            self.gazetteer
                .lookup_city(address.city, Some(address.province)),
            Precision::Town,
        )
    }

    async fn locate_street(&self, address: AddressText<'_>, language: Language) -> Option<Located> {
        let photon = self.photon.as_ref()?;
        if address.line1.trim().is_empty() {
            return None;
        }
        let text = [
            address.line1.trim(),
            address.city.trim(),
            address.province,
            address.postal_code.unwrap_or_default(),
        ]
        .iter()
        .filter(|part| !part.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
        let key = cache_key(Operation::Locate, language, &normalise(&text));
        let search = Search {
            text: &text,
            language,
            near: None,
            limit: 1,
        };
        let call = async { Ok(photon.search(search, photon.config().save_timeout).await) };
        let found = self.ask(Operation::Locate, &key, call).await.ok()??;
        let best = found
            .into_iter()
            .next()
            .filter(|f| f.precision <= Precision::Street && f.province == address.province)?;
        let time_zone = self.gazetteer.time_zone_near(best.point())?;
        Some(Located {
            place: Place {
                name: if best.city.is_empty() {
                    address.city.to_owned()
                } else {
                    best.city.clone()
                },
                province: best.province.clone(),
                latitude: best.latitude,
                longitude: best.longitude,
                time_zone,
            },
            precision: best.precision,
        })
    }

    /// The address at a position: from Photon when configured (the door or the street), else
    /// the nearest full postal code and its town. `None` when no Canadian address is near.
    pub async fn reverse(&self, at: Coordinates, language: Language) -> Option<AtPosition> {
        if let Some(found) = self.reverse_from_photon(at, language).await {
            return Some(found);
        }
        let (code, place) = self.gazetteer.nearest_postal_code(at)?;
        Some(AtPosition {
            line1: String::new(),
            city: place.name.clone(),
            province: place.province.clone(),
            postal_code: code,
            precision: Precision::PostalCode,
            point: place.coordinates(),
        })
    }

    async fn reverse_from_photon(&self, at: Coordinates, language: Language) -> Option<AtPosition> {
        let photon = self.photon.as_ref()?;
        // Four decimals: about 10 m, closer than a phone's position is sure of.
        let key = cache_key(
            Operation::Reverse,
            language,
            &format!("{:.4},{:.4}", at.latitude, at.longitude),
        );
        let timeout = photon.config().save_timeout;
        let call = async { Ok(photon.reverse(at, language, timeout).await) };
        let found = self.ask(Operation::Reverse, &key, call).await.ok()??;
        let best = found
            .into_iter()
            .find(|f| f.precision <= Precision::Street)?;
        // Photon's postcode when it has one, else the nearest full code's.
        let postal_code = if best.postal_code.len() == 7 {
            best.postal_code.clone()
        } else {
            self.gazetteer
                .nearest_postal_code(best.point())
                .map(|(code, _)| code)
                .unwrap_or_default()
        };
        Some(AtPosition {
            line1: best.line1.clone(),
            city: best.city.clone(),
            province: best.province.clone(),
            postal_code,
            precision: best.precision,
            point: best.point(),
        })
    }

    /// Photon's answer for `key`: the cached one, else `call`'s (then cached). `None` when
    /// Photon is paused or `call` failed (counted), for the caller to fall back on the
    /// gazetteer; an error only when `call` was refused before asking (a spent budget).
    async fn ask(
        &self,
        operation: Operation,
        key: &str,
        call: impl Future<Output = ApiResult<Result<Vec<Found>, PhotonError>>>,
    ) -> ApiResult<Option<Vec<Found>>> {
        if let Some(found) = cache::cached_json(self.cache.as_ref(), key).await {
            return Ok(Some(found));
        }
        if self.paused(operation).await {
            return Ok(None);
        }
        match call.await? {
            Ok(found) => {
                cache::keep_json(self.cache.as_ref(), key, &found, CACHE_TTL).await;
                Ok(Some(found))
            }
            Err(error) => {
                self.failed(operation, &error).await;
                Ok(None)
            }
        }
    }

    /// Whether Photon is paused after repeated failures (counted as a failure of its own).
    async fn paused(&self, operation: Operation) -> bool {
        let paused = matches!(self.cache.get(PAUSED_KEY).await, Ok(Some(_)));
        if paused {
            self.metrics.geocoder_failed(operation.as_str(), "paused");
        }
        paused
    }

    async fn failed(&self, operation: Operation, error: &PhotonError) {
        tracing::warn!(%error, operation = operation.as_str(), "Photon failed; the gazetteer answers");
        self.metrics
            .geocoder_failed(operation.as_str(), error.label());
        match self.cache.increment(FAILURES_KEY, FAILURE_WINDOW).await {
            Ok(failures) if failures >= FAILURES_BEFORE_PAUSE => {
                tracing::warn!(pause = ?PAUSE, "Photon failed {failures} times in a row; pausing calls to it");
                let paused = self.cache.set(PAUSED_KEY, "1", PAUSE).await;
                let cleared = self.cache.delete(FAILURES_KEY).await;
                if let Err(error) = paused.and(cleared) {
                    tracing::warn!(%error, "Photon's pause not recorded");
                }
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "Photon's failure not counted"),
        }
    }
}

/// Lower case, single spaces, no punctuation at the ends: "800  Macl," and "800 macl" are
/// one query.
fn normalise(query: &str) -> String {
    query
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_matches(|c: char| c.is_ascii_punctuation())
        .to_lowercase()
}

/// The start of a postal code: a letter then a digit ("t2p", "T2P 1J9").
fn looks_postal(normalised: &str) -> bool {
    let mut chars = normalised.chars().filter(|c| !c.is_whitespace());
    matches!((chars.next(), chars.next(), chars.next()), (Some(a), Some(d), third)
        if a.is_ascii_alphabetic() && d.is_ascii_digit() && third.is_none_or(|c| c.is_ascii_alphabetic()))
}

fn cache_key(operation: Operation, language: Language, query: &str) -> String {
    let hash = to_hex(&Sha256::digest(query.as_bytes()));
    format!(
        "geocoder:{}:{}:{hash}",
        operation.as_str(),
        language.as_str()
    )
}

fn suggestion(found: &Found) -> Suggestion {
    let kind = match found.precision {
        Precision::Address => SuggestionKind::Address,
        _ => SuggestionKind::Street,
    };
    let place = [
        found.city.as_str(),
        found.province.as_str(),
        found.postal_code.as_str(),
    ]
    .iter()
    .filter(|part| !part.is_empty())
    .copied()
    .collect::<Vec<_>>()
    .join(", ");
    Suggestion {
        kind,
        display_name: format!("{}, {place}", found.line1),
        postal_code: found.postal_code.clone(),
        city: found.city.clone(),
        province: found.province.clone(),
        line1: found.line1.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_normalised_and_postal_ones_told_apart() {
        assert_eq!(normalise("  800   Macl, "), "800 macl");
        assert_eq!(normalise("Rue  SAINT-Denis"), "rue saint-denis");
        assert!(looks_postal("t2p 1j9"));
        assert!(looks_postal("k2p"));
        assert!(!looks_postal("800 macl"));
        assert_ne!(
            cache_key(Operation::Suggest, Language::English, "800 macl"),
            cache_key(Operation::Suggest, Language::French, "800 macl")
        );
    }
}
