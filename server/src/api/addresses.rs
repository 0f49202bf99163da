//! MarketplaceService's addresses: SuggestAddresses (as a person types), GeocodeAddress (an
//! address to its point) and ReverseGeocode (a phone's position to its address), all through
//! `crate::providers::geocoding::service` (Photon when configured, the gazetteer otherwise and
//! whenever Photon fails). Signed-in callers (the role table); nothing is read or written
//! but the client's suggestion budget.

use repairs_proto::{marketplace as pb, types};
use tonic::{Request, Response};

use super::{
    client_addr::client_addr,
    convert::{Reply, address_form},
};
use crate::{
    domain::{Address, Coordinates, Language, professional::parse_province},
    error::{ApiError, ApiResult, ErrorReason, Violations},
    providers::{Precision, Suggestion, SuggestionKind, geocoding::service::AddressText},
    requests::place,
    state::AppState,
};

const MAX_QUERY_CHARS: usize = repairs_proto::limits::suggest_addresses::QUERY_MAX_LEN;
const MAX_SUGGESTIONS: i32 = repairs_proto::limits::suggest_addresses::PAGE_SIZE_MAX;
const DEFAULT_SUGGESTIONS: i32 = 10;

pub(super) async fn suggest(
    state: &AppState,
    request: Request<pb::SuggestAddressesRequest>,
) -> Reply<pb::SuggestAddressesResponse> {
    let client = client_addr(&request, &state.config.trusted_proxies);
    let message = request.into_inner();
    if message.query.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::invalid(
            "query",
            "type at most 100 characters to look an address up",
        )
        .into());
    }
    let province = match message.province.trim() {
        "" => None,
        given => Some(parse_province(given).map_err(|e| ApiError::invalid("province", e))?),
    };
    let limit = match message.page_size {
        0 => DEFAULT_SUGGESTIONS,
        n if (1..=MAX_SUGGESTIONS).contains(&n) => n,
        _ => {
            return Err(ApiError::invalid("page_size", "ask for 1 to 20 suggestions").into());
        }
    };
    let near = match (message.near_latitude, message.near_longitude) {
        (None, None) => None,
        (Some(latitude), Some(longitude)) => Some(point(latitude, longitude, "near_latitude")?),
        _ => {
            return Err(ApiError::invalid(
                "near_latitude",
                "give both the latitude and the longitude of where you are, or neither",
            )
            .into());
        }
    };
    let found = state
        .geocoding
        .suggest(
            client,
            message.query.trim(),
            province.as_deref(),
            language(&message.language)?,
            near,
            usize::try_from(limit).unwrap_or(10),
        )
        .await?;
    Ok(Response::new(pb::SuggestAddressesResponse {
        suggestions: found.into_iter().map(suggestion_to_proto).collect(),
    }))
}

pub(super) async fn geocode(
    state: &AppState,
    request: Request<pb::GeocodeAddressRequest>,
) -> Reply<pb::GeocodeAddressResponse> {
    let message = request.into_inner();
    // Checked, though placing keeps only the point: the town named is the map's own.
    language(&message.language)?;
    let mut v = Violations::default();
    let form = address_form(message.address.unwrap_or_default());
    let Some(address) = v.check_parts("address", Address::parse(&form)) else {
        return Err(ApiError::invalid_fields(v.0).into());
    };
    let text = AddressText::of(&address);
    let located = place::locate(&state.geocoding, text, "address").await?;
    Ok(Response::new(pb::GeocodeAddressResponse {
        latitude: located.place.latitude,
        longitude: located.place.longitude,
        precision: precision_to_proto(located.precision) as i32,
        city: located.place.name,
        province: located.place.province,
    }))
}

pub(super) async fn reverse(
    state: &AppState,
    request: Request<pb::ReverseGeocodeRequest>,
) -> Reply<pb::ReverseGeocodeResponse> {
    let message = request.into_inner();
    let at = point(message.latitude, message.longitude, "latitude")?;
    let language = language(&message.language)?;
    let found = state
        .geocoding
        .reverse(at, language)
        .await
        .ok_or_else(|| ApiError::NotFound {
            reason: ErrorReason::PositionNotPlaced,
            message: "we found no Canadian address near this position; type the address".into(),
        })?;
    Ok(Response::new(pb::ReverseGeocodeResponse {
        address: Some(types::Address {
            line1: found.line1,
            line2: String::new(),
            city: found.city,
            province: found.province,
            postal_code: found.postal_code,
            country: "CA".into(),
        }),
        precision: precision_to_proto(found.precision) as i32,
        latitude: found.point.latitude,
        longitude: found.point.longitude,
    }))
}

/// "en", "fr", or empty for English.
fn language(given: &str) -> ApiResult<Language> {
    match given.trim() {
        "" => Ok(Language::English),
        code => Language::from_code(code)
            .ok_or_else(|| ApiError::invalid("language", "choose en or fr")),
    }
}

/// A point on Earth (finite, within ±90 and ±180 degrees).
fn point(latitude: f64, longitude: f64, field: &str) -> ApiResult<Coordinates> {
    if (-90.0..=90.0).contains(&latitude) && (-180.0..=180.0).contains(&longitude) {
        Ok(Coordinates {
            latitude,
            longitude,
        })
    } else {
        Err(ApiError::invalid(
            field,
            "a position is a latitude from -90 to 90 and a longitude from -180 to 180 degrees",
        ))
    }
}

fn precision_to_proto(precision: Precision) -> pb::AddressPrecision {
    match precision {
        Precision::Address => pb::AddressPrecision::Address,
        Precision::Street => pb::AddressPrecision::Street,
        Precision::PostalCode => pb::AddressPrecision::PostalCode,
        Precision::PostalArea => pb::AddressPrecision::PostalArea,
        Precision::Town => pb::AddressPrecision::Town,
    }
}

fn suggestion_to_proto(s: Suggestion) -> pb::AddressSuggestion {
    use SuggestionKind as K;
    let (kind, precision) = match s.kind {
        K::PostalCode => (pb::AddressSuggestionKind::PostalCode, Precision::PostalCode),
        K::PostalArea => (pb::AddressSuggestionKind::PostalArea, Precision::PostalArea),
        K::Place => (pb::AddressSuggestionKind::Place, Precision::Town),
        K::Address => (pb::AddressSuggestionKind::Address, Precision::Address),
        K::Street => (pb::AddressSuggestionKind::Street, Precision::Street),
    };
    pb::AddressSuggestion {
        kind: kind as i32,
        display_name: s.display_name,
        postal_code: s.postal_code,
        city: s.city,
        province: s.province,
        line1: s.line1,
        precision: precision_to_proto(precision) as i32,
    }
}
