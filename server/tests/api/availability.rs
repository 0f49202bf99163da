//! A professional's pause and on-call window (`SetProfessionalAvailability`): paused, they
//! are neither matched nor alerted nor escalated to while their quotes stay live, and match
//! again once the housekeeping pass ends the pause; on call, they are alerted of emergencies
//! outside their weekly hours. Bounds and who may set it. Time is driven with a clock.

use chrono::{DateTime, Duration, Utc};
use prost_types::Timestamp;
use repairs_proto::{accounts as acc, marketplace as pb};
use repairs_server::{
    accounts::availability, matching, requests::escalation, store::professionals,
};
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{
    AccountsClient, TestServer, admin_token,
    market::{
        CALGARY_PRO, Market, Pro, can_wait_in_calgary, customer, db, in_calgary, market, place,
        professional, quote,
    },
    reason, violated_fields, with_token,
};

fn ts(time: DateTime<Utc>) -> Option<Timestamp> {
    Some(Timestamp {
        seconds: time.timestamp(),
        nanos: 0,
    })
}

async fn set(
    accounts: &mut AccountsClient,
    token: &str,
    id: &str,
    paused_until: Option<DateTime<Utc>>,
    on_call_until: Option<DateTime<Utc>>,
) -> Result<acc::Professional, tonic::Status> {
    accounts
        .set_professional_availability(with_token(
            acc::SetProfessionalAvailabilityRequest {
                id: id.into(),
                paused_until: paused_until.and_then(ts),
                on_call_until: on_call_until.and_then(ts),
            },
            token,
        ))
        .await
        .map(|reply| reply.into_inner().professional.unwrap())
}

/// The professionals emailed about request `id`, sorted.
async fn emailed(server: &TestServer, id: &str) -> Vec<Uuid> {
    sqlx::query_scalar(
        "select professional_id from request_notifications
         where repair_request_id = $1 and channel = 'email' order by 1",
    )
    .bind(Uuid::parse_str(id).unwrap())
    .fetch_all(db(server))
    .await
    .unwrap()
}

/// An emergency placed now in downtown Calgary.
async fn emergency(market: &mut Market, token: &str) -> pb::RepairRequest {
    place(market, token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap()
}

/// A plumber in downtown Calgary whose hours are six hours away from now.
async fn off_duty(server: &TestServer) -> (Uuid, String) {
    let (id, token, _) = professional(server, CALGARY_PRO).await;
    sqlx::query(
        "update professionals set
             available_from = (now() at time zone 'America/Edmonton' + interval '6 hours')::time,
             available_to = (now() at time zone 'America/Edmonton' + interval '6 hours 1 minute')::time
         where id = $1",
    )
    .bind(id)
    .execute(db(server))
    .await
    .unwrap();
    (id, token)
}

fn sorted(mut ids: Vec<Uuid>) -> Vec<Uuid> {
    ids.sort();
    ids
}

#[tokio::test]
async fn a_paused_professional_is_neither_matched_nor_alerted_nor_escalated_to_until_the_pause_ends()
 {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let (_, customer_token) = customer(&server).await;
    // On duty and open to emergencies at any hour: only the pause keeps them out.
    let (paused, paused_token, _) = professional(&server, CALGARY_PRO).await;
    sqlx::query("update professionals set emergencies_any_hour = true where id = $1")
        .bind(paused)
        .execute(db(&server))
        .await
        .unwrap();
    let (other, _, _) = professional(
        &server,
        Pro {
            area: "T2R",
            ..CALGARY_PRO
        },
    )
    .await;
    let before = emergency(&mut market, &customer_token).await;
    let live = quote(&mut market, &paused_token, &before.id).await;

    let until = Utc::now() + Duration::hours(2);
    let shown = set(&mut accounts, &paused_token, "", Some(until), None)
        .await
        .unwrap();
    assert_eq!(
        shown.paused_until.map(|t| t.seconds),
        Some(until.timestamp())
    );
    assert_eq!(shown.on_call_until, None);

    let during = emergency(&mut market, &customer_token).await;
    assert_eq!(emailed(&server, &during.id).await, [other], "not alerted");
    let request = Uuid::parse_str(&during.id).unwrap();
    assert_eq!(
        matching::matches(db(&server), paused, request)
            .await
            .unwrap(),
        None,
        "not matched"
    );
    // Past the escalation delay, still paused: the next ring leaves them out.
    let swept = escalation::escalate_due(&server.server.state, Utc::now() + Duration::seconds(601))
        .await
        .unwrap();
    assert_eq!(swept.professionals, 0);
    assert_eq!(
        emailed(&server, &during.id).await,
        [other],
        "not escalated to"
    );
    // The quote they sent before pausing stays live and hireable.
    let (state,): (String,) = sqlx::query_as("select state from quotes where id = $1::uuid")
        .bind(&live.id)
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(state, "submitted");

    // The housekeeping pass ends the pause once its time came, and not before.
    assert_eq!(
        availability::end_due(db(&server), Utc::now())
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        availability::end_due(db(&server), until + Duration::seconds(1))
            .await
            .unwrap(),
        1
    );
    let row = professionals::get(db(&server), paused)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.paused_until, None);
    assert!(
        matching::matches(db(&server), paused, request)
            .await
            .unwrap()
            .is_some(),
        "matched again"
    );
    let after = emergency(&mut market, &customer_token).await;
    assert_eq!(
        emailed(&server, &after.id).await,
        sorted(vec![paused, other])
    );
    server.stop().await;
}

#[tokio::test]
async fn an_on_call_professional_is_alerted_of_an_emergency_outside_their_hours() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let (_, customer_token) = customer(&server).await;
    let (pro, token) = off_duty(&server).await;

    let asleep = emergency(&mut market, &customer_token).await;
    assert!(emailed(&server, &asleep.id).await.is_empty());

    let until = Utc::now() + Duration::hours(4);
    let shown = set(&mut accounts, &token, &pro.to_string(), None, Some(until))
        .await
        .unwrap();
    assert_eq!(
        shown.on_call_until.map(|t| t.seconds),
        Some(until.timestamp())
    );
    let on_call = emergency(&mut market, &customer_token).await;
    assert_eq!(emailed(&server, &on_call.id).await, [pro]);
    // On call is for emergencies: a repair that can wait follows the weekly hours.
    let can_wait = place(
        &mut market,
        &customer_token,
        Uuid::now_v7(),
        can_wait_in_calgary(),
    )
    .await
    .unwrap();
    assert!(emailed(&server, &can_wait.id).await.is_empty());

    // Unset ends it.
    let shown = set(&mut accounts, &token, "", None, None).await.unwrap();
    assert_eq!(shown.on_call_until, None);
    let ended = emergency(&mut market, &customer_token).await;
    assert!(emailed(&server, &ended.id).await.is_empty());
    server.stop().await;
}

#[tokio::test]
async fn availability_is_bounded_and_set_by_the_professional_or_an_admin() {
    let server = TestServer::start().await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let (pro, token, _) = professional(&server, CALGARY_PRO).await;
    let (_, other_token, _) = professional(&server, CALGARY_PRO).await;
    let (_, customer_token) = customer(&server).await;
    let now = Utc::now();

    for (paused, on_call, field) in [
        (Some(now + Duration::days(91)), None, "paused_until"),
        (Some(now - Duration::minutes(1)), None, "paused_until"),
        (None, Some(now + Duration::hours(25)), "on_call_until"),
        (
            Some(now + Duration::hours(1)),
            Some(now + Duration::hours(1)),
            "on_call_until",
        ),
    ] {
        let refused = set(&mut accounts, &token, "", paused, on_call)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
        assert_eq!(violated_fields(&refused), [field]);
    }
    let bad_time = accounts
        .set_professional_availability(with_token(
            acc::SetProfessionalAvailabilityRequest {
                id: String::new(),
                paused_until: Some(Timestamp {
                    seconds: i64::MAX,
                    nanos: 0,
                }),
                on_call_until: None,
            },
            &token,
        ))
        .await
        .unwrap_err();
    assert_eq!(bad_time.code(), Code::InvalidArgument);

    // Someone else's: refused, nothing changed.
    let pause = Some(now + Duration::days(3));
    let refused = set(&mut accounts, &other_token, &pro.to_string(), pause, None)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    let refused = set(
        &mut accounts,
        &customer_token,
        &pro.to_string(),
        pause,
        None,
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    let row = professionals::get(db(&server), pro).await.unwrap().unwrap();
    assert_eq!(row.paused_until, None);

    // An admin names the professional, and the change is audited.
    let admin = admin_token(&server, &mut accounts).await;
    let unnamed = set(&mut accounts, &admin, "", pause, None)
        .await
        .unwrap_err();
    assert_eq!(
        unnamed.code(),
        Code::InvalidArgument,
        "{}",
        reason(&unnamed)
    );
    let shown = set(&mut accounts, &admin, &pro.to_string(), pause, None)
        .await
        .unwrap();
    assert!(shown.paused_until.is_some());
    let (action,): (String,) = sqlx::query_as(
        "select action from audit_events where target_type = 'professional' and target_id = $1",
    )
    .bind(pro.to_string())
    .fetch_one(db(&server))
    .await
    .unwrap();
    assert_eq!(action, "professional.availability");
    server.stop().await;
}
