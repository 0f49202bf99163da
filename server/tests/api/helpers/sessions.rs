//! What the session tests share: sign-ins that return the whole session, renewals, and
//! reading one's own account with an access token.

use repairs_proto::accounts as pb;
use tonic::Code;

use super::{AccountsClient, TEST_PASSWORD, reason, with_token};

/// Signs in with [`TEST_PASSWORD`] and returns the session.
pub async fn sign_in(client: &mut AccountsClient, role: pb::Role, email: &str) -> pb::Session {
    super::log_in(client, role, email, TEST_PASSWORD)
        .await
        .expect("sign-in")
        .session
        .expect("a session")
}

/// Trades a refresh token for the next session.
pub async fn refresh(
    client: &mut AccountsClient,
    refresh_token: &str,
) -> Result<pb::Session, tonic::Status> {
    client
        .refresh_session(pb::RefreshSessionRequest {
            refresh_token: refresh_token.into(),
        })
        .await
        .map(|reply| reply.into_inner().session.expect("a session"))
}

/// Reads the customer's own record with `token`.
pub async fn read_customer(
    client: &mut AccountsClient,
    id: &str,
    token: &str,
) -> Result<(), tonic::Status> {
    client
        .get_customer(with_token(pb::GetCustomerRequest { id: id.into() }, token))
        .await
        .map(drop)
}

/// Reads the professional's own record with `token`.
pub async fn read_professional(
    client: &mut AccountsClient,
    id: &str,
    token: &str,
) -> Result<(), tonic::Status> {
    client
        .get_professional(with_token(
            pb::GetProfessionalRequest { id: id.into() },
            token,
        ))
        .await
        .map(drop)
}

/// The call was refused UNAUTHENTICATED with `expected` as its reason.
pub fn assert_refused<T: std::fmt::Debug>(result: Result<T, tonic::Status>, expected: &str) {
    let status = result.expect_err("the call must be refused");
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::Unauthenticated, expected),
        "{status:?}"
    );
}
