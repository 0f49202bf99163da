//! Orders against the real server and Postgres: the read reviews rely on (a completed job
//! whose hire payment was captured), and the order lists.

use crate::helpers::{
    TestServer,
    market::{CALGARY_PRO, Stage, customer, db, job_at, professional},
};
use repairs_server::store::orders;
use uuid::Uuid;

/// A customer's request quoted on by one plumber, hired and taken to `stage`: the request's,
/// the customer's and the professional's ids.
async fn order_in(server: &TestServer, stage: Stage) -> (Uuid, Uuid, Uuid) {
    let (customer_id, customer_token) = customer(server).await;
    let (pro_id, pro_token, _) = professional(server, CALGARY_PRO).await;
    let (request, _) = job_at(server, &customer_token, &pro_token, stage).await;
    (Uuid::parse_str(&request.id).unwrap(), customer_id, pro_id)
}

#[tokio::test]
async fn a_completed_captured_job_is_paid_and_names_its_parties() {
    let server = TestServer::start().await;
    let (request_id, customer_id, pro_id) = order_in(&server, Stage::Completed).await;
    let job = orders::paid_job(db(&server), request_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(job.repair_request_id, request_id);
    assert_eq!(job.customer_id, customer_id);
    assert_eq!(job.professional_id, pro_id);

    for stage in [Stage::Hired, Stage::CompletedUncaptured, Stage::Refunded] {
        let (request_id, _, _) = order_in(&server, stage).await;
        assert_eq!(
            orders::paid_job(db(&server), request_id).await.unwrap(),
            None,
            "{stage:?}"
        );
    }
    assert_eq!(
        orders::paid_job(db(&server), Uuid::now_v7()).await.unwrap(),
        None
    );
    server.stop().await;
}
