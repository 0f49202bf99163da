//! WatchRepairRequest against the real server, Postgres and Redis: the snapshot then each
//! change, resuming from a revision, who may watch, two server processes on one database,
//! and the bound on streams per caller.

use std::time::Duration;

use crate::helpers::{
    self, TestServer,
    market::{
        CALGARY_PRO, Market, Pro, VISA, billing, customer, hire, next_message as next,
        open_request, professional, quote, silent_for, watch,
    },
    reason, with_token,
};
use repairs_proto::marketplace::{
    self as pb, marketplace_service_client::MarketplaceServiceClient,
    watch_repair_request_response::Event,
};
use tonic::{Code, Streaming};
use uuid::Uuid;

type Watch = Streaming<pb::WatchRepairRequestResponse>;

/// The next message, failing the test when none comes within a few seconds.
async fn silent_for_a_while(stream: &mut Watch) -> bool {
    silent_for(stream, Duration::from_millis(700)).await
}

fn snapshot(message: &pb::WatchRepairRequestResponse) -> &pb::RepairRequestSnapshot {
    match &message.event {
        Some(Event::Snapshot(snapshot)) => snapshot,
        other => panic!("expected a snapshot, got {other:?}"),
    }
}

fn change(message: &pb::WatchRepairRequestResponse) -> &pb::RepairRequestChange {
    match &message.event {
        Some(Event::Change(change)) => change,
        other => panic!("expected a change, got {other:?}"),
    }
}

fn quote_ids(snapshot: &pb::RepairRequestSnapshot) -> Vec<String> {
    snapshot.quotes.iter().map(|q| q.id.clone()).collect()
}

/// A Calgary plumber's quote on `request`: their id, token and quote.
async fn quoted(
    server: &TestServer,
    market: &mut Market,
    request: &pb::RepairRequest,
) -> (Uuid, String, pb::Quote) {
    let (id, token, _) = professional(server, CALGARY_PRO).await;
    let sent = quote(market, &token, &request.id).await;
    (id, token, sent)
}

#[tokio::test]
async fn a_snapshot_then_each_new_quote_and_a_resume_misses_nothing() {
    let (server, mut market, customer_token, request) = open_request(|_| {}).await;
    let mut stream = watch(&mut market, &customer_token, &request.id, 0)
        .await
        .unwrap();
    let first = next(&mut stream).await;
    assert!(snapshot(&first).quotes.is_empty());
    assert_eq!(
        snapshot(&first).repair_request.as_ref().unwrap().id,
        request.id
    );

    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let sent = quote(&mut market, &pro_token, &request.id).await;
    let arrived = next(&mut stream).await;
    assert!(arrived.revision > first.revision);
    assert_eq!(change(&arrived).quote.as_ref().unwrap().id, sent.id);
    assert_eq!(
        change(&arrived)
            .repair_request
            .as_ref()
            .unwrap()
            .quote_count,
        1
    );
    drop(stream);

    // Back at the current revision: no snapshot, the request's reach (`request_reach`), then
    // just the next change.
    let mut resumed = watch(&mut market, &customer_token, &request.id, arrived.revision)
        .await
        .unwrap();
    let reach = next(&mut resumed).await;
    assert!(matches!(reach.event, Some(Event::Reach(_))), "{reach:?}");
    assert_eq!(reach.revision, arrived.revision);
    assert!(silent_for_a_while(&mut resumed).await);
    let (_, second_pro_token, _) = professional(&server, CALGARY_PRO).await;
    let second = quote(&mut market, &second_pro_token, &request.id).await;
    let arrived_again = next(&mut resumed).await;
    assert_eq!(change(&arrived_again).quote.as_ref().unwrap().id, second.id);
    drop(resumed);

    // From an older revision: a fresh snapshot with everything missed.
    let mut behind = watch(&mut market, &customer_token, &request.id, first.revision)
        .await
        .unwrap();
    let fresh = next(&mut behind).await;
    assert_eq!(fresh.revision, arrived_again.revision);
    assert_eq!(quote_ids(snapshot(&fresh)), vec![sent.id, second.id]);
    server.stop().await;
}

#[tokio::test]
async fn only_the_customer_admins_and_professionals_who_may_see_it_watch() {
    let (server, mut market, _, request) = open_request(|_| {}).await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let (_, rival_token, _) = professional(&server, CALGARY_PRO).await;
    let mine = quote(&mut market, &pro_token, &request.id).await;
    quote(&mut market, &rival_token, &request.id).await;

    let (_, stranger_token) = customer(&server).await;
    let far_pro = Pro {
        area: "H2X",
        sms: false,
        language: "fr",
    };
    let (_, far_token, _) = professional(&server, far_pro).await;
    for token in [&stranger_token, &far_token] {
        let refused = watch(&mut market, token, &request.id, 0).await.unwrap_err();
        assert_eq!(refused.code(), Code::NotFound);
    }

    // A quoting professional sees the request without its street, and their own quote only.
    let mut theirs = watch(&mut market, &pro_token, &request.id, 0)
        .await
        .unwrap();
    let seen = next(&mut theirs).await;
    assert_eq!(quote_ids(snapshot(&seen)), vec![mine.id]);
    assert!(matches!(
        snapshot(&seen).repair_request.as_ref().unwrap().location,
        Some(pb::repair_request::Location::ApproximateLocation(_))
    ));
    let (_, admin_token) = server
        .account_token(repairs_server::domain::Role::Admin)
        .await;
    let mut admins = watch(&mut market, &admin_token, &request.id, 0)
        .await
        .unwrap();
    assert_eq!(snapshot(&next(&mut admins).await).quotes.len(), 2);
    server.stop().await;
}

#[tokio::test]
async fn a_quote_written_through_one_server_reaches_a_watcher_on_another() {
    let (server, mut market, customer_token, request) = open_request(|_| {}).await;
    let mut config = (*server.server.state.config).clone();
    let other_dir = tempfile::tempdir().unwrap();
    config.data_dir = other_dir.path().to_path_buf();
    let other = repairs_server::start(config).await.unwrap();
    let channel = helpers::channel_to(other.grpc_addr).await;
    let mut on_other = MarketplaceServiceClient::new(channel);

    let mut stream = watch(&mut on_other, &customer_token, &request.id, 0)
        .await
        .unwrap();
    next(&mut stream).await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let sent = quote(&mut market, &pro_token, &request.id).await;
    assert_eq!(
        change(&next(&mut stream).await).quote.as_ref().unwrap().id,
        sent.id
    );
    drop(stream);
    other.stop().await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn streams_per_caller_are_bounded() {
    let (server, mut market, customer_token, request) =
        open_request(|config| config.watch_streams_per_professional = 1).await;
    let first = watch(&mut market, &customer_token, &request.id, 0)
        .await
        .unwrap();
    let refused = watch(&mut market, &customer_token, &request.id, 0)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert_eq!(reason(&refused), "TOO_MANY_STREAMS");
    drop(first);
    // The slot comes back once the server sees the client gone.
    let mut again = None;
    for _ in 0..50 {
        if let Ok(stream) = watch(&mut market, &customer_token, &request.id, 0).await {
            again = Some(stream);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(again.is_some(), "a closed stream gives its slot back");
    server.stop().await;
}

fn request_of(message: &pb::WatchRepairRequestResponse) -> &pb::RepairRequest {
    match &message.event {
        Some(Event::Snapshot(snapshot)) => snapshot.repair_request.as_ref().unwrap(),
        Some(Event::Change(change)) => change.repair_request.as_ref().unwrap(),
        Some(Event::Reach(_)) | None => panic!("a message without the request: {message:?}"),
    }
}

#[tokio::test]
async fn a_withdrawn_quote_comes_once_and_a_cancelled_request_ends_the_stream() {
    let (server, mut market, customer_token, request) = open_request(|_| {}).await;
    let (_, pro_token, sent) = quoted(&server, &mut market, &request).await;
    let mut stream = watch(&mut market, &customer_token, &request.id, 0)
        .await
        .unwrap();
    assert_eq!(
        quote_ids(snapshot(&next(&mut stream).await)),
        vec![sent.id.clone()]
    );

    market
        .withdraw_quote(with_token(
            pb::WithdrawQuoteRequest {
                id: sent.id.clone(),
            },
            &pro_token,
        ))
        .await
        .unwrap();
    let withdrawn = next(&mut stream).await;
    let quote = change(&withdrawn).quote.as_ref().unwrap();
    assert_eq!(
        (quote.id.as_str(), quote.state()),
        (sent.id.as_str(), pb::QuoteState::Withdrawn)
    );

    market
        .cancel_repair_request(with_token(
            pb::CancelRepairRequestRequest {
                id: request.id.clone(),
            },
            &customer_token,
        ))
        .await
        .unwrap();
    let cancelled = next(&mut stream).await;
    assert_eq!(
        request_of(&cancelled).state(),
        pb::RepairRequestState::Cancelled
    );
    let after = tokio::time::timeout(Duration::from_secs(10), stream.message())
        .await
        .expect("the stream ends in time")
        .unwrap();
    assert!(after.is_none(), "a final state ends the stream");
    server.stop().await;
}

#[tokio::test]
async fn the_hired_professional_sees_the_street_once_hired() {
    let (server, mut market, customer_token, request) = open_request(|_| {}).await;
    let (_, pro_token, sent) = quoted(&server, &mut market, &request).await;
    let mut stream = watch(&mut market, &pro_token, &request.id, 0)
        .await
        .unwrap();
    let before = next(&mut stream).await;
    assert!(matches!(
        request_of(&before).location,
        Some(pb::repair_request::Location::ApproximateLocation(_))
    ));
    hire(
        &billing(&server).await,
        &customer_token,
        &sent.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();
    // The hire writes the quote and the request: a change each, or one snapshot.
    let mut seen = next(&mut stream).await;
    while request_of(&seen).state() != pb::RepairRequestState::Hired {
        seen = next(&mut stream).await;
    }
    assert!(matches!(
        request_of(&seen).location,
        Some(pb::repair_request::Location::Address(_))
    ));
    server.stop().await;
}

#[tokio::test]
async fn a_change_made_while_the_listener_reconnects_still_arrives() {
    let (server, mut market, customer_token, request) = open_request(|_| {}).await;
    let mut stream = watch(&mut market, &customer_token, &request.id, 0)
        .await
        .unwrap();
    next(&mut stream).await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;

    // Cut this server's listening connection: it listens again after a second, and the
    // quote sent meanwhile is announced to nobody.
    let cut: Vec<bool> = sqlx::query_scalar(
        "select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query ilike 'listen%'",
    )
    .fetch_all(helpers::market::db(&server))
    .await
    .unwrap();
    assert_eq!(cut, vec![true], "one connection listens on every channel");
    let sent = quote(&mut market, &pro_token, &request.id).await;

    let fresh = next(&mut stream).await;
    assert_eq!(quote_ids(snapshot(&fresh)), vec![sent.id]);
    server.stop().await;
}
