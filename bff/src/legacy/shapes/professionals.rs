//! Professionals as the old app read and wrote them: the approval status numbers, membership,
//! experience ("5-10"), working days ("Monday, Tuesday"), the free-text radius, licence rows,
//! and the professional record with its home base.

use repairs_proto::accounts as pb;
use repairs_proto::types::Address;
use serde::Serialize;

use super::formats::{fee_text, file_path, province_name, time_text};
use super::users::{language_text, otp_verified, sms_text};
use crate::legacy::catalogue::Catalogue;
use crate::legacy::text::split_list;

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

/// 'active' while the membership is paid up, 'inactive' otherwise.
pub fn membership_status(active: bool) -> &'static str {
    if active { "active" } else { "inactive" }
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
            photo_id: file_path(&professional.photo_url),
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
                    .map(|l| file_path(&l.file_url))
                    .collect(),
            },
            created_at: time_text(professional.create_time.as_ref()),
            lang: language_text(professional.language),
        }
    }
}

/// The old form's defaults for working hours.
const DEFAULT_FROM: &str = "00:00";
const DEFAULT_TO: &str = "23:59";

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legacy::catalogue::tests::catalogue;
    use crate::legacy::shapes::formats::cad;
    use repairs_proto::types::Language;

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
    fn otp_and_membership_flags() {
        assert_eq!(otp_verified(true), "1");
        assert_eq!(otp_verified(false), "0");
        assert_eq!(membership_status(true), "active");
        assert_eq!(membership_status(false), "inactive");
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
                emergencies_any_hour: false,
                gst_hst_number: String::new(),
                qst_number: String::new(),
            }),
            photo_url: "https://repairs.example.ca/files/p.png?exp=1&sig=aa".to_owned(),
            licences: vec![pb::Licence {
                label: "Plumbing".to_owned(),
                file_url: "https://repairs.example.ca/files/l.pdf?exp=1&sig=bb".to_owned(),
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
