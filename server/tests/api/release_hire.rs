//! When a hire goes wrong, through the RPCs on the real server, Postgres and Redis: the
//! hired professional says they can't come, or the customer (after the time they were given)
//! that nobody came; the request is open again with its other quotes and the customer hires
//! the next one without posting again. Who may release; a release and a completion, a
//! release and a hire, two releases: one outcome each; the third release in 30 days pauses
//! the professional and tells the admins; a release cut short is finished by housekeeping.

use crate::helpers::{
    TestServer, emails_to,
    market::{
        self, Billing, CALGARY_PRO, Market, VISA, billing, customer, db, hire, in_calgary, place,
        professional,
    },
    reason, send_quote, with_token,
};
use futures::future::join_all;
use repairs_proto::marketplace as pb;
use repairs_server::domain::Role;
use tonic::Code;
use uuid::Uuid;

/// A customer's hired request: the first plumber hired, the second's quote set aside.
struct Hired {
    server: TestServer,
    market: Market,
    billing: Billing,
    customer: String,
    request: pb::RepairRequest,
    pro: String,
    pro_email: String,
    quote: pb::Quote,
    other_pro: String,
    other_pro_email: String,
    other_quote: pb::Quote,
}

async fn hired_with(server: TestServer, pro: (Uuid, String, String)) -> Hired {
    let mut market = market::market(&server).await;
    let billing = billing(&server).await;
    let (_, customer) = customer(&server).await;
    let request = place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let (_, other_pro, other_pro_email) = professional(&server, CALGARY_PRO).await;
    let quote = send_quote(&server, &pro.1, &request.id, 9_000).await;
    let other_quote = send_quote(&server, &other_pro, &request.id, 12_000).await;
    hire(&billing, &customer, &quote.id, VISA, Uuid::now_v7())
        .await
        .unwrap();
    Hired {
        server,
        market,
        billing,
        customer,
        request,
        pro: pro.1,
        pro_email: pro.2,
        quote,
        other_pro,
        other_pro_email,
        other_quote,
    }
}

async fn hired() -> Hired {
    let server = TestServer::start().await;
    let pro = professional(&server, CALGARY_PRO).await;
    hired_with(server, pro).await
}

async fn release(
    market: &Market,
    token: &str,
    request_id: &str,
    key: Uuid,
) -> Result<pb::RepairRequest, tonic::Status> {
    market
        .clone()
        .release_hire(with_token(
            pb::ReleaseHireRequest {
                repair_request_id: request_id.into(),
                reason: "My van broke down on the highway".into(),
                request_id: key.to_string(),
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().repair_request.unwrap())
}

/// As if the hire of request `id` was made `hours` ago.
async fn hired_hours_ago(server: &TestServer, id: &str, hours: i32) {
    sqlx::query(
        "update orders set hired_at = hired_at - make_interval(hours => $2)
         where repair_request_id = $1 and closed_at is null",
    )
    .bind(Uuid::parse_str(id).unwrap())
    .bind(hours)
    .execute(db(server))
    .await
    .unwrap();
}

async fn quote_state(market: &mut Market, token: &str, id: &str) -> pb::Quote {
    market
        .get_quote(with_token(pb::GetQuoteRequest { id: id.into() }, token))
        .await
        .unwrap()
        .into_inner()
        .quote
        .unwrap()
}

/// The state of the hire payments of request `id`, oldest first.
async fn hire_payments(server: &TestServer, id: &str) -> Vec<String> {
    sqlx::query_scalar(
        "select p.state from orders o join payments p on p.id = o.payment_id
         where o.repair_request_id = $1 order by o.created_at",
    )
    .bind(Uuid::parse_str(id).unwrap())
    .fetch_all(db(server))
    .await
    .unwrap()
}

#[tokio::test]
async fn a_professional_who_cannot_come_sends_the_customer_back_to_the_other_quotes() {
    let mut job = hired().await;
    let reopened = release(&job.market, &job.pro, &job.request.id, Uuid::now_v7())
        .await
        .unwrap();
    assert_eq!(reopened.state(), pb::RepairRequestState::Open);
    assert!(reopened.hired_professional_id.is_empty());
    assert!(reopened.contacts.is_none());
    // No longer hired, the professional reads it approximately, as anyone who quoted.
    assert!(matches!(
        reopened.location,
        Some(pb::repair_request::Location::ApproximateLocation(_))
    ));
    assert!(reopened.customer_id.is_empty());

    let released = quote_state(&mut job.market, &job.customer, &job.quote.id).await;
    assert_eq!(released.state(), pb::QuoteState::Released);
    assert!(released.release_time.is_some());
    let other = quote_state(&mut job.market, &job.customer, &job.other_quote.id).await;
    assert_eq!(other.state(), pb::QuoteState::Submitted);
    assert_eq!(
        hire_payments(&job.server, &job.request.id).await,
        ["canceled"]
    );

    // Told: the customer in the professional's words, the other plumber that their quote
    // is live again.
    let customer_email: String = sqlx::query_scalar(
        "select email::text from customers c join repair_requests r on r.customer_id = c.id
         where r.id = $1",
    )
    .bind(Uuid::parse_str(&job.request.id).unwrap())
    .fetch_one(db(&job.server))
    .await
    .unwrap();
    let told = emails_to(db(&job.server), &customer_email, "").await;
    let (subject, body) = told.last().unwrap();
    assert!(subject.contains("can't make it"), "{subject}");
    assert!(body.contains("My van broke down on the highway"), "{body}");
    assert!(body.contains("nothing was charged"), "{body}");
    let live_again = emails_to(
        db(&job.server),
        &job.other_pro_email,
        "Your quote is live again",
    )
    .await;
    assert_eq!(live_again.len(), 1);

    // The customer hires the next quote at once, without posting again.
    let order = hire(
        &job.billing,
        &job.customer,
        &job.other_quote.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();
    assert_eq!(order.quote_id, job.other_quote.id);
    let now = market::get(&mut job.market, &job.customer, &job.request.id)
        .await
        .unwrap();
    assert_eq!(now.state(), pb::RepairRequestState::Hired);
    assert_eq!(
        hire_payments(&job.server, &job.request.id).await,
        ["canceled", "authorized"]
    );

    job.server.stop().await;
}

#[tokio::test]
async fn a_released_professional_cannot_quote_again_on_the_reopened_request() {
    let mut job = hired().await;
    release(&job.market, &job.pro, &job.request.id, Uuid::now_v7())
        .await
        .unwrap();
    let again = job
        .market
        .create_quote(with_token(
            pb::CreateQuoteRequest {
                repair_request_id: job.request.id.clone(),
                estimated_minutes: 60,
                fee: Some(repairs_proto::types::Money {
                    amount_cents: 8_000,
                    currency: "CAD".into(),
                }),
                surge: false,
                add_taxes: None,
                arrival_minutes: Some(45),
            },
            &job.pro,
        ))
        .await
        .unwrap_err();
    assert_eq!(reason(&again), "QUOTE_RELEASED", "{again:?}");
    job.server.stop().await;
}

#[tokio::test]
async fn the_customer_may_say_nobody_came_only_after_the_time_they_were_given() {
    let mut job = hired().await;
    let seen = market::get(&mut job.market, &job.customer, &job.request.id)
        .await
        .unwrap();
    let (hired_at, from) = (seen.hire_time.unwrap(), seen.customer_release_time.unwrap());
    assert_eq!(from.seconds - hired_at.seconds, 2 * 3600);

    let early = release(&job.market, &job.customer, &job.request.id, Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(early.code(), Code::FailedPrecondition);
    assert_eq!(reason(&early), "RELEASE_TOO_EARLY");
    assert!(early.message().contains("two hours"), "{}", early.message());

    hired_hours_ago(&job.server, &job.request.id, 3).await;
    let key = Uuid::now_v7();
    let reopened = release(&job.market, &job.customer, &job.request.id, key)
        .await
        .unwrap();
    assert_eq!(reopened.state(), pb::RepairRequestState::Open);
    assert!(reopened.customer_release_time.is_none());
    // A retry under the same key answers the request as it is.
    let retried = release(&job.market, &job.customer, &job.request.id, key)
        .await
        .unwrap();
    assert_eq!(retried.state(), pb::RepairRequestState::Open);
    let told = emails_to(db(&job.server), &job.pro_email, "Job released").await;
    assert_eq!(told.len(), 1);
    assert!(
        !told[0].1.contains("My van"),
        "the customer's words stay with the admins"
    );
    job.server.stop().await;
}

#[tokio::test]
async fn only_the_customer_and_the_hired_professional_may_release() {
    let job = hired().await;
    let (_, stranger) = customer(&job.server).await;
    let refused = release(&job.market, &stranger, &job.request.id, Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    let refused = release(&job.market, &job.other_pro, &job.request.id, Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    let (_, admin) = job.server.account_token(Role::Admin).await;
    let refused = release(&job.market, &admin, &job.request.id, Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    // Nothing moved.
    assert_eq!(
        hire_payments(&job.server, &job.request.id).await,
        ["authorized"]
    );
    job.server.stop().await;
}

#[tokio::test]
async fn a_completed_job_cannot_be_released_and_a_released_one_cannot_be_completed() {
    let mut job = hired().await;
    market::complete(&mut job.market, &job.customer, &job.request.id)
        .await
        .unwrap();
    let refused = release(&job.market, &job.pro, &job.request.id, Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "REPAIR_REQUEST_NOT_HIRED");

    let mut job = hired().await;
    release(&job.market, &job.pro, &job.request.id, Uuid::now_v7())
        .await
        .unwrap();
    let refused = market::complete(&mut job.market, &job.customer, &job.request.id)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    job.server.stop().await;
}

/// Outcomes of racing calls: how many succeeded.
fn successes<T>(answers: &[Result<T, tonic::Status>]) -> usize {
    answers.iter().filter(|answer| answer.is_ok()).count()
}

#[tokio::test]
async fn a_release_racing_a_completion_leaves_one_outcome() {
    for _ in 0..4 {
        let job = hired().await;
        let mut market = job.market.clone();
        let (customer, request_id) = (job.customer.clone(), job.request.id.clone());
        let completion =
            tokio::spawn(
                async move { market::complete(&mut market, &customer, &request_id).await },
            );
        let released = release(&job.market, &job.pro, &job.request.id, Uuid::now_v7()).await;
        let completed = completion.await.unwrap();
        assert_eq!(
            successes(&[completed.clone().map(drop), released.clone().map(drop)]),
            1,
            "{completed:?} / {released:?}"
        );
        let payments = hire_payments(&job.server, &job.request.id).await;
        let state: String = sqlx::query_scalar("select state from repair_requests where id = $1")
            .bind(Uuid::parse_str(&job.request.id).unwrap())
            .fetch_one(db(&job.server))
            .await
            .unwrap();
        match completed {
            Ok(_) => assert_eq!(
                (state.as_str(), payments),
                ("completed", vec!["captured".into()])
            ),
            Err(_) => assert_eq!(
                (state.as_str(), payments),
                ("open", vec!["canceled".into()])
            ),
        }
        job.server.stop().await;
    }
}

#[tokio::test]
async fn two_releases_and_a_release_racing_a_hire_leave_one_outcome() {
    let job = hired().await;
    hired_hours_ago(&job.server, &job.request.id, 3).await;
    let racing = [
        release(&job.market, &job.pro, &job.request.id, Uuid::now_v7()),
        release(&job.market, &job.customer, &job.request.id, Uuid::now_v7()),
    ];
    let answers = join_all(racing).await;
    assert_eq!(successes(&answers), 1, "{answers:?}");
    let refused = answers.iter().find_map(|a| a.as_ref().err()).unwrap();
    assert!(
        matches!(refused.code(), Code::FailedPrecondition | Code::Unavailable),
        "{refused:?}"
    );
    let releases: i64 = sqlx::query_scalar("select count(*) from hire_releases")
        .fetch_one(db(&job.server))
        .await
        .unwrap();
    assert_eq!(releases, 1);
    job.server.stop().await;

    // The customer hires the other quote while the professional releases: the hire waits
    // for the request to reopen or is refused; never two holds.
    for _ in 0..4 {
        let job = hired().await;
        let hiring = hire(
            &job.billing,
            &job.customer,
            &job.other_quote.id,
            VISA,
            Uuid::now_v7(),
        );
        let hiring = tokio::spawn(hiring);
        let released = release(&job.market, &job.pro, &job.request.id, Uuid::now_v7()).await;
        let hired_other = hiring.await.unwrap();
        assert!(released.is_ok(), "{released:?}");
        if let Err(refused) = &hired_other {
            assert_eq!(reason(refused), "REPAIR_REQUEST_NOT_OPEN", "{refused:?}");
        }
        let held: i64 = sqlx::query_scalar(
            "select count(*) from orders o join payments p on p.id = o.payment_id
             where o.repair_request_id = $1 and p.state = 'authorized'",
        )
        .bind(Uuid::parse_str(&job.request.id).unwrap())
        .fetch_one(db(&job.server))
        .await
        .unwrap();
        assert_eq!(held, i64::from(hired_other.is_ok()));
        job.server.stop().await;
    }
}

#[tokio::test]
async fn a_third_released_hire_in_thirty_days_pauses_the_professional_and_tells_the_admins() {
    let server = TestServer::start_with(|config| {
        config.repair_requests_per_customer_per_hour = 1_000;
    })
    .await;
    let (admin_id, _) = server.account_token(Role::Admin).await;
    let admin_email: String = sqlx::query_scalar("select email::text from admins where id = $1")
        .bind(admin_id)
        .fetch_one(db(&server))
        .await
        .unwrap();
    let pro = professional(&server, CALGARY_PRO).await;
    let pro_id = pro.0;
    let mut job = hired_with(server, pro.clone()).await;
    for round in 1..=3 {
        if round > 1 {
            let next = hired_with_same(&job, &pro).await;
            job.request = next;
        }
        release(&job.market, &job.pro, &job.request.id, Uuid::now_v7())
            .await
            .unwrap();
        let paused: Option<chrono::DateTime<chrono::Utc>> =
            sqlx::query_scalar("select paused_until from professionals where id = $1")
                .bind(pro_id)
                .fetch_one(db(&job.server))
                .await
                .unwrap();
        match round {
            1 | 2 => assert!(paused.is_none(), "paused after {round}"),
            _ => {
                let days = (paused.unwrap() - chrono::Utc::now()).num_hours();
                assert!((167..=168).contains(&days), "{days} hours");
            }
        }
    }
    let admins = emails_to(
        db(&job.server),
        &admin_email,
        "Paused after 3 released jobs",
    )
    .await;
    assert_eq!(admins.len(), 1);
    let told = emails_to(
        db(&job.server),
        &job.pro_email,
        "Your request alerts are paused",
    )
    .await;
    assert_eq!(told.len(), 1);
    assert!(!told[0].1.to_lowercase().contains("fault"), "{}", told[0].1);
    job.server.stop().await;
}

/// Another request of `job`'s customer, quoted by `pro` and hired: its id.
async fn hired_with_same(job: &Hired, pro: &(Uuid, String, String)) -> pb::RepairRequest {
    let mut market = job.market.clone();
    let request = place(&mut market, &job.customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quote = send_quote(&job.server, &pro.1, &request.id, 9_000).await;
    hire(&job.billing, &job.customer, &quote.id, VISA, Uuid::now_v7())
        .await
        .unwrap();
    request
}

#[tokio::test]
async fn a_release_cut_short_is_finished_by_the_housekeeping_pass() {
    let job = hired().await;
    // As a killed process leaves it: the release written, the hold and the request not yet
    // touched.
    sqlx::query(
        "insert into hire_releases (id, order_id, repair_request_id, quote_id, professional_id,
            released_by, actor_id, request_id, reason, started_at)
         select gen_random_uuid(), o.id, o.repair_request_id, o.quote_id, o.professional_id,
            'professional', o.professional_id, gen_random_uuid(), 'van broke down',
            now() - interval '10 minutes'
         from orders o where o.repair_request_id = $1 and o.closed_at is null",
    )
    .bind(Uuid::parse_str(&job.request.id).unwrap())
    .execute(db(&job.server))
    .await
    .unwrap();
    let finished = repairs_server::hiring::release::finish_unfinished(
        &job.server.server.state,
        chrono::Utc::now(),
    )
    .await
    .unwrap();
    assert_eq!(finished.releases, 1);
    assert_eq!(
        hire_payments(&job.server, &job.request.id).await,
        ["canceled"]
    );
    let state: String = sqlx::query_scalar("select state from repair_requests where id = $1")
        .bind(Uuid::parse_str(&job.request.id).unwrap())
        .fetch_one(db(&job.server))
        .await
        .unwrap();
    assert_eq!(state, "open");
    job.server.stop().await;
}
