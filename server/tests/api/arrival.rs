//! Arrival first, through the RPCs on the real server, Postgres and Redis: quotes say when
//! their professional can be there; matching professionals are alerted soonest by road (the
//! local road router's river fixture), falling back to the straight line when the router is
//! down; the hired professional's trip (who may start it and send positions, the estimate
//! falling in the customer's stream, positions gone after arrival, the per-trip bound under
//! concurrent senders).

use std::time::Duration;

use crate::helpers::{
    TestServer, emails_to,
    market::{
        self, CALGARY_PRO, Market, VISA, billing, can_wait_in_calgary, complete, customer, db,
        hire, in_calgary, next_message, place, professional, quote_request, watch,
    },
    reason, send_quote, with_token,
};
use futures::future::join_all;
use repairs_proto::marketplace::{self as pb, watch_repair_request_response::Event};
use repairs_server::{
    config::DistanceProviderKind,
    domain::{Coordinates, Role},
    testing::road_router::{River, RoadRouter, Roads},
};
use tonic::Code;
use uuid::Uuid;

#[tokio::test]
async fn an_emergency_s_quote_says_when_and_the_hire_says_by_when() {
    let server = TestServer::start().await;
    let mut market = market::market(&server).await;
    let (_, customer) = customer(&server).await;
    let (_, pro, _) = professional(&server, CALGARY_PRO).await;
    let emergency = place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();

    for arrival in [None, Some(1441)] {
        let refused = market
            .create_quote(with_token(quote_request(&emergency.id, arrival), &pro))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{arrival:?}");
        assert_eq!(reason(&refused), "ARRIVAL_TIME_REQUIRED");
    }
    // The legacy apply form cannot say it: its calls are spared.
    let mut legacy = with_token(quote_request(&emergency.id, None), &pro);
    legacy
        .metadata_mut()
        .insert(repairs_proto::LEGACY_CALL, "1".parse().unwrap());
    let from_legacy = market
        .create_quote(legacy)
        .await
        .unwrap()
        .into_inner()
        .quote
        .unwrap();
    assert_eq!(from_legacy.arrival_minutes, 0);
    market
        .withdraw_quote(with_token(
            pb::WithdrawQuoteRequest {
                id: from_legacy.id.clone(),
            },
            &pro,
        ))
        .await
        .unwrap();

    let quote = market
        .create_quote(with_token(quote_request(&emergency.id, Some(40)), &pro))
        .await
        .unwrap()
        .into_inner()
        .quote
        .unwrap();
    assert_eq!(quote.arrival_minutes, 40);
    assert_eq!(quote.arrive_by, None, "not hired yet");
    hire(
        &billing(&server).await,
        &customer,
        &quote.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();
    let hired = market
        .get_quote(with_token(pb::GetQuoteRequest { id: quote.id }, &customer))
        .await
        .unwrap()
        .into_inner();
    let (quote, request) = (hired.quote.unwrap(), hired.repair_request.unwrap());
    let hire_time = request.hire_time.unwrap().seconds;
    let arrive_by = quote.arrive_by.unwrap().seconds;
    assert!(
        (arrive_by - hire_time - 40 * 60).abs() <= 2,
        "40 minutes after the hire: {hire_time} -> {arrive_by}"
    );

    // A request that can wait takes a quote without an arrival time.
    let later = place(
        &mut market,
        &customer,
        Uuid::now_v7(),
        can_wait_in_calgary(),
    )
    .await
    .unwrap();
    let quote = market
        .create_quote(with_token(quote_request(&later.id, None), &pro))
        .await
        .unwrap()
        .into_inner()
        .quote
        .unwrap();
    assert_eq!(quote.arrival_minutes, 0);
}

// ---------------------------------------------------------------------------------------
// Alerts soonest by road

/// Where a request in T2P 1J9 is placed (the gazetteer's point of the code).
fn request_point() -> Coordinates {
    let place = repairs_server::providers::Gazetteer::shipped()
        .unwrap()
        .lookup_postal_code("T2P 1J9")
        .unwrap();
    Coordinates {
        latitude: place.latitude,
        longitude: place.longitude,
    }
}

/// A professional of `server` whose home base is moved to `home`; their id and email.
async fn professional_at(server: &TestServer, home: Coordinates) -> (Uuid, String) {
    let (id, _, email) = professional(server, CALGARY_PRO).await;
    move_home(server, id, home).await;
    (id, email)
}

async fn move_home(server: &TestServer, id: Uuid, home: Coordinates) {
    sqlx::query("update professionals set home_latitude = $2, home_longitude = $3 where id = $1")
        .bind(id)
        .bind(home.latitude)
        .bind(home.longitude)
        .execute(db(server))
        .await
        .unwrap();
}

/// `point` moved 100 m north: another entry of the drive cache.
fn a_little_north(point: Coordinates) -> Coordinates {
    Coordinates {
        latitude: point.latitude + 0.001,
        ..point
    }
}

#[tokio::test]
async fn the_professional_soonest_by_road_is_alerted_before_a_nearer_one_across_the_river() {
    let at = request_point();
    // A river 2 km east of the request, bridged 22 km north.
    let river = River {
        longitude: at.longitude + 0.03,
        bridge: Coordinates {
            latitude: at.latitude + 0.2,
            longitude: at.longitude + 0.03,
        },
    };
    let router = RoadRouter::start(Roads {
        river: Some(river),
        delay: Duration::ZERO,
    })
    .await;
    let url = router.url();
    let server = TestServer::start_with(|config| {
        config.distance_provider = DistanceProviderKind::Osrm;
        config.osrm_url = Some(url);
        config.repair_request_max_notified = 1;
    })
    .await;
    // 6 km east, over the water; 9 km south, by a straight road.
    let across = Coordinates {
        longitude: at.longitude + 0.085,
        ..at
    };
    let down_the_road = Coordinates {
        latitude: at.latitude - 0.081,
        ..at
    };
    let (across_id, across_email) = professional_at(&server, across).await;
    let (road_id, road_email) = professional_at(&server, down_the_road).await;
    let mut market = market::market(&server).await;
    let (_, customer) = customer(&server).await;

    place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let told = emails_to(db(&server), &road_email, "New request").await;
    assert_eq!(told.len(), 1, "the one by the straight road is told");
    // About 11 km by road at 50 km/h: 13 or 14 minutes, as the points are rounded.
    let minutes = router.roads.seconds(down_the_road, at) / 60.0;
    let (before, _) = told[0].1.split_once(" min by road").expect("a drive told");
    let told_minutes: f64 = before.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(
        (told_minutes - minutes).abs() <= 1.0,
        "{minutes} min: {}",
        told[0].1
    );
    assert!(
        emails_to(db(&server), &across_email, "New request")
            .await
            .is_empty()
    );

    // With the router down, the straight line decides, and no drive is told. (Drives it
    // answered before stay cached: the homes move a little, out of the cache.)
    router.set_down(true);
    move_home(&server, across_id, a_little_north(across)).await;
    move_home(&server, road_id, a_little_north(down_the_road)).await;
    place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let told = emails_to(db(&server), &across_email, "New request").await;
    assert_eq!(
        told.len(),
        1,
        "the nearer one is told when the router is down"
    );
    assert!(!told[0].1.contains("by road"), "{}", told[0].1);
    assert_eq!(
        emails_to(db(&server), &road_email, "New request")
            .await
            .len(),
        1
    );
    router.stop().await;
}

// ---------------------------------------------------------------------------------------
// On my way

/// A hired emergency in Calgary: the customer, the hired professional, a professional who
/// quoted and lost, and an admin.
struct Job {
    server: TestServer,
    market: Market,
    request: pb::RepairRequest,
    customer: String,
    pro: String,
    other_pro: String,
    admin: String,
}

async fn job(adjust: impl FnOnce(&mut repairs_server::config::Config)) -> Job {
    let server = TestServer::start_with(adjust).await;
    let mut market = market::market(&server).await;
    let (_, customer) = customer(&server).await;
    let request = place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let (_, pro, _) = professional(&server, CALGARY_PRO).await;
    let (_, other_pro, _) = professional(&server, CALGARY_PRO).await;
    let quote = send_quote(&server, &pro, &request.id, 9_000).await;
    send_quote(&server, &other_pro, &request.id, 12_000).await;
    hire(
        &billing(&server).await,
        &customer,
        &quote.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();
    let (_, admin) = server.account_token(Role::Admin).await;
    Job {
        server,
        market,
        request,
        customer,
        pro,
        other_pro,
        admin,
    }
}

impl Job {
    async fn start(&mut self, token: &str) -> Result<pb::Trip, tonic::Status> {
        let id = self.request.id.clone();
        self.market
            .start_trip(with_token(
                pb::StartTripRequest {
                    repair_request_id: id,
                },
                token,
            ))
            .await
            .map(|r| r.into_inner().trip.unwrap())
    }

    async fn share(&mut self, token: &str, at: Coordinates) -> Result<pb::Trip, tonic::Status> {
        let request = pb::ShareTripPositionRequest {
            repair_request_id: self.request.id.clone(),
            latitude: at.latitude,
            longitude: at.longitude,
            accuracy_m: 12.0,
        };
        self.market
            .share_trip_position(with_token(request, token))
            .await
            .map(|r| r.into_inner().trip.unwrap())
    }

    async fn arrive(&mut self, token: &str) -> Result<pb::Trip, tonic::Status> {
        let id = self.request.id.clone();
        self.market
            .arrive_at_job(with_token(
                pb::ArriveAtJobRequest {
                    repair_request_id: id,
                },
                token,
            ))
            .await
            .map(|r| r.into_inner().trip.unwrap())
    }

    async fn read(&mut self, token: &str) -> pb::RepairRequest {
        let id = self.request.id.clone();
        self.market
            .get_repair_request(with_token(pb::GetRepairRequestRequest { id }, token))
            .await
            .unwrap()
            .into_inner()
            .repair_request
            .unwrap()
    }

    /// The trip row's stored position (latitude, longitude), if any.
    async fn stored_position(&self) -> Option<(f64, f64)> {
        let row: (Option<f64>, Option<f64>) = sqlx::query_as(
            "select latitude, longitude from trips where repair_request_id = $1::uuid",
        )
        .bind(&self.request.id)
        .fetch_one(db(&self.server))
        .await
        .unwrap();
        row.0.zip(row.1)
    }
}

/// `from` moved `fraction` of the way to `to`.
fn along(from: Coordinates, to: Coordinates, fraction: f64) -> Coordinates {
    Coordinates {
        latitude: from.latitude + (to.latitude - from.latitude) * fraction,
        longitude: from.longitude + (to.longitude - from.longitude) * fraction,
    }
}

fn trip_of(message: &pb::WatchRepairRequestResponse) -> pb::Trip {
    let request = match &message.event {
        Some(Event::Snapshot(snapshot)) => snapshot.repair_request.as_ref(),
        Some(Event::Change(change)) => change.repair_request.as_ref(),
        other => panic!("expected the request, got {other:?}"),
    };
    request.and_then(|r| r.trip.clone()).expect("a trip")
}

#[tokio::test]
async fn only_the_hired_professional_travels_and_the_customer_watches_the_arrival_fall() {
    let mut job = job(|config| config.trip_position_every = Duration::ZERO).await;
    let (pro, other, customer, admin) = (
        job.pro.clone(),
        job.other_pro.clone(),
        job.customer.clone(),
        job.admin.clone(),
    );
    // Before the trip, positions are refused; nobody else may travel.
    let early = job.share(&pro, request_point()).await.unwrap_err();
    assert_eq!(
        (early.code(), reason(&early).as_str()),
        (Code::FailedPrecondition, "TRIP_NOT_STARTED")
    );
    for (token, code) in [
        (&other, Code::NotFound),
        (&customer, Code::PermissionDenied),
        (&admin, Code::PermissionDenied),
    ] {
        assert_eq!(job.start(token).await.unwrap_err().code(), code);
        let refused = job.share(token, request_point()).await.unwrap_err();
        assert_eq!(refused.code(), code);
    }

    // The customer chose texts: setting out tells them at once, with the arrival time.
    sqlx::query("update customers set sms_updates = 'yes' where id = (select customer_id from repair_requests where id = $1::uuid)")
        .bind(&job.request.id)
        .execute(db(&job.server))
        .await
        .unwrap();
    let started = job.start(&pro).await.unwrap();
    assert_eq!(started.state(), pb::TripState::OnTheWay);
    let texts: Vec<String> = sqlx::query_scalar(
        "select body from outbox_messages where channel = 'sms' and recipient = '+14035550100'
         and body like '% is on the way: %'",
    )
    .fetch_all(db(&job.server))
    .await
    .unwrap();
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert_eq!(started.estimate_source(), pb::ArrivalEstimateSource::Route);
    assert_eq!(
        job.start(&pro).await.unwrap(),
        started,
        "a second start answers the trip"
    );
    let mut stream = watch(&mut job.market, &customer, &job.request.id, 0)
        .await
        .unwrap();
    let first = trip_of(&next_message(&mut stream).await);
    assert_eq!(first.state(), pb::TripState::OnTheWay);

    // The professional comes closer from 12 km north; each position lowers the estimate.
    let door = request_point();
    let start = Coordinates {
        latitude: door.latitude + 0.108,
        ..door
    };
    let mut last = i64::MAX;
    for step in 0..4 {
        let here = along(start, door, f64::from(step) * 0.3);
        job.share(&pro, here).await.unwrap();
        let trip = trip_of(&next_message(&mut stream).await);
        assert_eq!(trip.estimate_source(), pb::ArrivalEstimateSource::Position);
        let position = trip.position.expect("the customer sees where they are");
        assert!((position.latitude - here.latitude).abs() < 1e-9);
        let seconds_left =
            trip.estimated_arrival_time.unwrap().seconds - trip.last_position_time.unwrap().seconds;
        assert!(
            seconds_left < last,
            "step {step}: {seconds_left} after {last}"
        );
        last = seconds_left;
    }
    // Admins and the professional read the estimate, never the position.
    for token in [&admin, &pro] {
        let trip = job.read(token).await.trip.unwrap();
        assert_eq!(trip.state(), pb::TripState::OnTheWay);
        assert!(trip.position.is_none());
    }
    // A professional who lost the job reads no trip at all.
    assert!(job.read(&other).await.trip.is_none());
    assert!(job.stored_position().await.is_some());

    let arrived = job.arrive(&pro).await.unwrap();
    assert_eq!(arrived.state(), pb::TripState::Arrived);
    assert!(arrived.arrival_time.is_some());
    let trip = trip_of(&next_message(&mut stream).await);
    assert_eq!(trip.state(), pb::TripState::Arrived);
    assert!(trip.position.is_none());
    assert_eq!(
        job.stored_position().await,
        None,
        "positions are gone after arrival"
    );
    let late = job.share(&pro, door).await.unwrap_err();
    assert_eq!(
        (late.code(), reason(&late).as_str()),
        (Code::FailedPrecondition, "TRIP_ENDED")
    );
    assert_eq!(
        job.arrive(&pro).await.unwrap().state(),
        pb::TripState::Arrived
    );
}

#[tokio::test]
async fn one_position_in_ten_seconds_is_taken_from_eight_senders_at_once() {
    let mut job = job(|_| {}).await;
    let pro = job.pro.clone();
    job.start(&pro).await.unwrap();
    let sends = (0..8).map(|i| {
        let mut market = job.market.clone();
        let request = pb::ShareTripPositionRequest {
            repair_request_id: job.request.id.clone(),
            latitude: 51.1 - f64::from(i) * 0.001,
            longitude: -114.07,
            accuracy_m: 10.0,
        };
        let token = pro.clone();
        async move {
            market
                .share_trip_position(with_token(request, &token))
                .await
        }
    });
    let answers = join_all(sends).await;
    let taken = answers.iter().filter(|a| a.is_ok()).count();
    assert_eq!(taken, 1, "{answers:?}");
    for refused in answers.iter().filter_map(|a| a.as_ref().err()) {
        assert_eq!(refused.code(), Code::ResourceExhausted);
        assert_eq!(reason(refused), "TRIP_POSITION_TOO_SOON");
    }
}

#[tokio::test]
async fn a_job_done_while_on_the_way_keeps_no_position() {
    let mut job = job(|config| config.trip_position_every = Duration::ZERO).await;
    let (pro, customer) = (job.pro.clone(), job.customer.clone());
    job.start(&pro).await.unwrap();
    job.share(&pro, request_point()).await.unwrap();
    let id = job.request.id.clone();
    complete(&mut job.market, &customer, &id).await.unwrap();
    let cleared = repairs_server::trips::clear_ended_positions(db(&job.server), chrono::Utc::now())
        .await
        .unwrap();
    assert_eq!(cleared, 1);
    assert_eq!(job.stored_position().await, None);
    let refused = job.share(&pro, request_point()).await.unwrap_err();
    assert_eq!(reason(&refused), "REPAIR_REQUEST_NOT_HIRED");
}

#[tokio::test]
async fn drives_come_from_the_router_in_one_look_up_then_from_the_cache_or_the_straight_line() {
    use repairs_server::{
        matching::DistanceService,
        providers::osrm::{OsrmConfig, OsrmDistance},
    };
    let router = RoadRouter::start(Roads::default()).await;
    let osrm = OsrmDistance::new(OsrmConfig::new(router.url())).unwrap();
    let cache = crate::helpers::redis_cache().await;
    let distances =
        DistanceService::new(std::sync::Arc::new(osrm), cache, 2, Duration::from_secs(2));
    let to = request_point();
    let homes: Vec<Coordinates> = (1..=3)
        .map(|i| Coordinates {
            latitude: to.latitude + 0.01 * f64::from(i),
            ..to
        })
        .collect();
    let drives = distances.drives_to(&homes, to).await;
    assert_eq!(router.calls(), 1, "one table look-up for three homes");
    for (home, drive) in homes.iter().zip(&drives) {
        assert!(drive.by_road);
        assert!((drive.seconds - router.roads.seconds(*home, to)).abs() < 1.0);
        assert!((drive.meters - router.roads.meters(*home, to)).abs() < 20.0);
    }
    assert_eq!(distances.drives_to(&homes, to).await, drives);
    assert_eq!(router.calls(), 1, "then from the cache");
    let route = distances.route(homes[2], to).await;
    assert!(route.by_road && (route.seconds - drives[2].seconds).abs() < 1.0);
    assert_eq!(router.calls(), 2);

    router.set_down(true);
    let elsewhere = Coordinates {
        longitude: to.longitude + 0.02,
        ..to
    };
    let fallback = distances.drives_to(&[elsewhere], to).await[0];
    assert!(!fallback.by_road, "the straight line stands in");
    assert!(!distances.route(elsewhere, to).await.by_road);
    router.stop().await;
}
