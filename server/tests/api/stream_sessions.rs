//! Live streams end with the session that opened them: a WatchRepairRequest,
//! WatchOpenRequests or WatchConversation stream ends UNAUTHENTICATED / SESSION_REVOKED within seconds of a
//! password reset or an admin's denial, SESSION_EXPIRED at its token's expiry, and a
//! professional's open requests stop with their membership; nothing is delivered after.

use std::time::{Duration, Instant, SystemTime};

use crate::helpers::{
    AccountsClient, TestServer,
    market::{CALGARY_PRO, customer, db, in_calgary, market, place, professional, quote, watch},
    reason, reset_password, with_token,
};
use repairs_proto::{
    accounts as accounts_pb,
    matching::{self as matching_pb, matching_service_client::MatchingServiceClient},
};
use repairs_server::{auth::Caller, domain::Role};
use tonic::{Code, Status, Streaming};
use uuid::Uuid;

/// How long an ended session may keep a stream going.
const ENDS_WITHIN: Duration = Duration::from_secs(5);

/// A customer's email in the marketplace test world (`helpers::market::customer`).
fn customer_email(id: Uuid) -> String {
    format!("{}@example.ca", id.simple())
}

/// What a stream delivered until it ended, and the status it ended with: fails the test
/// when it is still open after `within`.
async fn until_ended<T: std::fmt::Debug>(
    stream: &mut Streaming<T>,
    within: Duration,
) -> (Vec<T>, Status) {
    let deadline = tokio::time::Instant::now() + within;
    let mut delivered = Vec::new();
    loop {
        match tokio::time::timeout_at(deadline, stream.message()).await {
            Err(_) => panic!("the stream is still open after {within:?}"),
            Ok(Ok(Some(message))) => delivered.push(message),
            Ok(Ok(None)) => panic!("the stream ended without a status"),
            Ok(Err(status)) => {
                let after = tokio::time::timeout(Duration::from_secs(1), stream.message()).await;
                assert!(
                    matches!(after, Ok(Ok(None))),
                    "nothing follows the status: {after:?}"
                );
                return (delivered, status);
            }
        }
    }
}

fn assert_status(status: &Status, code: Code, expected_reason: &str) {
    assert_eq!(
        (status.code(), reason(status).as_str()),
        (code, expected_reason),
        "{status:?}"
    );
}

/// A professional's open-requests stream, its first message (the snapshot) read.
async fn open_requests(
    server: &TestServer,
    professional_id: Uuid,
    token: &str,
) -> Streaming<matching_pb::WatchOpenRequestsResponse> {
    let mut stream = MatchingServiceClient::new(server.channel().await)
        .watch_open_requests(with_token(
            matching_pb::WatchOpenRequestsRequest {
                professional_id: professional_id.to_string(),
                page_size: 0,
            },
            token,
        ))
        .await
        .unwrap()
        .into_inner();
    let first = tokio::time::timeout(ENDS_WITHIN, stream.message())
        .await
        .unwrap()
        .unwrap()
        .expect("the snapshot");
    assert!(first.snapshot.is_some(), "{first:?}");
    stream
}

#[tokio::test]
async fn a_password_reset_ends_a_watched_request_before_the_next_quote() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (customer_id, customer_token) = customer(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let mut stream = watch(&mut market, &customer_token, &request.id, 0)
        .await
        .unwrap();
    tokio::time::timeout(ENDS_WITHIN, stream.message())
        .await
        .unwrap()
        .unwrap()
        .expect("the snapshot");

    let mut accounts = AccountsClient::new(server.channel().await);
    let (id, email) = (customer_id.to_string(), customer_email(customer_id));
    let role = accounts_pb::Role::Customer;
    reset_password(&server, &mut accounts, role, (&id, &email), "new secret 1").await;
    let reset_at = Instant::now();
    // A quote right after the reset: it must not reach the old session.
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    quote(&mut market, &pro_token, &request.id).await;

    let (delivered, ended) = until_ended(&mut stream, ENDS_WITHIN).await;
    assert_eq!(
        delivered.len(),
        0,
        "delivered after the reset: {delivered:?}"
    );
    assert_status(&ended, Code::Unauthenticated, "SESSION_REVOKED");
    assert!(reset_at.elapsed() < ENDS_WITHIN);
    server.stop().await;
}

#[tokio::test]
async fn a_password_reset_ends_a_professionals_open_requests_before_the_next_one() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (pro_id, pro_token, pro_email) = professional(&server, CALGARY_PRO).await;
    let mut stream = open_requests(&server, pro_id, &pro_token).await;

    let mut accounts = AccountsClient::new(server.channel().await);
    let (id, role) = (pro_id.to_string(), accounts_pb::Role::Professional);
    reset_password(
        &server,
        &mut accounts,
        role,
        (&id, &pro_email),
        "new secret 2",
    )
    .await;
    let reset_at = Instant::now();
    // A request they match, placed right after the reset.
    let (_, customer_token) = customer(&server).await;
    place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();

    let (delivered, ended) = until_ended(&mut stream, ENDS_WITHIN).await;
    assert_eq!(
        delivered.len(),
        0,
        "delivered after the reset: {delivered:?}"
    );
    assert_status(&ended, Code::Unauthenticated, "SESSION_REVOKED");
    assert!(reset_at.elapsed() < ENDS_WITHIN);
    server.stop().await;
}

#[tokio::test]
async fn a_denied_professionals_open_requests_end_within_seconds() {
    let server = TestServer::start().await;
    let (pro_id, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let mut stream = open_requests(&server, pro_id, &pro_token).await;
    let (_, admin_token) = server.account_token(Role::Admin).await;

    AccountsClient::new(server.channel().await)
        .deny_professional(with_token(
            accounts_pb::DenyProfessionalRequest {
                id: pro_id.to_string(),
                reason: "The licence is not theirs".into(),
            },
            &admin_token,
        ))
        .await
        .unwrap();
    let denied_at = Instant::now();

    // Nothing happens on the stream meanwhile: the periodic check alone ends it.
    let (delivered, ended) = until_ended(&mut stream, ENDS_WITHIN).await;
    assert_eq!(delivered.len(), 0);
    assert_status(&ended, Code::Unauthenticated, "SESSION_REVOKED");
    assert!(denied_at.elapsed() < ENDS_WITHIN);
    server.stop().await;
}

#[tokio::test]
async fn a_lapsed_membership_ends_the_open_requests_stream() {
    let server = TestServer::start().await;
    let (pro_id, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let mut stream = open_requests(&server, pro_id, &pro_token).await;

    // The membership runs out; the session itself goes on.
    sqlx::query("update professionals set membership_expires_at = now() where id = $1")
        .bind(pro_id)
        .execute(db(&server))
        .await
        .unwrap();
    let lapsed_at = Instant::now();

    let (delivered, ended) = until_ended(&mut stream, ENDS_WITHIN).await;
    assert_eq!(delivered.len(), 0);
    assert_status(&ended, Code::FailedPrecondition, "MEMBERSHIP_INACTIVE");
    assert!(lapsed_at.elapsed() < ENDS_WITHIN);
    server.stop().await;
}

#[tokio::test]
async fn streams_end_when_their_token_expires() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (_, customer_token) = customer(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let (pro_id, _, _) = professional(&server, CALGARY_PRO).await;
    let pro = Caller {
        account_id: pro_id,
        role: Role::Professional,
    };
    let expiring = server.token_expiring_in(pro, Duration::from_secs(3)).await;

    let mut watched = watch(&mut market, &expiring.token, &request.id, 0)
        .await
        .unwrap();
    let mut open = open_requests(&server, pro_id, &expiring.token).await;
    let (delivered, ended) = until_ended(&mut watched, ENDS_WITHIN).await;
    let ended_at = SystemTime::now();
    assert_eq!(delivered.len(), 1, "the snapshot only");
    assert_status(&ended, Code::Unauthenticated, "SESSION_EXPIRED");
    // At the expiry, not before it and not long after.
    assert!(ended_at >= expiring.expires_at, "ended before the expiry");
    assert!(
        ended_at.duration_since(expiring.expires_at).unwrap() < Duration::from_secs(1),
        "ended long after the expiry"
    );
    let (delivered, ended) = until_ended(&mut open, Duration::from_secs(1)).await;
    assert_eq!(delivered.len(), 0);
    assert_status(&ended, Code::Unauthenticated, "SESSION_EXPIRED");
    server.stop().await;
}

/// A conversation watched by its customer: a password reset ends the stream before the
/// professional's next message, and the professional's own stream ends at its token's
/// expiry.
#[tokio::test]
async fn a_watched_conversation_ends_with_its_session() {
    use repairs_proto::marketplace as pb;
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (customer_id, customer_token) = customer(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let (pro_id, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let watch_as = |token: &str, professional_id: String| {
        let request = pb::WatchConversationRequest {
            repair_request_id: request.id.clone(),
            professional_id,
            after_sequence: 0,
        };
        let mut market = market.clone();
        let request = with_token(request, token);
        async move {
            market
                .watch_conversation(request)
                .await
                .unwrap()
                .into_inner()
        }
    };
    let mut customers = watch_as(&customer_token, pro_id.to_string()).await;
    let pro = Caller {
        account_id: pro_id,
        role: Role::Professional,
    };
    let expiring = server.token_expiring_in(pro, Duration::from_secs(3)).await;
    let mut pros = watch_as(&expiring.token, String::new()).await;

    let mut accounts = AccountsClient::new(server.channel().await);
    let (id, email) = (customer_id.to_string(), customer_email(customer_id));
    let role = accounts_pb::Role::Customer;
    reset_password(&server, &mut accounts, role, (&id, &email), "new secret 1").await;
    let reset_at = Instant::now();
    // A message right after the reset: it must not reach the old session.
    let said = pb::SendMessageRequest {
        repair_request_id: request.id.clone(),
        text: "Is the valve accessible?".into(),
        request_id: Uuid::now_v7().to_string(),
        ..Default::default()
    };
    market
        .send_message(with_token(said, &pro_token))
        .await
        .unwrap();
    let (delivered, ended) = until_ended(&mut customers, ENDS_WITHIN).await;
    assert_eq!(
        delivered.len(),
        0,
        "delivered after the reset: {delivered:?}"
    );
    assert_status(&ended, Code::Unauthenticated, "SESSION_REVOKED");
    assert!(reset_at.elapsed() < ENDS_WITHIN);

    let (delivered, ended) = until_ended(&mut pros, ENDS_WITHIN).await;
    assert_eq!(delivered.len(), 1, "their own message, then the end");
    assert_status(&ended, Code::Unauthenticated, "SESSION_EXPIRED");
    assert!(
        SystemTime::now() >= expiring.expires_at,
        "ended before the expiry"
    );
    server.stop().await;
}
