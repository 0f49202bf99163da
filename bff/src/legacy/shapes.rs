//! The old app's shapes, in one place: its records (user, professional, service), its codes
//! (status numbers, 'na'/'yes'/'no', 'en'/'eng'/'fr', '0'/'1'), and its text formats (fees
//! "30.00", days "Monday, Tuesday", province names, createdAt). Pure conversions, no rules:
//! a value the BFF cannot read is passed on as "not given" and the server says what is wrong.

use chrono::{DateTime, SecondsFormat};
use prost_types::Timestamp;
use repairs_proto::accounts as pb;
use repairs_proto::content;
use repairs_proto::province;
use repairs_proto::types::{Address, Language, Money};
use serde::Serialize;

use super::catalogue::Catalogue;
use super::text::{english, french, split_list};

mod applications;
mod requests;

pub use applications::{LegacyApplication, LegacyQuotedRequest, minutes_from_hours};

pub use requests::{
    LegacyRequest, country_code, request_state_from_status, request_status_number,
    urgency_from_text, urgency_text,
};

// ---------------------------------------------------------------------------------------------
// Codes.

/// The legacy status number of a professional: 0 waiting, 1 approved, 2 denied, 3 profile
/// updated. (The old clients treat unknown numbers as approved, so an unknown state reads 0.)
pub fn status_number(state: i32) -> u8 {
    match pb::ProfessionalState::try_from(state) {
        Ok(pb::ProfessionalState::Approved) => 1,
        Ok(pb::ProfessionalState::Denied) => 2,
        Ok(pb::ProfessionalState::ProfileUpdated) => 3,
        Ok(pb::ProfessionalState::WaitingForApproval | pb::ProfessionalState::Unspecified)
        | Err(_) => 0,
    }
}

/// The state behind a legacy status number ("0" to "3"); `None` for anything else.
pub fn state_from_status(number: &str) -> Option<pb::ProfessionalState> {
    match number.trim() {
        "0" => Some(pb::ProfessionalState::WaitingForApproval),
        "1" => Some(pb::ProfessionalState::Approved),
        "2" => Some(pb::ProfessionalState::Denied),
        "3" => Some(pb::ProfessionalState::ProfileUpdated),
        _ => None,
    }
}

/// 'na' (never asked), 'yes' or 'no'.
pub fn sms_text(value: i32) -> &'static str {
    match pb::SmsUpdates::try_from(value) {
        Ok(pb::SmsUpdates::Yes) => "yes",
        Ok(pb::SmsUpdates::No) => "no",
        Ok(pb::SmsUpdates::NotAsked | pb::SmsUpdates::Unspecified) | Err(_) => "na",
    }
}

/// 'yes'/'no'/'na' as the old clients sent them (some sent the switch's true/false).
/// Anything else is "not given".
pub fn sms_from_text(text: &str) -> pb::SmsUpdates {
    match text.trim().to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" | "on" => pb::SmsUpdates::Yes,
        "no" | "false" | "0" | "off" => pb::SmsUpdates::No,
        "na" => pb::SmsUpdates::NotAsked,
        _ => pb::SmsUpdates::Unspecified,
    }
}

/// 'en' or 'fr' (what the old app stored; 'eng' is read but never written).
pub fn language_text(value: i32) -> &'static str {
    match Language::try_from(value) {
        Ok(Language::Fr) => "fr",
        Ok(Language::En | Language::Unspecified) | Err(_) => "en",
    }
}

/// 'en', 'eng' or 'fr' (and the spelled-out names); anything else is "not given".
pub fn language_from_text(text: &str) -> Language {
    match text.trim().to_lowercase().as_str() {
        "en" | "eng" | "english" => Language::En,
        "fr" | "fra" | "fre" | "french" | "français" | "francais" => Language::Fr,
        _ => Language::Unspecified,
    }
}

/// otp_verified: '1' once the phone is verified, '0' before.
pub fn otp_verified(phone_verified: bool) -> &'static str {
    if phone_verified { "1" } else { "0" }
}

/// 'active' while the membership is paid up, 'inactive' otherwise.
pub fn membership_status(active: bool) -> &'static str {
    if active { "active" } else { "inactive" }
}

// ---------------------------------------------------------------------------------------------
// Text formats.

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

const EXPERIENCE: [(pb::Experience, &str); 6] = [
    (pb::Experience::Under5, "<5"),
    (pb::Experience::Experience5, "5"),
    (pb::Experience::Experience5To10, "5-10"),
    (pb::Experience::Experience10To15, "10-15"),
    (pb::Experience::Experience15To20, "15-20"),
    (pb::Experience::Over20, ">20"),
];

/// "<5", "5", "5-10", "10-15", "15-20" or ">20"; "" when not given.
pub fn experience_text(value: i32) -> &'static str {
    EXPERIENCE
        .iter()
        .find(|(experience, _)| *experience as i32 == value)
        .map_or("", |(_, text)| text)
}

/// One of the six choices of the old form (spaces ignored, "&lt;5" as browsers escaped it).
pub fn experience_from_text(text: &str) -> pb::Experience {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let compact = compact.replace("&lt;", "<").replace("&gt;", ">");
    EXPERIENCE
        .iter()
        .find(|(_, choice)| *choice == compact)
        .map_or(pb::Experience::Unspecified, |(experience, _)| *experience)
}

const DAYS: [(pb::Weekday, &str, &str); 7] = [
    (pb::Weekday::Monday, "Monday", "lundi"),
    (pb::Weekday::Tuesday, "Tuesday", "mardi"),
    (pb::Weekday::Wednesday, "Wednesday", "mercredi"),
    (pb::Weekday::Thursday, "Thursday", "jeudi"),
    (pb::Weekday::Friday, "Friday", "vendredi"),
    (pb::Weekday::Saturday, "Saturday", "samedi"),
    (pb::Weekday::Sunday, "Sunday", "dimanche"),
];

/// "Monday, Tuesday" (the old app's comma-and-space list).
pub fn days_text(days: &[i32]) -> String {
    days.iter()
        .filter_map(|day| DAYS.iter().find(|(d, _, _)| *d as i32 == *day))
        .map(|(_, english, _)| *english)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Days from the values sent (each may itself be a comma-separated list), English or French
/// names in any case. A name that is not a day becomes WEEKDAY_UNSPECIFIED, which the server
/// refuses with its own message.
pub fn days_from_text(values: &[String]) -> Vec<i32> {
    split_list(values)
        .map(|name| {
            DAYS.iter()
                .find(|(_, english, french)| {
                    name.eq_ignore_ascii_case(english) || name.to_lowercase() == *french
                })
                .map_or(pb::Weekday::Unspecified, |(day, _, _)| *day) as i32
        })
        .collect()
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

/// Whole km from the old form's free-text radius ("50", "50 km", "50.0"); 0 (which the server
/// refuses with its own message) when it is not a number.
pub fn radius_km(text: &str) -> i32 {
    let text = text.trim();
    let number = text
        .strip_suffix("km")
        .or_else(|| text.strip_suffix("KM"))
        .or_else(|| text.strip_suffix("Km"))
        .unwrap_or(text)
        .trim();
    if let Ok(whole) = number.parse::<i32>() {
        return whole;
    }
    match number.replace(',', ".").parse::<f64>() {
        // `as` saturates: an absurd radius stays absurd and the server says so.
        Ok(value) if value.is_finite() => value.round() as i32,
        _ => 0,
    }
}

/// The labels of the licence rows: one per `textValues[]` field, or a JSON array in one field
/// (`formData.append('textValues', JSON.stringify(rows))`).
pub fn list_values(values: Vec<String>) -> Vec<String> {
    if let [only] = values.as_slice()
        && only.trim_start().starts_with('[')
        && let Ok(items) = serde_json::from_str::<Vec<serde_json::Value>>(only)
    {
        return items
            .into_iter()
            .map(|item| match item {
                serde_json::Value::String(text) => text,
                serde_json::Value::Null => String::new(),
                other => other.to_string(),
            })
            .collect();
    }
    values
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

/// "+<country><number>" from the form's country code ("+1", "1", "+91") and number; the number
/// alone when it already starts with "+".
pub fn e164(country_code: &str, number: &str) -> String {
    let number = number.trim();
    if number.starts_with('+') {
        return number.to_owned();
    }
    let country = country_code.trim().trim_start_matches('+');
    format!("+{country}{number}")
}

/// The country codes of the old phone form, longest first.
const COUNTRY_CODES: [&str; 2] = ["+91", "+1"];

/// Splits "+14035550100" into ("+1", "4035550100"). A number without "+" is national, in
/// `default_country`; an unknown "+" prefix is passed on whole (the server refuses it).
pub fn split_phone(number: &str, default_country: &str) -> (String, String) {
    let number = number.trim();
    if !number.starts_with('+') {
        return (default_country.to_owned(), number.to_owned());
    }
    COUNTRY_CODES
        .iter()
        .find_map(|code| {
            number
                .strip_prefix(code)
                .map(|rest| ((*code).to_owned(), rest.to_owned()))
        })
        .unwrap_or_else(|| (String::new(), number.to_owned()))
}

// ---------------------------------------------------------------------------------------------
// Records.

/// A customer as the old app read it (`GET /api/users/get-user/{id}`, the admin's list).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegacyUser {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub otp_verified: &'static str,
    pub sms_updates: &'static str,
    pub language: &'static str,
    #[serde(rename = "createdAt")]
    pub created_at: Option<String>,
}

impl From<&pb::Customer> for LegacyUser {
    fn from(customer: &pb::Customer) -> Self {
        Self {
            id: customer.id.clone(),
            name: customer.name.clone(),
            email: customer.email.clone(),
            phone: customer.phone.clone(),
            otp_verified: otp_verified(customer.phone_verified),
            sms_updates: sms_text(customer.sms_updates),
            language: language_text(customer.language),
            created_at: time_text(customer.create_time.as_ref()),
        }
    }
}

/// Licence rows: labels and file links, in the same order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LegacyLicences {
    #[serde(rename = "textValues")]
    pub text_values: Vec<String>,
    #[serde(rename = "fileValues")]
    pub file_values: Vec<String>,
}

/// A professional as the old app read it (profile screens, the admin's list and view).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegacyProfessional {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub description: String,
    /// The photo's link, "" for the default avatar.
    pub photo_id: String,
    /// English service names, "Plumbing Services, Roofing Services".
    pub specialisation: String,
    pub experience: &'static str,
    /// "30.00" (CAD).
    pub standard_fees: String,
    pub qualification: String,
    /// The home base's street line.
    pub office_address: String,
    pub registered_address: String,
    pub country: &'static str,
    pub state_or_province: String,
    pub city: String,
    pub zipcode: String,
    /// Whole km, as text (the old form's free-text field).
    pub radius_to_cater: String,
    pub status: u8,
    pub disapproval_reason: String,
    pub d_reason: String,
    #[serde(rename = "membershipStatus")]
    pub membership_status: &'static str,
    pub sms_updates: &'static str,
    pub otp_verified: &'static str,
    pub availability_days: String,
    pub availability_hours1: String,
    pub availability_hours2: String,
    #[serde(rename = "approvedAt")]
    pub approved_at: Option<String>,
    pub licence: LegacyLicences,
    #[serde(rename = "createdAt")]
    pub created_at: Option<String>,
    pub lang: &'static str,
}

/// The old form's defaults for working hours.
const DEFAULT_FROM: &str = "00:00";
const DEFAULT_TO: &str = "23:59";

impl LegacyProfessional {
    pub fn new(professional: &pb::Professional, catalogue: &Catalogue) -> Self {
        let profile = professional.profile.clone().unwrap_or_default();
        let home = profile.home_base.clone().unwrap_or_default();
        let or_default = |value: &str, default: &str| {
            if value.is_empty() {
                default.to_owned()
            } else {
                value.to_owned()
            }
        };
        let radius = if profile.radius_km > 0 {
            profile.radius_km.to_string()
        } else {
            String::new()
        };
        Self {
            id: professional.id.clone(),
            name: professional.name.clone(),
            email: professional.email.clone(),
            phone: professional.phone.clone(),
            description: profile.description.clone(),
            photo_id: professional.photo_url.clone(),
            specialisation: catalogue.english_names(&profile.service_ids),
            experience: experience_text(profile.experience),
            standard_fees: fee_text(profile.minimum_fee.as_ref()),
            qualification: profile.qualification.clone(),
            office_address: home.line1.clone(),
            registered_address: profile.registered_address.clone(),
            country: "Canada",
            state_or_province: if home.province.is_empty() {
                String::new()
            } else {
                province_name(&home.province)
            },
            city: home.city.clone(),
            zipcode: home.postal_code.clone(),
            radius_to_cater: radius,
            status: status_number(professional.state),
            disapproval_reason: professional.denial_reason.clone(),
            d_reason: professional.denial_reason.clone(),
            membership_status: membership_status(professional.membership_active),
            sms_updates: sms_text(professional.sms_updates),
            otp_verified: otp_verified(professional.phone_verified),
            availability_days: days_text(&profile.available_days),
            availability_hours1: or_default(&profile.available_from, DEFAULT_FROM),
            availability_hours2: or_default(&profile.available_to, DEFAULT_TO),
            approved_at: time_text(professional.approve_time.as_ref()),
            licence: LegacyLicences {
                text_values: professional
                    .licences
                    .iter()
                    .map(|l| l.label.clone())
                    .collect(),
                file_values: professional
                    .licences
                    .iter()
                    .map(|l| l.file_url.clone())
                    .collect(),
            },
            created_at: time_text(professional.create_time.as_ref()),
            lang: language_text(professional.language),
        }
    }
}

/// The home base on one line ("1 Main St, Calgary, AB T2P 1J9"), the address the old app kept
/// in the browser (`f1_address`); "" before the profile is saved.
pub fn home_address_line(professional: &pb::Professional) -> String {
    let home: Address = professional
        .profile
        .as_ref()
        .and_then(|p| p.home_base.clone())
        .unwrap_or_default();
    let region = [home.province.as_str(), home.postal_code.as_str()]
        .iter()
        .filter(|part| !part.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    [home.line1.as_str(), home.city.as_str(), region.as_str()]
        .iter()
        .filter(|part| !part.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// Which language a service record is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServiceLanguage {
    English,
    French,
}

/// A service as the old app read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegacyService {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub description: String,
    /// The icon's link, "" for the default icon.
    pub photo: String,
    #[serde(rename = "createdAt")]
    pub created_at: Option<String>,
}

impl LegacyService {
    pub fn new(service: &content::Service, language: ServiceLanguage) -> Self {
        let text = match language {
            ServiceLanguage::English => english,
            ServiceLanguage::French => french,
        };
        Self {
            id: service.id.clone(),
            name: text(service.name.as_ref()),
            description: text(service.description.as_ref()),
            photo: service.icon_url.clone(),
            created_at: time_text(service.create_time.as_ref()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legacy::catalogue::tests::{catalogue, service};

    #[test]
    fn status_numbers_both_ways() {
        use pb::ProfessionalState as S;
        for (state, number) in [
            (S::WaitingForApproval, 0),
            (S::Approved, 1),
            (S::Denied, 2),
            (S::ProfileUpdated, 3),
        ] {
            assert_eq!(status_number(state as i32), number);
            assert_eq!(state_from_status(&number.to_string()), Some(state));
        }
        assert_eq!(status_number(S::Unspecified as i32), 0);
        assert_eq!(status_number(99), 0);
        assert_eq!(state_from_status("4"), None);
        assert_eq!(state_from_status(""), None);
    }

    #[test]
    fn sms_choices_both_ways() {
        use pb::SmsUpdates as S;
        for (value, text) in [(S::NotAsked, "na"), (S::Yes, "yes"), (S::No, "no")] {
            assert_eq!(sms_text(value as i32), text);
            assert_eq!(sms_from_text(text), value);
        }
        assert_eq!(sms_text(S::Unspecified as i32), "na");
        assert_eq!(sms_from_text(" YES "), S::Yes);
        assert_eq!(sms_from_text("true"), S::Yes);
        assert_eq!(sms_from_text("false"), S::No);
        assert_eq!(sms_from_text(""), S::Unspecified);
        assert_eq!(sms_from_text("maybe"), S::Unspecified);
    }

    #[test]
    fn languages_both_ways() {
        assert_eq!(language_from_text("en"), Language::En);
        assert_eq!(language_from_text("eng"), Language::En);
        assert_eq!(language_from_text("FR"), Language::Fr);
        assert_eq!(language_from_text("français"), Language::Fr);
        assert_eq!(language_from_text(""), Language::Unspecified);
        assert_eq!(language_from_text("de"), Language::Unspecified);
        assert_eq!(language_text(Language::Fr as i32), "fr");
        assert_eq!(language_text(Language::En as i32), "en");
        assert_eq!(language_text(Language::Unspecified as i32), "en");
    }

    #[test]
    fn otp_and_membership_flags() {
        assert_eq!(otp_verified(true), "1");
        assert_eq!(otp_verified(false), "0");
        assert_eq!(membership_status(true), "active");
        assert_eq!(membership_status(false), "inactive");
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
    fn experience_both_ways() {
        for text in ["<5", "5", "5-10", "10-15", "15-20", ">20"] {
            assert_eq!(experience_text(experience_from_text(text) as i32), text);
        }
        assert_eq!(
            experience_from_text(" 5 - 10 "),
            pb::Experience::Experience5To10
        );
        assert_eq!(experience_from_text("&lt;5"), pb::Experience::Under5);
        assert_eq!(experience_from_text("7"), pb::Experience::Unspecified);
        assert_eq!(experience_text(pb::Experience::Unspecified as i32), "");
    }

    #[test]
    fn days_both_ways() {
        let days = days_from_text(&["Monday, tuesday".to_owned(), "dimanche".to_owned()]);
        assert_eq!(
            days,
            [
                pb::Weekday::Monday as i32,
                pb::Weekday::Tuesday as i32,
                pb::Weekday::Sunday as i32
            ]
        );
        assert_eq!(days_text(&days), "Monday, Tuesday, Sunday");
        assert_eq!(
            days_from_text(&["Funday".to_owned()]),
            [pb::Weekday::Unspecified as i32]
        );
        assert!(days_from_text(&[" , ".to_owned()]).is_empty());
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
    fn radius_from_free_text() {
        for (text, km) in [
            ("50", 50),
            (" 50 km", 50),
            ("50KM", 50),
            ("12.6", 13),
            ("0", 0),
            ("", 0),
            ("far", 0),
            ("-3", -3),
        ] {
            assert_eq!(radius_km(text), km, "{text}");
        }
        assert_eq!(radius_km("1e12"), i32::MAX);
    }

    #[test]
    fn licence_labels_from_fields_or_a_json_array() {
        let fields = vec!["Plumbing".to_owned(), "Roofing".to_owned()];
        assert_eq!(list_values(fields.clone()), fields);
        assert_eq!(
            list_values(vec![r#"["Plumbing", "Roofing", null]"#.to_owned()]),
            ["Plumbing", "Roofing", ""]
        );
        assert_eq!(list_values(vec!["[draft".to_owned()]), ["[draft"]);
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

    #[test]
    fn phones() {
        assert_eq!(e164("+1", "4035550100"), "+14035550100");
        assert_eq!(e164("91", "9876543210"), "+919876543210");
        assert_eq!(e164("", "+14035550100"), "+14035550100");
        assert_eq!(
            split_phone("+919876543210", "+1"),
            ("+91".to_owned(), "9876543210".to_owned())
        );
        assert_eq!(
            split_phone("+1 403 555 0100", "+1"),
            ("+1".to_owned(), " 403 555 0100".to_owned())
        );
        assert_eq!(
            split_phone("4035550100", "+1"),
            ("+1".to_owned(), "4035550100".to_owned())
        );
        assert_eq!(
            split_phone("+447700900123", "+1"),
            (String::new(), "+447700900123".to_owned())
        );
    }

    #[test]
    fn a_service_reads_in_either_language() {
        let service = service("id-1", "Plumbing Services", "Services de plomberie");
        let en = LegacyService::new(&service, ServiceLanguage::English);
        let fr = LegacyService::new(&service, ServiceLanguage::French);
        assert_eq!(en.name, "Plumbing Services");
        assert_eq!(fr.name, "Services de plomberie");
        // An untranslated description falls back to English.
        assert_eq!(fr.description, "Plumbing Services text");
        let json = serde_json::to_value(&en).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "_id": "id-1",
                "name": "Plumbing Services",
                "description": "Plumbing Services text",
                "photo": "/files/icon?exp=1&sig=ab",
                "createdAt": "1970-01-01T00:00:00.000Z",
            })
        );
    }

    #[test]
    fn a_customer_reads_as_a_legacy_user() {
        let customer = pb::Customer {
            id: "c1".to_owned(),
            name: "Ann".to_owned(),
            email: "ann@example.com".to_owned(),
            phone: "+14035550100".to_owned(),
            phone_verified: true,
            sms_updates: pb::SmsUpdates::No as i32,
            language: Language::Fr as i32,
            create_time: None,
        };
        let json = serde_json::to_value(LegacyUser::from(&customer)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "_id": "c1",
                "name": "Ann",
                "email": "ann@example.com",
                "phone": "+14035550100",
                "otp_verified": "1",
                "sms_updates": "no",
                "language": "fr",
                "createdAt": null,
            })
        );
    }

    #[test]
    fn a_professional_reads_as_the_legacy_record() {
        let professional = pb::Professional {
            id: "p1".to_owned(),
            name: "Bob".to_owned(),
            email: "bob@example.com".to_owned(),
            phone: String::new(),
            phone_verified: false,
            sms_updates: pb::SmsUpdates::Yes as i32,
            language: Language::En as i32,
            state: pb::ProfessionalState::Denied as i32,
            denial_reason: "Licence unreadable".to_owned(),
            profile: Some(pb::ProfessionalProfile {
                description: "Fixes leaks".to_owned(),
                registered_address: "2 Bill St".to_owned(),
                home_base: Some(Address {
                    line1: "1 Main St".to_owned(),
                    city: "Calgary".to_owned(),
                    province: "AB".to_owned(),
                    postal_code: "T2P 1J9".to_owned(),
                    country: "CA".to_owned(),
                    ..Default::default()
                }),
                available_days: vec![pb::Weekday::Monday as i32, pb::Weekday::Friday as i32],
                available_from: "08:00".to_owned(),
                available_to: "17:30".to_owned(),
                time_zone: "America/Edmonton".to_owned(),
                radius_km: 50,
                service_ids: vec!["id-4".to_owned(), "id-1".to_owned()],
                qualification: "Journeyman".to_owned(),
                experience: pb::Experience::Experience5To10 as i32,
                minimum_fee: Some(cad(3000)),
            }),
            photo_url: "/files/p.png?exp=1&sig=aa".to_owned(),
            licences: vec![pb::Licence {
                label: "Plumbing".to_owned(),
                file_url: "/files/l.pdf?exp=1&sig=bb".to_owned(),
                ..Default::default()
            }],
            membership_active: false,
            ..Default::default()
        };
        let record = LegacyProfessional::new(&professional, &catalogue());
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "_id": "p1",
                "name": "Bob",
                "email": "bob@example.com",
                "phone": "",
                "description": "Fixes leaks",
                "photo_id": "/files/p.png?exp=1&sig=aa",
                "specialisation": "Roofing Services, Plumbing Services",
                "experience": "5-10",
                "standard_fees": "30.00",
                "qualification": "Journeyman",
                "office_address": "1 Main St",
                "registered_address": "2 Bill St",
                "country": "Canada",
                "state_or_province": "Alberta",
                "city": "Calgary",
                "zipcode": "T2P 1J9",
                "radius_to_cater": "50",
                "status": 2,
                "disapproval_reason": "Licence unreadable",
                "d_reason": "Licence unreadable",
                "membershipStatus": "inactive",
                "sms_updates": "yes",
                "otp_verified": "0",
                "availability_days": "Monday, Friday",
                "availability_hours1": "08:00",
                "availability_hours2": "17:30",
                "approvedAt": null,
                "licence": {
                    "textValues": ["Plumbing"],
                    "fileValues": ["/files/l.pdf?exp=1&sig=bb"],
                },
                "createdAt": null,
                "lang": "en",
            })
        );
        assert_eq!(
            home_address_line(&professional),
            "1 Main St, Calgary, AB T2P 1J9"
        );
    }

    #[test]
    fn a_new_professional_has_the_form_defaults() {
        let record = LegacyProfessional::new(&pb::Professional::default(), &Catalogue::default());
        assert_eq!(record.status, 0);
        assert_eq!(record.availability_hours1, "00:00");
        assert_eq!(record.availability_hours2, "23:59");
        assert_eq!(record.radius_to_cater, "");
        assert_eq!(record.standard_fees, "");
        assert_eq!(record.state_or_province, "");
        assert_eq!(record.sms_updates, "na");
        assert_eq!(home_address_line(&pb::Professional::default()), "");
    }
}

// ---------------------------------------------------------------------------------------------
// Coupons.

/// A coupon as the old admin screens list it: `{_id, code, discountPercent}`, with the
/// newer fields beside them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LegacyCoupon {
    #[serde(rename = "_id")]
    pub id: String,
    pub code: String,
    pub discount_percent: i32,
    pub active: bool,
    pub max_redemptions: i32,
    pub redemption_count: i32,
    pub expires_at: Option<String>,
    pub created_at: Option<String>,
}

impl From<&repairs_proto::billing::Coupon> for LegacyCoupon {
    fn from(coupon: &repairs_proto::billing::Coupon) -> Self {
        Self {
            id: coupon.id.clone(),
            code: coupon.code.clone(),
            discount_percent: coupon.discount_percent,
            active: coupon.active,
            max_redemptions: coupon.max_redemptions,
            redemption_count: coupon.redemption_count,
            expires_at: time_text(coupon.expire_time.as_ref()),
            created_at: time_text(coupon.create_time.as_ref()),
        }
    }
}
