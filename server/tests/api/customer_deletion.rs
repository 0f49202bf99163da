//! An admin deletes a customer: the person is removed (anonymised) while the records others
//! rely on stay whole: the professional still sees the order and the review, the books keep
//! the payment. Open requests are cancelled and their quoting professionals told; the email
//! may sign up again.

use crate::helpers::{
    AccountsClient, TEST_PASSWORD, TestServer, admin_token, log_in,
    market::{self, CALGARY_PRO, db, in_calgary},
    sign_up, wait_for_message, with_token,
};
use repairs_proto::{
    accounts as pb,
    billing::{self as bill, billing_service_client::BillingServiceClient},
    marketplace as mp,
};
use tonic::Code;
use uuid::Uuid;

const NAME: &str = "Zoë Quelqu'un";
const PHONE: &str = "+14035550100";

async fn delete(server: &TestServer, admin: &str, id: Uuid) -> Result<(), tonic::Status> {
    AccountsClient::new(server.channel().await)
        .delete_customer(with_token(
            pb::DeleteCustomerRequest { id: id.to_string() },
            admin,
        ))
        .await
        .map(drop)
}

#[tokio::test]
async fn a_deleted_customer_leaves_the_professionals_records_whole_and_no_personal_data() {
    let server = TestServer::start().await;
    let mut market = market::market(&server).await;
    let (customer, customer_token) = market::customer(&server).await;
    let email: String =
        sqlx::query_scalar("update customers set name = $2 where id = $1 returning email::text")
            .bind(customer)
            .bind(NAME)
            .fetch_one(db(&server))
            .await
            .unwrap();
    let (pro, pro_token, pro_email) = market::professional(&server, CALGARY_PRO).await;

    // A finished job with its captured payment and review...
    let (done, _) = market::job_at(
        &server,
        &customer_token,
        &pro_token,
        market::Stage::Completed,
    )
    .await;
    market
        .create_review(with_token(
            mp::CreateReviewRequest {
                repair_request_id: done.id.clone(),
                rating: 5,
                text: "Quick and tidy".into(),
            },
            &customer_token,
        ))
        .await
        .unwrap();
    // ... and an open request the professional quoted on.
    let open = market::place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    market::quote(&mut market, &pro_token, &open.id).await;

    let admin = admin_token(&server, &mut AccountsClient::new(server.channel().await)).await;
    delete(&server, &admin, customer).await.unwrap();

    // The professional keeps the order and the review, under a name that is nobody's.
    let orders = BillingServiceClient::new(server.channel().await)
        .list_orders(with_token(
            bill::ListOrdersRequest {
                party: Some(bill::list_orders_request::Party::ProfessionalId(
                    pro.to_string(),
                )),
                ..Default::default()
            },
            &pro_token,
        ))
        .await
        .unwrap()
        .into_inner()
        .orders;
    assert_eq!(orders.len(), 1);
    assert_eq!(orders[0].repair_request_id, done.id);
    assert_eq!(orders[0].customer_name, "Deleted customer");
    assert!(orders[0].customer_deleted);
    let reviews = market
        .list_professional_reviews(mp::ListProfessionalReviewsRequest {
            professional_id: pro.to_string(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .reviews;
    assert_eq!(reviews.len(), 1);
    assert_eq!(reviews[0].text, "Quick and tidy");
    assert!(reviews[0].customer_deleted);

    // The open request is cancelled and the professional who quoted is told.
    let state: String = sqlx::query_scalar("select state from repair_requests where id = $1::uuid")
        .bind(&open.id)
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(state, "cancelled");
    wait_for_message(server.data_dir(), "email.jsonl", &pro_email, "", 1).await;

    // The customer's sessions are over.
    let refused = market
        .list_customer_repair_requests(with_token(
            mp::ListCustomerRepairRequestsRequest {
                customer_id: customer.to_string(),
                ..Default::default()
            },
            &customer_token,
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);

    // Nothing left that names the person: search every text column of every table.
    let tables: Vec<(String, String)> = sqlx::query_as(
        "select table_name::text, column_name::text from information_schema.columns
         where table_schema = 'public' and data_type in ('text', 'USER-DEFINED', 'jsonb')",
    )
    .fetch_all(db(&server))
    .await
    .unwrap();
    let street = market::STREET;
    for (table, column) in tables {
        for needle in [NAME, email.as_str(), PHONE, street, "T2P 1J9"] {
            let found: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                "select count(*) from {table} where position(lower($1) in lower({column}::text)) > 0"
            )))
            .bind(needle)
            .fetch_one(db(&server))
            .await
            .unwrap();
            assert_eq!(found, 0, "{table}.{column} still holds {needle:?}");
        }
    }
    let audit: String = sqlx::query_scalar(
        "select after_json::text from audit_events where action = 'customer.delete'",
    )
    .fetch_one(db(&server))
    .await
    .unwrap();
    assert!(
        audit.contains(&open.id),
        "the cancelled request is in the log: {audit}"
    );

    // Deleted once: a second deletion finds nobody.
    let again = delete(&server, &admin, customer).await.unwrap_err();
    assert_eq!(again.code(), Code::NotFound);
    server.stop().await;
}

#[tokio::test]
async fn the_email_of_a_deleted_customer_can_sign_up_again() {
    let server = TestServer::start().await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let first = sign_up(&mut accounts, pb::Role::Customer, "Ana@Example.ca").await;
    let admin = admin_token(&server, &mut accounts).await;
    delete(&server, &admin, first.id.parse().unwrap())
        .await
        .unwrap();

    let gone = log_in(
        &mut accounts,
        pb::Role::Customer,
        "ana@example.ca",
        TEST_PASSWORD,
    )
    .await
    .unwrap_err();
    assert_eq!(gone.code(), Code::Unauthenticated);
    let second = sign_up(&mut accounts, pb::Role::Customer, "ana@example.ca").await;
    assert_ne!(second.id, first.id);
    log_in(
        &mut accounts,
        pb::Role::Customer,
        "ana@example.ca",
        TEST_PASSWORD,
    )
    .await
    .unwrap();

    // Admins no longer find the deleted account.
    let listed = accounts
        .list_customers(with_token(pb::ListCustomersRequest::default(), &admin))
        .await
        .unwrap()
        .into_inner()
        .customers;
    let ids: Vec<&str> = listed.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, [second.id.as_str()]);
    let read = accounts
        .get_customer(with_token(
            pb::GetCustomerRequest {
                id: first.id.clone(),
            },
            &admin,
        ))
        .await
        .unwrap_err();
    assert_eq!(read.code(), Code::NotFound);
    server.stop().await;
}
