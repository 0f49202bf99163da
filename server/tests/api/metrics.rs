//! `/metrics` on the server's HTTP listener, scraped after real calls: RPCs by method and
//! code with their latency, open streams, the delay of a request's notifications, the pool,
//! the outbox, lapsing holds, housekeeping passes, payment and webhook failures.

use std::time::Duration;

use repairs_proto::billing as bpb;
use repairs_server::domain::Role;
use repairs_server::testing::{scrape, scrape::metric as value, wait_until_outbox_idle};
use tonic::Code;
use uuid::Uuid;

use crate::helpers::TestServer;
use crate::helpers::market::{
    self, CALGARY_PRO, billing, customer, db, in_calgary, place, professional, test_charge,
};

const MARKET: &str = "repairs.marketplace.v1.MarketplaceService";

async fn scrape(server: &TestServer) -> String {
    scrape::scrape(&format!("http://{}/metrics", server.server.http_addr)).await
}

fn handled(text: &str, method: &str, code: &str) -> Option<f64> {
    value(
        text,
        "grpc_server_handled_total",
        &[
            ("grpc_service", MARKET),
            ("grpc_method", method),
            ("grpc_code", code),
        ],
    )
}

/// Scrapes until `check` holds, for up to 20 s (a stream's end reaches the server a little
/// later; the first housekeeping pass runs beside the first calls).
async fn eventually(server: &TestServer, check: impl Fn(&str) -> bool) -> String {
    for _ in 0..200 {
        let text = scrape(server).await;
        if check(&text) {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    scrape(server).await
}

#[tokio::test]
async fn rpcs_streams_and_notification_delays_are_counted() {
    let server = TestServer::start().await;
    let mut market = market::market(&server).await;
    let (_, customer_token) = customer(&server).await;
    professional(&server, CALGARY_PRO).await;
    let placed = place(&mut market, &customer_token, Uuid::new_v4(), in_calgary())
        .await
        .unwrap();
    for _ in 0..2 {
        market::get(&mut market, &customer_token, &placed.id)
            .await
            .unwrap();
    }
    let missing = market::get(&mut market, &customer_token, &Uuid::now_v7().to_string())
        .await
        .unwrap_err();
    assert_eq!(missing.code(), Code::NotFound);
    let anonymous = market::get(&mut market, "not-a-token", &placed.id)
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);

    let text = scrape(&server).await;
    assert_eq!(handled(&text, "CreateRepairRequest", "OK"), Some(1.0));
    assert_eq!(handled(&text, "GetRepairRequest", "OK"), Some(2.0));
    assert_eq!(handled(&text, "GetRepairRequest", "NOT_FOUND"), Some(1.0));
    assert_eq!(
        handled(&text, "GetRepairRequest", "UNAUTHENTICATED"),
        Some(1.0)
    );
    let timed = [
        ("grpc_service", MARKET),
        ("grpc_method", "GetRepairRequest"),
    ];
    assert_eq!(
        value(&text, "grpc_server_handling_seconds_count", &timed),
        Some(4.0)
    );
    let mut inf = timed.to_vec();
    inf.push(("le", "+Inf"));
    assert_eq!(
        value(&text, "grpc_server_handling_seconds_bucket", &inf),
        Some(4.0)
    );

    // An open stream is counted while it is open; a stream the client drops ends CANCELLED.
    let stream = market::watch(&mut market, &customer_token, &placed.id, 0)
        .await
        .unwrap();
    let open = [("stream", "WatchRepairRequest")];
    let text = eventually(&server, |text| {
        value(text, "repairs_open_streams", &open) == Some(1.0)
    })
    .await;
    assert_eq!(value(&text, "repairs_open_streams", &open), Some(1.0));
    drop(stream);
    // The status and the stream's slot are given back a moment apart.
    let text = eventually(&server, |text| {
        handled(text, "WatchRepairRequest", "CANCELLED") == Some(1.0)
            && value(text, "repairs_open_streams", &open) == Some(0.0)
    })
    .await;
    assert_eq!(value(&text, "repairs_open_streams", &open), Some(0.0));
    assert_eq!(handled(&text, "WatchRepairRequest", "CANCELLED"), Some(1.0));

    // The professional's email about the new request: from its placing to the provider.
    wait_until_outbox_idle(db(&server)).await;
    let text = scrape(&server).await;
    let email = [("channel", "email")];
    let sent = value(&text, "repairs_notification_delay_seconds_count", &email);
    assert_eq!(sent, Some(1.0), "{text}");
    let seconds = value(&text, "repairs_notification_delay_seconds_sum", &email).unwrap();
    assert!((0.0..30.0).contains(&seconds), "{seconds}");
    server.stop().await;
}

#[tokio::test]
async fn pool_outbox_holds_and_failures_are_reported() {
    let server = TestServer::start().await;
    let db = db(&server);
    // Refused: a declined card, and a webhook on a server without Stripe.
    let (_, admin) = server.account_token(Role::Admin).await;
    let billing = billing(&server).await;
    let declined = test_charge(&billing, &admin, "4000 0000 0000 0002", "")
        .await
        .unwrap_err();
    assert_eq!(declined.code(), Code::FailedPrecondition);
    billing
        .clone()
        .handle_stripe_event(bpb::HandleStripeEventRequest {
            payload: b"{}".to_vec(),
            signature: "t=1,v1=00".into(),
        })
        .await
        .unwrap_err();
    // One message waiting a minute (its next try far off), one parked.
    sqlx::query(
        "insert into outbox_messages (id, channel, recipient, body, state, created_at,
                                      next_attempt_at, finished_at)
         values ($1, 'email', 'a@example.ca', 'waiting', 'pending', now() - interval '60 s',
                 now() + interval '1 hour', null),
                ($2, 'sms', '+14035550100', 'parked', 'parked', now(), now(), now())",
    )
    .bind(Uuid::now_v7())
    .bind(Uuid::now_v7())
    .execute(db)
    .await
    .unwrap();
    // Hires' holds: one ends in two hours, one in five days, one ended an hour ago, written
    // once the pass made at start has finished (it would release the last; the next pass is
    // an hour away).
    let passes = |text: &str| {
        value(
            text,
            "repairs_housekeeping_passes_total",
            &[("outcome", "ok")],
        )
    };
    let first_pass = eventually(&server, |text| passes(text).is_some()).await;
    assert_eq!(passes(&first_pass), Some(1.0), "{first_pass}");
    let finished = value(
        &first_pass,
        "repairs_housekeeping_last_pass_timestamp_seconds",
        &[],
    )
    .unwrap();
    let since = chrono::Utc::now().timestamp_millis() as f64 / 1000.0 - finished;
    assert!((0.0..120.0).contains(&since), "{since}");
    for (hours, charge) in [(2, "pi_soon"), (120, "pi_later"), (-1, "pi_over")] {
        sqlx::query(
            "insert into payments (id, purpose, payer_id, amount_cents, subtotal_cents, currency,
                                   gateway, charge_id, state, authorization_expires_at)
             values ($1, 'hire', $2, 10000, 10000, 'CAD', 'test', $3, 'authorized',
                     now() + make_interval(hours => $4))",
        )
        .bind(Uuid::now_v7())
        .bind(Uuid::now_v7())
        .bind(charge)
        .bind(hours)
        .execute(db)
        .await
        .unwrap();
    }

    let text = scrape(&server).await;
    let failure = [("operation", "authorize"), ("reason", "declined")];
    assert_eq!(
        value(&text, "repairs_payment_failures_total", &failure),
        Some(1.0)
    );
    let webhook = [("provider", "stripe"), ("reason", "not_configured")];
    assert_eq!(
        value(&text, "repairs_webhook_failures_total", &webhook),
        Some(1.0)
    );
    let outbox = |state| value(&text, "repairs_outbox_messages", &[("state", state)]);
    assert_eq!(outbox("pending"), Some(1.0));
    assert_eq!(outbox("parked"), Some(1.0));
    let oldest = value(&text, "repairs_outbox_oldest_pending_seconds", &[]).unwrap();
    assert!((59.0..120.0).contains(&oldest), "{oldest}");
    let holds = |state| value(&text, "repairs_payment_holds", &[("state", state)]);
    assert_eq!(holds("lapsing"), Some(1.0));
    assert_eq!(holds("lapsed"), Some(1.0));
    let max = server.server.state.config.database_max_connections;
    assert_eq!(
        value(&text, "repairs_db_pool_max_connections", &[]),
        Some(f64::from(max))
    );
    let pool = |state| value(&text, "repairs_db_pool_connections", &[("state", state)]);
    let (in_use, idle) = (pool("in_use").unwrap(), pool("idle").unwrap());
    assert!(in_use + idle >= 1.0 && in_use + idle <= f64::from(max));
    // The refused calls are counted by code too.
    let test_charge = [
        ("grpc_service", "repairs.billing.v1.BillingService"),
        ("grpc_method", "CreateTestCharge"),
        ("grpc_code", "FAILED_PRECONDITION"),
    ];
    assert_eq!(
        value(&text, "grpc_server_handled_total", &test_charge),
        Some(1.0)
    );
    server.stop().await;
}

#[tokio::test]
async fn grpc_web_calls_are_counted_by_their_status_too() {
    let server = TestServer::start().await;
    let call = |path: String| {
        reqwest::Client::new()
            .post(format!("{}/{path}", server.url()))
            .header("content-type", "application/grpc-web+proto")
            .header("x-grpc-web", "1")
            // One empty message: a request with every field at its default.
            .body(vec![0u8; 5])
            .send()
    };
    // A public read answers OK in the body's trailer frame; a read that needs a token is
    // refused in the headers.
    let content = "repairs.content.v1.ContentService";
    let listed = call(format!("{content}/ListServices")).await.unwrap();
    assert_eq!(listed.status(), 200);
    listed.bytes().await.unwrap();
    let refused = call(format!("{MARKET}/GetRepairRequest")).await.unwrap();
    assert_eq!(refused.status(), 200);
    refused.bytes().await.unwrap();
    let text = scrape(&server).await;
    let ok = [
        ("grpc_service", content),
        ("grpc_method", "ListServices"),
        ("grpc_code", "OK"),
    ];
    assert_eq!(
        value(&text, "grpc_server_handled_total", &ok),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        handled(&text, "GetRepairRequest", "UNAUTHENTICATED"),
        Some(1.0),
        "{text}"
    );
    server.stop().await;
}
