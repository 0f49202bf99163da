//! The values of settings that are more than a number or a string: per-country SMS budgets,
//! provider kinds, the log format, the admins' language.

use std::str::FromStr;

use crate::domain::Language;

/// The hourly SMS budget of one country calling code: `1=400`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountryBudget {
    pub calling_code: String,
    pub per_hour: u32,
}

impl FromStr for CountryBudget {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let wrong = || format!("{value:?} is not a country budget such as 1=400 or +91=20");
        let (code, count) = value.split_once('=').ok_or_else(wrong)?;
        let code = code.trim().trim_start_matches('+');
        if code.is_empty() || code.len() > 3 || !code.bytes().all(|b| b.is_ascii_digit()) {
            return Err(wrong());
        }
        Ok(Self {
            calling_code: code.to_owned(),
            per_hour: count.trim().parse().map_err(|_| wrong())?,
        })
    }
}

/// Which translation service, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TranslationProviderKind {
    /// None: translation is refused as not configured.
    None,
    /// A LibreTranslate server (open source, self-hosted).
    Libretranslate,
    /// DeepL's API.
    Deepl,
}

/// A language setting: `en` or `fr`.
pub(super) fn parse_language(value: &str) -> Result<Language, String> {
    match value.trim() {
        "en" => Ok(Language::English),
        "fr" => Ok(Language::French),
        other => Err(format!("{other:?} is not a language: use en or fr")),
    }
}

/// Where displayed distances come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DistanceProviderKind {
    /// Along the Earth's surface, computed here.
    GreatCircle,
    /// By road, from an OSRM server.
    Osrm,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// PUBLIC_URL: an absolute `http` or `https` address without a query (its trailing `/`
/// dropped), since apps open the links it starts as they are.
pub(super) fn parse_public_url(value: &str) -> Result<String, String> {
    let address = value.trim().trim_end_matches('/');
    let wrong = || format!("{value:?} is not a web address such as https://repairs.example.ca");
    let uri: http::Uri = address.parse().map_err(|_| wrong())?;
    let absolute = matches!(uri.scheme_str(), Some("http" | "https"))
        && uri.authority().is_some_and(|a| !a.host().is_empty())
        && uri.query().is_none();
    if absolute {
        Ok(address.to_owned())
    } else {
        Err(wrong())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_url_is_an_absolute_web_address() {
        assert_eq!(
            parse_public_url("https://repairs.example.ca/").unwrap(),
            "https://repairs.example.ca"
        );
        assert_eq!(
            parse_public_url("http://127.0.0.1:8080").unwrap(),
            "http://127.0.0.1:8080"
        );
        for wrong in [
            "",
            "/",
            "repairs.example.ca",
            "ftp://x",
            "https://x/?a=1",
            "https://",
        ] {
            assert!(parse_public_url(wrong).is_err(), "{wrong:?}");
        }
    }
}
