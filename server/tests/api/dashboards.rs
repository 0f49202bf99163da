//! The dashboards against the real server and Postgres: the professional's counters
//! (requests they were told of, quoted, hired, completed) and latest requests behind the
//! membership gate, the customer's hired and completed counts, and who may read each.

use crate::helpers::{
    TestServer,
    market::{
        CALGARY_PRO, Market, VISA, billing, complete, customer, db, draft, hire, in_calgary,
        market, place, professional, quote,
    },
    reason, with_token,
};
use repairs_proto::marketplace::{self as pb, repair_request::Location};
use tonic::Code;
use uuid::Uuid;

async fn pro_dashboard(
    market: &mut Market,
    token: &str,
    professional: Uuid,
) -> Result<pb::GetProfessionalDashboardResponse, tonic::Status> {
    market
        .get_professional_dashboard(with_token(
            pb::GetProfessionalDashboardRequest {
                professional_id: professional.to_string(),
            },
            token,
        ))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn the_professional_dashboard_counts_told_quoted_hired_and_completed_requests() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (customer_id, customer_token) = customer(&server).await;
    let (pro, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let (other, other_token, _) = professional(&server, CALGARY_PRO).await;

    let mut placed = Vec::new();
    for _ in 0..4 {
        placed.push(
            place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
                .await
                .unwrap(),
        );
    }
    // Far away: matches neither professional.
    place(
        &mut market,
        &customer_token,
        Uuid::now_v7(),
        draft("H2X 1Y4", "Montréal", "QC"),
    )
    .await
    .unwrap();

    let fresh = pro_dashboard(&mut market, &pro_token, pro).await.unwrap();
    assert_eq!(
        (
            fresh.requests_received,
            fresh.requests_quoted,
            fresh.requests_hired,
            fresh.requests_completed
        ),
        (4, 0, 0, 0)
    );
    // The newest first, without the street.
    let latest: Vec<&str> = fresh
        .latest_repair_requests
        .iter()
        .map(|r| r.id.as_str())
        .collect();
    let newest_first: Vec<&str> = placed.iter().rev().map(|r| r.id.as_str()).collect();
    assert_eq!(latest, newest_first);
    assert!(fresh.latest_repair_requests.iter().all(|r| matches!(
        r.location,
        Some(Location::ApproximateLocation(_))
    ) && r.customer_id.is_empty()));

    // Quotes on three; one withdrawn; the other professional's quote is not theirs.
    let q0 = quote(&mut market, &pro_token, &placed[0].id).await;
    let q1 = quote(&mut market, &pro_token, &placed[1].id).await;
    let q2 = quote(&mut market, &pro_token, &placed[2].id).await;
    quote(&mut market, &other_token, &placed[3].id).await;
    market
        .withdraw_quote(with_token(
            pb::WithdrawQuoteRequest { id: q2.id },
            &pro_token,
        ))
        .await
        .unwrap();
    let billing = billing(&server).await;
    for hired in [&q0, &q1] {
        hire(&billing, &customer_token, &hired.id, VISA, Uuid::now_v7())
            .await
            .unwrap();
    }
    complete(&mut market, &customer_token, &placed[1].id)
        .await
        .unwrap();

    let after = pro_dashboard(&mut market, &pro_token, pro).await.unwrap();
    assert_eq!(
        (
            after.requests_received,
            after.requests_quoted,
            after.requests_hired,
            after.requests_completed
        ),
        (4, 2, 2, 1),
        "told of four, quoted on two (one withdrawn), hired on two, one done"
    );
    let theirs = pro_dashboard(&mut market, &other_token, other)
        .await
        .unwrap();
    assert_eq!(
        (theirs.requests_quoted, theirs.requests_hired),
        (1, 0),
        "nobody else's quotes count"
    );

    // The customer's side of the same jobs.
    let customer_counts = market
        .get_customer_dashboard(with_token(
            pb::GetCustomerDashboardRequest {
                customer_id: customer_id.to_string(),
            },
            &customer_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (
            customer_counts.requests_posted,
            customer_counts.quotes_received,
            customer_counts.professionals_hired,
            customer_counts.requests_completed
        ),
        (5, 3, 2, 1)
    );
    server.stop().await;
}

#[tokio::test]
async fn a_professional_counts_the_requests_they_were_told_of_not_every_open_one() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (_, customer_token) = customer(&server).await;
    // Placed before the professional joined: open and matching them now, never told.
    for _ in 0..3 {
        place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
            .await
            .unwrap();
    }
    let (pro, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let told = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let notified: Vec<Uuid> = sqlx::query_scalar(
        "select distinct repair_request_id from request_notifications where professional_id = $1",
    )
    .bind(pro)
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(notified, [Uuid::parse_str(&told.id).unwrap()]);

    let dashboard = pro_dashboard(&mut market, &pro_token, pro).await.unwrap();
    assert_eq!(dashboard.requests_received, 1, "told of one request");
    // The latest list still shows every open request that matches them.
    assert_eq!(dashboard.latest_repair_requests.len(), 4);
    assert_eq!(dashboard.latest_repair_requests[0].id, told.id);
    server.stop().await;
}

#[tokio::test]
async fn the_professional_dashboard_is_their_own_and_behind_the_membership_gate() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (pro, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let (_, other_token, _) = professional(&server, CALGARY_PRO).await;

    let someone_elses = pro_dashboard(&mut market, &other_token, pro)
        .await
        .unwrap_err();
    assert_eq!(someone_elses.code(), Code::PermissionDenied);

    let (_, customer_token) = customer(&server).await;
    let customer = pro_dashboard(&mut market, &customer_token, pro)
        .await
        .unwrap_err();
    assert_eq!(customer.code(), Code::PermissionDenied);

    sqlx::query(
        "update professionals set membership_expires_at = now() - interval '1 day' where id = $1",
    )
    .bind(pro)
    .execute(db(&server))
    .await
    .unwrap();
    let lapsed = pro_dashboard(&mut market, &pro_token, pro)
        .await
        .unwrap_err();
    assert_eq!(lapsed.code(), Code::FailedPrecondition);
    assert_eq!(reason(&lapsed), "MEMBERSHIP_INACTIVE");
    server.stop().await;
}
