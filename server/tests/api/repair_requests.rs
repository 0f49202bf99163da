//! Repair requests against the real server, Postgres and Redis: idempotent placing (one
//! request and one round of notifications per key, concurrent calls and two server
//! processes included), who sees the street address, geocoding and its fallbacks, the rules
//! of editing and cancelling, the admin's list, expiry, address suggestions, and the
//! notifications through the outbox under a failing SMS provider; the hourly budget, given
//! back by a placing that fails.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use crate::helpers::{
    self, LocalServer, TestServer, break_inserts,
    market::{
        CALGARY_PRO, ELECTRICIAN, Market, PLUMBING, Pro, STREET, VISA, billing, cancel, complete,
        customer, db, draft, get, hire, in_calgary, market, place, placed_by, professional, quote,
    },
    reason, repair_inserts, violated_fields, wait_until_outbox_idle, with_token,
};
use axum::{
    Form, Json, Router,
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::post,
};
use chrono::Utc;
use repairs_proto::{
    billing as bpb,
    marketplace::{
        self as pb, marketplace_service_client::MarketplaceServiceClient, repair_request::Location,
    },
};
use repairs_server::domain::Role;
use serde_json::json;
use sqlx::PgPool;
use tonic::Code;
use uuid::Uuid;

/// (professional, channel) of every notification written for a request.
async fn notifications(db: &PgPool, request_id: &str) -> Vec<(Uuid, String)> {
    sqlx::query_as(
        "select n.professional_id, n.channel from request_notifications n
         join outbox_messages m on m.id = n.outbox_message_id
         where n.repair_request_id = $1 order by 1, 2",
    )
    .bind(Uuid::parse_str(request_id).unwrap())
    .fetch_all(db)
    .await
    .unwrap()
}

async fn requests_of(db: &PgPool, customer: Uuid) -> i64 {
    let (n,): (i64,) =
        sqlx::query_as("select count(*) from repair_requests where customer_id = $1")
            .bind(customer)
            .fetch_one(db)
            .await
            .unwrap();
    n
}

#[tokio::test]
async fn one_key_places_one_request_and_notifies_once_even_concurrently() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (customer_id, token) = customer(&server).await;
    let (pro, _, pro_email) = professional(&server, CALGARY_PRO).await;
    let (far_pro, _, _) = professional(
        &server,
        Pro {
            area: "T5J",
            ..CALGARY_PRO
        },
    )
    .await;

    // Sequential: a retry answers the first request.
    let key = Uuid::now_v7();
    let first = place(&mut market, &token, key, in_calgary()).await.unwrap();
    let again = place(&mut market, &token, key, in_calgary()).await.unwrap();
    assert_eq!(first.id, again.id);
    assert_eq!(first.state, pb::RepairRequestState::Open as i32);
    assert_eq!(
        notifications(db(&server), &first.id).await,
        [(pro, "email".into())]
    );
    // The same key with another draft is refused.
    let mut other = in_calgary();
    other.description = "Something else".into();
    let reused = place(&mut market, &token, key, other).await.unwrap_err();
    assert_eq!(reused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&reused), "REQUEST_ID_REUSED");

    // Ten at once with one new key: one request, one round of notifications.
    let key = Uuid::now_v7();
    let calls = (0..10).map(|_| {
        let (mut market, token) = (market.clone(), token.clone());
        async move { place(&mut market, &token, key, in_calgary()).await }
    });
    let placed = futures::future::join_all(calls).await;
    let ids: Vec<String> = placed.into_iter().map(|r| r.unwrap().id).collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
    assert_eq!(requests_of(db(&server), customer_id).await, 2);
    let told = notifications(db(&server), &ids[0]).await;
    assert_eq!(
        told,
        [(pro, "email".into())],
        "Edmonton ({far_pro}) is 280 km away"
    );

    // The email names the service, the city and the distance, links to the request, and
    // never shows the street.
    let mail =
        helpers::wait_for_message(server.data_dir(), "email.jsonl", &pro_email, &ids[0], 1).await;
    let body = mail["body"].as_str().unwrap();
    assert!(
        body.contains("Plumbing Services") && body.contains("Calgary"),
        "{body}"
    );
    assert!(body.contains(&format!("http://127.0.0.1:8080/view-request/{}", ids[0])));
    assert!(body.contains(" km "), "{body}");
    assert!(!body.contains(STREET), "{body}");
    wait_until_outbox_idle(db(&server)).await;
    let sent = helpers::outbox(server.data_dir(), "email.jsonl");
    assert_eq!(
        sent.iter()
            .filter(|m| m["to"] == pro_email.as_str())
            .count(),
        2
    );
    server.stop().await;
}

#[tokio::test]
async fn placing_needs_a_key_a_verified_phone_and_stays_within_the_hourly_limit() {
    let server = TestServer::start_with(|c| c.repair_requests_per_customer_per_hour = 2).await;
    let mut market = market(&server).await;
    let (_, token) = customer(&server).await;
    let no_key = market
        .create_repair_request(with_token(
            pb::CreateRepairRequestRequest {
                request_id: String::new(),
                photos_to_follow: 0,
                draft: Some(in_calgary()),
            },
            &token,
        ))
        .await
        .unwrap_err();
    assert_eq!(no_key.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&no_key), ["request_id"]);

    let (unverified_id, unverified) = server.account_token(Role::Customer).await;
    let refused = place(&mut market, &unverified, Uuid::now_v7(), in_calgary())
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "PHONE_NOT_VERIFIED", "{unverified_id}");

    let mut bad = in_calgary();
    bad.service_id = Uuid::now_v7().to_string();
    bad.urgency = 0;
    let invalid = place(&mut market, &token, Uuid::now_v7(), bad)
        .await
        .unwrap_err();
    assert_eq!(invalid.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&invalid), ["draft.urgency"]);

    for _ in 0..2 {
        place(&mut market, &token, Uuid::now_v7(), in_calgary())
            .await
            .unwrap();
    }
    let third = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap_err();
    assert_eq!(third.code(), Code::ResourceExhausted);
    assert_eq!(reason(&third), "REPAIR_REQUEST_LIMIT");
    server.stop().await;
}

#[tokio::test]
async fn a_placing_that_fails_gives_its_hourly_budget_back() {
    let server = TestServer::start_with(|c| c.repair_requests_per_customer_per_hour = 2).await;
    let mut market = market(&server).await;
    let (_, token) = customer(&server).await;
    // Addresses nowhere on the map: refused after the budget was counted.
    for _ in 0..3 {
        let refused = place(
            &mut market,
            &token,
            Uuid::now_v7(),
            draft("", "Atlantis", "AB"),
        )
        .await
        .unwrap_err();
        assert_eq!(reason(&refused), "ADDRESS_NOT_FOUND");
    }
    // A service the catalogue does not offer.
    let mut unknown = in_calgary();
    unknown.service_id = Uuid::now_v7().to_string();
    let refused = place(&mut market, &token, Uuid::now_v7(), unknown)
        .await
        .unwrap_err();
    assert_eq!(violated_fields(&refused), ["draft.service_id"]);
    // The database refusing the insert.
    break_inserts(db(&server), "repair_requests").await;
    let refused = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Internal, "{refused:?}");
    repair_inserts(db(&server), "repair_requests").await;

    // Nothing was placed, so the whole budget is left, and no more.
    for _ in 0..2 {
        place(&mut market, &token, Uuid::now_v7(), in_calgary())
            .await
            .unwrap();
    }
    let third = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap_err();
    assert_eq!(reason(&third), "REPAIR_REQUEST_LIMIT");
    server.stop().await;
}

#[tokio::test]
async fn only_the_customer_admins_and_the_hired_professional_see_the_street() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (_, token) = customer(&server).await;
    let (_, stranger) = customer(&server).await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let (_, far_token, _) = professional(
        &server,
        Pro {
            area: "T5J",
            ..CALGARY_PRO
        },
    )
    .await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let placed = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();

    for who in [&token, &admin] {
        let seen = get(&mut market, who, &placed.id).await.unwrap();
        let Some(Location::Address(address)) = seen.location else {
            panic!("full address expected: {seen:?}");
        };
        assert_eq!(address.line1, STREET);
    }
    // Another customer and a professional it does not match: NOT_FOUND, never the data.
    for who in [&stranger, &far_token] {
        let refused = get(&mut market, who, &placed.id).await.unwrap_err();
        assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
        assert!(!refused.message().contains(STREET));
    }
    // A matching professional before hire: city, province, postal area and distance.
    let seen = get(&mut market, &pro_token, &placed.id).await.unwrap();
    let Some(Location::ApproximateLocation(near)) = seen.location.clone() else {
        panic!("approximate location expected: {seen:?}");
    };
    assert_eq!(
        (near.city.as_str(), near.province.as_str()),
        ("Calgary", "AB")
    );
    assert_eq!(near.postal_area, "T2P");
    // The request is at its full postal code's point, a kilometre from the centre of T2P
    // where the professional's office is.
    assert_eq!(near.distance_km, 1);
    assert_eq!(
        seen.customer_id, "",
        "who the customer is stays hidden before the hire"
    );
    assert!(!format!("{seen:?}").contains(STREET));
    // Anonymous callers are refused before anything is read.
    let anonymous = market
        .get_repair_request(pb::GetRepairRequestRequest {
            id: placed.id.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);

    // Once hired, that professional sees the street.
    let quote = quote(&mut market, &pro_token, &placed.id).await;
    hire(
        &billing(&server).await,
        &token,
        &quote.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();
    let hired = get(&mut market, &pro_token, &placed.id).await.unwrap();
    assert!(
        matches!(hired.location, Some(Location::Address(_))),
        "{hired:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn addresses_are_placed_by_postal_code_then_area_then_city_or_refused() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (_, token) = customer(&server).await;
    let by_code = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    assert_eq!(placed_by(db(&server), &by_code.id).await, "postal_code");
    // A code the data does not have: its postal area places it.
    let by_area = place(
        &mut market,
        &token,
        Uuid::now_v7(),
        draft("T2P 9Z9", "Calgary", "AB"),
    )
    .await
    .unwrap();
    assert_eq!(placed_by(db(&server), &by_area.id).await, "postal_area");
    // A code of no known area: the city in its province places it.
    let unknown_code = draft("X0X 0X0", "Edmonton", "AB");
    let by_city = place(&mut market, &token, Uuid::now_v7(), unknown_code)
        .await
        .unwrap();
    assert_eq!(placed_by(db(&server), &by_city.id).await, "city");
    let no_code = draft("", "Montréal", "Québec");
    let montreal = place(&mut market, &token, Uuid::now_v7(), no_code)
        .await
        .unwrap();
    assert_eq!(placed_by(db(&server), &montreal.id).await, "city");
    let (tz,): (String,) = sqlx::query_as("select time_zone from repair_requests where id = $1")
        .bind(Uuid::parse_str(&montreal.id).unwrap())
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(tz, "America/Toronto");

    for nowhere in [
        draft("", "Atlantis", "AB"),
        draft("X0X 0X0", "Calgary", "QC"),
    ] {
        let refused = place(&mut market, &token, Uuid::now_v7(), nowhere)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        assert_eq!(reason(&refused), "ADDRESS_NOT_FOUND");
        assert_eq!(violated_fields(&refused), ["draft.address"]);
    }
    server.stop().await;
}

async fn update(
    market: &mut Market,
    token: &str,
    id: &str,
    draft: pb::RepairRequestDraft,
) -> Result<pb::RepairRequest, tonic::Status> {
    market
        .update_repair_request(with_token(
            pb::UpdateRepairRequestRequest {
                id: id.into(),
                draft: Some(draft),
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().repair_request.unwrap())
}

#[tokio::test]
async fn the_owner_edits_and_cancels_an_open_request_and_a_move_tells_new_matches_once() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (_, token) = customer(&server).await;
    let (_, stranger) = customer(&server).await;
    let (calgary_pro, _, _) = professional(&server, CALGARY_PRO).await;
    let (edmonton_pro, _, _) = professional(
        &server,
        Pro {
            area: "T5J",
            ..CALGARY_PRO
        },
    )
    .await;
    let placed = place(
        &mut market,
        &token,
        Uuid::now_v7(),
        draft("T5J 0N3", "Edmonton", "AB"),
    )
    .await
    .unwrap();
    assert_eq!(
        notifications(db(&server), &placed.id).await,
        [(edmonton_pro, "email".into())]
    );

    // Only the words change: nobody new is told.
    let mut words = draft("T5J 0N3", "Edmonton", "AB");
    words.description = "The sink and the tap leak".into();
    let edited = update(&mut market, &token, &placed.id, words)
        .await
        .unwrap();
    assert_eq!(edited.description, "The sink and the tap leak");
    assert_eq!(notifications(db(&server), &placed.id).await.len(), 1);
    // Moved to Calgary: the Calgary professional is told; Edmonton is not told again.
    update(&mut market, &token, &placed.id, in_calgary())
        .await
        .unwrap();
    let mut told = notifications(db(&server), &placed.id).await;
    told.sort();
    let mut expected = vec![
        (calgary_pro, "email".to_owned()),
        (edmonton_pro, "email".to_owned()),
    ];
    expected.sort();
    assert_eq!(told, expected);
    update(
        &mut market,
        &token,
        &placed.id,
        draft("T5J 0N3", "Edmonton", "AB"),
    )
    .await
    .unwrap();
    assert_eq!(notifications(db(&server), &placed.id).await.len(), 2);

    // Somebody else's request is not found, for editing as for cancelling.
    let theirs = update(&mut market, &stranger, &placed.id, in_calgary())
        .await
        .unwrap_err();
    assert_eq!(theirs.code(), Code::NotFound);
    assert_eq!(
        cancel(&mut market, &stranger, &placed.id)
            .await
            .unwrap_err()
            .code(),
        Code::NotFound
    );

    let cancelled = cancel(&mut market, &token, &placed.id).await.unwrap();
    assert_eq!(cancelled.state, pb::RepairRequestState::Cancelled as i32);
    assert!(cancelled.close_time.is_some());
    let twice = cancel(&mut market, &token, &placed.id).await.unwrap();
    assert_eq!(twice.close_time, cancelled.close_time);
    let closed = update(&mut market, &token, &placed.id, in_calgary())
        .await
        .unwrap_err();
    assert_eq!(closed.code(), Code::FailedPrecondition);
    assert_eq!(reason(&closed), "REPAIR_REQUEST_NOT_OPEN");
    server.stop().await;
}

#[tokio::test]
async fn open_requests_expire_after_72_hours_for_emergencies_and_30_days_otherwise() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (_, token) = customer(&server).await;
    let emergency = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let mut can_wait = in_calgary();
    can_wait.urgency = pb::Urgency::CanWait as i32;
    let later = place(&mut market, &token, Uuid::now_v7(), can_wait)
        .await
        .unwrap();
    let expires = |r: &pb::RepairRequest| {
        r.expire_time.as_ref().unwrap().seconds - r.create_time.as_ref().unwrap().seconds
    };
    assert_eq!(expires(&emergency), 72 * 3600);
    assert_eq!(expires(&later), 30 * 24 * 3600);

    let db = db(&server);
    let now = Utc::now();
    assert_eq!(
        repairs_server::requests::expire_due(db, now).await.unwrap(),
        0
    );
    let in_73_hours = now + chrono::Duration::hours(73);
    assert_eq!(
        repairs_server::requests::expire_due(db, in_73_hours)
            .await
            .unwrap(),
        1
    );
    let seen = get(&mut market, &token, &emergency.id).await.unwrap();
    assert_eq!(seen.state, pb::RepairRequestState::Expired as i32);
    assert!(seen.close_time.is_some());
    let still = get(&mut market, &token, &later.id).await.unwrap();
    assert_eq!(still.state, pb::RepairRequestState::Open as i32);
    let in_31_days = now + chrono::Duration::days(31);
    assert_eq!(
        repairs_server::requests::expire_due(db, in_31_days)
            .await
            .unwrap(),
        1
    );
    let refused = cancel(&mut market, &token, &emergency.id)
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "REPAIR_REQUEST_NOT_OPEN");
    server.stop().await;
}

async fn admin_list(
    market: &mut Market,
    token: &str,
    message: pb::ListRepairRequestsRequest,
) -> Result<pb::ListRepairRequestsResponse, tonic::Status> {
    market
        .list_repair_requests(with_token(message, token))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn admins_list_requests_by_state_and_service_in_stable_pages() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (customer_id, token) = customer(&server).await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let mut ids = Vec::new();
    for service in [PLUMBING, ELECTRICIAN, PLUMBING, PLUMBING] {
        let mut d = in_calgary();
        d.service_id = service.into();
        ids.push(
            place(&mut market, &token, Uuid::now_v7(), d)
                .await
                .unwrap()
                .id,
        );
    }
    cancel(&mut market, &token, &ids[0]).await.unwrap();

    let open_plumbing = admin_list(
        &mut market,
        &admin,
        pb::ListRepairRequestsRequest {
            state: pb::RepairRequestState::Open as i32,
            service_id: PLUMBING.into(),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let listed: Vec<&str> = open_plumbing
        .repair_requests
        .iter()
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(listed, [ids[3].as_str(), ids[2].as_str()], "newest first");

    // Pages of one, walked while a new request arrives: each request once, none skipped.
    let mut seen = Vec::new();
    let mut token_ = String::new();
    loop {
        let page = admin_list(
            &mut market,
            &admin,
            pb::ListRepairRequestsRequest {
                page_size: 1,
                page_token: token_.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        seen.extend(page.repair_requests.into_iter().map(|r| r.id));
        if seen.len() == 1 {
            place(&mut market, &token, Uuid::now_v7(), in_calgary())
                .await
                .unwrap();
        }
        if page.next_page_token.is_empty() {
            break;
        }
        token_ = page.next_page_token;
    }
    let mut expected = ids.clone();
    expected.reverse();
    assert_eq!(seen, expected);

    // The customer's own lists, and nobody else's.
    let pending = market
        .list_customer_repair_requests(with_token(
            pb::ListCustomerRepairRequestsRequest {
                customer_id: customer_id.to_string(),
                view: pb::CustomerRepairRequestView::Pending as i32,
                ..Default::default()
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(pending.repair_requests.len(), 4);
    let (_, stranger) = customer(&server).await;
    let theirs = market
        .list_customer_repair_requests(with_token(
            pb::ListCustomerRepairRequestsRequest {
                customer_id: customer_id.to_string(),
                view: pb::CustomerRepairRequestView::All as i32,
                ..Default::default()
            },
            &stranger,
        ))
        .await
        .unwrap_err();
    assert_eq!(theirs.code(), Code::PermissionDenied);
    let not_admin = admin_list(
        &mut market,
        &token,
        pb::ListRepairRequestsRequest::default(),
    )
    .await
    .unwrap_err();
    assert_eq!(not_admin.code(), Code::PermissionDenied);
    server.stop().await;
}

#[tokio::test]
async fn address_suggestions_come_from_the_gazetteer_within_bounds() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (_, token) = customer(&server).await;
    let suggest = |query: &str| {
        let mut market = market.clone();
        let request = with_token(
            pb::SuggestAddressesRequest {
                query: query.into(),
                page_size: 5,
                ..Default::default()
            },
            &token,
        );
        async move {
            market
                .suggest_addresses(request)
                .await
                .map(|r| r.into_inner().suggestions)
        }
    };
    let areas = suggest("t2p").await.unwrap();
    assert_eq!(areas[0].postal_code, "T2P");
    assert_eq!(areas[0].kind, pb::AddressSuggestionKind::PostalArea as i32);
    let places = suggest("calg").await.unwrap();
    assert_eq!(places[0].display_name, "Calgary, AB");
    let long = suggest(&"a".repeat(101)).await.unwrap_err();
    assert_eq!(long.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&long), ["query"]);
    let anonymous = market
        .suggest_addresses(pb::SuggestAddressesRequest {
            query: "t2p".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);
    server.stop().await;
}

// ---------------------------------------------------------------------------------------
// Notifications through the outbox: a failing SMS provider, and two server processes.

const SID: &str = "AC00000000000000000000000000000001";

/// Twilio's Messages API that fails the first two tries of each message body, then takes
/// it; it records each body it took.
#[derive(Default)]
struct FlakyTwilio {
    tries: Mutex<HashMap<String, u32>>,
    taken: Mutex<Vec<String>>,
}

async fn twilio_messages(
    State(twilio): State<Arc<FlakyTwilio>>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let body = form.get("Body").cloned().unwrap_or_default();
    let tries = {
        let mut tries = twilio.tries.lock().unwrap();
        let count = tries.entry(body.clone()).or_default();
        *count += 1;
        *count
    };
    if tries <= 2 {
        return (StatusCode::SERVICE_UNAVAILABLE, "down").into_response();
    }
    twilio.taken.lock().unwrap().push(body);
    (
        StatusCode::CREATED,
        Json(json!({ "sid": "SM1", "status": "queued" })),
    )
        .into_response()
}

async fn flaky_twilio() -> (LocalServer, Arc<FlakyTwilio>) {
    let twilio = Arc::new(FlakyTwilio::default());
    let router = Router::new()
        .route(
            "/2010-04-01/Accounts/{account}/Messages.json",
            post(twilio_messages),
        )
        .with_state(twilio.clone());
    (LocalServer::start(router).await, twilio)
}

#[tokio::test]
async fn texts_are_retried_through_a_failing_provider_and_delivered_once_by_two_servers() {
    let (twilio_server, twilio) = flaky_twilio().await;
    let twilio_url = twilio_server.url();
    let server = TestServer::start_with(|c| {
        c.twilio_account_sid = Some(SID.into());
        c.twilio_auth_token = Some("token".into());
        c.twilio_from = Some("+15875550100".into());
        c.twilio_base_url = twilio_url;
        c.outbox_retry_base_ms = 20;
        c.outbox_poll_ms = 20;
    })
    .await;
    // A second server process on the same database and cache: its own worker and outbox files.
    let other_dir = tempfile::tempdir().unwrap();
    let mut other_config = (*server.server.state.config).clone();
    other_config.data_dir = other_dir.path().to_path_buf();
    let other = repairs_server::start(other_config).await.unwrap();
    let other_channel = helpers::channel_to(other.grpc_addr).await;

    let (_, token) = customer(&server).await;
    let mut pros = Vec::new();
    for language in ["en", "fr"] {
        let pro = Pro {
            sms: true,
            language,
            ..CALGARY_PRO
        };
        pros.push(professional(&server, pro).await);
    }
    // The same request placed ten times at once, through both servers.
    let key = Uuid::now_v7();
    let clients = [
        market(&server).await,
        MarketplaceServiceClient::new(other_channel),
    ];
    let calls = (0..10).map(|n| {
        let (mut market, token) = (clients[n % 2].clone(), token.clone());
        async move { place(&mut market, &token, key, in_calgary()).await }
    });
    let placed: Vec<_> = futures::future::join_all(calls).await;
    let id = placed[0].as_ref().unwrap().id.clone();
    assert!(placed.iter().all(|r| r.as_ref().unwrap().id == id));
    assert_eq!(
        notifications(db(&server), &id).await.len(),
        4,
        "2 professionals x 2 channels"
    );

    wait_until_outbox_idle(db(&server)).await;
    // Each text was refused twice, then taken exactly once.
    let mut taken = twilio.taken.lock().unwrap().clone();
    taken.sort();
    assert_eq!(taken.len(), 2, "{taken:?}");
    assert!(
        taken
            .iter()
            .any(|t| t.starts_with("New request: Plumbing Services in Calgary"))
    );
    assert!(
        taken
            .iter()
            .any(|t| t.starts_with("Nouvelle demande\u{a0}: Services de plomberie à Calgary"))
    );
    let rows: Vec<(String, i32)> = sqlx::query_as(
        "select m.state, m.attempts from request_notifications n
         join outbox_messages m on m.id = n.outbox_message_id
         where n.repair_request_id = $1 and n.channel = 'sms'",
    )
    .bind(Uuid::parse_str(&id).unwrap())
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(rows, [("sent".to_owned(), 3), ("sent".to_owned(), 3)]);
    // One email each, whichever server's worker sent it.
    for (_, _, email) in &pros {
        let count = [server.data_dir(), other_dir.path()]
            .iter()
            .flat_map(|dir| helpers::outbox(dir, "email.jsonl"))
            .filter(|m| m["to"] == email.as_str())
            .count();
        assert_eq!(count, 1, "{email}");
    }
    other.stop().await.unwrap();
    server.stop().await;
    twilio_server.stop().await;
}

#[tokio::test]
async fn the_legacy_per_professional_call_tells_a_match_once_and_reveals_nothing() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let state = &server.server.state;
    let (customer_id, token) = customer(&server).await;
    let (pro, _, pro_email) = professional(&server, CALGARY_PRO).await;
    // Off duty when the request is placed: not told then.
    sqlx::query("update professionals set available_days = '{}' where id = $1")
        .bind(pro)
        .execute(db(&server))
        .await
        .unwrap();
    let placed = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    assert!(notifications(db(&server), &placed.id).await.is_empty());

    use repairs_server::requests::notify_professional;
    // Still off duty: nothing; back on duty: told, once, whatever the number of calls.
    notify_professional(state, customer_id, None, &pro_email)
        .await
        .unwrap();
    assert!(notifications(db(&server), &placed.id).await.is_empty());
    sqlx::query("update professionals set available_days = '{1,2,3,4,5,6,7}' where id = $1")
        .bind(pro)
        .execute(db(&server))
        .await
        .unwrap();
    for _ in 0..3 {
        notify_professional(state, customer_id, None, &pro_email.to_uppercase())
            .await
            .unwrap();
    }
    assert_eq!(
        notifications(db(&server), &placed.id).await,
        [(pro, "email".into())]
    );
    // An email nobody has answers the same.
    notify_professional(state, customer_id, None, "nobody@example.ca")
        .await
        .unwrap();
    // Another customer's request cannot be named.
    let (stranger, _) = customer(&server).await;
    let id = Some(Uuid::parse_str(&placed.id).unwrap());
    let refused = notify_professional(state, stranger, id, &pro_email)
        .await
        .unwrap_err();
    assert!(matches!(
        refused,
        repairs_server::error::ApiError::NotFound { .. }
    ));
    server.stop().await;
}

/// The text telling of request `id`: its state, whether a worker is sending it (its lease
/// holds), and how many tries it had.
async fn request_text(server: &TestServer, id: &str) -> (String, bool, i32) {
    sqlx::query_as(
        "select m.state, coalesce(m.leased_until >= now(), false), m.attempts
         from request_notifications n
         join outbox_messages m on m.id = n.outbox_message_id
         where n.repair_request_id = $1 and n.channel = 'sms'",
    )
    .bind(Uuid::parse_str(id).unwrap())
    .fetch_one(db(server))
    .await
    .unwrap()
}

/// The request's text once `done` holds for it (within 10 s).
async fn text_when(
    server: &TestServer,
    id: &str,
    done: impl Fn(&(String, bool, i32)) -> bool,
) -> (String, bool, i32) {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let text = request_text(server, id).await;
        if done(&text) {
            return text;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the text stayed {text:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Twilio settings that send texts to `url`, retried after `retry_base_ms`.
fn texts_to(url: String, retry_base_ms: u64) -> impl FnOnce(&mut repairs_server::config::Config) {
    move |c| {
        c.twilio_account_sid = Some(SID.into());
        c.twilio_auth_token = Some("token".into());
        c.twilio_from = Some("+15875550100".into());
        c.twilio_base_url = url;
        c.outbox_retry_base_ms = retry_base_ms;
    }
}

/// A customer's request in Calgary, which a professional taking texts is told of.
async fn texted_request(server: &TestServer) -> (Market, String, String) {
    let mut market = market(server).await;
    let (_, token) = customer(server).await;
    let texted = Pro {
        sms: true,
        ..CALGARY_PRO
    };
    professional(server, texted).await;
    let placed = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    (market, token, placed.id)
}

#[tokio::test]
async fn cancelling_drops_the_notifications_still_waiting_to_be_sent() {
    // Texts cannot be delivered (nothing listens) and are retried only after a minute.
    let server = TestServer::start_with(texts_to(helpers::closed_port_url(), 60_000)).await;
    let (mut market, token, id) = texted_request(&server).await;
    // Its first try failed, and it waits for the next.
    text_when(&server, &id, |(state, sending, attempts)| {
        state == "pending" && !sending && *attempts == 1
    })
    .await;
    cancel(&mut market, &token, &id).await.unwrap();
    assert_eq!(request_text(&server, &id).await.0, "expired");
    server.stop().await;
}

/// A text a worker is sending when its request is cancelled goes on (it may be out
/// already), but a failed send is not tried again: nobody is invited to quote on a
/// cancelled request.
#[tokio::test]
async fn a_notification_being_sent_when_its_request_is_cancelled_is_not_tried_again() {
    // Twilio is a listener the test holds: the text is being sent from the moment it
    // connects until the test hangs up. Were it tried again, that would be at once.
    let twilio = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", twilio.local_addr().unwrap());
    let server = TestServer::start_with(texts_to(url, 10)).await;
    let (mut market, token, id) = texted_request(&server).await;
    let (call, _) = tokio::time::timeout(std::time::Duration::from_secs(10), twilio.accept())
        .await
        .expect("the text was sent")
        .unwrap();
    cancel(&mut market, &token, &id).await.unwrap();
    let (state, sending, _) = request_text(&server, &id).await;
    assert_eq!(
        (state.as_str(), sending),
        ("pending", true),
        "its send goes on"
    );
    drop((call, twilio));
    let (state, _, attempts) = text_when(&server, &id, |(state, ..)| state != "pending").await;
    assert_eq!((state.as_str(), attempts), ("expired", 1));
    server.stop().await;
}

#[tokio::test]
async fn one_request_tells_the_nearest_professionals_and_texts_within_the_hourly_budget() {
    let server = TestServer::start_with(|c| {
        c.repair_request_max_notified = 2;
        c.sms_notifications_per_hour = 1;
    })
    .await;
    let mut market = market(&server).await;
    let (_, token) = customer(&server).await;
    let texted = |area| Pro {
        area,
        sms: true,
        ..CALGARY_PRO
    };
    // Downtown (T2P), next door (T2R) and the edge of town (T3R): the farthest is left out.
    let (downtown, _, _) = professional(&server, texted("T2P")).await;
    let (next_door, _, _) = professional(&server, texted("T2R")).await;
    let (edge, _, _) = professional(&server, texted("T3R")).await;
    let placed = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let told = notifications(db(&server), &placed.id).await;
    let emailed: Vec<Uuid> = told
        .iter()
        .filter(|(_, c)| c == "email")
        .map(|(p, _)| *p)
        .collect();
    let mut expected = vec![downtown, next_door];
    expected.sort();
    assert_eq!(emailed, expected, "the farthest ({edge}) is not told");
    // One text in the hour's budget: the nearest professional's.
    let texted: Vec<Uuid> = told
        .iter()
        .filter(|(_, c)| c == "sms")
        .map(|(p, _)| *p)
        .collect();
    assert_eq!(texted, [downtown]);
    server.stop().await;
}

#[tokio::test]
async fn only_a_hired_request_is_marked_completed_by_its_customer() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let billing = billing(&server).await;
    let (_, token) = customer(&server).await;
    let (_, stranger) = customer(&server).await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let placed = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let id = placed.id.as_str();
    let open = complete(&mut market, &token, id).await.unwrap_err();
    assert_eq!(reason(&open), "REPAIR_REQUEST_NOT_HIRED");
    let quote = quote(&mut market, &pro_token, id).await;
    let order = hire(&billing, &token, &quote.id, VISA, Uuid::now_v7())
        .await
        .unwrap();
    let theirs = complete(&mut market, &stranger, id).await.unwrap_err();
    assert_eq!(theirs.code(), Code::NotFound);
    // Completion captures the hire's hold: a hired request whose hold an admin released
    // stays hired (the whole path, hire to capture, is in the `hiring` tests).
    let (_, admin) = server.account_token(Role::Admin).await;
    billing
        .clone()
        .void_payment(with_token(
            bpb::VoidPaymentRequest {
                target: Some(bpb::PaymentTarget {
                    target: Some(bpb::payment_target::Target::OrderId(order.id)),
                }),
                request_id: Uuid::now_v7().to_string(),
                reason: "the customer asked".into(),
            },
            &admin,
        ))
        .await
        .unwrap();
    let unpaid = complete(&mut market, &token, id).await.unwrap_err();
    assert_eq!(reason(&unpaid), "PAYMENT_STATE");
    // Hired again on a new hold, then completed: completing it again answers it as it is.
    hire(&billing, &token, &quote.id, VISA, Uuid::now_v7())
        .await
        .unwrap();
    complete(&mut market, &token, id).await.unwrap();
    let done = complete(&mut market, &token, id).await.unwrap();
    assert_eq!(done.state, pb::RepairRequestState::Completed as i32);
    server.stop().await;
}

#[tokio::test]
async fn the_customer_dashboard_counts_their_own_requests() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (customer_id, token) = customer(&server).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(
            place(&mut market, &token, Uuid::now_v7(), in_calgary())
                .await
                .unwrap()
                .id,
        );
    }
    // The first two hired, the second completed.
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let billing = billing(&server).await;
    for id in &ids[..2] {
        let quote = quote(&mut market, &pro_token, id).await;
        hire(&billing, &token, &quote.id, VISA, Uuid::now_v7())
            .await
            .unwrap();
    }
    complete(&mut market, &token, &ids[1]).await.unwrap();
    let ask = |customer: Uuid, token: String| {
        let mut market = market.clone();
        async move {
            market
                .get_customer_dashboard(with_token(
                    pb::GetCustomerDashboardRequest {
                        customer_id: customer.to_string(),
                    },
                    &token,
                ))
                .await
                .map(tonic::Response::into_inner)
        }
    };
    let counts = ask(customer_id, token).await.unwrap();
    assert_eq!(
        (
            counts.requests_posted,
            counts.professionals_hired,
            counts.requests_completed
        ),
        (3, 2, 1)
    );
    let (_, stranger) = customer(&server).await;
    let refused = ask(customer_id, stranger).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    server.stop().await;
}
