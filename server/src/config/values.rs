//! The values of settings that are more than a number or a string: per-country SMS budgets,
//! provider kinds, the log format, the admins' language.

use std::str::FromStr;

use crate::domain::{GstHstNumber, Language, QstNumber};

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

/// Where distances and drive times come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DistanceProviderKind {
    /// Along the Earth's surface, computed here (drives: with a road factor).
    GreatCircle,
    /// By road, from an OSRM server.
    Osrm,
}

/// Where addresses are placed and suggested.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GeocoderKind {
    /// The gazetteer built into the server.
    Gazetteer,
    /// Photon (street addresses), the gazetteer as fallback.
    Photon,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// A duration setting: whole seconds (`600`), or a whole number of seconds, minutes or hours
/// (`600s`, `10m`, `1h`); more than zero.
pub(super) fn parse_duration(value: &str) -> Result<std::time::Duration, String> {
    let value = value.trim();
    let wrong = || format!("{value:?} is not a duration such as 90s, 10m or 1h");
    let (number, unit) = match value.char_indices().last() {
        Some((at, 's')) => (&value[..at], 1),
        Some((at, 'm')) => (&value[..at], 60),
        Some((at, 'h')) => (&value[..at], 3600),
        _ => (value, 1),
    };
    let count: u64 = number.trim().parse().map_err(|_| wrong())?;
    match count.checked_mul(unit) {
        Some(secs) if secs > 0 => Ok(std::time::Duration::from_secs(secs)),
        _ => Err(wrong()),
    }
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

/// GST_HST_NUMBER, as the Canada Revenue Agency writes it (spaces and case as typed); a
/// blank value is refused rather than read as "not registered", which only unset means.
pub(super) fn parse_gst_hst_number(value: &str) -> Result<GstHstNumber, String> {
    registration(value, GstHstNumber::parse)
}

/// QST_NUMBER, as Revenu Québec writes it; blank refused as for GST_HST_NUMBER.
pub(super) fn parse_qst_number(value: &str) -> Result<QstNumber, String> {
    registration(value, QstNumber::parse)
}

fn registration<T>(value: &str, parse: fn(&str) -> Result<T, String>) -> Result<T, String> {
    if value.trim().is_empty() {
        return Err("it is empty: unset it when the platform is not registered".into());
    }
    parse(value)
}

/// A TRUSTED_PROXIES entry: an address (`10.0.0.5`, `::1`) or a CIDR range (`10.0.0.0/8`).
pub(super) fn parse_trusted_proxy(value: &str) -> Result<ipnet::IpNet, String> {
    let value = value.trim();
    if let Ok(addr) = value.parse::<std::net::IpAddr>() {
        return Ok(addr.into());
    }
    let net: ipnet::IpNet = value.parse().map_err(|_| {
        format!("{value:?} is not an address or a CIDR range such as 10.0.0.5 or 10.0.0.0/8")
    })?;
    if net.trunc() != net {
        return Err(format!(
            "{value:?} has host bits set: did you mean {}?",
            net.trunc()
        ));
    }
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trusted_proxies_are_addresses_or_ranges() {
        let net = |s: &str| parse_trusted_proxy(s).map(|n| n.to_string());
        assert_eq!(net("10.0.0.5").unwrap(), "10.0.0.5/32");
        assert_eq!(net(" ::1 ").unwrap(), "::1/128");
        assert_eq!(net("10.0.0.0/8").unwrap(), "10.0.0.0/8");
        assert_eq!(net("fd00::/8").unwrap(), "fd00::/8");
        assert_eq!(
            net("10.1.0.0/8").unwrap_err(),
            "\"10.1.0.0/8\" has host bits set: did you mean 10.0.0.0/8?"
        );
        for wrong in ["", "ingress", "10.0.0.0/33", "10.0.0/8"] {
            assert!(net(wrong).is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn durations_are_seconds_minutes_or_hours() {
        let secs = |s: &str| parse_duration(s).map(|d| d.as_secs());
        assert_eq!(secs("600"), Ok(600));
        assert_eq!(secs("90s"), Ok(90));
        assert_eq!(secs(" 10m "), Ok(600));
        assert_eq!(secs("1h"), Ok(3600));
        for wrong in ["", "0", "0m", "m", "-5s", "1.5m", "10 minutes", "5d"] {
            assert!(parse_duration(wrong).is_err(), "{wrong:?}");
        }
    }

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
