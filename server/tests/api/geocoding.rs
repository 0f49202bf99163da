//! Addresses to the door: the Photon adapter against a local server that speaks Photon's API
//! (`/api` and `/reverse`, answering the GeoJSON kept in `data/photon/`), through the real
//! server (Postgres, Redis): the query it is sent, the cache, the per-client budget, 429, 500,
//! a timeout and an empty answer falling back to the gazetteer and counted, the pause after
//! repeated failures; GeocodeAddress and ReverseGeocode with and without Photon; and matching
//! measured between points in a large rural postal area.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use crate::helpers::{
    LocalServer, TestServer,
    market::{customer, db, draft, market, place, placed_by},
    reason, violated_fields, with_token,
};
use axum::{
    Router,
    extract::{Query, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use repairs_proto::{marketplace as pb, types::Address};
use repairs_server::{
    config::{Config, GeocoderKind},
    domain::{great_circle_meters, to_whole_km},
    providers::Gazetteer,
    testing::{scrape, scrape::metric},
};
use tonic::Code;
use uuid::Uuid;

const SEARCH_800_MACL: &str = include_str!("data/photon/search-800-macl.json");
const REVERSE_CENTRETOWN: &str = include_str!("data/photon/reverse-centretown.json");
const EMPTY: &str = include_str!("data/photon/empty.json");

/// What the local Photon was asked: each call's path and query parameters.
#[derive(Default)]
struct FakePhoton {
    calls: Mutex<Vec<(String, HashMap<String, String>)>>,
}

impl FakePhoton {
    fn calls(&self) -> Vec<(String, HashMap<String, String>)> {
        self.calls.lock().unwrap().clone()
    }

    /// Notes a call to `path` with its query.
    fn record(&self, path: &str, query: &HashMap<String, String>) {
        self.calls
            .lock()
            .unwrap()
            .push((path.into(), query.clone()));
    }
}

fn geojson(body: &'static str) -> Response {
    ([("content-type", "application/json")], body).into_response()
}

/// `GET /api?q=..`: "800 Macl..." and "800 Maclaren Street..." find the recorded answer;
/// "Calgary" is refused with 429, "Edmonton" fails with 500, "Red Deer" answers after 2 s,
/// anything else finds nothing.
async fn photon_search(
    State(photon): State<Arc<FakePhoton>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    photon.record("api", &query);
    let q = query.get("q").cloned().unwrap_or_default();
    match q.as_str() {
        q if q.starts_with("800 Macl") => geojson(SEARCH_800_MACL),
        "Calgary" => (StatusCode::TOO_MANY_REQUESTS, "slow down").into_response(),
        "Edmonton" => (StatusCode::INTERNAL_SERVER_ERROR, "index unavailable").into_response(),
        "Red Deer" => {
            tokio::time::sleep(Duration::from_secs(2)).await;
            geojson(EMPTY)
        }
        _ => geojson(EMPTY),
    }
}

/// `GET /reverse?lat=..&lon=..`: Centretown Ottawa finds 800 Maclaren Street; elsewhere
/// nothing.
async fn photon_reverse(
    State(photon): State<Arc<FakePhoton>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    photon.record("reverse", &query);
    let lat: f64 = query.get("lat").and_then(|v| v.parse().ok()).unwrap_or(0.0);
    if (45.40..45.42).contains(&lat) {
        geojson(REVERSE_CENTRETOWN)
    } else {
        geojson(EMPTY)
    }
}

async fn fake_photon() -> (LocalServer, Arc<FakePhoton>) {
    let photon = Arc::new(FakePhoton::default());
    let router = Router::new()
        .route("/api", get(photon_search))
        .route("/reverse", get(photon_reverse))
        .with_state(photon.clone());
    (LocalServer::start(router).await, photon)
}

type Market = pb::marketplace_service_client::MarketplaceServiceClient<tonic::transport::Channel>;

/// A server with GEOCODER=photon on the local Photon (suggestions time out after 300 ms,
/// `per_client` suggestion calls per client and hour), and a signed-in customer.
struct WithPhoton {
    photon_server: LocalServer,
    photon: Arc<FakePhoton>,
    server: TestServer,
    market: Market,
    token: String,
}

impl WithPhoton {
    async fn start(per_client: u32) -> Self {
        let (photon_server, photon) = fake_photon().await;
        let url = photon_server.url();
        let server = TestServer::start_with(move |config: &mut Config| {
            config.geocoder = GeocoderKind::Photon;
            config.photon_url = Some(url);
            config.photon_suggest_timeout_ms = 300;
            config.address_suggestions_per_client_per_hour = per_client;
        })
        .await;
        let market = market(&server).await;
        let (_, token) = customer(&server).await;
        Self {
            photon_server,
            photon,
            server,
            market,
            token,
        }
    }

    async fn suggest(
        &mut self,
        request: pb::SuggestAddressesRequest,
    ) -> Result<Vec<pb::AddressSuggestion>, tonic::Status> {
        self.market
            .suggest_addresses(with_token(request, &self.token))
            .await
            .map(|r| r.into_inner().suggestions)
    }

    async fn stop(self) {
        self.server.stop().await;
        self.photon_server.stop().await;
    }
}

fn suggest_request(query: &str, language: &str) -> pb::SuggestAddressesRequest {
    pb::SuggestAddressesRequest {
        query: query.into(),
        page_size: 5,
        language: language.into(),
        ..Default::default()
    }
}

async fn failures(server: &TestServer, operation: &str, reason: &str) -> f64 {
    let text = scrape::scrape(&format!("http://{}/metrics", server.server.http_addr)).await;
    metric(
        &text,
        "repairs_geocoder_failures_total",
        &[("operation", operation), ("reason", reason)],
    )
    .unwrap_or(0.0)
}

#[tokio::test]
async fn street_addresses_are_suggested_from_photon_once_per_query_and_language() {
    let mut t = WithPhoton::start(100).await;

    let mut request = suggest_request("800 Macl", "fr");
    request.near_latitude = Some(45.41);
    request.near_longitude = Some(-75.7);
    let found = t.suggest(request.clone()).await.unwrap();
    // The American namesake is dropped: Canada only.
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].kind, pb::AddressSuggestionKind::Address as i32);
    assert_eq!(found[0].precision, pb::AddressPrecision::Address as i32);
    assert_eq!(found[0].line1, "800 Maclaren Street");
    assert_eq!(found[0].city, "Ottawa");
    assert_eq!(found[0].province, "ON");
    assert_eq!(found[0].postal_code, "K2P 0T4");
    assert_eq!(
        found[0].display_name,
        "800 Maclaren Street, Ottawa, ON, K2P 0T4"
    );
    assert_eq!(found[1].precision, pb::AddressPrecision::Street as i32);

    let calls = t.photon.calls();
    assert_eq!(calls.len(), 1);
    let (path, query) = &calls[0];
    assert_eq!(path, "api");
    assert_eq!(query["q"], "800 Macl");
    assert_eq!(query["lang"], "fr");
    assert_eq!(query["countrycode"], "CA");
    assert_eq!(query["limit"], "5");
    assert_eq!(query["lat"], "45.41");
    assert_eq!(query["lon"], "-75.7");

    // The same query, spaced and cased otherwise: from the cache.
    request.query = " 800  MACL ".into();
    let again = t.suggest(request).await.unwrap();
    assert_eq!(again, found);
    assert_eq!(t.photon.calls().len(), 1);
    // Another language is another answer; without a position, no bias is sent.
    t.suggest(suggest_request("800 Macl", "en")).await.unwrap();
    let calls = t.photon.calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1].1["lang"], "en");
    assert!(!calls[1].1.contains_key("lat"));

    // Postal codes and short queries stay with the gazetteer and cost nothing.
    let area = t.suggest(suggest_request("k2p", "en")).await.unwrap();
    assert_eq!(area[0].postal_code, "K2P");
    assert_eq!(area[0].precision, pb::AddressPrecision::PostalArea as i32);
    assert_eq!(t.photon.calls().len(), 2);

    let mut half = suggest_request("800 Macl", "en");
    half.near_latitude = Some(45.0);
    let refused = t.suggest(half).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&refused), ["near_latitude"]);
    let refused = t
        .suggest(suggest_request("800 Macl", "de"))
        .await
        .unwrap_err();
    assert_eq!(violated_fields(&refused), ["language"]);
    t.stop().await;
}

#[tokio::test]
async fn failures_and_empty_answers_fall_back_to_the_gazetteer_counted_then_pause_photon() {
    let mut t = WithPhoton::start(100).await;

    // 429, 500, a timeout and no features: the gazetteer's town, never an error.
    for (query, town) in [
        ("Calgary", "Calgary"),
        ("Edmonton", "Edmonton"),
        ("Red Deer", "Red Deer"),
        ("Lethbridge", "Lethbridge"),
    ] {
        let found = t.suggest(suggest_request(query, "en")).await.unwrap();
        assert_eq!(found[0].city, town, "{query}");
        assert_eq!(found[0].precision, pb::AddressPrecision::Town as i32);
    }
    assert_eq!(t.photon.calls().len(), 4);
    assert_eq!(failures(&t.server, "suggest", "rate_limited").await, 1.0);
    assert_eq!(failures(&t.server, "suggest", "status").await, 1.0);
    assert_eq!(failures(&t.server, "suggest", "timeout").await, 1.0);
    // An empty answer is an answer (cached), not a failure.
    t.suggest(suggest_request("Lethbridge", "en"))
        .await
        .unwrap();
    assert_eq!(t.photon.calls().len(), 4);

    // Failures are not cached: two more make five within a minute, and Photon is paused.
    for _ in 0..2 {
        t.suggest(suggest_request("Calgary", "en")).await.unwrap();
    }
    assert_eq!(t.photon.calls().len(), 6);
    let paused = t.suggest(suggest_request("800 Macl", "en")).await.unwrap();
    assert_eq!(t.photon.calls().len(), 6, "paused: Photon is not called");
    assert!(paused.iter().all(|s| s.line1.is_empty()));
    assert_eq!(failures(&t.server, "suggest", "paused").await, 1.0);
    t.stop().await;
}

#[tokio::test]
async fn each_client_has_a_budget_of_photon_suggestions_and_failures_give_theirs_back() {
    let mut t = WithPhoton::start(2).await;
    // A failure costs nothing.
    t.suggest(suggest_request("Edmonton", "en")).await.unwrap();
    for query in ["800 Macl", "Lethbridge"] {
        t.suggest(suggest_request(query, "en")).await.unwrap();
    }
    let refused = t.suggest(suggest_request("Banff", "en")).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert_eq!(reason(&refused), "ADDRESS_SUGGESTION_LIMIT");
    assert_eq!(t.photon.calls().len(), 3);
    // What is cached, and postal codes, still come.
    assert!(
        !t.suggest(suggest_request("800 Macl", "en"))
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        !t.suggest(suggest_request("T2P", "en"))
            .await
            .unwrap()
            .is_empty()
    );
    t.stop().await;
}

fn address(line1: &str, city: &str, province: &str, postal_code: &str) -> Address {
    Address {
        line1: line1.into(),
        city: city.into(),
        province: province.into(),
        postal_code: postal_code.into(),
        country: "CA".into(),
        ..Default::default()
    }
}

async fn geocode(
    market: &Market,
    token: &str,
    address: Address,
) -> Result<pb::GeocodeAddressResponse, tonic::Status> {
    let request = pb::GeocodeAddressRequest {
        address: Some(address),
        language: "en".into(),
    };
    let mut market = market.clone();
    market
        .geocode_address(with_token(request, token))
        .await
        .map(|r| r.into_inner())
}

async fn reverse(
    market: &Market,
    token: &str,
    (latitude, longitude): (f64, f64),
) -> Result<pb::ReverseGeocodeResponse, tonic::Status> {
    let request = pb::ReverseGeocodeRequest {
        latitude,
        longitude,
        language: "fr".into(),
    };
    let mut market = market.clone();
    market
        .reverse_geocode(with_token(request, token))
        .await
        .map(|r| r.into_inner())
}

#[tokio::test]
async fn addresses_are_placed_at_the_door_with_photon_and_positions_read_back() {
    let mut t = WithPhoton::start(100).await;
    let door = address("800 Maclaren Street", "Ottawa", "ON", "K2P 0T4");
    let geocoded = geocode(&t.market, &t.token, door.clone()).await.unwrap();
    assert_eq!(geocoded.precision, pb::AddressPrecision::Address as i32);
    assert_eq!((geocoded.latitude, geocoded.longitude), (45.4126, -75.6952));
    assert_eq!(geocoded.city, "Ottawa");
    let (path, query) = t.photon.calls().pop().unwrap();
    assert_eq!(path, "api");
    assert_eq!(query["q"], "800 Maclaren Street, Ottawa, ON, K2P 0T4");
    assert_eq!(query["limit"], "1");

    // A request at that address is placed at the door.
    let at_the_door = pb::RepairRequestDraft {
        address: Some(door.clone()),
        ..draft("K2P 0T4", "Ottawa", "ON")
    };
    let request = place(&mut t.market, &t.token, Uuid::now_v7(), at_the_door)
        .await
        .unwrap();
    assert_eq!(placed_by(db(&t.server), &request.id).await, "address");

    // "Use my location".
    let at = reverse(&t.market, &t.token, (45.4127, -75.6951))
        .await
        .unwrap();
    assert_eq!(at.precision, pb::AddressPrecision::Address as i32);
    assert_eq!(at.address.unwrap(), door);
    let (path, query) = t.photon.calls().pop().unwrap();
    assert_eq!(path, "reverse");
    assert_eq!(
        (&query["lat"], &query["lon"], &query["lang"]),
        (
            &"45.4127".to_owned(),
            &"-75.6951".to_owned(),
            &"fr".to_owned()
        )
    );
    // Where Photon finds nothing, the nearest full postal code answers.
    let calgary = Gazetteer::shipped()
        .unwrap()
        .lookup_full_postal_code("T2P 1J9")
        .unwrap();
    let at = reverse(&t.market, &t.token, (calgary.latitude, calgary.longitude))
        .await
        .unwrap();
    assert_eq!(at.precision, pb::AddressPrecision::PostalCode as i32);
    assert_eq!(at.address.unwrap(), address("", "Calgary", "AB", "T2P 1J9"));
    t.stop().await;
}

#[tokio::test]
async fn without_photon_addresses_are_placed_by_the_gazetteer_and_bad_input_is_named() {
    let server = TestServer::start().await;
    let market = market(&server).await;
    let (_, token) = customer(&server).await;
    let by_code = geocode(
        &market,
        &token,
        address("1 Main St", "Bragg Creek", "AB", "T0L 0K0"),
    )
    .await
    .unwrap();
    assert_eq!(by_code.precision, pb::AddressPrecision::PostalCode as i32);
    assert_eq!(by_code.city, "Bragg Creek");
    let by_town = geocode(&market, &token, address("1 Main St", "Red Deer", "AB", ""))
        .await
        .unwrap();
    assert_eq!(by_town.precision, pb::AddressPrecision::Town as i32);
    let nowhere = geocode(&market, &token, address("1 Main St", "Atlantis", "AB", ""))
        .await
        .unwrap_err();
    assert_eq!(nowhere.code(), Code::InvalidArgument);
    assert_eq!(reason(&nowhere), "ADDRESS_NOT_FOUND");
    let bad = geocode(&market, &token, address("", "", "Narnia", "12345"))
        .await
        .unwrap_err();
    assert_eq!(
        violated_fields(&bad),
        [
            "address.line1",
            "address.city",
            "address.province",
            "address.postal_code"
        ]
    );

    let at_sea = reverse(&market, &token, (40.0, -40.0)).await.unwrap_err();
    assert_eq!(at_sea.code(), Code::NotFound);
    assert_eq!(reason(&at_sea), "POSITION_NOT_PLACED");
    let off_earth = reverse(&market, &token, (95.0, 0.0)).await.unwrap_err();
    assert_eq!(off_earth.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&off_earth), ["latitude"]);
    let anonymous = market
        .clone()
        .reverse_geocode(pb::ReverseGeocodeRequest::default())
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);
    server.stop().await;
}

// ---------------------------------------------------------------------------------------
// Matching between points in a large rural postal area.

/// A professional whose office is at the full postal code `code`, 25 km radius, every
/// other condition of the rule met.
async fn professional_at(server: &TestServer, code: &'static str) -> Uuid {
    let (id, _, _) = crate::helpers::market::professional(
        server,
        crate::helpers::market::Pro {
            area: &code[..3],
            sms: false,
            language: "en",
        },
    )
    .await;
    let office = Gazetteer::shipped()
        .unwrap()
        .lookup_full_postal_code(code)
        .unwrap();
    sqlx::query(
        "update professionals set home_latitude = $2, home_longitude = $3,
            home_postal_code = $4, home_placed_by = 'postal_code', radius_km = 25
         where id = $1",
    )
    .bind(id)
    .bind(office.latitude)
    .bind(office.longitude)
    .bind(code)
    .execute(db(server))
    .await
    .unwrap();
    id
}

#[tokio::test]
async fn in_a_large_rural_area_the_professional_near_the_door_is_alerted_not_the_one_far_off() {
    let gazetteer = Gazetteer::shipped().unwrap();
    let km = |a: &str, b: &str, area: bool| {
        let at = |code: &str| {
            if area {
                gazetteer.lookup_postal_code(code).unwrap()
            } else {
                gazetteer.lookup_full_postal_code(code).unwrap()
            }
        };
        to_whole_km(great_circle_meters(
            at(a).coordinates(),
            at(b).coordinates(),
        ))
    };
    // The request: Aldersyde, in T0L (rural southern Alberta). The near professional's office
    // is in T1Z, the far one's in Bragg Creek, also T0L.
    let (door, near, far) = ("T0L 0A0", "T1Z 0E2", "T0L 0K0");
    assert_eq!(km(door, near, false), 11);
    assert_eq!(km(door, far, false), 64);
    // By postal-area centres the choice would be the other way round.
    assert!(km(door, near, true) > 25, "{}", km(door, near, true));
    assert_eq!(km(door, far, true), 0);

    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (_, token) = customer(&server).await;
    let near_pro = professional_at(&server, near).await;
    let far_pro = professional_at(&server, far).await;
    let request = place(
        &mut market,
        &token,
        Uuid::now_v7(),
        draft(door, "Aldersyde", "AB"),
    )
    .await
    .unwrap();
    assert_eq!(placed_by(db(&server), &request.id).await, "postal_code");
    let told: Vec<(Uuid,)> = sqlx::query_as(
        "select distinct professional_id from request_notifications where repair_request_id = $1",
    )
    .bind(Uuid::parse_str(&request.id).unwrap())
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(told, [(near_pro,)]);
    assert!(!told.contains(&(far_pro,)));
    server.stop().await;
}
