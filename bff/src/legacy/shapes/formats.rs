//! Text formats several records share: fees ("30.00", CAD), province names, times as the old
//! `createdAt`, the media type an upload is declared with, and file links.

use chrono::{DateTime, SecondsFormat};
use prost_types::Timestamp;
use repairs_proto::province;
use repairs_proto::types::Money;

/// A file link as the legacy replies always carried it, a path on the BFF's own origin
/// (`/files/...?exp=..&sig=..`): the server's replies name it under PUBLIC_URL, for apps.
pub fn file_path(url: &str) -> String {
    url.split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|at| rest[at..].to_owned()))
        .unwrap_or_else(|| url.to_owned())
}

/// "30.00" for 3000 cents; "" when there is no fee.
pub fn fee_text(money: Option<&Money>) -> String {
    let Some(money) = money else {
        return String::new();
    };
    let cents = money.amount_cents;
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// Cents from a fee typed as text: "30", "30.5", "30.00", "$30.00", "30,00" (French decimal
/// comma), "1 250.00". `None` when it is not an amount with at most two decimals.
pub fn fee_cents(text: &str) -> Option<i64> {
    let mut cleaned: String = text
        .trim()
        .trim_end_matches("CAD")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '$')
        .collect();
    if !cleaned.contains('.') && cleaned.matches(',').count() == 1 {
        cleaned = cleaned.replace(',', ".");
    }
    let (negative, unsigned) = match cleaned.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, cleaned.as_str()),
    };
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 2 {
        return None;
    }
    let fraction_cents = match fraction.len() {
        0 => 0,
        1 => fraction.parse::<i64>().ok()? * 10,
        _ => fraction.parse::<i64>().ok()?,
    };
    let cents = whole
        .parse::<i64>()
        .ok()?
        .checked_mul(100)?
        .checked_add(fraction_cents)?;
    Some(if negative { -cents } else { cents })
}

/// A fee in cents as the money the profile takes (always CAD).
pub fn cad(cents: i64) -> Money {
    Money {
        amount_cents: cents,
        currency: "CAD".to_owned(),
    }
}

/// The two-letter code of a province given by code or by English or French name; anything
/// else is passed on as typed (the server says it is not a province).
pub fn province_code(text: &str) -> String {
    province::code_of(text).map_or_else(|| text.trim().to_owned(), str::to_owned)
}

/// The English name the old form showed for a province code ("AB" -> "Alberta").
pub fn province_name(code: &str) -> String {
    province::english_name(code).unwrap_or(code).to_owned()
}

/// The media type to declare for an uploaded file: the part's own, or, when the browser gave
/// none or a generic one, the one its file name suggests (the server checks the bytes anyway).
pub fn upload_content_type(declared: &str, file_name: &str) -> String {
    let declared = declared.trim();
    if !declared.is_empty() && !declared.eq_ignore_ascii_case("application/octet-stream") {
        return declared.to_owned();
    }
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "jpg" | "jpeg" => "image/jpeg",
        "png" => "image/png",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        _ => "application/octet-stream",
    }
    .to_owned()
}

/// ISO 8601 in UTC with milliseconds, as the old app's `createdAt` ("2024-05-01T12:00:00.000Z").
pub fn time_text(time: Option<&Timestamp>) -> Option<String> {
    let time = time?;
    let nanos = u32::try_from(time.nanos).unwrap_or(0);
    DateTime::from_timestamp(time.seconds, nanos)
        .map(|t| t.to_rfc3339_opts(SecondsFormat::Millis, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_links_lose_their_origin() {
        assert_eq!(
            file_path("https://repairs.example.ca:8443/files/a/b.pdf?exp=1&sig=ab"),
            "/files/a/b.pdf?exp=1&sig=ab"
        );
        assert_eq!(file_path("/files/a.png?exp=1"), "/files/a.png?exp=1");
        assert_eq!(file_path(""), "");
    }

    #[test]
    fn fees_both_ways() {
        for (text, cents) in [
            ("30.00", 3000),
            ("30", 3000),
            ("30.5", 3050),
            (" $30.05 ", 3005),
            ("30,00", 3000),
            ("1 250.00", 125_000),
            ("0", 0),
            ("-5", -500),
            ("45 CAD", 4500),
        ] {
            assert_eq!(fee_cents(text), Some(cents), "{text}");
        }
        for text in ["", "abc", "30.005", "3O", ".5", "1,000,000", "30.-1"] {
            assert_eq!(fee_cents(text), None, "{text}");
        }
        assert_eq!(fee_text(Some(&cad(3000))), "30.00");
        assert_eq!(fee_text(Some(&cad(5))), "0.05");
        assert_eq!(fee_text(Some(&cad(-50))), "-0.50");
        assert_eq!(fee_text(None), "");
        assert_eq!(fee_cents(&fee_text(Some(&cad(123_456)))), Some(123_456));
    }

    #[test]
    fn provinces_by_code_or_name() {
        for (text, code) in [
            ("AB", "AB"),
            ("ab", "AB"),
            ("Alberta", "AB"),
            ("Québec", "QC"),
            ("quebec", "QC"),
            ("Colombie-Britannique", "BC"),
            ("british columbia", "BC"),
            ("Île-du-Prince-Édouard", "PE"),
            ("Newfoundland and Labrador", "NL"),
        ] {
            assert_eq!(province_code(text), code, "{text}");
        }
        assert_eq!(province_code(" Texas "), "Texas");
        assert_eq!(province_name("AB"), "Alberta");
        assert_eq!(province_name("QC"), "Quebec");
        assert_eq!(province_name("XX"), "XX");
    }

    #[test]
    fn upload_types() {
        assert_eq!(upload_content_type("image/png", "a.jpg"), "image/png");
        assert_eq!(
            upload_content_type("application/octet-stream", "Licence.PDF"),
            "application/pdf"
        );
        assert_eq!(upload_content_type("", "me.jpeg"), "image/jpeg");
        assert_eq!(upload_content_type("", "noext"), "application/octet-stream");
    }

    #[test]
    fn times_read_like_the_old_created_at() {
        let time = Timestamp {
            seconds: 1_714_564_800,
            nanos: 123_456_789,
        };
        assert_eq!(
            time_text(Some(&time)).as_deref(),
            Some("2024-05-01T12:00:00.123Z")
        );
        assert_eq!(time_text(None), None);
    }
}
