//! Orders against the real server and Postgres: the read reviews rely on (a completed job
//! whose hire payment was captured), and the order lists.

use crate::helpers::{
    TestServer,
    market::{CALGARY_PRO, customer, db, in_calgary, market, order, place, professional},
    send_quote,
};
use repairs_server::store::orders;
use uuid::Uuid;

/// A customer's request quoted on by one plumber, and an order on that quote whose payment
/// is in `payment_state`; the request is in `request_state`.
async fn order_in(
    server: &TestServer,
    request_state: &str,
    payment_state: &str,
) -> (Uuid, Uuid, Uuid) {
    let mut market = market(server).await;
    let (customer_id, customer_token) = customer(server).await;
    let (pro_id, pro_token, _) = professional(server, CALGARY_PRO).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quote = send_quote(server, &pro_token, &request.id, 9_000).await;
    let request_id = Uuid::parse_str(&request.id).unwrap();
    order(
        server,
        &quote,
        customer_id,
        payment_state,
        request_state == "completed",
    )
    .await;
    sqlx::query("update repair_requests set state = $2 where id = $1")
        .bind(request_id)
        .bind(request_state)
        .execute(db(server))
        .await
        .unwrap();
    (request_id, customer_id, pro_id)
}

#[tokio::test]
async fn a_completed_captured_job_is_paid_and_names_its_parties() {
    let server = TestServer::start().await;
    let (request_id, customer_id, pro_id) = order_in(&server, "completed", "captured").await;
    let job = orders::paid_job(db(&server), request_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(job.repair_request_id, request_id);
    assert_eq!(job.customer_id, customer_id);
    assert_eq!(job.professional_id, pro_id);

    for (request_state, payment_state) in [
        ("hired", "authorized"),
        ("completed", "authorized"),
        ("completed", "refunded"),
    ] {
        let (request_id, _, _) = order_in(&server, request_state, payment_state).await;
        assert_eq!(
            orders::paid_job(db(&server), request_id).await.unwrap(),
            None,
            "{request_state} with a payment {payment_state}"
        );
    }
    assert_eq!(
        orders::paid_job(db(&server), Uuid::now_v7()).await.unwrap(),
        None
    );
    server.stop().await;
}
