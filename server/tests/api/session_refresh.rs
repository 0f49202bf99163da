//! Sessions that last: every sign-in gives a refresh token, RefreshSession trades it once for
//! a new session of the same sign-in (no bearer token needed), a token sent twice ends the
//! whole sign-in, the sign-in ends for good 30 days after it began (8 hours for an admin), and
//! SignOut ends it at once.

use std::time::Duration;

use crate::helpers::{
    self, AccountsClient, TestServer, admin_token, reason,
    sessions::{assert_refused, read_customer, refresh, sign_in},
    violated_fields, with_token,
};
use repairs_proto::accounts as pb;
use repairs_server::{auth::Caller, domain::Role};
use tokio::task::JoinSet;
use tonic::Code;

async fn sign_out(client: &mut AccountsClient, refresh_token: &str) -> Result<(), tonic::Status> {
    client
        .sign_out(pb::SignOutRequest {
            refresh_token: refresh_token.into(),
            push_endpoint: String::new(),
        })
        .await
        .map(drop)
}

/// Seconds from now until `time`.
fn seconds_until(time: Option<&prost_types::Timestamp>) -> i64 {
    time.expect("a time").seconds - chrono::Utc::now().timestamp()
}

#[tokio::test]
async fn a_refresh_token_is_traded_once_for_the_next_session_of_the_sign_in() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let account = helpers::sign_up(&mut client, pb::Role::Customer, "ren@example.ca").await;
    assert_eq!(account.refresh.len(), 43, "{:?}", account.refresh);

    let first = sign_in(&mut client, pb::Role::Customer, "ren@example.ca").await;
    // The access token lives its hour, the sign-in 30 days.
    assert!((3590..=3600).contains(&seconds_until(first.expire_time.as_ref())));
    let thirty_days = 30 * 24 * 3600;
    let left = seconds_until(first.refresh_expires_at.as_ref());
    assert!((thirty_days - 10..=thirty_days).contains(&left), "{left}");
    assert_ne!(
        first.refresh_token, account.refresh,
        "one family per sign-in"
    );

    let second = refresh(&mut client, &first.refresh_token).await.unwrap();
    assert_eq!(second.account_id, account.id);
    assert_eq!(second.role, pb::Role::Customer as i32);
    assert_ne!(second.refresh_token, first.refresh_token);
    assert_eq!(second.refresh_expires_at, first.refresh_expires_at);
    read_customer(&mut client, &account.id, &second.access_token)
        .await
        .unwrap();
    // The new token renews again; the chain goes on.
    let third = refresh(&mut client, &second.refresh_token).await.unwrap();
    read_customer(&mut client, &account.id, &third.access_token)
        .await
        .unwrap();

    // Only hashes are kept.
    let stored: Vec<(Vec<u8>,)> = sqlx::query_as("select token_hash from refresh_tokens")
        .fetch_all(&server.server.state.db)
        .await
        .unwrap();
    assert_eq!(stored.len(), 4, "sign-up, sign-in and two renewals");
    assert!(
        stored
            .iter()
            .all(|(hash,)| hash.len() == 32 && hash.as_slice() != third.refresh_token.as_bytes())
    );
    server.stop().await;
}

#[tokio::test]
async fn a_spent_token_sent_again_ends_the_whole_sign_in() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let account = helpers::sign_up(&mut client, pb::Role::Professional, "reuse@example.ca").await;
    let other = sign_in(&mut client, pb::Role::Professional, "reuse@example.ca").await;

    let renewed = refresh(&mut client, &account.refresh).await.unwrap();
    assert_refused(
        refresh(&mut client, &account.refresh).await,
        "SESSION_REVOKED",
    );
    // Whoever held the newer token loses it too: the family is over.
    assert_refused(
        refresh(&mut client, &renewed.refresh_token).await,
        "SESSION_REVOKED",
    );
    // Another sign-in of the same account goes on.
    refresh(&mut client, &other.refresh_token).await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn of_many_renewals_with_one_token_at_once_exactly_one_wins() {
    const CALLS: usize = 8;
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let account = helpers::sign_up(&mut client, pb::Role::Customer, "race@example.ca").await;

    let mut calls = JoinSet::new();
    for _ in 0..CALLS {
        let mut client = client.clone();
        let token = account.refresh.clone();
        calls.spawn(async move { refresh(&mut client, &token).await });
    }
    let answers = tokio::time::timeout(Duration::from_secs(30), calls.join_all())
        .await
        .expect("the renewals answer within 30 s");
    let won: Vec<&pb::Session> = answers.iter().filter_map(|a| a.as_ref().ok()).collect();
    assert_eq!(won.len(), 1, "{answers:?}");
    for lost in answers.iter().filter_map(|a| a.as_ref().err()) {
        assert_eq!(
            (lost.code(), reason(lost).as_str()),
            (Code::Unauthenticated, "SESSION_REVOKED"),
            "{lost:?}"
        );
    }
    // The token was sent more than once: the sign-in ended, the winner's token with it.
    assert_refused(
        refresh(&mut client, &won[0].refresh_token).await,
        "SESSION_REVOKED",
    );
    let spent: (i64,) =
        sqlx::query_as("select count(*) from refresh_tokens where used_at is not null")
            .fetch_one(&server.server.state.db)
            .await
            .unwrap();
    assert_eq!(spent.0, 1);
    server.stop().await;
}

#[tokio::test]
async fn a_sign_in_can_be_renewed_for_thirty_days_and_no_longer() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let account = helpers::sign_up(&mut client, pb::Role::Customer, "old@example.ca").await;
    let db = &server.server.state.db;

    // Ten minutes before its end, a renewal gives an access token that ends with it.
    sqlx::query("update session_families set expires_at = now() + interval '10 minutes'")
        .execute(db)
        .await
        .unwrap();
    let late = refresh(&mut client, &account.refresh).await.unwrap();
    assert!((590..=600).contains(&seconds_until(late.expire_time.as_ref())));
    assert_eq!(
        late.expire_time.unwrap().seconds,
        late.refresh_expires_at.unwrap().seconds
    );

    // Thirty days after the sign-in (its end set back to the sign-in's own rule).
    sqlx::query(
        "update session_families set created_at = created_at - interval '30 days',
             expires_at = created_at - interval '30 days' + interval '30 days'",
    )
    .execute(db)
    .await
    .unwrap();
    assert_refused(
        refresh(&mut client, &late.refresh_token).await,
        "SESSION_TOO_OLD",
    );
    // Refused, not spent: it is refused the same way again (not as a reuse).
    assert_refused(
        refresh(&mut client, &late.refresh_token).await,
        "SESSION_TOO_OLD",
    );
    server.stop().await;
}

#[tokio::test]
async fn an_admins_sign_in_lasts_the_admin_session() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    admin_token(&server, &mut client).await;
    let session = helpers::log_in(
        &mut client,
        pb::Role::Admin,
        "admin@example.ca",
        "admin password",
    )
    .await
    .unwrap()
    .session
    .unwrap();
    let eight_hours = 8 * 3600;
    let left = seconds_until(session.refresh_expires_at.as_ref());
    assert!((eight_hours - 10..=eight_hours).contains(&left), "{left}");
    assert_eq!(
        session.expire_time.unwrap().seconds,
        session.refresh_expires_at.unwrap().seconds
    );
    let renewed = refresh(&mut client, &session.refresh_token).await.unwrap();
    assert_eq!(renewed.role, pb::Role::Admin as i32);
    assert_eq!(renewed.refresh_expires_at, session.refresh_expires_at);
    server.stop().await;
}

#[tokio::test]
async fn signing_out_ends_the_sign_in_and_only_it() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let account = helpers::sign_up(&mut client, pb::Role::Customer, "out@example.ca").await;
    let other = sign_in(&mut client, pb::Role::Customer, "out@example.ca").await;

    sign_out(&mut client, &account.refresh).await.unwrap();
    assert_refused(
        refresh(&mut client, &account.refresh).await,
        "SESSION_REVOKED",
    );
    // Signing out again, or a token nobody knows: nothing left to end, and no error.
    sign_out(&mut client, &account.refresh).await.unwrap();
    sign_out(&mut client, &"A".repeat(43)).await.unwrap();
    refresh(&mut client, &other.refresh_token).await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn renewing_needs_no_bearer_token_and_an_expired_one_does_not_stand_in_the_way() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let account = helpers::sign_up(&mut client, pb::Role::Customer, "late@example.ca").await;
    let caller = Caller {
        account_id: account.id.parse().unwrap(),
        role: Role::Customer,
    };
    let two_hours_ago = std::time::SystemTime::now() - Duration::from_secs(7200);
    let expired = server
        .server
        .state
        .tokens
        .issue_at(caller, 0, two_hours_ago)
        .unwrap();
    assert_refused(
        read_customer(&mut client, &account.id, &expired.token).await,
        "SESSION_EXPIRED",
    );
    let renewed = client
        .refresh_session(with_token(
            pb::RefreshSessionRequest {
                refresh_token: account.refresh.clone(),
            },
            &expired.token,
        ))
        .await
        .unwrap()
        .into_inner()
        .session
        .unwrap();
    read_customer(&mut client, &account.id, &renewed.access_token)
        .await
        .unwrap();
    // An unknown token of the right shape is refused as unknown.
    assert_refused(
        refresh(&mut client, &"x".repeat(43)).await,
        "SESSION_INVALID",
    );
    server.stop().await;
}

#[tokio::test]
async fn what_is_not_a_refresh_token_is_refused_as_invalid_input() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let too_short = "a".repeat(42);
    let too_long = "a".repeat(44);
    let over_the_text_bound = "a".repeat(2_000);
    for bad in [
        "",
        too_short.as_str(),
        too_long.as_str(),
        "a b",
        &over_the_text_bound,
    ] {
        let refused = refresh(&mut client, bad).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{bad:.10}");
        assert_eq!(violated_fields(&refused), ["refresh_token"], "{bad:.10}");
        let refused = sign_out(&mut client, bad).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{bad:.10}");
        assert_eq!(violated_fields(&refused), ["refresh_token"], "{bad:.10}");
    }
    let huge = "a".repeat(100 * 1024);
    for refused in [
        refresh(&mut client, &huge).await.unwrap_err(),
        sign_out(&mut client, &huge).await.unwrap_err(),
    ] {
        assert_eq!(
            (refused.code(), reason(&refused).as_str()),
            (Code::ResourceExhausted, "REQUEST_TOO_LARGE")
        );
    }
    server.stop().await;
}
