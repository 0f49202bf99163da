//! Retention on the running server, with the pass's clock moved forward: the photos and
//! messages of requests closed more than 24 months ago are erased in bounded batches (rows,
//! files and words), never those of a job whose card dispute is still open; sent emails and
//! texts leave the outbox after 30 days; the metrics count what went.

use chrono::{Months, Utc};
use repairs_proto::marketplace as mpb;
use repairs_server::{
    retention::{self, Erased},
    testing::{scrape, scrape::metric, wait_until_outbox_idle},
};
use uuid::Uuid;

use crate::{
    disputes::DISPUTE_CARD,
    helpers::{
        TestServer,
        market::{
            self, CALGARY_PRO, Market, cancel, customer, db, in_calgary, place, professional,
        },
        photo_files::stored_under,
        with_token,
    },
    payouts::{complete, hired_with},
};

/// A request of `customer` with a photo, the quote of `pro` and a message of each, cancelled.
async fn cancelled_with_photo_and_messages(
    server: &TestServer,
    market: &mut Market,
    customer: &str,
    pro: (Uuid, &str),
) -> Uuid {
    let texts = ["I can come at noon.", "Noon works."];
    let request = market::with_photo_quote_and_messages(server, market, customer, pro, texts).await;
    cancel(market, customer, &request.id).await.unwrap();
    Uuid::parse_str(&request.id).unwrap()
}

/// The words still readable in the messages of request `id`.
async fn words_left(server: &TestServer, id: Uuid) -> Vec<String> {
    sqlx::query_scalar(
        "select m.text from conversation_messages m
         join conversations c on c.id = m.conversation_id
         where c.repair_request_id = $1 and m.text <> '' order by m.sequence",
    )
    .bind(id)
    .fetch_all(db(server))
    .await
    .unwrap()
}

async fn photo_rows(server: &TestServer, id: Uuid) -> i64 {
    sqlx::query_scalar("select count(*) from repair_request_photos where repair_request_id = $1")
        .bind(id)
        .fetch_one(db(server))
        .await
        .unwrap()
}

#[tokio::test]
async fn closed_requests_lose_their_photos_and_messages_in_batches_after_their_time() {
    let server = TestServer::start().await;
    let state = &server.server.state;
    let mut market = market::market(&server).await;
    let (_, customer) = customer(&server).await;
    let (pro_id, pro, _) = professional(&server, CALGARY_PRO).await;
    let mut closed = Vec::new();
    for _ in 0..3 {
        closed.push(
            cancelled_with_photo_and_messages(&server, &mut market, &customer, (pro_id, &pro))
                .await,
        );
    }
    // A finished job whose card dispute is still open: its record is evidence.
    let mut disputed = hired_with(&server, 9_000, DISPUTE_CARD).await;
    let disputed_id = Uuid::parse_str(&disputed.request.id).unwrap();
    let evidence = "The water is coming through the ceiling light";
    let message = mpb::SendMessageRequest {
        repair_request_id: disputed.request.id.clone(),
        professional_id: disputed.pro_id.to_string(),
        text: evidence.into(),
        request_id: Uuid::now_v7().to_string(),
        photo_ids: Vec::new(),
    };
    let token = disputed.customer_token.clone();
    disputed
        .market
        .send_message(with_token(message, &token))
        .await
        .unwrap();
    complete(&mut disputed).await;
    assert_eq!(
        repairs_server::billing::disputes::apply_played(state)
            .await
            .unwrap(),
        1
    );
    for id in &closed {
        assert_eq!(photo_rows(&server, *id).await, 1);
        assert_eq!(
            stored_under(&server, &format!("repair-requests/{id}")).len(),
            2
        );
        assert_eq!(words_left(&server, *id).await.len(), 2);
    }

    // Within its 24 months nothing goes.
    let now = Utc::now();
    let in_23_months = now.checked_add_months(Months::new(23)).unwrap();
    let in_25_months = now.checked_add_months(Months::new(25)).unwrap();
    let batch = |at, size| retention::erase_requests_batch(state, at, size);
    assert_eq!(batch(in_23_months, 2).await.unwrap(), Erased::default());

    // Past them, two requests per batch, then the last, then none: the dispute holds its job.
    let first = batch(in_25_months, 2).await.unwrap();
    assert_eq!(
        (first.requests, first.request_photos, first.messages),
        (2, 2, 4)
    );
    let second = batch(in_25_months, 2).await.unwrap();
    assert_eq!(
        (second.requests, second.request_photos, second.messages),
        (1, 1, 2)
    );
    assert_eq!(batch(in_25_months, 2).await.unwrap(), Erased::default());
    for id in &closed {
        assert_eq!(photo_rows(&server, *id).await, 0);
        assert!(stored_under(&server, &format!("repair-requests/{id}")).is_empty());
        assert!(words_left(&server, *id).await.is_empty());
    }
    assert_eq!(words_left(&server, disputed_id).await, [evidence]);
    let state_of: Vec<String> =
        sqlx::query_scalar("select state from repair_requests where id = any($1) order by id")
            .bind(&closed)
            .fetch_all(db(&server))
            .await
            .unwrap();
    assert_eq!(state_of, ["cancelled"; 3], "the requests themselves stay");

    let text = scrape::scrape(&format!("http://{}/metrics", server.server.http_addr)).await;
    let erased = |kind| metric(&text, "repairs_retention_erased_total", &[("kind", kind)]);
    assert_eq!(erased("requests"), Some(3.0));
    assert_eq!(erased("request_photos"), Some(3.0));
    assert_eq!(erased("messages"), Some(6.0));
    server.stop().await;
}

#[tokio::test]
async fn sent_emails_and_texts_leave_the_outbox_after_30_days_in_batches() {
    let server = TestServer::start().await;
    let state = &server.server.state;
    let mut market = market::market(&server).await;
    let (_, customer) = customer(&server).await;
    professional(&server, CALGARY_PRO).await;
    for _ in 0..2 {
        place(&mut market, &customer, Uuid::now_v7(), in_calgary())
            .await
            .unwrap();
    }
    wait_until_outbox_idle(db(&server)).await;
    let finished = "select count(*) from outbox_messages where state in ('sent', 'expired')";
    let sent: i64 = sqlx::query_scalar(finished)
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert!(
        sent >= 2,
        "the professional was emailed of both requests: {sent}"
    );

    let now = Utc::now();
    let batch =
        |days, size| retention::erase_outbox_batch(state, now + chrono::Duration::days(days), size);
    assert_eq!(batch(29, 100).await.unwrap().outbox_messages, 0);
    let mut erased = Vec::new();
    loop {
        match batch(31, 1).await.unwrap().outbox_messages {
            0 => break,
            n => erased.push(n),
        }
    }
    assert_eq!(erased, vec![1; sent as usize], "one per batch of one");
    let left: i64 = sqlx::query_scalar(finished)
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(left, 0);
    server.stop().await;
}
