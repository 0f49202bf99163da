//! A request's reach against the real server, Postgres and Redis: how many professionals were
//! alerted of it and how many opened it, read by its customer (GetRepairRequest) and live
//! (WatchRepairRequest), a burst of announcements read once, and nobody else reading them.

use std::time::Duration;

use crate::helpers::{
    TestServer,
    market::{
        CALGARY_PRO, Market, customer, db, get, in_calgary, next_message as next, place,
        professional, silent_for, watch,
    },
    with_token,
};
use repairs_proto::marketplace::{self as pb, watch_repair_request_response::Event};
use tonic::{Code, Streaming};
use uuid::Uuid;

type Watch = Streaming<pb::WatchRepairRequestResponse>;

/// The reach `token` reads with request `id` (GetRepairRequest).
async fn reach_read_by(market: &mut Market, token: &str, id: &str) -> Option<(i32, i32)> {
    market
        .get_repair_request(with_token(
            pb::GetRepairRequestRequest { id: id.into() },
            token,
        ))
        .await
        .unwrap()
        .into_inner()
        .reach
        .map(|r| (r.professionals_alerted, r.professionals_opened))
}

/// Reads the customer's reach until it is `wanted` (opens are recorded beside the read).
async fn wait_for_reach(market: &mut Market, token: &str, id: &str, wanted: (i32, i32)) {
    let mut seen = None;
    for _ in 0..100 {
        seen = reach_read_by(market, token, id).await;
        if seen == Some(wanted) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the reach stayed {seen:?}, not {wanted:?}");
}

async fn silent_for_a_while(stream: &mut Watch) -> bool {
    silent_for(stream, Duration::from_millis(1500)).await
}

fn counts(reach: Option<&pb::RepairRequestReach>) -> Option<(i32, i32)> {
    reach.map(|r| (r.professionals_alerted, r.professionals_opened))
}

/// A server, `pros` Calgary plumbers, and a customer's request placed after them (so they are
/// all alerted): the server, a client, the customer's token, the pros' tokens, the request.
async fn alerted_request(
    pros: usize,
) -> (TestServer, Market, String, Vec<String>, pb::RepairRequest) {
    let server = TestServer::start().await;
    let mut market = crate::helpers::market::market(&server).await;
    let mut tokens = Vec::new();
    for _ in 0..pros {
        tokens.push(professional(&server, CALGARY_PRO).await.1);
    }
    let (_, customer_token) = customer(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    (server, market, customer_token, tokens, request)
}

#[tokio::test]
async fn the_customer_reads_who_was_alerted_and_each_professional_opens_once() {
    let (server, mut market, customer_token, pros, request) = alerted_request(2).await;
    let id = request.id.as_str();
    assert_eq!(
        reach_read_by(&mut market, &customer_token, id).await,
        Some((2, 0)),
        "both plumbers were alerted by the fan-out, nobody opened it yet"
    );

    // The customer's and an admin's reads are not opens.
    let (_, admin_token) = server
        .account_token(repairs_server::domain::Role::Admin)
        .await;
    assert_eq!(
        reach_read_by(&mut market, &admin_token, id).await,
        Some((2, 0))
    );
    get(&mut market, &customer_token, id).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        reach_read_by(&mut market, &customer_token, id).await,
        Some((2, 0))
    );

    // A professional reads the request twice: one open. They never see the counts.
    assert_eq!(reach_read_by(&mut market, &pros[0], id).await, None);
    assert_eq!(reach_read_by(&mut market, &pros[0], id).await, None);
    wait_for_reach(&mut market, &customer_token, id, (2, 1)).await;
    get(&mut market, &pros[1], id).await.unwrap();
    wait_for_reach(&mut market, &customer_token, id, (2, 2)).await;
    get(&mut market, &pros[0], id).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        reach_read_by(&mut market, &customer_token, id).await,
        Some((2, 2))
    );
    let stored: i64 =
        sqlx::query_scalar("select count(*) from request_opens where repair_request_id = $1")
            .bind(Uuid::parse_str(id).unwrap())
            .fetch_one(db(&server))
            .await
            .unwrap();
    assert_eq!(stored, 2);
    server.stop().await;
}

#[tokio::test]
async fn the_stream_brings_the_counts_first_then_each_change_once_after_a_burst() {
    let (server, mut market, customer_token, pros, request) = alerted_request(1).await;
    let id = request.id.as_str();
    let mut stream = watch(&mut market, &customer_token, id, 0).await.unwrap();
    let first = next(&mut stream).await;
    let Some(Event::Snapshot(snapshot)) = &first.event else {
        panic!("a snapshot first, got {first:?}");
    };
    assert_eq!(counts(snapshot.reach.as_ref()), Some((1, 0)));

    // Two hundred announcements of this request, then the professional opens it: the
    // watcher reads the counts a few times, not two hundred, and sends the one change.
    let (announced_before, checks_before) = server.server.state.request_reach.checks();
    for _ in 0..200 {
        sqlx::query("select pg_notify('repair_request_reach', $1)")
            .bind(id)
            .execute(db(&server))
            .await
            .unwrap();
    }
    get(&mut market, &pros[0], id).await.unwrap();
    let changed = next(&mut stream).await;
    assert_eq!(
        changed.revision, first.revision,
        "the request itself did not change"
    );
    let Some(Event::Reach(reach)) = &changed.event else {
        panic!("the reach, got {changed:?}");
    };
    assert_eq!(counts(Some(reach)), Some((1, 1)));
    assert!(
        silent_for_a_while(&mut stream).await,
        "nothing else changed"
    );
    let (announced, checks) = server.server.state.request_reach.checks();
    assert!(announced - announced_before >= 200, "{announced}");
    assert!(
        checks - checks_before <= 10,
        "a burst is read a few times, not {} times",
        checks - checks_before
    );
    drop(stream);

    // Resuming at the current revision: no snapshot, the counts come first.
    let mut resumed = watch(&mut market, &customer_token, id, first.revision)
        .await
        .unwrap();
    let again = next(&mut resumed).await;
    assert!(
        matches!(&again.event, Some(Event::Reach(r)) if counts(Some(r)) == Some((1, 1))),
        "{again:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn another_customer_and_professionals_never_get_the_counts() {
    let (server, mut market, _, pros, request) = alerted_request(2).await;
    let id = request.id.as_str();
    let (_, stranger_token) = customer(&server).await;
    let refused = market
        .get_repair_request(with_token(
            pb::GetRepairRequestRequest { id: id.into() },
            &stranger_token,
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    let refused = watch(&mut market, &stranger_token, id, 0)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);

    // A professional watching gets no counts, neither at first nor when another opens it.
    let mut theirs = watch(&mut market, &pros[0], id, 0).await.unwrap();
    let first = next(&mut theirs).await;
    let Some(Event::Snapshot(snapshot)) = &first.event else {
        panic!("a snapshot first, got {first:?}");
    };
    assert_eq!(snapshot.reach, None);
    get(&mut market, &pros[1], id).await.unwrap();
    assert!(silent_for_a_while(&mut theirs).await);
    drop(theirs);
    let mut resumed = watch(&mut market, &pros[0], id, first.revision)
        .await
        .unwrap();
    assert!(
        silent_for_a_while(&mut resumed).await,
        "no counts on a resume either"
    );
    server.stop().await;
}

#[tokio::test]
async fn many_reads_at_once_record_each_open_once_on_one_connection() {
    use futures::StreamExt;
    const PROS: usize = 8;
    const READS_EACH: usize = 30;
    let (server, mut market, customer_token, pros, request) = alerted_request(PROS).await;
    let id = request.id.as_str();
    let opens = &server.server.state.request_opens;
    let before = opens.statements_run();
    // 240 professional reads, 48 at a time.
    let reads = pros
        .iter()
        .flat_map(|token| std::iter::repeat_n(token, READS_EACH));
    let answered: Vec<_> = futures::stream::iter(reads)
        .map(|token| {
            let mut market = market.clone();
            async move { get(&mut market, token, id).await }
        })
        .buffer_unordered(48)
        .collect()
        .await;
    let refused: Vec<_> = answered.iter().filter_map(|a| a.as_ref().err()).collect();
    assert!(
        refused.is_empty(),
        "{} reads refused, the first: {:?}",
        refused.len(),
        refused.first()
    );
    wait_for_reach(&mut market, &customer_token, id, (PROS as i32, PROS as i32)).await;
    let statements = opens.statements_run() - before;
    println!(
        "{} reads, {statements} statements writing their opens",
        PROS * READS_EACH
    );
    assert!((1..=(PROS * READS_EACH) as u64).contains(&statements));
    server.stop().await;
}

#[tokio::test]
async fn waiting_opens_are_written_together_and_bounded() {
    use repairs_server::store::request_opens::{MAX_BATCH, MAX_WAITING, Open, OpenRecorder};
    let (server, _, _, _, request) = alerted_request(2).await;
    let request_id = Uuid::parse_str(&request.id).unwrap();
    let pros: Vec<Uuid> = sqlx::query_scalar("select id from professionals")
        .fetch_all(db(&server))
        .await
        .unwrap();
    assert_eq!(pros.len(), 2);
    let recorder = OpenRecorder::new(db(&server).clone());
    let stranger = |_| Open {
        repair_request_id: Uuid::now_v7(),
        professional_id: Uuid::now_v7(),
    };
    // Queued without a pause (this test's runtime has one thread, so the writer waits for
    // it): each real open a hundred times, and opens of requests that no longer exist.
    for _ in 0..100 {
        for &professional_id in &pros {
            recorder.record(Open {
                repair_request_id: request_id,
                professional_id,
            });
        }
    }
    for open in (0..MAX_BATCH * 2).map(stranger) {
        recorder.record(open);
    }
    let written = || async {
        sqlx::query_scalar::<_, i64>("select count(*) from request_opens")
            .fetch_one(db(&server))
            .await
            .unwrap()
    };
    for _ in 0..100 {
        if recorder.statements_run() == 3 && written().await == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        (recorder.statements_run(), written().await),
        (3, 2),
        "1,002 distinct opens in three statements; only the two of a request that exists stay"
    );

    // Beyond MAX_WAITING, opens are dropped: the statements stop at what MAX_WAITING takes.
    for open in (0..MAX_WAITING + 1_000).map(stranger) {
        recorder.record(open);
    }
    let wanted = 3 + (MAX_WAITING / MAX_BATCH) as u64;
    for _ in 0..200 {
        if recorder.statements_run() >= wanted {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(recorder.statements_run(), wanted);
    server.stop().await;
}
