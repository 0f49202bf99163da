//! Customers as the old app read them ("users"), and what every account carries, customers
//! and professionals alike: the SMS choice ('na'/'yes'/'no'), the language ('en'/'eng'/'fr'),
//! the verified phone ('0'/'1') and the phone number as the old form split it.

use repairs_proto::accounts as pb;
use repairs_proto::types::Language;
use serde::Serialize;

use super::formats::time_text;

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

/// `"+<country><number>"` from the form's country code ("+1", "1", "+91") and number; the number
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
