//! Repair requests as the old app wrote and read them: the legacy status numbers (the one
//! mapping to `RepairRequestState`), 'Yes'/'No' for "immediate help", and the request record.

use repairs_proto::marketplace as pb;
use repairs_proto::marketplace::repair_request::Location;
use serde::Serialize;

use super::formats::{province_name, time_text};
use crate::legacy::catalogue::Catalogue;
use crate::legacy::text::fold;

/// The legacy status numbers of a repair request, kept here and nowhere else (proto/README.md
/// lists them): 1 open (quotable, the only number the old app tested), 2 hired, 3 completed,
/// 4 cancelled (the legacy delete), 5 expired, 6 pending payment (a hire waiting on the
/// cardholder).
const STATUSES: [(pb::RepairRequestState, u8); 6] = [
    (pb::RepairRequestState::Open, 1),
    (pb::RepairRequestState::Hired, 2),
    (pb::RepairRequestState::Completed, 3),
    (pb::RepairRequestState::Cancelled, 4),
    (pb::RepairRequestState::Expired, 5),
    (pb::RepairRequestState::PendingPayment, 6),
];

/// The legacy status number of a request's state; 0 for a state the BFF does not know (never
/// 1, so an unknown state is never shown as quotable).
pub fn request_status_number(state: i32) -> u8 {
    STATUSES
        .iter()
        .find(|(known, _)| *known as i32 == state)
        .map_or(0, |(_, number)| *number)
}

/// The state behind a legacy status number ("1" to "6"); `None` for anything else.
pub fn request_state_from_status(number: &str) -> Option<pb::RepairRequestState> {
    let number: u8 = number.trim().parse().ok()?;
    STATUSES
        .iter()
        .find(|(_, known)| *known == number)
        .map(|(state, _)| *state)
}

/// 'Yes' (needs help now) or 'No' (can wait a few days); "" when not given.
pub fn urgency_text(urgency: i32) -> &'static str {
    match pb::Urgency::try_from(urgency) {
        Ok(pb::Urgency::Immediate) => "Yes",
        Ok(pb::Urgency::CanWait) => "No",
        Ok(pb::Urgency::Unspecified) | Err(_) => "",
    }
}

/// The old form's 'Yes'/'No' (in any case, French too, or the switch's true/false). Anything
/// else is "not given", which the server refuses with its own message.
pub fn urgency_from_text(text: &str) -> pb::Urgency {
    match text.trim().to_lowercase().as_str() {
        "yes" | "oui" | "true" | "1" | "on" => pb::Urgency::Immediate,
        "no" | "non" | "false" | "0" | "off" => pb::Urgency::CanWait,
        _ => pb::Urgency::Unspecified,
    }
}

/// "CA" for the old form's fixed "Canada" (or nothing); anything else as typed, for the
/// server to refuse.
pub fn country_code(text: &str) -> String {
    match fold(text).as_str() {
        "" | "canada" | "ca" => "CA".to_owned(),
        _ => text.trim().to_owned(),
    }
}

/// A repair request as the old app read it. Before hire a professional sees no street:
/// `address_1` and `address_2` are empty, `zipcode` is the postal area ("T2P") and
/// `distance` the whole km from their home base (the old client computed that figure itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegacyRequest {
    #[serde(rename = "_id")]
    pub id: String,
    /// The service's English name, as the old form's radio values were.
    pub specialisation: String,
    pub service_id: String,
    pub repair_explanation: String,
    pub repair_immediately: &'static str,
    pub address_1: String,
    pub address_2: String,
    pub country: &'static str,
    /// The English province name, as the old form stored it.
    pub state_or_province: String,
    pub city: String,
    pub zipcode: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<i32>,
    /// Whether the viewing professional already quoted (their open-requests list only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied: Option<bool>,
    pub status: u8,
    pub user_id: String,
    pub application_count: i32,
    #[serde(rename = "createdAt")]
    pub created_at: Option<String>,
    #[serde(rename = "updatedAt")]
    pub updated_at: Option<String>,
    #[serde(rename = "expiresAt")]
    pub expires_at: Option<String>,
}

impl LegacyRequest {
    pub fn new(request: &pb::RepairRequest, catalogue: &Catalogue) -> Self {
        let mut record = Self {
            id: request.id.clone(),
            specialisation: catalogue
                .english_name(&request.service_id)
                .unwrap_or_else(|| request.service_name.clone()),
            service_id: request.service_id.clone(),
            repair_explanation: request.description.clone(),
            repair_immediately: urgency_text(request.urgency),
            address_1: String::new(),
            address_2: String::new(),
            country: "Canada",
            state_or_province: String::new(),
            city: String::new(),
            zipcode: String::new(),
            distance: None,
            applied: None,
            status: request_status_number(request.state),
            user_id: request.customer_id.clone(),
            application_count: request.quote_count,
            created_at: time_text(request.create_time.as_ref()),
            updated_at: time_text(request.update_time.as_ref()),
            expires_at: time_text(request.expire_time.as_ref()),
        };
        let province = match &request.location {
            Some(Location::Address(address)) => {
                record.address_1.clone_from(&address.line1);
                record.address_2.clone_from(&address.line2);
                record.city.clone_from(&address.city);
                record.zipcode.clone_from(&address.postal_code);
                address.province.as_str()
            }
            Some(Location::ApproximateLocation(near)) => {
                record.city.clone_from(&near.city);
                record.zipcode.clone_from(&near.postal_area);
                record.distance = Some(near.distance_km);
                near.province.as_str()
            }
            None => "",
        };
        if !province.is_empty() {
            record.state_or_province = province_name(province);
        }
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legacy::catalogue::tests::catalogue;
    use prost_types::Timestamp;
    use repairs_proto::types::Address;
    use serde_json::json;

    #[test]
    fn statuses_both_ways() {
        use pb::RepairRequestState as S;
        for (state, number) in [
            (S::Open, 1),
            (S::Hired, 2),
            (S::Completed, 3),
            (S::Cancelled, 4),
            (S::Expired, 5),
            (S::PendingPayment, 6),
        ] {
            assert_eq!(request_status_number(state as i32), number);
            assert_eq!(request_state_from_status(&number.to_string()), Some(state));
        }
        assert_eq!(request_status_number(S::Unspecified as i32), 0);
        assert_eq!(request_status_number(42), 0);
        for junk in ["0", "7", "", "open", "-1", "1.0"] {
            assert_eq!(request_state_from_status(junk), None, "{junk}");
        }
        assert_eq!(request_state_from_status(" 4 "), Some(S::Cancelled));
    }

    #[test]
    fn urgency_both_ways() {
        for text in ["Yes", "yes", " YES ", "Oui", "true"] {
            assert_eq!(urgency_from_text(text), pb::Urgency::Immediate, "{text}");
        }
        for text in ["No", "no", "non", "false"] {
            assert_eq!(urgency_from_text(text), pb::Urgency::CanWait, "{text}");
        }
        assert_eq!(urgency_from_text(""), pb::Urgency::Unspecified);
        assert_eq!(urgency_from_text("soon"), pb::Urgency::Unspecified);
        assert_eq!(urgency_text(pb::Urgency::Immediate as i32), "Yes");
        assert_eq!(urgency_text(pb::Urgency::CanWait as i32), "No");
        assert_eq!(urgency_text(pb::Urgency::Unspecified as i32), "");
    }

    #[test]
    fn the_country_is_canada() {
        assert_eq!(country_code("Canada"), "CA");
        assert_eq!(country_code(" canada "), "CA");
        assert_eq!(country_code(""), "CA");
        assert_eq!(country_code("ca"), "CA");
        assert_eq!(country_code("USA"), "USA");
    }

    fn request(location: Location) -> pb::RepairRequest {
        pb::RepairRequest {
            id: "r1".to_owned(),
            customer_id: "c1".to_owned(),
            service_id: "id-1".to_owned(),
            service_name: "Services de plomberie".to_owned(),
            description: "The sink leaks".to_owned(),
            urgency: pb::Urgency::Immediate as i32,
            location: Some(location),
            state: pb::RepairRequestState::Open as i32,
            quote_count: 2,
            create_time: Some(Timestamp {
                seconds: 1_714_564_800,
                nanos: 0,
            }),
            ..Default::default()
        }
    }

    #[test]
    fn the_owner_reads_the_full_address() {
        let full = request(Location::Address(Address {
            line1: "100 8 Ave SW".to_owned(),
            line2: "Unit 4".to_owned(),
            city: "Calgary".to_owned(),
            province: "AB".to_owned(),
            postal_code: "T2P 1J9".to_owned(),
            country: "CA".to_owned(),
        }));
        let json = serde_json::to_value(LegacyRequest::new(&full, &catalogue())).unwrap();
        assert_eq!(
            json,
            json!({
                "_id": "r1",
                "specialisation": "Plumbing Services",
                "service_id": "id-1",
                "repair_explanation": "The sink leaks",
                "repair_immediately": "Yes",
                "address_1": "100 8 Ave SW",
                "address_2": "Unit 4",
                "country": "Canada",
                "state_or_province": "Alberta",
                "city": "Calgary",
                "zipcode": "T2P 1J9",
                "status": 1,
                "user_id": "c1",
                "application_count": 2,
                "createdAt": "2024-05-01T12:00:00.000Z",
                "updatedAt": null,
                "expiresAt": null,
            })
        );
    }

    #[test]
    fn a_professional_before_hire_reads_no_street() {
        let near = request(Location::ApproximateLocation(pb::ApproximateLocation {
            city: "Calgary".to_owned(),
            province: "AB".to_owned(),
            postal_area: "T2P".to_owned(),
            distance_km: 7,
        }));
        let record = LegacyRequest::new(&near, &catalogue());
        assert_eq!(record.address_1, "");
        assert_eq!(record.address_2, "");
        assert_eq!(record.zipcode, "T2P");
        assert_eq!(record.city, "Calgary");
        assert_eq!(record.state_or_province, "Alberta");
        assert_eq!(record.distance, Some(7));
        // A service the catalogue no longer lists keeps the server's name.
        let mut gone = near;
        gone.service_id = "gone".to_owned();
        let record = LegacyRequest::new(&gone, &catalogue());
        assert_eq!(record.specialisation, "Services de plomberie");
    }
}
