//! Escalation of emergencies nobody quoted on: after `EMERGENCY_ESCALATE_AFTER` the next ring
//! is told (the on-duty matches beyond the nearest `REPAIR_REQUEST_MAX_NOTIFIED`, and the
//! off-duty professionals who chose emergencies at any hour), once, whatever the number of
//! sweeps racing; never before the delay, never a quoted, cancelled or ordinary request.
//! The sweep is driven with a clock rather than waited for.

use chrono::{DateTime, Utc};
use futures::future::join_all;
use repairs_server::requests::escalation::{self, Escalated};
use uuid::Uuid;

use crate::helpers::{
    TestServer,
    market::{
        CALGARY_PRO, Market, Pro, can_wait_in_calgary, cancel, customer, db, in_calgary, market,
        place, professional, quote,
    },
};

/// The test servers' delay (the default, ten minutes), and an instant past it.
fn past_the_delay() -> DateTime<Utc> {
    Utc::now() + chrono::Duration::seconds(601)
}

/// An approved member plumber in postal area `area`, on duty now (all day, every day).
async fn on_duty(server: &TestServer, area: &'static str) -> Uuid {
    let (id, _, _) = professional(
        server,
        Pro {
            area,
            ..CALGARY_PRO
        },
    )
    .await;
    id
}

/// A plumber in downtown Calgary whose hours are six hours away from now (and past the
/// delay), who chose emergencies at any hour or not.
async fn off_duty(server: &TestServer, any_hour: bool) -> Uuid {
    let id = on_duty(server, "T2P").await;
    sqlx::query(
        "update professionals set emergencies_any_hour = $2,
             available_from = (now() at time zone 'America/Edmonton' + interval '6 hours')::time,
             available_to = (now() at time zone 'America/Edmonton' + interval '6 hours 1 minute')::time
         where id = $1",
    )
    .bind(id)
    .bind(any_hour)
    .execute(db(server))
    .await
    .unwrap();
    id
}

/// The professionals emailed about request `id` (once each, or the count shows it), sorted.
async fn emailed(server: &TestServer, id: &str) -> Vec<Uuid> {
    sqlx::query_scalar(
        "select n.professional_id from request_notifications n
         join outbox_messages m on m.id = n.outbox_message_id
         where n.repair_request_id = $1 and n.channel = 'email' order by 1",
    )
    .bind(Uuid::parse_str(id).unwrap())
    .fetch_all(db(server))
    .await
    .unwrap()
}

/// Every outbox message about request `id`: emails, texts and pushes.
async fn messages_about(server: &TestServer, id: &str) -> i64 {
    sqlx::query_scalar("select count(*) from outbox_messages where dedupe_key like $1")
        .bind(format!("repair-request:{id}:%"))
        .fetch_one(db(server))
        .await
        .unwrap()
}

/// A server telling one professional per ring (REPAIR_REQUEST_MAX_NOTIFIED = 1), a
/// marketplace client and a customer's token.
async fn start() -> (TestServer, Market, String) {
    let server = TestServer::start_with(|c| c.repair_request_max_notified = 1).await;
    let market = market(&server).await;
    let (_, token) = customer(&server).await;
    (server, market, token)
}

async fn sweep(server: &TestServer, now: DateTime<Utc>) -> Escalated {
    escalation::escalate_due(&server.server.state, now)
        .await
        .unwrap()
}

fn sorted(mut ids: Vec<Uuid>) -> Vec<Uuid> {
    ids.sort();
    ids
}

#[tokio::test]
async fn an_unanswered_emergency_reaches_the_next_ring_and_the_opted_in_once() {
    let (server, mut market, token) = start().await;
    // Downtown (T2P), next door (T2R), the edge of town (T3R): one per ring.
    let nearest = on_duty(&server, "T2P").await;
    let next = on_duty(&server, "T2R").await;
    let beyond = on_duty(&server, "T3R").await;
    // At the same place as the one who chose emergencies at any hour, and first by id: only
    // the choice tells them apart.
    let asleep = off_duty(&server, false).await;
    let any_hour = off_duty(&server, true).await;
    let placed = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    assert_eq!(emailed(&server, &placed.id).await, [nearest]);

    // Not before the delay.
    assert_eq!(sweep(&server, Utc::now()).await, Escalated::default());
    assert_eq!(emailed(&server, &placed.id).await, [nearest]);

    let done = sweep(&server, past_the_delay()).await;
    assert_eq!(
        done,
        Escalated {
            requests: 1,
            professionals: 2
        }
    );
    let told = emailed(&server, &placed.id).await;
    assert_eq!(told, sorted(vec![nearest, next, any_hour]));
    assert!(
        !told.contains(&beyond),
        "one more ring of at most one on duty"
    );
    assert!(!told.contains(&asleep), "off duty without the choice");
    let (escalated,): (Option<DateTime<Utc>>,) =
        sqlx::query_as("select escalated_at from repair_requests where id = $1::uuid")
            .bind(&placed.id)
            .fetch_one(db(&server))
            .await
            .unwrap();
    assert!(escalated.is_some());

    // A second sweep sends nothing more.
    let sent = messages_about(&server, &placed.id).await;
    assert_eq!(
        sweep(&server, past_the_delay() + chrono::Duration::hours(1)).await,
        Escalated::default()
    );
    assert_eq!(messages_about(&server, &placed.id).await, sent);
    server.stop().await;
}

#[tokio::test]
async fn quoted_cancelled_and_ordinary_requests_are_never_escalated() {
    let (server, mut market, token) = start().await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let any_hour = off_duty(&server, true).await;
    let quoted = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    quote(&mut market, &pro_token, &quoted.id).await;
    let cancelled = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    cancel(&mut market, &token, &cancelled.id).await.unwrap();
    let ordinary = place(&mut market, &token, Uuid::now_v7(), can_wait_in_calgary())
        .await
        .unwrap();

    assert_eq!(sweep(&server, past_the_delay()).await, Escalated::default());
    for request in [&quoted, &cancelled, &ordinary] {
        let told = emailed(&server, &request.id).await;
        assert!(!told.contains(&any_hour), "{} was escalated", request.id);
    }
    server.stop().await;
}

#[tokio::test]
async fn racing_sweeps_escalate_each_emergency_once() {
    let (server, mut market, token) = start().await;
    let nearest = on_duty(&server, "T2P").await;
    let next = on_duty(&server, "T2R").await;
    let any_hour = off_duty(&server, true).await;
    let mut placed = Vec::new();
    for _ in 0..3 {
        let request = place(&mut market, &token, Uuid::now_v7(), in_calgary())
            .await
            .unwrap();
        placed.push(request.id);
    }

    let now = past_the_delay();
    let sweeps = (0..8).map(|_| {
        let state = server.server.state.clone();
        tokio::spawn(async move { escalation::escalate_due(&state, now).await.unwrap() })
    });
    let done: Vec<Escalated> = join_all(sweeps)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(done.iter().map(|d| d.requests).sum::<usize>(), 3);
    assert_eq!(done.iter().map(|d| d.professionals).sum::<usize>(), 6);
    for id in &placed {
        assert_eq!(
            emailed(&server, id).await,
            sorted(vec![nearest, next, any_hour])
        );
    }
    let metrics = server
        .server
        .state
        .metrics
        .render(&repairs_server::metrics::Snapshot::default());
    assert!(
        metrics.contains("repairs_emergency_escalations_total 3"),
        "{metrics}"
    );
    server.stop().await;
}
