//! The money path under races, bounded load and a crash, against the real server, Postgres
//! and Redis on the offline test gateway: one customer's burst of hires leaves everyone
//! else's reads alone; racing hires leave one hold and none unattached; a completion and a
//! cancel racing never end with a cancelled job whose money was taken; concurrent captures
//! and refunds are taken (and audited) once; a denied professional's quotes close and they
//! cannot be hired; a hire cut short is resumed, never held twice.

use std::time::{Duration, Instant};

use crate::helpers::{
    self, TestServer,
    market::{
        Billing, CALGARY_PRO, Market, VISA, billing, customer, db, hire, in_calgary, market, place,
        professional,
    },
    reason, send_quote, with_token,
};
use futures::future::join_all;
use repairs_proto::{
    accounts::{self as apb, accounts_service_client::AccountsServiceClient},
    billing as bpb, marketplace as pb,
};
use repairs_server::domain::Role;
use tonic::Code;
use uuid::Uuid;

/// A server whose customers may place many requests an hour (the races place one a round).
async fn server() -> TestServer {
    TestServer::start_with(|config| config.repair_requests_per_customer_per_hour = 1_000).await
}

/// A customer's open request and two plumbers' quotes on it.
struct Job {
    customer_token: String,
    request: pb::RepairRequest,
    quotes: [pb::Quote; 2],
}

async fn job(
    server: &TestServer,
    market: &mut Market,
    customer_token: &str,
    pros: &[String; 2],
) -> Job {
    let request = place(market, customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quotes = [
        send_quote(server, &pros[0], &request.id, 9_000).await,
        send_quote(server, &pros[1], &request.id, 12_000).await,
    ];
    Job {
        customer_token: customer_token.to_owned(),
        request,
        quotes,
    }
}

async fn two_pros(server: &TestServer) -> [String; 2] {
    let (_, first, _) = professional(server, CALGARY_PRO).await;
    let (_, second, _) = professional(server, CALGARY_PRO).await;
    [first, second]
}

/// A new customer's request with two quotes, the first hired by card: the customer's token,
/// the job and its order.
async fn hired_job(
    server: &TestServer,
    market: &mut Market,
    pros: &[String; 2],
) -> (String, Job, bpb::Order) {
    let (_, token) = customer(server).await;
    let job = job(server, market, &token, pros).await;
    let billing = billing(server).await;
    let order = hire(&billing, &token, &job.quotes[0].id, VISA, Uuid::now_v7())
        .await
        .unwrap();
    (token, job, order)
}

/// Hire payments by state, and those held that no order holds, for `customer`'s requests.
async fn holds(server: &TestServer, request_id: &str) -> (i64, i64) {
    let request_id = Uuid::parse_str(request_id).unwrap();
    let attached: i64 = sqlx::query_scalar(
        "select count(*) from payments p join orders o on o.payment_id = p.id
         where o.repair_request_id = $1 and p.state = 'authorized'",
    )
    .bind(request_id)
    .fetch_one(db(server))
    .await
    .unwrap();
    let unattached: i64 = sqlx::query_scalar(
        "select count(*) from payments p
         where p.purpose = 'hire' and p.state in ('authorized', 'requires_action')
           and not exists (select 1 from orders o where o.payment_id = p.id)",
    )
    .fetch_one(db(server))
    .await
    .unwrap();
    (attached, unattached)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

#[tokio::test]
async fn one_customer_s_burst_of_hires_leaves_another_customer_s_reads_unaffected() {
    let server = server().await;
    let mut market = market(&server).await;
    let pros = two_pros(&server).await;
    let (_, busy) = customer(&server).await;
    let job = job(&server, &mut market, &busy, &pros).await;
    let (_, other) = customer(&server).await;
    let theirs = place(&mut market, &other, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let billing = billing(&server).await;

    let hires = (0..24).map(|_| {
        tokio::spawn(hire(
            &billing,
            &busy,
            &job.quotes[0].id,
            VISA,
            Uuid::now_v7(),
        ))
    });
    let reads = tokio::spawn({
        let mut market = market.clone();
        let other = other.clone();
        let id = theirs.id.clone();
        async move {
            let mut took = Vec::new();
            let mut failed = Vec::new();
            for _ in 0..60 {
                let started = Instant::now();
                if let Err(status) = helpers::market::get(&mut market, &other, &id).await {
                    failed.push(status);
                }
                took.push(started.elapsed());
            }
            (took, failed)
        }
    });
    let answers: Vec<_> = join_all(hires)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let (mut took, failed) = reads.await.unwrap();

    assert!(
        failed.is_empty(),
        "another customer's reads failed: {failed:?}"
    );
    took.sort();
    let (p50, p99) = (percentile(&took, 0.5), percentile(&took, 0.99));
    println!("another customer's GetRepairRequest during 24 hires: p50 {p50:?}, p99 {p99:?}");
    assert!(p99 < Duration::from_millis(500), "p99 {p99:?}");
    for answer in &answers {
        if let Err(status) = answer {
            // Only "one of your hires is still running": never a lost database or INTERNAL.
            assert_eq!(
                (status.code(), reason(status).as_str()),
                (Code::Unavailable, "REQUEST_IN_PROGRESS"),
                "{status:?}"
            );
        }
    }
    assert!(answers.iter().any(Result::is_ok));
    assert_eq!(holds(&server, &job.request.id).await, (1, 0));
    server.stop().await;
}

#[tokio::test]
async fn of_twenty_racing_hires_one_hold_is_authorised_and_none_is_left_unattached() {
    let server = server().await;
    let mut market = market(&server).await;
    let pros = two_pros(&server).await;
    let billing = billing(&server).await;
    let mut won = 0;
    for round in 0..50 {
        let (_, token) = customer(&server).await;
        let job = job(&server, &mut market, &token, &pros).await;
        let hires = (0..20).map(|i| {
            let quote = &job.quotes[i % 2].id;
            tokio::spawn(hire(
                &billing,
                &job.customer_token,
                quote,
                VISA,
                Uuid::now_v7(),
            ))
        });
        let answers: Vec<_> = join_all(hires)
            .await
            .into_iter()
            .map(Result::unwrap)
            .collect();
        for status in answers.iter().filter_map(|a| a.as_ref().err()) {
            assert_ne!(status.code(), Code::Internal, "round {round}: {status:?}");
            assert_ne!(reason(status), "DATABASE_UNAVAILABLE", "round {round}");
        }
        let hired: Vec<_> = answers.iter().filter_map(|a| a.as_ref().ok()).collect();
        assert!(!hired.is_empty(), "round {round}: nobody hired");
        assert!(
            hired
                .iter()
                .all(|order| order.quote_id == hired[0].quote_id),
            "round {round}: two quotes hired"
        );
        assert_eq!(
            holds(&server, &job.request.id).await,
            (1, 0),
            "round {round}"
        );
        won += 1;
    }
    println!("50 rounds of 20 racing hires: {won} with one hold each, none unattached");
    server.stop().await;
}

async fn admin(server: &TestServer) -> String {
    server.account_token(Role::Admin).await.1
}

fn order_target(order: &bpb::Order) -> Option<bpb::PaymentTarget> {
    Some(bpb::PaymentTarget {
        target: Some(bpb::payment_target::Target::OrderId(order.id.clone())),
    })
}

/// An admin's step on an order's payment.
#[derive(Debug, Clone, Copy)]
enum AdminStep {
    Capture,
    Refund,
}

async fn admin_step(
    mut billing: Billing,
    admin: String,
    order: bpb::Order,
    step: AdminStep,
) -> Result<(), tonic::Status> {
    let (target, request_id) = (order_target(&order), Uuid::now_v7().to_string());
    match step {
        AdminStep::Capture => billing
            .capture_payment(with_token(
                bpb::CapturePaymentRequest { target, request_id },
                &admin,
            ))
            .await
            .map(drop),
        AdminStep::Refund => billing
            .refund_payment(with_token(
                bpb::RefundPaymentRequest {
                    target,
                    request_id,
                    reason: "the job was not done".into(),
                    amount: None,
                },
                &admin,
            ))
            .await
            .map(drop),
    }
}

/// Ten admins take `step` on the order at once: how many were answered OK, and the audit
/// outcomes of `action`. Every other answer is PAYMENT_STATE.
async fn ten_at_once(
    server: &TestServer,
    admin: &str,
    order: &bpb::Order,
    (step, action): (AdminStep, &str),
) -> (usize, Vec<String>) {
    let billing = billing(server).await;
    let steps = (0..10).map(|_| {
        let billing = billing.clone();
        tokio::spawn(admin_step(billing, admin.to_owned(), order.clone(), step))
    });
    let answers: Vec<_> = join_all(steps)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    for status in answers.iter().filter_map(|a| a.as_ref().err()) {
        assert_eq!(reason(status), "PAYMENT_STATE", "{status:?}");
    }
    let ok = answers.iter().filter(|a| a.is_ok()).count();
    (ok, audited(server, action).await)
}

async fn audited(server: &TestServer, action: &str) -> Vec<String> {
    sqlx::query_scalar("select outcome from audit_events where action = $1 order by created_at")
        .bind(action)
        .fetch_all(db(server))
        .await
        .unwrap()
}

#[tokio::test]
async fn ten_concurrent_captures_take_and_audit_one_capture_and_ten_refunds_one_refund() {
    let server = server().await;
    let mut market = market(&server).await;
    let pros = two_pros(&server).await;
    let (_, _, order) = hired_job(&server, &mut market, &pros).await;
    let admin = admin(&server).await;

    let capture = (AdminStep::Capture, "payment.capture");
    let (ok, captured) = ten_at_once(&server, &admin, &order, capture).await;
    println!("10 concurrent captures: {ok} OK; audit outcomes {captured:?}");
    assert_eq!(ok, 1);
    assert_eq!(captured.iter().filter(|o| *o == "succeeded").count(), 1);
    let refund = (AdminStep::Refund, "payment.refund");
    let (ok, refunded) = ten_at_once(&server, &admin, &order, refund).await;
    println!("10 concurrent refunds: {ok} OK; audit outcomes {refunded:?}");
    assert_eq!(ok, 1);
    assert_eq!(refunded.iter().filter(|o| *o == "succeeded").count(), 1);
    server.stop().await;
}

/// What the customer does to a hired job.
#[derive(Debug, Clone, Copy)]
enum Finish {
    Complete,
    Cancel,
}

async fn finish(
    mut market: Market,
    token: String,
    id: String,
    how: Finish,
) -> Result<(), tonic::Status> {
    match how {
        Finish::Complete => market
            .complete_repair_request(with_token(pb::CompleteRepairRequestRequest { id }, &token))
            .await
            .map(drop),
        Finish::Cancel => market
            .cancel_repair_request(with_token(pb::CancelRepairRequestRequest { id }, &token))
            .await
            .map(drop),
    }
}

/// The request's state and its hire payment's.
async fn job_states(server: &TestServer, request_id: &str) -> (String, String) {
    sqlx::query_as(
        "select r.state, p.state from repair_requests r
         join orders o on o.repair_request_id = r.id and o.closed_at is null
         join payments p on p.id = o.payment_id
         where r.id = $1",
    )
    .bind(Uuid::parse_str(request_id).unwrap())
    .fetch_one(db(server))
    .await
    .unwrap()
}

#[tokio::test]
async fn completions_and_cancels_racing_never_cancel_a_job_whose_money_was_taken() {
    let server = server().await;
    let mut market = market(&server).await;
    let pros = two_pros(&server).await;
    let mut outcomes = std::collections::BTreeMap::<(String, String), usize>::new();
    for round in 0..50 {
        let (token, job, _) = hired_job(&server, &mut market, &pros).await;
        let calls = (0..6).map(|i| {
            let (market, token, id) = (market.clone(), token.clone(), job.request.id.clone());
            let how = if i % 2 == 0 {
                Finish::Complete
            } else {
                Finish::Cancel
            };
            tokio::spawn(finish(market, token, id, how))
        });
        for answer in join_all(calls).await.into_iter().map(Result::unwrap) {
            if let Err(status) = answer {
                // Refused (the other won), or "yours is still running": nothing else.
                let refused = status.code() == Code::FailedPrecondition
                    || reason(&status) == "REQUEST_IN_PROGRESS";
                assert!(refused, "round {round}: {status:?}");
            }
        }
        let states = job_states(&server, &job.request.id).await;
        assert!(
            matches!(
                (states.0.as_str(), states.1.as_str()),
                ("completed", "captured") | ("cancelled", "canceled")
            ),
            "round {round}: {states:?}"
        );
        *outcomes.entry(states).or_default() += 1;
    }
    println!("50 complete/cancel races: {outcomes:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_cancel_after_the_money_was_taken_is_refused_and_the_job_stays_hired() {
    let server = server().await;
    let mut market = market(&server).await;
    let pros = two_pros(&server).await;
    let (token, job, order) = hired_job(&server, &mut market, &pros).await;
    let admin = admin(&server).await;
    admin_step(billing(&server).await, admin, order, AdminStep::Capture)
        .await
        .unwrap();

    let refused = finish(
        market.clone(),
        token,
        job.request.id.clone(),
        Finish::Cancel,
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "JOB_ALREADY_PAID");
    let states = job_states(&server, &job.request.id).await;
    assert_eq!(
        (states.0.as_str(), states.1.as_str()),
        ("hired", "captured")
    );
    server.stop().await;
}

#[tokio::test]
async fn a_denied_professional_s_quotes_close_their_customers_are_told_and_no_hire_takes_them() {
    let server = server().await;
    let mut market = market(&server).await;
    let pros = two_pros(&server).await;
    let (customer_id, token) = customer(&server).await;
    let job = job(&server, &mut market, &token, &pros).await;
    let denied_id = job.quotes[0].professional_id.clone();
    let mut accounts = AccountsServiceClient::new(server.channel().await);
    accounts
        .deny_professional(with_token(
            apb::DenyProfessionalRequest {
                id: denied_id.clone(),
                reason: "the licence could not be verified".into(),
            },
            &admin(&server).await,
        ))
        .await
        .unwrap();

    let quote_state: String = sqlx::query_scalar("select state from quotes where id = $1")
        .bind(Uuid::parse_str(&job.quotes[0].id).unwrap())
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(quote_state, "withdrawn");
    let email: String = sqlx::query_scalar("select email::text from customers where id = $1")
        .bind(customer_id)
        .fetch_one(db(&server))
        .await
        .unwrap();
    helpers::wait_for_message(server.data_dir(), "email.jsonl", &email, "withdrawn", 1).await;

    let refused = hire(
        &billing(&server).await,
        &token,
        &job.quotes[0].id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    let payments: i64 = sqlx::query_scalar("select count(*) from payments where purpose = 'hire'")
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(
        payments, 0,
        "no card was authorised for the denied professional"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_cancel_drops_the_notifications_no_worker_has_claimed_and_leaves_those_being_sent() {
    let server = server().await;
    let mut market = market(&server).await;
    two_pros(&server).await;
    let (_, token) = customer(&server).await;
    let request = place(&mut market, &token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    helpers::wait_until_outbox_idle(db(&server)).await;
    let told: Vec<Uuid> = sqlx::query_scalar(
        "select outbox_message_id from request_notifications where repair_request_id = $1
         order by professional_id",
    )
    .bind(Uuid::parse_str(&request.id).unwrap())
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(told.len(), 2);
    // One being sent by a worker right now (leased), one waiting for its next try.
    sqlx::query(
        "update outbox_messages set state = 'pending', finished_at = null,
            next_attempt_at = now() + interval '1 hour',
            leased_until = case when id = $1 then now() + interval '1 minute' end
         where id = any($2)",
    )
    .bind(told[0])
    .bind(&told)
    .execute(db(&server))
    .await
    .unwrap();

    finish(market.clone(), token, request.id.clone(), Finish::Cancel)
        .await
        .unwrap();
    // The sweep of messages past their use (every pass of a worker) leaves the one being
    // sent to its worker, which records how it ends.
    repairs_server::store::outbox::expire_stale(db(&server))
        .await
        .unwrap();
    let states: Vec<String> = sqlx::query_scalar(
        "select state from outbox_messages where id = any($1) order by id = $2 desc",
    )
    .bind(&told)
    .bind(told[0])
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(states, ["pending", "expired"]);
    server.stop().await;
}
