//! The server as a client sees it: services listed by reflection, health, the access table
//! enforced before handlers, gRPC-web over HTTP/1.1,
//! the bootstrap admin, and the embedded Postgres of the default run.

use crate::helpers::{self, TestServer, with_token};
use repairs_proto::accounts::{
    ListCustomersRequest, accounts_service_client::AccountsServiceClient,
};
use repairs_server::domain::Role;
use tonic::Code;
use tonic_types::StatusExt;

#[tokio::test]
async fn reflection_lists_the_five_services_and_health_says_serving() {
    use tonic_reflection::pb::v1::{
        ServerReflectionRequest, server_reflection_client::ServerReflectionClient,
        server_reflection_request::MessageRequest, server_reflection_response::MessageResponse,
    };
    let server = TestServer::start().await;
    let channel = server.channel().await;

    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut replies = ServerReflectionClient::new(channel.clone())
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    let reply = replies.message().await.unwrap().unwrap();
    let Some(MessageResponse::ListServicesResponse(list)) = reply.message_response else {
        panic!("unexpected reflection reply: {reply:?}");
    };
    let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    for service in repairs_server::api::SERVICE_NAMES {
        assert!(
            names.contains(&service.to_owned()),
            "{service} missing from {names:?}"
        );
    }

    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    for service in repairs_server::api::SERVICE_NAMES {
        let reply = health
            .check(tonic_health::pb::HealthCheckRequest {
                service: service.to_owned(),
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(
            reply.status,
            tonic_health::pb::health_check_response::ServingStatus::Serving as i32
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn the_access_table_is_enforced_before_any_handler() {
    let server = TestServer::start().await;
    let mut accounts = AccountsServiceClient::new(server.channel().await);

    let status = accounts
        .list_customers(ListCustomersRequest::default())
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    assert_eq!(
        status.get_details_error_info().unwrap().reason,
        "SIGN_IN_REQUIRED"
    );

    let forged = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    let status = accounts
        .list_customers(with_token(ListCustomersRequest::default(), forged))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    assert_eq!(
        status.get_details_error_info().unwrap().reason,
        "SESSION_INVALID"
    );

    let (_, customer) = server.account_token(Role::Customer).await;
    let status = accounts
        .list_customers(with_token(ListCustomersRequest::default(), &customer))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    assert_eq!(
        status.get_details_error_info().unwrap().reason,
        "ROLE_NOT_ALLOWED"
    );

    let (_, admin) = server.account_token(Role::Admin).await;
    let listed = accounts
        .list_customers(with_token(ListCustomersRequest::default(), &admin))
        .await;
    assert!(listed.is_ok(), "an admin passes the table: {listed:?}");
    server.stop().await;
}

#[tokio::test]
async fn grpc_web_over_http1_reaches_the_services() {
    let server = TestServer::start().await;
    // An empty GetHomePageRequest framed for gRPC-web: flag 0, length 0.
    let response = reqwest::Client::new()
        .post(format!(
            "{}/repairs.content.v1.ContentService/GetHomePage",
            server.url()
        ))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .body(vec![0u8, 0, 0, 0, 0])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["x-request-id"].to_str().unwrap().len() >= 32);
    // A data frame (the page) and then the trailers frame (flag 0x80) saying OK.
    let body = response.bytes().await.unwrap();
    assert_eq!(body[0], 0, "a data frame first");
    let trailers = String::from_utf8_lossy(&body);
    assert!(trailers.contains("grpc-status:0"), "{trailers}");
    server.stop().await;
}

#[tokio::test]
async fn the_bootstrap_admin_is_created_once_with_an_argon2id_hash() {
    let database = helpers::TestDatabase::create().await;
    for _ in 0..2 {
        let data_dir = tempfile::tempdir().unwrap();
        let mut config = repairs_server::config::Config::for_tests(
            data_dir.path().to_path_buf(),
            database.url.clone(),
            None,
        );
        config.admin_email = Some("Boss@Example.ca".into());
        config.admin_password = Some("long enough".into());
        let server = repairs_server::start(config).await.unwrap();
        server.stop().await.unwrap();
    }
    let pool = sqlx::PgPool::connect(&database.url).await.unwrap();
    let rows: Vec<(String, String)> =
        sqlx::query_as("select email::text, password_hash from admins")
            .fetch_all(&pool)
            .await
            .unwrap();
    pool.close().await;
    database.drop_database().await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].0, "Boss@Example.ca");
    assert!(rows[0].1.starts_with("$argon2id$"));
}

#[tokio::test]
async fn the_embedded_default_runs_its_own_postgres_and_stops_it() {
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = repairs_server::config::Config::for_tests(
        data_dir.path().to_path_buf(),
        String::new(),
        None,
    );
    config.database_url = None;
    config.jwt_secret = None;
    let server = repairs_server::start(config).await.unwrap();
    let tables: (i64,) = sqlx::query_as(
        "select count(*) from information_schema.tables where table_name = 'admins'",
    )
    .fetch_one(&server.state.db)
    .await
    .unwrap();
    assert_eq!(tables.0, 1);
    assert!(data_dir.path().join("jwt-secret").exists());
    let pgdata = data_dir.path().join("postgres/data");
    server.stop().await.unwrap();
    assert!(
        !pgdata.join("postmaster.pid").exists(),
        "the cluster is still running"
    );
}
