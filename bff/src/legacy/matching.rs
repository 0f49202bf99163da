//! The two matching calls the old client made from the browser after placing a request
//! (`/api/professionals/get-distance` and `/email-phone`). The server now matches and
//! notifies by itself; these stay for old callers.

use axum::Json;
use repairs_proto::matching as pb;
use serde::Deserialize;
use serde_json::{Value, json};

use super::body::{LegacyJson, text};
use super::error::Reply;
use super::rpc::Rpc;

#[derive(Debug, Deserialize)]
pub(super) struct DistanceBody {
    #[serde(default)]
    origin: Value,
    #[serde(default)]
    destination: Value,
}

/// A place as the old client named it: an address or postal code as text (the server looks
/// up its postal code, else its city), or `{lat, lng}`. `None` when it is neither, which the
/// server refuses with its own message.
fn place(value: &Value) -> Option<pb::Place> {
    use pb::place::Kind;
    let kind = match value {
        Value::String(text) if !text.trim().is_empty() => Kind::Address(text.trim().to_owned()),
        Value::Object(fields) => {
            let number = |names: &[&str]| names.iter().find_map(|name| fields.get(*name)?.as_f64());
            Kind::Point(pb::LatLng {
                latitude: number(&["lat", "latitude"])?,
                longitude: number(&["lng", "lon", "longitude"])?,
            })
        }
        _ => return None,
    };
    Some(pb::Place { kind: Some(kind) })
}

/// `POST /api/professionals/get-distance` {origin, destination} -> GetDistance ->
/// `{distance (metres), distance_km, origin, destination}` (the places as the server found
/// them). 404 (ADDRESS_NOT_FOUND) for a place it cannot find.
pub(super) async fn get_distance(rpc: Rpc, LegacyJson(body): LegacyJson<DistanceBody>) -> Reply {
    let distance = rpc
        .matching()
        .get_distance(rpc.request(pb::GetDistanceRequest {
            origin: place(&body.origin),
            destination: place(&body.destination),
        }))
        .await?
        .into_inner();
    Ok(Json(json!({
        "distance": distance.distance_meters,
        "distance_km": distance.distance_km,
        "origin": distance.origin_name,
        "destination": distance.destination_name,
    })))
}

/// What `email-phone` reads. The old client also sent the professional's name, phone, SMS
/// choice and language; the server knows them and they are read past.
#[derive(Debug, Deserialize)]
pub(super) struct NotifyBody {
    #[serde(default, deserialize_with = "text")]
    email: String,
    /// The request to tell them of; left out, the caller's latest open request.
    #[serde(
        default,
        deserialize_with = "text",
        alias = "req_id",
        alias = "request_id"
    )]
    repair_request_id: String,
}

/// The one answer of `email-phone`, whoever the email belongs to.
const NOTIFY_MSG: &str = "Notification requested";

/// `POST /api/professionals/email-phone` {email, ...} -> NotifyProfessional -> `{msg}`. The
/// server tells the professional of the caller's request only if it matches them and they
/// were not told yet; the answer is the same for every email, so it never reveals who is
/// registered.
pub(super) async fn email_phone(rpc: Rpc, LegacyJson(body): LegacyJson<NotifyBody>) -> Reply {
    rpc.matching()
        .notify_professional(rpc.request(pb::NotifyProfessionalRequest {
            repair_request_id: body.repair_request_id.trim().to_owned(),
            professional_email: body.email.trim().to_owned(),
        }))
        .await?;
    Ok(Json(json!({ "msg": NOTIFY_MSG })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pb::place::Kind;

    #[test]
    fn places_from_text_or_a_point() {
        assert_eq!(
            place(&json!(" T2P 1J9 ")),
            Some(pb::Place {
                kind: Some(Kind::Address("T2P 1J9".to_owned()))
            })
        );
        assert_eq!(
            place(&json!({ "lat": 51.05, "lng": -114.07 })),
            Some(pb::Place {
                kind: Some(Kind::Point(pb::LatLng {
                    latitude: 51.05,
                    longitude: -114.07
                }))
            })
        );
        assert!(matches!(
            place(&json!({ "latitude": 1, "longitude": 2 })),
            Some(pb::Place {
                kind: Some(Kind::Point(_))
            })
        ));
        for nothing in [
            json!(""),
            json!(null),
            json!(5),
            json!({ "lat": 1 }),
            json!([]),
        ] {
            assert_eq!(place(&nothing), None, "{nothing}");
        }
    }
}
